package io.tablesql.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tablesql.catalog.IndexDefinition.IndexColumn;
import io.tablesql.keys.KeyLayout;
import io.tablesql.keys.KeyLayout.KeyColumn;
import io.tablesql.store.EdmType;
import java.util.ArrayList;
import java.util.List;

/**
 * A materialized view that copies (ARCHITECTURE.md, "Derived data"): the selected columns of the
 * rows of one table that meet its condition, kept by tablesql under the view's own key in an
 * Azure table of its own. Its base table's definition lists it (catalog format 5). Each entity
 * names the base row it copies in properties {@value IndexDefinition#ROW_PARTITION_KEY} and
 * {@value IndexDefinition#ROW_ROW_KEY}.
 *
 * @param columns    the base table's columns it holds, in the view's column order
 * @param partition  the view key's partition columns
 * @param row        the view key's row columns
 * @param condition  the WHERE of its query as SQL text, or null
 * @param query      its query as written (for the catalog's readers and later rewriting)
 * @param table      the Azure table holding its entities
 * @param ready      false while it is built: writes keep it, queries do not see it
 * @param resumeFrom while building, the (PartitionKey, RowKey) of the base row the build goes on from
 */
public record MaterializedViewDefinition(String name, List<String> columns, List<IndexColumn> partition,
    List<IndexColumn> row, String condition, String query, String table, boolean ready, List<String> resumeFrom) {

  public MaterializedViewDefinition {
    columns = List.copyOf(columns);
    partition = List.copyOf(partition);
    row = List.copyOf(row);
    resumeFrom = resumeFrom == null ? null : List.copyOf(resumeFrom);
  }

  public MaterializedViewDefinition withState(boolean nowReady, List<String> nowResumeFrom) {
    return new MaterializedViewDefinition(name, columns, partition, row, condition, query, table, nowReady,
        nowResumeFrom);
  }

  /**
   * The view's entities as a declared table: the columns with the base table's types (its key
   * columns NOT NULL), keyed by the view's key in tablesql's encoding. Queries read the view
   * through it like any declared table.
   */
  public TableDefinition entries(TableDefinition base) {
    List<Column> viewColumns = new ArrayList<>();
    List<String> keyNames = new ArrayList<>();
    partition.forEach(c -> keyNames.add(c.column()));
    row.forEach(c -> keyNames.add(c.column()));
    for (String name : columns) {
      Column column = base.column(name);
      viewColumns.add(Column.declared(column.name(), column.sqlType(), column.singleEdmType() == EdmType.GUID,
          column.precision(), column.scale(), column.nullable() && !keyNames.contains(name)));
    }
    return new TableDefinition(name, table, viewColumns, new KeyLayout(keys(viewColumns, partition),
        keys(viewColumns, row)));
  }

  private static List<KeyColumn> keys(List<Column> columns, List<IndexColumn> named) {
    List<KeyColumn> keys = new ArrayList<>();
    for (IndexColumn key : named) {
      Column column = columns.stream().filter(c -> c.name().equals(key.column())).findFirst().orElseThrow();
      keys.add(TableDefinition.keyColumn(column, key.descending()));
    }
    return keys;
  }

  void write(ObjectNode node) {
    node.put("name", name);
    node.put("kind", "copy");
    node.put("table", table);
    node.put("query", query);
    if (condition != null) {
      node.put("condition", condition);
    }
    columns.forEach(node.withArray("columns")::add);
    for (IndexColumn column : partition) {
      node.withArray("partitionKey").addObject().put("column", column.column()).put("descending", column.descending());
    }
    for (IndexColumn column : row) {
      node.withArray("rowKey").addObject().put("column", column.column()).put("descending", column.descending());
    }
    node.put("state", ready ? "ready" : "building");
    if (resumeFrom != null) {
      resumeFrom.forEach(node.withArray("resumeFrom")::add);
    }
  }

  static MaterializedViewDefinition read(JsonNode node) {
    if (!"copy".equals(node.path("kind").asText())) {
      throw new IllegalArgumentException("materialized view " + node.path("name").asText() + " is of kind '"
          + node.path("kind").asText() + "', which this driver does not know; use a newer tablesql");
    }
    List<String> columns = new ArrayList<>();
    node.path("columns").forEach(column -> columns.add(column.asText()));
    List<String> resume = null;
    if (node.path("resumeFrom").isArray()) {
      resume = new ArrayList<>();
      for (JsonNode key : node.path("resumeFrom")) {
        resume.add(key.asText());
      }
    }
    return new MaterializedViewDefinition(node.path("name").asText(), columns, keyColumns(node.path("partitionKey")),
        keyColumns(node.path("rowKey")), node.path("condition").isTextual() ? node.path("condition").asText() : null,
        node.path("query").asText(), node.path("table").asText(), "ready".equals(node.path("state").asText()), resume);
  }

  private static List<IndexColumn> keyColumns(JsonNode nodes) {
    List<IndexColumn> keys = new ArrayList<>();
    for (JsonNode key : nodes) {
      keys.add(new IndexColumn(key.path("column").asText(), key.path("descending").asBoolean()));
    }
    return keys;
  }
}
