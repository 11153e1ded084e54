package io.tablesql.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tablesql.keys.EncodedKey;
import io.tablesql.keys.KeyEncoding;
import io.tablesql.keys.KeyLayout.KeyColumn;
import io.tablesql.keys.KeyLayout;
import io.tablesql.keys.PrefixedKey;
import io.tablesql.keys.TemplateKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * A secondary index of a declared table, as its table's definition in the catalog lists it (see
 * docs/architecture/indexes.md, "Secondary indexes"). One entry per row whose indexed columns are all
 * non-NULL, naming the row in properties {@value #ROW_PARTITION_KEY} and {@value #ROW_ROW_KEY}:
 * <ul>
 *   <li>global: in an Azure table of its own, PartitionKey the indexed values in the key
 *       encoding, RowKey the row's PartitionKey and RowKey encoded (empty for a UNIQUE index, so
 *       that a second entry of the same values cannot be stored);</li>
 *   <li>local: in the row's own table and partition, RowKey {@code prefix} (above every encoded
 *       RowKey) followed by the indexed values and the row's RowKey encoded, holding the indexed
 *       and included columns' values, written in the same entity group transaction as the row.</li>
 * </ul>
 *
 * @param include    columns whose values the entries hold as well, to answer queries without
 *                   reading the rows (a global index's only once verified, see {@link #VERIFIED})
 * @param table      the Azure table holding the entries
 * @param prefix     the RowKey prefix of a local index's entries; null for a global or adopted index
 * @param adoptedRowKey the RowKey template of the entities an application keeps as this local
 *                   index's entries (adopted: copies of the row in its partition, see docs/architecture/indexes.md,
 *                   "Adopted index entities"); null for tablesql's own entries
 * @param ready      false while the index is built: writes maintain it, queries do not use it yet
 * @param resumeFrom while building, the (PartitionKey, RowKey) of the base row the build goes on
 *                   from, or null
 * @param verifiedBuild while building (a covering global index that is not UNIQUE, since its
 *                   creation): the build inserts its entries verified, and writers keep the old
 *                   entries of rows they change as unverified placeholders
 *                   ({@link #keepsPlaceholders}; docs/architecture/indexes.md, "Covering global indexes";
 *                   catalog format 11)
 */
public record IndexDefinition(String name, List<IndexColumn> columns, List<String> include, boolean unique,
    String table, String prefix, String adoptedRowKey, boolean ready, List<String> resumeFrom,
    boolean verifiedBuild) {
  public static final String ROW_PARTITION_KEY = "TablesqlRowPartitionKey";
  public static final String ROW_ROW_KEY = "TablesqlRowRowKey";
  /**
   * On a UNIQUE index's entry taken over for a value that moves between two rows of one entity
   * group transaction: the keys of the row that held the value until that group is written. A
   * reader that finds the named row without the value (the group not written yet, or never: its
   * writer died) reads this row instead, which then holds it as committed.
   */
  public static final String HELD_BY_PARTITION_KEY = "TablesqlHeldByPartitionKey";
  public static final String HELD_BY_ROW_KEY = "TablesqlHeldByRowKey";
  /**
   * On the entries of a covering global index: true once the entry is known to hold its row's
   * values as committed (see docs/architecture/indexes.md, "Covering global indexes"); absent or false, a
   * read checks the row.
   */
  public static final String VERIFIED = "TablesqlVerified";
  /** Starts the RowKeys of local index entries: above {@code ~}, the key encoding's largest character. */
  public static final char LOCAL_MARK = '\u00A7';

  /** One indexed column and its direction. */
  public record IndexColumn(String column, boolean descending) {
  }

  public IndexDefinition {
    columns = List.copyOf(columns);
    include = List.copyOf(include);
    resumeFrom = resumeFrom == null ? null : List.copyOf(resumeFrom);
  }

  public boolean local() {
    return prefix != null || adoptedRowKey != null;
  }

  /**
   * Whether this is a global index with INCLUDE: its entries hold the indexed and included values
   * and say whether they are verified ({@link #VERIFIED}).
   */
  public boolean coveringGlobal() {
    return !local() && !include.isEmpty();
  }

  /** Whether the entries hold the row's indexed and included values (a local or covering global index). */
  public boolean holdsValues() {
    return local() || coveringGlobal();
  }

  /** Whether the entries are an application's own entities, adopted (see {@link #adoptedRowKey}). */
  public boolean adopted() {
    return adoptedRowKey != null;
  }

  public IndexDefinition withState(boolean nowReady, List<String> nowResumeFrom) {
    return new IndexDefinition(name, columns, include, unique, table, prefix, adoptedRowKey, nowReady, nowResumeFrom,
        verifiedBuild && !nowReady);
  }

  /**
   * A new index, to be built with its entries verified at once if it is a covering global index
   * that is not UNIQUE (a UNIQUE entry may name another row, so no placeholder can stand for it).
   */
  public IndexDefinition builtVerifiedIfItCan() {
    return new IndexDefinition(name, columns, include, unique, table, prefix, adoptedRowKey, ready, resumeFrom,
        !ready && coveringGlobal() && !unique);
  }

  /**
   * Whether writers keep a row's old entries as unverified placeholders (an upsert, even of an
   * absent entry; never deleted) rather than mark and delete them: while a build inserts entries
   * verified, so that an insert from a row read before a write finds the entry and stays unverified.
   */
  public boolean keepsPlaceholders() {
    return verifiedBuild && !ready;
  }

  /**
   * The entries' own table definition, which planning and scans read like any declared table's:
   * global, the indexed columns make up the PartitionKey and the row's keys the RowKey; local, the
   * row's partition columns the PartitionKey and the prefix, the indexed columns and the row's
   * RowKey the RowKey.
   */
  public TableDefinition entries(TableDefinition base) {
    if (adopted()) {
      return adoptedEntries(base);
    }
    List<Column> entryColumns = new ArrayList<>();
    List<KeyColumn> indexed = new ArrayList<>();
    if (local()) {
      for (KeyColumn partition : base.layout().partition()) {
        entryColumns.add(notNull(base.column(partition.name())));
      }
    }
    for (IndexColumn column : columns) {
      Column declared = base.column(column.column());
      entryColumns.add(notNull(declared).inPart(1));
      indexed.add(TableDefinition.keyColumn(declared, column.descending()));
    }
    List<KeyColumn> rowKeys = new ArrayList<>();
    for (String name : List.of(ROW_PARTITION_KEY, ROW_ROW_KEY)) {
      entryColumns.add(Column.declared(name, SqlTypeName.VARCHAR, false, -1, -1, false));
      KeyColumn key = new KeyColumn(name, SqlTypeName.VARCHAR, KeyEncoding.Component.ascending(KeyEncoding.KeyType.VARCHAR));
      if (!unique && (!local() || name.equals(ROW_ROW_KEY))) {
        rowKeys.add(key);
      }
    }
    for (String column : include) {
      entryColumns.add(base.column(column).inPart(1));
    }
    KeyLayout layout;
    if (local()) {
      List<KeyColumn> row = new ArrayList<>(indexed);
      row.addAll(rowKeys);
      layout = new KeyLayout(base.layout().partitionFormat(), new PrefixedKey(prefix, new EncodedKey(row)), null);
    } else {
      layout = new KeyLayout(indexed, rowKeys);
    }
    return new TableDefinition(name, table, entryColumns, layout);
  }

  /**
   * An adopted index's entries as a table mapped over the application's entities: the row's
   * partition, the adopted RowKey template over the indexed columns, the row's discriminator; as
   * columns every column of the row (the entries are copies), and the row's key fields as the
   * properties the copies hold them in (text, or numbers where the application stores them so).
   */
  private TableDefinition adoptedEntries(TableDefinition base) {
    List<Column> entryColumns = new ArrayList<>();
    for (KeyColumn partition : base.layout().partition()) {
      entryColumns.add(notNull(base.column(partition.name())));
    }
    for (IndexColumn column : columns) {
      entryColumns.add(notNull(base.column(column.column())));
    }
    for (Column column : base.columns()) {
      if (base.shape().keyPosition(column) < 0 && entryColumns.stream().noneMatch(c -> c.name().equals(column.name()))) {
        entryColumns.add(column);
      }
    }
    for (String property : base.layout().keyProperties()) {
      if (entryColumns.stream().noneMatch(c -> c.name().equals(property))) {
        SqlTypeName type = base.layout().numericKeyProperties().contains(property)
            ? base.column(property).sqlType() : SqlTypeName.VARCHAR;
        entryColumns.add(Column.declared(property, type, false, -1, -1, true));
      }
    }
    TemplateKey rowKey = TemplateKey.parse(adoptedRowKey, field -> columns.stream()
        .filter(c -> c.column().equalsIgnoreCase(field)).findFirst()
        .map(c -> TableDefinition.keyColumn(base.column(c.column()), false)).orElse(null));
    KeyLayout layout = new KeyLayout(base.layout().partitionFormat(), rowKey, base.layout().discriminator());
    return new TableDefinition(name, table, entryColumns, layout);
  }

  private static Column notNull(Column column) {
    return Column.declared(column.name(), column.sqlType(), column.singleEdmType() == io.tablesql.store.EdmType.GUID,
        column.precision(), column.scale(), false);
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
    if (adopted()) {
      return new String[] {rowPartitionKey, layout.rowKey(indexed)};
    }
    if (local()) {
      indexed.add(rowRowKey);
      return new String[] {rowPartitionKey, layout.rowKey(indexed)};
    }
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
    node.put("scope", local() ? "local" : "global");
    if (prefix != null) {
      node.put("rowKeyPrefix", prefix);
    }
    if (adopted()) {
      node.put("adoptedRowKey", adoptedRowKey);
    }
    include.forEach(node.withArray("include")::add);
    node.put("state", ready ? "ready" : "building");
    if (keepsPlaceholders()) {
      node.put("verifiedBuild", true);
    }
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
    List<String> include = new ArrayList<>();
    node.path("include").forEach(column -> include.add(column.asText()));
    String adopted = node.path("adoptedRowKey").isTextual() ? node.path("adoptedRowKey").asText() : null;
    String prefix = "local".equals(node.path("scope").asText()) && adopted == null
        ? node.path("rowKeyPrefix").asText() : null;
    return new IndexDefinition(node.path("name").asText(), columns, include, node.path("unique").asBoolean(),
        node.path("table").asText(), prefix, adopted, "ready".equals(node.path("state").asText()), resume,
        node.path("verifiedBuild").asBoolean());
  }
}
