package io.tablesql.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tablesql.keys.KeyEncoding;
import io.tablesql.keys.KeyLayout;
import io.tablesql.keys.KeyLayout.KeyColumn;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * A secondary index of a declared table, as its table's definition in the catalog lists it (see
 * ARCHITECTURE.md, "Secondary indexes"). Its entries live in their own Azure table: one entity per
 * row whose indexed columns are all non-NULL, PartitionKey the indexed values in the key encoding,
 * RowKey the row's PartitionKey and RowKey encoded (empty for a UNIQUE index, so that a second
 * entry of the same values cannot be stored), properties {@value #ROW_PARTITION_KEY} and
 * {@value #ROW_ROW_KEY} naming the row.
 *
 * @param table      the Azure table holding the entries
 * @param ready      false while the index is built: writes maintain it, queries do not use it yet
 * @param resumeFrom while building, the (PartitionKey, RowKey) of the base row the build goes on
 *                   from, or null
 */
public record IndexDefinition(String name, List<IndexColumn> columns, boolean unique, String table, boolean ready,
    List<String> resumeFrom) {
  public static final String ROW_PARTITION_KEY = "TablesqlRowPartitionKey";
  public static final String ROW_ROW_KEY = "TablesqlRowRowKey";

  /** One indexed column and its direction. */
  public record IndexColumn(String column, boolean descending) {
  }

  public IndexDefinition {
    columns = List.copyOf(columns);
    resumeFrom = resumeFrom == null ? null : List.copyOf(resumeFrom);
  }

  public IndexDefinition withState(boolean nowReady, List<String> nowResumeFrom) {
    return new IndexDefinition(name, columns, unique, table, nowReady, nowResumeFrom);
  }

  /**
   * The entries' own table definition: the indexed columns make up the PartitionKey, the row's
   * keys the RowKey; planning and scans read it like any declared table.
   */
  public TableDefinition entries(TableDefinition base) {
    List<Column> entryColumns = new ArrayList<>();
    List<KeyColumn> partition = new ArrayList<>();
    for (IndexColumn indexed : columns) {
      Column column = base.column(indexed.column());
      entryColumns.add(Column.declared(column.name(), column.sqlType(),
          column.singleEdmType() == io.tablesql.store.EdmType.GUID, column.precision(), column.scale(), false));
      partition.add(TableDefinition.keyColumn(column, indexed.descending()));
    }
    List<KeyColumn> row = new ArrayList<>();
    for (String name : List.of(ROW_PARTITION_KEY, ROW_ROW_KEY)) {
      entryColumns.add(Column.declared(name, SqlTypeName.VARCHAR, false, -1, -1, false));
      if (!unique) {
        row.add(new KeyColumn(name, SqlTypeName.VARCHAR, KeyEncoding.Component.ascending(KeyEncoding.KeyType.VARCHAR)));
      }
    }
    return new TableDefinition(name, table, entryColumns, new KeyLayout(partition, row), List.of());
  }

  /**
   * The key of the entry of a row, or null when an indexed value is NULL (such rows have none).
   *
   * @param values the row's values by column name, in Calcite's representation
   * @throws IllegalArgumentException if a value cannot be part of a key (too long, NaN)
   */
  public String[] entryKey(TableDefinition entries, Map<String, Object> values, String rowPartitionKey,
      String rowRowKey) {
    List<Object> indexed = new ArrayList<>();
    for (IndexColumn column : columns) {
      Object value = values.get(column.column());
      if (value == null) {
        return null;
      }
      indexed.add(value);
    }
    KeyLayout layout = entries.layout();
    return new String[] {layout.partitionKey(indexed),
        unique ? "" : layout.rowKey(List.of(rowPartitionKey, rowRowKey))};
  }

  public String describeColumns() {
    return String.join(", ", columns.stream().map(c -> c.column() + (c.descending() ? " DESC" : "")).toList());
  }

  void write(ObjectNode node) {
    node.put("name", name);
    node.put("unique", unique);
    node.put("table", table);
    node.put("state", ready ? "ready" : "building");
    for (IndexColumn column : columns) {
      node.withArray("columns").addObject().put("column", column.column()).put("descending", column.descending());
    }
    if (resumeFrom != null) {
      resumeFrom.forEach(node.withArray("resumeFrom")::add);
    }
  }

  static IndexDefinition read(JsonNode node) {
    List<IndexColumn> columns = new ArrayList<>();
    for (JsonNode column : node.path("columns")) {
      columns.add(new IndexColumn(column.path("column").asText(), column.path("descending").asBoolean()));
    }
    List<String> resume = null;
    if (node.path("resumeFrom").isArray()) {
      resume = new ArrayList<>();
      for (JsonNode key : node.path("resumeFrom")) {
        resume.add(key.asText());
      }
    }
    return new IndexDefinition(node.path("name").asText(), columns, node.path("unique").asBoolean(),
        node.path("table").asText(), "ready".equals(node.path("state").asText()), resume);
  }
}
