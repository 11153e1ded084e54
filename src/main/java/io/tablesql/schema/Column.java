package io.tablesql.schema;

import io.tablesql.store.EdmType;
import java.time.OffsetDateTime;
import java.util.Base64;
import java.util.EnumSet;
import java.util.Set;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * One column of a table: a property name, the Edm types its values were seen with, and the SQL
 * type that holds all of them. A value of a type the column was not inferred with reads as NULL,
 * exactly as the service treats it in a type-strict comparison, so pushed-down and client-side
 * evaluation agree.
 */
public record Column(String name, SqlTypeName sqlType, Set<EdmType> edmTypes) {
  public static final String PARTITION_KEY = "PartitionKey";
  public static final String ROW_KEY = "RowKey";
  public static final String TIMESTAMP = "Timestamp";

  public static Column of(String name, Set<EdmType> edmTypes) {
    return new Column(name, sqlTypeFor(edmTypes), Set.copyOf(edmTypes));
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

  /** Converts a value from the SDK to Calcite's internal representation of {@link #sqlType}. */
  public Object toInternal(Object value) {
    EdmType type = EdmType.of(value);
    if (type == null || !edmTypes.contains(type)) {
      return null;
    }
    switch (sqlType) {
      case INTEGER:
      case BOOLEAN:
        return value;
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
      case INTEGER: return ((Number) value).intValue();
      case BIGINT: return ((Number) value).longValue();
      case DOUBLE: return ((Number) value).doubleValue();
      case BOOLEAN: return value;
      case TIMESTAMP: return TimestampMillis.toDateTime(((Number) value).longValue());
      case VARBINARY: return ((ByteString) value).getBytes();
      default:
        return singleEdmType() == EdmType.GUID ? java.util.UUID.fromString(value.toString()) : value.toString();
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
