package io.tablesql.keys;

import io.tablesql.keys.KeyEncoding.Component;
import io.tablesql.keys.KeyEncoding.KeyType;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * How the primary key of a declared table makes up its entities' keys: the leading key columns
 * make up the PartitionKey, the others the RowKey, each in a {@link KeyFormat}: tablesql's own
 * encoding (see docs/architecture/tables.md, "Key encoding"; a table with one key column has an empty RowKey),
 * the template of an existing table's keys, or keys made up per row (a table without a primary
 * key). A table sharing its Azure table with entities of other kinds may name a
 * {@link Discriminator}. Values are in Calcite's representation of each column's SQL type.
 *
 * @param discriminator the property and value that mark the table's entities, or null
 * @param keyProperties  the key columns of a mapped table that its entities also hold as
 *                       properties of their names ({@code EmployeeId = '000101'} beside the RowKey
 *                       {@code empid_000101}), written with every row
 * @param numericKeyProperties those of the key properties the application stores as numbers
 *                       ({@code EmployeeId = 101}, an Int32, or an Int64 where the column is a
 *                       BIGINT), learned from its entities when the table was mapped; the others
 *                       hold the field's text as in the key
 */
public record KeyLayout(KeyFormat partitionFormat, KeyFormat rowFormat, Discriminator discriminator,
    List<String> keyProperties, java.util.Set<String> numericKeyProperties) {
  public KeyLayout {
    keyProperties = List.copyOf(keyProperties);
    numericKeyProperties = java.util.Set.copyOf(numericKeyProperties);
  }

  public KeyLayout(KeyFormat partitionFormat, KeyFormat rowFormat, Discriminator discriminator) {
    this(partitionFormat, rowFormat, discriminator, List.of(), java.util.Set.of());
  }

  /**
   * The properties a row with these keys holds for its {@link #keyProperties}: each field's text
   * as in the key, or its number where the application stores it as one.
   */
  public Map<String, Object> keyPropertyValues(String partitionKey, String rowKey) {
    Map<String, Object> values = new java.util.LinkedHashMap<>();
    for (boolean partition : keyProperties.isEmpty() ? new boolean[0] : new boolean[] {true, false}) {
      if (format(partition) instanceof TemplateKey template) {
        List<KeyColumn> fields = template.columns();
        List<String> texts = template.fieldTexts(partition ? partitionKey : rowKey);
        List<Object> decoded = template.decode(partition ? partitionKey : rowKey);
        for (int i = 0; i < fields.size(); i++) {
          String name = fields.get(i).name();
          if (keyProperties.contains(name)) {
            values.put(name, numericKeyProperties.contains(name) ? asStored(fields.get(i), decoded.get(i)) : texts.get(i));
          }
        }
      }
    }
    return values;
  }

  /** A numeric key field as the application stores it: an Int32, or an Int64 for a BIGINT column. */
  private static Object asStored(KeyColumn field, Object value) {
    long number = ((Number) value).longValue();
    return field.sqlType() == SqlTypeName.BIGINT ? (Object) number : (Object) Math.toIntExact(number);
  }

  /**
   * The text of a key field as the key holds it, from a key property's stored value: text as it
   * is, a number (Int32, Int64) as the template writes it; null for a value no key holds.
   */
  public static String fieldTextOf(TemplateKey template, int field, Object stored) {
    if (stored instanceof String text) {
      return text;
    }
    if (!(stored instanceof Integer || stored instanceof Long) || template.columns().get(field).sqlType()
        == SqlTypeName.VARCHAR) {
      return null;
    }
    try {
      return template.fieldText(field, stored);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * Whether an entity is a row of a table of this layout: its keys read by the formats, its
   * discriminator (if any) the table's value. Other kinds of entity may share a mapped table's
   * Azure table.
   */
  public boolean isRow(String partitionKey, String rowKey, Map<String, Object> properties) {
    return decode(partitionKey, rowKey) != null
        && (discriminator == null || discriminator.value().equals(properties.get(discriminator.property())));
  }

  /** The property (a String) whose value marks the entities of a table among others. */
  public record Discriminator(String property, String value) {
  }

  /** One key column: its name, its SQL type and how it is encoded. */
  public record KeyColumn(String name, SqlTypeName sqlType, Component component) {
    public boolean descending() {
      return component.descending();
    }

    /** A value in Calcite's representation as the encoding takes it. */
    Object toKeyValue(Object value) {
      switch (sqlType) {
        case DATE: return LocalDate.ofEpochDay(((Number) value).longValue());
        case TIMESTAMP: return Instant.ofEpochMilli(((Number) value).longValue());
        case VARBINARY: return ((ByteString) value).getBytes();
        case REAL: return ((Number) value).doubleValue();
        default: return component.type() == KeyType.UUID ? UUID.fromString(value.toString()) : value;
      }
    }

    /** A decoded value in Calcite's representation (NULL as null: a summary's group of NULLs). */
    Object fromKeyValue(Object value) {
      if (value == null) {
        return null;
      }
      switch (sqlType) {
        case DATE: return (int) ((LocalDate) value).toEpochDay();
        case TIMESTAMP: return ((Instant) value).toEpochMilli();
        case VARBINARY: return new ByteString((byte[]) value);
        case REAL: return ((Number) value).floatValue();
        default: return component.type() == KeyType.UUID ? value.toString() : value;
      }
    }
  }

  /** A key layout in tablesql's own encoding. */
  public KeyLayout(List<KeyColumn> partition, List<KeyColumn> row) {
    this(new EncodedKey(partition), new EncodedKey(row), null);
  }

  public List<KeyColumn> partition() {
    return partitionFormat.columns();
  }

  public List<KeyColumn> row() {
    return rowFormat.columns();
  }

  /** The key columns in key order: the partition's, then the row's. */
  public List<KeyColumn> columns() {
    List<KeyColumn> all = new ArrayList<>(partition());
    all.addAll(row());
    return all;
  }

  /** Whether the layout is an existing table's: templates, maybe a discriminator, not tablesql's encoding. */
  public boolean isMapped() {
    return partitionFormat instanceof TemplateKey || rowFormat instanceof TemplateKey || discriminator != null;
  }

  /** Whether the driver makes up each row's keys: a table without a primary key. */
  public boolean isGenerated() {
    return partitionFormat.isGenerated();
  }

  /** The PartitionKey of the given leading partition column values (all of them, or a prefix). */
  public String partitionKey(List<?> values) {
    return partitionFormat.encode(values);
  }

  /** The RowKey of the given leading row column values (all of them, or a prefix). */
  public String rowKey(List<?> values) {
    return rowFormat.encode(values);
  }

  /** The format of the PartitionKey or of the RowKey. */
  public KeyFormat format(boolean partition) {
    return partition ? partitionFormat : rowFormat;
  }

  /** Whether the key column of this name holds NULL (a summary's group of NULLs: {@link KeyEncoding}'s NULL). */
  public boolean holdsNull(String column) {
    return columns().stream().anyMatch(key -> key.name().equals(column) && key.component().nullable());
  }

  /** Whether rows come sorted by key column {@code position} once the columns before it are equal. */
  public boolean sortsBy(int position) {
    int partitionColumns = partition().size();
    return position < partitionColumns ? partitionFormat.sortsBy(position)
        : rowFormat.sortsBy(position - partitionColumns);
  }

  /**
   * The key column values of an entity, in key order, or null if its keys are not in this
   * layout's format (an entity of another kind sharing the table).
   */
  public Object[] decode(String partitionKey, String rowKey) {
    try {
      List<Object> partitionValues = partitionFormat.decode(partitionKey);
      List<Object> rowValues = rowFormat.decode(rowKey);
      Object[] values = new Object[partitionValues.size() + rowValues.size()];
      for (int i = 0; i < partitionValues.size(); i++) {
        values[i] = partitionValues.get(i);
      }
      for (int i = 0; i < rowValues.size(); i++) {
        values[partitionValues.size() + i] = rowValues.get(i);
      }
      return values;
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** The encoding's type for a SQL type, or null if a key cannot hold it. */
  public static KeyType keyType(SqlTypeName sqlType, boolean uuid) {
    if (uuid) {
      return KeyType.UUID;
    }
    switch (sqlType) {
      case VARCHAR: case CHAR: return KeyType.VARCHAR;
      case SMALLINT: return KeyType.SMALLINT;
      case INTEGER: return KeyType.INTEGER;
      case BIGINT: return KeyType.BIGINT;
      case DOUBLE: case REAL: case FLOAT: return KeyType.DOUBLE;
      case DECIMAL: return KeyType.DECIMAL;
      case BOOLEAN: return KeyType.BOOLEAN;
      case DATE: return KeyType.DATE;
      case TIMESTAMP: return KeyType.TIMESTAMP;
      case VARBINARY: case BINARY: return KeyType.VARBINARY;
      default: return null;
    }
  }
}
