package io.tablesql.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tablesql.catalog.IndexDefinition.IndexColumn;
import io.tablesql.keys.EncodedKey;
import io.tablesql.keys.KeyLayout;
import io.tablesql.keys.KeyLayout.KeyColumn;
import io.tablesql.store.EdmType;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * A materialized view (docs/architecture/views.md, "Derived data"), kept by tablesql under the view's own
 * key in an Azure table of its own; its base table's definition lists it (catalog format 5).
 * <ul>
 *   <li>A copy: the selected columns of the rows of one table that meet its condition. Each
 *       entity names the base row it copies in properties {@value IndexDefinition#ROW_PARTITION_KEY}
 *       and {@value IndexDefinition#ROW_ROW_KEY}.</li>
 *   <li>A summary: per group of those rows (its key columns are the GROUP BY columns), running
 *       counts and sums ({@link #aggregates}).</li>
 * </ul>
 *
 * @param columns    the view's columns in order: base columns, and a summary's aggregates by name
 * @param partition  the view key's partition columns
 * @param row        the view key's row columns
 * @param condition  the WHERE of its query as SQL text, or null
 * @param query      its query as written (for the catalog's readers and later rewriting)
 * @param table      the Azure table holding its entities
 * @param ready      false while it is built: writes keep it, queries do not see it
 * @param resumeFrom while building, the (PartitionKey, RowKey) of the base row the build goes on from
 * @param nullGroups a summary's group columns that may be NULL: a group of its own, keyed by the
 *                   encoding's NULL (catalog format 10)
 */
public record MaterializedViewDefinition(String name, List<String> columns, List<IndexColumn> partition,
    List<IndexColumn> row, String condition, String query, String table, boolean ready, List<String> resumeFrom,
    List<Aggregate> aggregates, List<String> nullGroups) {

  /**
   * A summary's running aggregate: COUNT(*) (column null), COUNT(column), SUM(column) or
   * AVG(column), under a view column name. An AVG is kept as a SUM is (the running sum and its
   * count of values), its entity's property under the name holding their quotient.
   */
  public record Aggregate(String name, String function, String column) {
    public boolean sum() {
      return "SUM".equals(function);
    }

    public boolean average() {
      return "AVG".equals(function);
    }

    /** Whether it keeps a running sum of the column's values and their count (SUM, AVG). */
    public boolean sums() {
      return sum() || average();
    }
  }

  /** The property a summary entity is told live (some row in its group) or empty by; empty ones are not read. */
  public static final String GROUP_STATE = "TablesqlGroup";
  public static final String LIVE = "live";

  public MaterializedViewDefinition {
    columns = List.copyOf(columns);
    partition = List.copyOf(partition);
    row = List.copyOf(row);
    resumeFrom = resumeFrom == null ? null : List.copyOf(resumeFrom);
    aggregates = List.copyOf(aggregates);
    nullGroups = List.copyOf(nullGroups);
  }

  public MaterializedViewDefinition withState(boolean nowReady, List<String> nowResumeFrom) {
    return new MaterializedViewDefinition(name, columns, partition, row, condition, query, table, nowReady,
        nowResumeFrom, aggregates, nullGroups);
  }

  /** Whether the view keeps counts and sums per group rather than copies of rows. */
  public boolean summary() {
    return !aggregates.isEmpty();
  }

  /** The aggregate of a view column, or null for a base column. */
  public Aggregate aggregate(String column) {
    return aggregates.stream().filter(a -> a.name().equals(column)).findFirst().orElse(null);
  }

  /**
   * The view's entities as a declared table: the columns with the base table's types (its key
   * columns NOT NULL but for {@link #nullGroups}), keyed by the view's key in tablesql's encoding. Queries read the view
   * through it like any declared table.
   */
  public TableDefinition entries(TableDefinition base) {
    List<Column> viewColumns = new ArrayList<>();
    List<String> keyNames = new ArrayList<>();
    partition.forEach(c -> keyNames.add(c.column()));
    row.forEach(c -> keyNames.add(c.column()));
    for (String name : columns) {
      Aggregate aggregate = aggregate(name);
      if (aggregate != null) {
        viewColumns.add(aggregateColumn(aggregate, base));
        continue;
      }
      Column column = base.column(name);
      Column copy = Column.declared(column.name(), column.sqlType(), column.singleEdmType() == EdmType.GUID,
          column.precision(), column.scale(),
          column.nullable() && (!keyNames.contains(name) || nullGroups.contains(name)));
      viewColumns.add(column.large() && !keyNames.contains(name) ? copy.holdingLargeValues() : copy);
    }
    // a summary's empty groups stay (they remember which writes they took) but are never read
    return new TableDefinition(name, table, viewColumns, new KeyLayout(new EncodedKey(keys(viewColumns, partition)),
        new EncodedKey(keys(viewColumns, row)), summary() ? new KeyLayout.Discriminator(GROUP_STATE, LIVE) : null));
  }

  /**
   * A count is a BIGINT; a sum of integers a BIGINT, of decimals a DECIMAL of the column's scale;
   * an average of integers a BIGINT, of decimals a DECIMAL of the column's type, as a query's AVG
   * is (NULL for no values).
   */
  public static Column aggregateColumn(Aggregate aggregate, TableDefinition base) {
    if (!aggregate.sums()) {
      return Column.declared(aggregate.name(), SqlTypeName.BIGINT, false, -1, -1, false);
    }
    Column summed = base.column(aggregate.column());
    if (aggregate.average()) {
      return summed.sqlType() == SqlTypeName.DECIMAL
          ? Column.declared(aggregate.name(), SqlTypeName.DECIMAL, false, summed.precision(), summed.scale(), true)
          : Column.declared(aggregate.name(), SqlTypeName.BIGINT, false, -1, -1, true);
    }
    return summed.sqlType() == SqlTypeName.DECIMAL
        ? Column.declared(aggregate.name(), SqlTypeName.DECIMAL, false, 19, Math.max(0, summed.scale()), true)
        : Column.declared(aggregate.name(), SqlTypeName.BIGINT, false, -1, -1, true);
  }

  private static List<KeyColumn> keys(List<Column> columns, List<IndexColumn> named) {
    List<KeyColumn> keys = new ArrayList<>();
    for (IndexColumn key : named) {
      Column column = columns.stream().filter(c -> c.name().equals(key.column())).findFirst().orElseThrow();
      keys.add(TableDefinition.keyColumn(column, key.descending(), column.nullable()));
    }
    return keys;
  }

  void write(ObjectNode node) {
    node.put("name", name);
    node.put("kind", summary() ? "summary" : "copy");
    for (Aggregate aggregate : aggregates) {
      ObjectNode item = node.withArray("aggregates").addObject().put("name", aggregate.name())
          .put("function", aggregate.function());
      if (aggregate.column() != null) {
        item.put("column", aggregate.column());
      }
    }
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
    nullGroups.forEach(node.withArray("nullGroups")::add);
  }

  static MaterializedViewDefinition read(JsonNode node) {
    String kind = node.path("kind").asText();
    if (!"copy".equals(kind) && !"summary".equals(kind)) {
      throw new IllegalArgumentException("materialized view " + node.path("name").asText() + " is of kind '"
          + node.path("kind").asText() + "', which this driver does not know; use a newer tablesql");
    }
    List<String> columns = texts(node.path("columns"));
    List<String> resume = null;
    if (node.path("resumeFrom").isArray()) {
      resume = new ArrayList<>();
      for (JsonNode key : node.path("resumeFrom")) {
        resume.add(key.asText());
      }
    }
    return new MaterializedViewDefinition(node.path("name").asText(), columns, keyColumns(node.path("partitionKey")),
        keyColumns(node.path("rowKey")), node.path("condition").isTextual() ? node.path("condition").asText() : null,
        node.path("query").asText(), node.path("table").asText(), "ready".equals(node.path("state").asText()), resume,
        aggregates(node.path("aggregates")), texts(node.path("nullGroups")));
  }

  private static List<String> texts(JsonNode nodes) {
    List<String> texts = new ArrayList<>();
    nodes.forEach(node -> texts.add(node.asText()));
    return texts;
  }

  private static List<Aggregate> aggregates(JsonNode nodes) {
    List<Aggregate> aggregates = new ArrayList<>();
    for (JsonNode node : nodes) {
      aggregates.add(new Aggregate(node.path("name").asText(), node.path("function").asText(),
          node.path("column").isTextual() ? node.path("column").asText() : null));
    }
    return aggregates;
  }

  private static List<IndexColumn> keyColumns(JsonNode nodes) {
    List<IndexColumn> keys = new ArrayList<>();
    for (JsonNode key : nodes) {
      keys.add(new IndexColumn(key.path("column").asText(), key.path("descending").asBoolean()));
    }
    return keys;
  }
}
