package io.tablesql.keys;

import io.tablesql.keys.KeyEncoding.Component;
import io.tablesql.keys.KeyEncoding.KeyType;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * How the declared primary key of a table makes up its entities' keys: the leading key columns
 * encode into the PartitionKey, the others into the RowKey (see ARCHITECTURE.md, "Key encoding").
 * A table with one key column has an empty RowKey. Values are in Calcite's representation of
 * each column's SQL type.
 */
public record KeyLayout(List<KeyColumn> partition, List<KeyColumn> row) {

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

    /** A decoded value in Calcite's representation. */
    Object fromKeyValue(Object value) {
      switch (sqlType) {
        case DATE: return (int) ((LocalDate) value).toEpochDay();
        case TIMESTAMP: return ((Instant) value).toEpochMilli();
        case VARBINARY: return new ByteString((byte[]) value);
        case REAL: return ((Number) value).floatValue();
        default: return component.type() == KeyType.UUID ? value.toString() : value;
      }
    }
  }

  public KeyLayout {
    partition = List.copyOf(partition);
    row = List.copyOf(row);
  }

  /** The key columns in key order: the partition's, then the row's. */
  public List<KeyColumn> columns() {
    List<KeyColumn> all = new ArrayList<>(partition);
    all.addAll(row);
    return all;
  }

  /** The PartitionKey of the given leading partition column values (all of them, or a prefix). */
  public String partitionKey(List<?> values) {
    return KeyEncoding.encode(components(partition), keyValues(partition, values));
  }

  /** The RowKey of the given leading row column values (all of them, or a prefix). */
  public String rowKey(List<?> values) {
    return KeyEncoding.encode(components(row), keyValues(row, values));
  }

  /**
   * The key column values of an entity, in key order, or null if its keys are not in this
   * layout's format (an entity of another kind sharing the table).
   */
  public Object[] decode(String partitionKey, String rowKey) {
    try {
      List<Object> partitionValues = KeyEncoding.decode(components(partition), partitionKey);
      List<Object> rowValues = KeyEncoding.decode(components(row), rowKey);
      Object[] values = new Object[partition.size() + row.size()];
      for (int i = 0; i < partition.size(); i++) {
        values[i] = partition.get(i).fromKeyValue(partitionValues.get(i));
      }
      for (int i = 0; i < row.size(); i++) {
        values[partition.size() + i] = row.get(i).fromKeyValue(rowValues.get(i));
      }
      return values;
    } catch (RuntimeException e) {
      return null;
    }
  }

  private static List<Component> components(List<KeyColumn> columns) {
    return columns.stream().map(KeyColumn::component).toList();
  }

  private static List<Object> keyValues(List<KeyColumn> columns, List<?> values) {
    List<Object> converted = new ArrayList<>(values.size());
    for (int i = 0; i < values.size(); i++) {
      Object value = values.get(i);
      converted.add(value == null ? null : columns.get(i).toKeyValue(value));
    }
    return converted;
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
