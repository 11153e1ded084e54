package io.tablesql.catalog;

import io.tablesql.errors.SqlStates;
import io.tablesql.store.EdmType;
import java.time.OffsetDateTime;
import java.util.Base64;
import java.util.EnumSet;
import java.util.Set;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * One column of a table: a property name, the Edm types its values are read from, and the SQL
 * type that holds all of them. In a column inferred from sampled entities, a value of a type the
 * sample did not see reads as NULL, exactly as the service treats it in a type-strict comparison.
 *
 * <p>Columns of declared tables (CREATE TABLE with a PRIMARY KEY, or mapped OVER existing data)
 * have the declared SQL type, stored as one Edm type: SMALLINT as Int32, REAL as Double, DECIMAL
 * as the exact decimal text, DATE as a DateTime at midnight UTC; the others as their natural Edm
 * type. Their type is a promise about the data ({@code declared}): a stored value that does not
 * convert to it (text in a number column, a number out of the column's range) is an
 * {@link UnreadableValue}, never a silent NULL.
 *
 * @param precision the declared precision (DECIMAL), or -1
 * @param scale     the declared scale (DECIMAL), or -1
 * @param nullable  whether the column may be NULL (keys and NOT NULL columns may not)
 * @param declared  whether the type was declared rather than inferred from a sample
 * @param large     whether its values may be longer than one property holds: a declared VARCHAR or
 *                  VARBINARY without a length (or CLOB, BLOB), stored in {@link ValueParts}
 * @param blobs     whether its values may also be longer than the entity holds, kept in Blob storage
 *                  ({@link BlobReference}): large columns of tables created by catalog format 12 on
 * @param referencesBlob whether its property holds the name of a blob an application wrote, whose
 *                  content is the column's value ({@code REFERENCES BLOB}, tables mapped OVER
 *                  existing data): read only, never compared by the service
 * @param part      which entity of its row holds it: 1, or a later part of a wide row ({@link TableDefinition#rowParts})
 */
public record Column(String name, SqlTypeName sqlType, Set<EdmType> edmTypes, int precision, int scale,
    boolean nullable, boolean declared, boolean large, boolean blobs, boolean referencesBlob, int part) {
  public static final String PARTITION_KEY = "PartitionKey";
  public static final String ROW_KEY = "RowKey";
  public static final String TIMESTAMP = "Timestamp";

  private static final long MILLIS_PER_DAY = 86_400_000L;

  /** A column of an Azure table as sampling sees it. */
  public Column(String name, SqlTypeName sqlType, Set<EdmType> edmTypes) {
    this(name, sqlType, edmTypes, -1, -1, !name.equals(PARTITION_KEY) && !name.equals(ROW_KEY), false);
  }

  /** A column whose values each fit one property. */
  public Column(String name, SqlTypeName sqlType, Set<EdmType> edmTypes, int precision, int scale,
      boolean nullable, boolean declared) {
    this(name, sqlType, edmTypes, precision, scale, nullable, declared, false, false, false);
  }

  /** A column held by its row's first entity. */
  public Column(String name, SqlTypeName sqlType, Set<EdmType> edmTypes, int precision, int scale,
      boolean nullable, boolean declared, boolean large, boolean blobs, boolean referencesBlob) {
    this(name, sqlType, edmTypes, precision, scale, nullable, declared, large, blobs, referencesBlob, 1);
  }

  /** This column, held by part {@code part} of a wide row. */
  public Column inPart(int part) {
    return new Column(name, sqlType, edmTypes, precision, scale, nullable, declared, large, blobs, referencesBlob,
        part);
  }

  public static Column of(String name, Set<EdmType> edmTypes) {
    return new Column(name, sqlTypeFor(edmTypes), Set.copyOf(edmTypes));
  }

  /**
   * A declared column of a SQL type, stored as the Edm type that holds it exactly ({@code uuid}
   * for a UUID column, which SQL sees as VARCHAR); null for a type the service cannot hold.
   */
  public static Column declared(String name, SqlTypeName sqlType, boolean uuid, int precision, int scale,
      boolean nullable) {
    EdmType edm = uuid ? EdmType.GUID : storageOf(sqlType);
    if (edm == null) {
      return null;
    }
    SqlTypeName type = uuid || sqlType == SqlTypeName.CHAR ? SqlTypeName.VARCHAR
        : sqlType == SqlTypeName.FLOAT ? SqlTypeName.DOUBLE : sqlType;
    return new Column(name, type, Set.of(edm), type == SqlTypeName.DECIMAL ? precision : -1,
        type == SqlTypeName.DECIMAL ? Math.max(0, scale) : -1, nullable, true);
  }

  /** This declared column, holding values up to what its row's entity holds (text and binary only). */
  public Column holdingLargeValues() {
    if (!canBeLarge()) {
      throw new IllegalArgumentException(name + " is " + describeType() + ", which holds no large values");
    }
    return new Column(name, sqlType, edmTypes, precision, scale, nullable, declared, true, false, false, part);
  }

  /** This declared column, holding values of any length up to {@link BlobReference#MAX_BYTES}: in parts, or in a blob. */
  public Column holdingBlobs() {
    return new Column(name, sqlType, edmTypes, precision, scale, nullable, declared, true, true, false, part)
        .requireLargeType();
  }

  /** This declared column of a mapped table, reading the content of the blob its property names (text or binary only). */
  public Column referencingBlobs() {
    return new Column(name, sqlType, edmTypes, precision, scale, nullable, declared, false, false, true, part)
        .requireLargeType();
  }

  private Column requireLargeType() {
    if (!canBeLarge()) {
      throw new IllegalArgumentException(name + " is " + describeType() + ", which holds no large values");
    }
    return this;
  }

  /** Whether values of its type may be split into parts: text (not a UUID) and binary. */
  public boolean canBeLarge() {
    EdmType edm = singleEdmType();
    return edm == EdmType.STRING && sqlType == SqlTypeName.VARCHAR || edm == EdmType.BINARY;
  }

  private static EdmType storageOf(SqlTypeName sqlType) {
    switch (sqlType) {
      case VARCHAR: case CHAR: case DECIMAL: return EdmType.STRING;
      case SMALLINT: case INTEGER: return EdmType.INT32;
      case BIGINT: return EdmType.INT64;
      case DOUBLE: case FLOAT: case REAL: return EdmType.DOUBLE;
      case BOOLEAN: return EdmType.BOOLEAN;
      case DATE: case TIMESTAMP: return EdmType.DATETIME;
      case VARBINARY: case BINARY: return EdmType.BINARY;
      default: return null;
    }
  }

  /**
   * This column of a table mapped over existing data, reading every stored type that converts
   * exactly to its SQL type, as other writers (or Azurite) store numbers: an integer column reads
   * Int32 and Int64 (in its range), a DECIMAL column Int32 and Int64 besides its text, a DOUBLE
   * column Int32 and Int64. Comparisons on a column of several stored types are left to the
   * client (a {@code $filter} on one type would miss the others).
   */
  public Column readingStoredTypes() {
    Set<EdmType> read = switch (sqlType) {
      case SMALLINT, INTEGER, BIGINT -> Set.of(EdmType.INT64, EdmType.INT32);
      case DECIMAL -> Set.of(EdmType.STRING, EdmType.INT32, EdmType.INT64);
      case DOUBLE -> Set.of(EdmType.DOUBLE, EdmType.INT32, EdmType.INT64);
      default -> null;
    };
    return read == null ? this
        : new Column(name, sqlType, read, precision, scale, nullable, declared, large, blobs, referencesBlob, part);
  }

  /**
   * Whether the service compares this column's stored values as SQL compares the column: true
   * for the SQL types inferred from Edm types, false for those stored in another form (DECIMAL
   * as text, DATE as a DateTime, SMALLINT, REAL).
   */
  public boolean comparableAtService() {
    if (referencesBlob) {
      return false; // the service sees the blob's name, not its content
    }
    if (part > 1) {
      return false; // a query of a wide table's rows reads their first entities: it cannot test a later one's
    }
    switch (sqlType) {
      case SMALLINT: case REAL: case DECIMAL: case DATE: return false;
      default: return true;
    }
  }

  /** The narrowest SQL type holding every value of the given Edm types. */
  static SqlTypeName sqlTypeFor(Set<EdmType> types) {
    if (types.size() == 1) {
      switch (types.iterator().next()) {
        case INT32: return SqlTypeName.INTEGER;
        case INT64: return SqlTypeName.BIGINT;
        case DOUBLE: return SqlTypeName.DOUBLE;
        case BOOLEAN: return SqlTypeName.BOOLEAN;
        case DATETIME: return SqlTypeName.TIMESTAMP;
        case BINARY: return SqlTypeName.VARBINARY;
        default: return SqlTypeName.VARCHAR;
      }
    }
    if (EnumSet.of(EdmType.INT32, EdmType.INT64).containsAll(types)) {
      return SqlTypeName.BIGINT;
    }
    if (EnumSet.of(EdmType.INT32, EdmType.INT64, EdmType.DOUBLE).containsAll(types)) {
      return SqlTypeName.DOUBLE;
    }
    return SqlTypeName.VARCHAR;
  }

  public boolean isKey() {
    return name.equals(PARTITION_KEY) || name.equals(ROW_KEY);
  }

  /**
   * The single Edm type of every value, when there is one: only then can a comparison on this
   * column be sent to the service with SQL's meaning.
   */
  public EdmType singleEdmType() {
    return edmTypes.size() == 1 ? edmTypes.iterator().next() : null;
  }

  /**
   * Converts a value from the SDK to Calcite's internal representation of {@link #sqlType}.
   *
   * @throws UnreadableValue if the column is declared and the value does not convert to its type
   */
  public Object toInternal(Object value) {
    EdmType type = EdmType.of(value);
    if (type == null) {
      return null;
    }
    if (!edmTypes.contains(type)) {
      if (declared) {
        throw new UnreadableValue(type, value, "is not " + describeType(), SqlStates.INVALID_CONVERSION);
      }
      return null;
    }
    switch (sqlType) {
      case BOOLEAN:
        return value;
      case INTEGER:
        return (int) inRange(type, (Number) value, Integer.MIN_VALUE, Integer.MAX_VALUE);
      case SMALLINT:
        return (short) inRange(type, (Number) value, Short.MIN_VALUE, Short.MAX_VALUE);
      case REAL:
        return ((Number) value).floatValue();
      case DECIMAL:
        return decimal(type, value); // its text, or a whole number of a mapped table
      case DATE:
        return (int) Math.floorDiv(TimestampMillis.floor((OffsetDateTime) value), MILLIS_PER_DAY);
      case BIGINT:
        return ((Number) value).longValue();
      case DOUBLE:
        return ((Number) value).doubleValue();
      case TIMESTAMP:
        return TimestampMillis.floor((OffsetDateTime) value);
      case VARBINARY:
        return new ByteString((byte[]) value);
      default:
        return asText(value, type);
    }
  }

  /**
   * Converts a value in Calcite's representation of {@link #sqlType} to the SDK value written:
   * the column's Edm type (a GUID column's text becomes a Guid).
   *
   * @throws IllegalArgumentException if the text of a GUID column is not a GUID
   */
  public Object toSdk(Object value) {
    if (value == null) {
      return null;
    }
    switch (sqlType) {
      case SMALLINT:
      case INTEGER: return ((Number) value).intValue();
      case REAL: return ((Number) value).doubleValue();
      case DECIMAL: return ((java.math.BigDecimal) value).toPlainString();
      case DATE: return TimestampMillis.toDateTime(((Number) value).longValue() * MILLIS_PER_DAY);
      case BIGINT: return ((Number) value).longValue();
      case DOUBLE: return ((Number) value).doubleValue();
      case BOOLEAN: return value;
      case TIMESTAMP: return TimestampMillis.toDateTime(((Number) value).longValue());
      case VARBINARY: return ((ByteString) value).getBytes();
      default:
        return singleEdmType() == EdmType.GUID ? java.util.UUID.fromString(value.toString()) : value.toString();
    }
  }

  /** Decimal text as written, or a whole number of a mapped table. */
  private java.math.BigDecimal decimal(EdmType type, Object stored) {
    try {
      java.math.BigDecimal value = new java.math.BigDecimal(stored.toString());
      return scale >= 0 && value.scale() < scale ? value.setScale(scale) : value;
    } catch (NumberFormatException e) {
      throw new UnreadableValue(type, stored, "is not a decimal number", SqlStates.INVALID_CONVERSION);
    }
  }

  private long inRange(EdmType type, Number value, long min, long max) {
    long number = value.longValue();
    if (number < min || number > max) {
      throw new UnreadableValue(type, value, "is out of the range of " + describeType(), SqlStates.NUMERIC_OUT_OF_RANGE);
    }
    return number;
  }

  /** The column's SQL type as DDL spells it. */
  public String describeType() {
    return sqlType == SqlTypeName.DECIMAL && precision >= 0 ? "DECIMAL(" + precision + ", " + scale + ")"
        : singleEdmType() == EdmType.GUID ? "UUID" : sqlType.getName();
  }

  /**
   * A stored value that a declared column cannot read: another writer stored text in a number
   * column, or a number out of the column's range. The reader names the entity.
   */
  public static final class UnreadableValue extends IllegalArgumentException {
    private final String sqlState;

    UnreadableValue(EdmType type, Object value, String problem, String sqlState) {
      super("holds the Edm." + type.edmName() + " " + shown(value) + ", which " + problem);
      this.sqlState = sqlState;
    }

    UnreadableValue(String problem, String sqlState) {
      super(problem);
      this.sqlState = sqlState;
    }

    public String sqlState() {
      return sqlState;
    }

    /** Enough of the value to find it, never more than a short prefix of long text. */
    private static String shown(Object value) {
      String text = value instanceof byte[] bytes ? bytes.length + " bytes" : value.toString();
      text = text.length() > 40 ? text.substring(0, 40) + "..." : text;
      return value instanceof String ? "'" + text + "'" : text;
    }
  }

  private static String asText(Object value, EdmType type) {
    switch (type) {
      case DATETIME: return ((OffsetDateTime) value).toInstant().toString();
      case BINARY: return Base64.getEncoder().encodeToString((byte[]) value);
      default: return value.toString();
    }
  }
}
