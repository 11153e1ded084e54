package io.tablesql.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tablesql.keys.EncodedKey;
import io.tablesql.keys.GeneratedKey;
import io.tablesql.keys.KeyEncoding;
import io.tablesql.keys.KeyFormat;
import io.tablesql.keys.KeyLayout.KeyColumn;
import io.tablesql.keys.KeyLayout;
import io.tablesql.keys.TemplateKey;
import io.tablesql.store.EdmType;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * A declared table as the catalog keeps it: its SQL name, the Azure table holding its entities,
 * its typed columns, its key layout and its secondary indexes. Stored as JSON in format 1, or
 * {@link #FORMAT} when it has indexes; every later version of the driver reads what an earlier
 * one wrote.
 *
 * @param name          the SQL name, as declared
 * @param physicalTable the Azure table its entities are stored in
 * @param droppedColumns columns dropped by ALTER TABLE whose values the entities still hold, so a
 *                       column of the same name cannot be added back (it would show them)
 */
public record TableDefinition(String name, String physicalTable, List<Column> columns, KeyLayout layout,
    List<IndexDefinition> indexes, List<String> droppedColumns, List<MaterializedViewDefinition> materializedViews) {
  /**
   * The newest catalog format this class reads: 1, table definitions as JSON with keys in
   * {@link KeyEncoding} version 1; 2, the same with secondary indexes. A table without indexes is
   * written in format 1, so that drivers before indexes still read it; one with indexes in format
   * 2, so that they refuse it rather than write rows without their index entries. 3, the same as
   * 2, for a table whose name equals another's ignoring case ({@link Catalog}: it is kept under a
   * catalog key of its own), so that drivers which match names ignoring case refuse the catalog
   * rather than take one table for the other. 4, a mapped table whose rows hold key fields as
   * properties too ({@code keyProperties}), or with an adopted index, so that drivers which would
   * write its rows without them (or without the application's index entities) refuse it. 5, a
   * table with materialized views, so that drivers which would write its rows without keeping
   * them refuse it. 6, a table with a covering global index (INCLUDE), so that drivers which
   * would write its rows without marking the entries' values unverified first refuse it. 7, a
   * mapped table whose key properties hold numbers ({@code numericKeyProperties}), so that drivers
   * which would write them as text refuse it. 8, a table with a summary that keeps an AVG, so that
   * drivers which would keep it as a count refuse it. 9, a table with a column of large values
   * ({@code large}: kept in {@link ValueParts}), so that drivers which would read only a value's
   * first part refuse it. 10, a table with a summary that keeps a group of NULLs (its key holds
   * {@link KeyEncoding}'s NULL), so that drivers which would refuse the base row's write refuse
   * the table instead. 11, a table whose covering global index is being built with its entries
   * verified ({@link IndexDefinition#keepsPlaceholders}), so that drivers which would delete a
   * changed row's old entry (letting the build insert it verified from an older read) refuse it;
   * once the index is ready the table goes back to its earlier format. 12, a table with a column
   * whose values may be kept in Blob storage ({@code blobs}: {@link BlobReference}), so that
   * drivers which would read such a value as its first part refuse it. 13, a mapped table with a
   * column whose property names an application's blob ({@code referencesBlob}), so that drivers
   * which would read the name as the value refuse it. 14, a table of wide rows, kept as several
   * entities each ({@code part} of a column: {@link #rowParts}), so that drivers which would read
   * and write only a row's first entity refuse it.
   */
  public static final int FORMAT = 14;
  /** A table whose rows are kept as several entities each ({@link Column#part}). */
  static final int FORMAT_WITH_ROW_PARTS = 14;
  /** A column reading the application's blob its property names ({@link Column#referencesBlob}). */
  static final int FORMAT_WITH_BLOB_REFERENCES = 13;
  /** A column whose values may be kept in Blob storage ({@link Column#blobs}). */
  static final int FORMAT_WITH_BLOBS = 12;
  /** A covering global index built with verified entries ({@link IndexDefinition#keepsPlaceholders}). */
  static final int FORMAT_WITH_VERIFIED_BUILD = 11;
  /** A summary with a group of NULLs ({@link MaterializedViewDefinition#nullGroups}). */
  static final int FORMAT_WITH_NULL_GROUPS = 10;
  /** The format of a table with a column of large values. */
  static final int FORMAT_WITH_LARGE_VALUES = 9;
  /** The format of a table with a summary keeping an AVG. */
  static final int FORMAT_WITH_AVERAGES = 8;
  /** The format of a mapped table whose entities hold key fields as numbers. */
  static final int FORMAT_WITH_NUMERIC_KEY_PROPERTIES = 7;
  /** The format of a table with a covering global index. */
  static final int FORMAT_WITH_COVERING_GLOBAL_INDEX = 6;
  /** The format of a table with materialized views. */
  static final int FORMAT_WITH_MATERIALIZED_VIEWS = 5;
  /** The format of a mapped table whose rows hold key fields as properties (KEY PROPERTIES). */
  static final int FORMAT_WITH_KEY_PROPERTIES = 4;
  /** The format of a table whose name equals another's ignoring case. */
  static final int FORMAT_OF_CASE_VARIANT = 3;
  private static final int FORMAT_WITH_INDEXES = 2;
  private static final int FORMAT_WITHOUT_INDEXES = 1;
  private static final ObjectMapper JSON = new ObjectMapper();

  public TableDefinition {
    // an existing table's writers may have stored its numbers as other Edm types
    columns = layout.isMapped() ? columns.stream().map(Column::readingStoredTypes).toList() : List.copyOf(columns);
    indexes = List.copyOf(indexes);
    droppedColumns = List.copyOf(droppedColumns);
    materializedViews = List.copyOf(materializedViews);
  }

  public TableDefinition(String name, String physicalTable, List<Column> columns, KeyLayout layout,
      List<IndexDefinition> indexes, List<String> droppedColumns) {
    this(name, physicalTable, columns, layout, indexes, droppedColumns, List.of());
  }

  public TableDefinition(String name, String physicalTable, List<Column> columns, KeyLayout layout) {
    this(name, physicalTable, columns, layout, List.of(), List.of());
  }

  public TableDefinition withIndexes(List<IndexDefinition> newIndexes) {
    return new TableDefinition(name, physicalTable, columns, layout, newIndexes, droppedColumns, materializedViews);
  }

  public TableDefinition withMaterializedViews(List<MaterializedViewDefinition> views) {
    return new TableDefinition(name, physicalTable, columns, layout, indexes, droppedColumns, views);
  }

  /** The materialized view of a name (case-insensitively), or null. */
  public MaterializedViewDefinition materializedView(String viewName) {
    return materializedViews.stream().filter(v -> v.name().equalsIgnoreCase(viewName)).findFirst().orElse(null);
  }

  /** The definition with a column added (ALTER TABLE ... ADD COLUMN). */
  public TableDefinition withColumnAdded(Column column) {
    List<Column> changed = new ArrayList<>(columns);
    changed.add(column);
    return new TableDefinition(name, physicalTable, changed, layout, indexes, droppedColumns, materializedViews);
  }

  /**
   * The definition without a column (ALTER TABLE ... DROP COLUMN). The entities keep its values
   * (no entity is rewritten), so the name is remembered: see {@link #droppedColumns}.
   */
  public TableDefinition withColumnDropped(Column column) {
    List<Column> changed = new ArrayList<>(columns);
    changed.remove(column);
    List<String> dropped = new ArrayList<>(droppedColumns);
    dropped.add(column.name());
    return new TableDefinition(name, physicalTable, changed, layout, indexes, dropped, materializedViews);
  }

  /** The index of a name (case-insensitively), or null. */
  public IndexDefinition index(String indexName) {
    return indexes.stream().filter(i -> i.name().equalsIgnoreCase(indexName)).findFirst().orElse(null);
  }

  /** The column of a name, exactly as declared. */
  public Column column(String columnName) {
    return columns.stream().filter(c -> c.name().equals(columnName)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no column " + columnName + " in " + name));
  }

  /**
   * How its rows are kept when they are wide: as the entities of {@link Column#part}, in the
   * store's terms (every property of a column in a later part, its long values' included); null
   * when each row is one entity.
   */
  public io.tablesql.store.RowParts rowParts() {
    int count = columns.stream().mapToInt(Column::part).max().orElse(1);
    if (count == 1) {
      return null;
    }
    java.util.Map<String, Integer> partOf = new java.util.HashMap<>();
    for (Column column : columns) {
      if (column.part() > 1) {
        partOf.put(column.name(), column.part());
        if (column.large()) {
          ValueParts.extraNames(column.name()).forEach(name -> partOf.put(name, column.part()));
        }
      }
    }
    return new io.tablesql.store.RowParts(count, partOf);
  }

  /** The catalog format its JSON is written in. */
  public int format() {
    if (columns.stream().anyMatch(column -> column.part() > 1)) {
      return FORMAT_WITH_ROW_PARTS;
    }
    if (columns.stream().anyMatch(Column::referencesBlob)) {
      return FORMAT_WITH_BLOB_REFERENCES;
    }
    if (columns.stream().anyMatch(Column::blobs)) {
      return FORMAT_WITH_BLOBS;
    }
    if (indexes.stream().anyMatch(IndexDefinition::keepsPlaceholders)) {
      return FORMAT_WITH_VERIFIED_BUILD;
    }
    if (materializedViews.stream().anyMatch(view -> !view.nullGroups().isEmpty())) {
      return FORMAT_WITH_NULL_GROUPS;
    }
    if (columns.stream().anyMatch(Column::large)) {
      return FORMAT_WITH_LARGE_VALUES;
    }
    if (materializedViews.stream().anyMatch(view -> view.aggregates().stream()
        .anyMatch(MaterializedViewDefinition.Aggregate::average))) {
      return FORMAT_WITH_AVERAGES;
    }
    if (!layout.numericKeyProperties().isEmpty()) {
      return FORMAT_WITH_NUMERIC_KEY_PROPERTIES;
    }
    if (indexes.stream().anyMatch(IndexDefinition::coveringGlobal)) {
      return FORMAT_WITH_COVERING_GLOBAL_INDEX;
    }
    if (!materializedViews.isEmpty()) {
      return FORMAT_WITH_MATERIALIZED_VIEWS;
    }
    if (!layout.keyProperties().isEmpty() || indexes.stream().anyMatch(IndexDefinition::adopted)) {
      return FORMAT_WITH_KEY_PROPERTIES;
    }
    return indexes.isEmpty() ? FORMAT_WITHOUT_INDEXES : FORMAT_WITH_INDEXES;
  }

  public TableShape shape() {
    return TableShape.declared(name, columns, layout);
  }

  public String toJson() {
    return toJson(format());
  }

  /** The definition as JSON of the given catalog format ({@link #format()} or a later one). */
  String toJson(int format) {
    ObjectNode root = JSON.createObjectNode();
    root.put("format", format);
    root.put("keyEncoding", KeyEncoding.VERSION);
    root.put("name", name);
    root.put("table", physicalTable);
    ArrayNode columnNodes = root.putArray("columns");
    for (Column column : columns) {
      ObjectNode node = columnNodes.addObject();
      node.put("name", column.name());
      node.put("type", column.singleEdmType() == EdmType.GUID ? "UUID" : column.sqlType().name());
      if (column.precision() >= 0) {
        node.put("precision", column.precision());
      }
      if (column.scale() >= 0) {
        node.put("scale", column.scale());
      }
      node.put("nullable", column.nullable());
      if (column.large()) {
        node.put("large", true);
      }
      if (column.blobs()) {
        node.put("blobs", true);
      }
      if (column.referencesBlob()) {
        node.put("referencesBlob", true);
      }
      if (column.part() > 1) {
        node.put("part", column.part());
      }
    }
    key(root, "partitionKey", layout.partitionFormat());
    key(root, "rowKey", layout.rowFormat());
    if (layout.discriminator() != null) {
      root.putObject("discriminator").put("property", layout.discriminator().property())
          .put("value", layout.discriminator().value());
    }
    if (!layout.keyProperties().isEmpty()) {
      ArrayNode keyProperties = root.putArray("keyProperties");
      layout.keyProperties().forEach(keyProperties::add);
    }
    if (!layout.numericKeyProperties().isEmpty()) {
      ArrayNode numeric = root.putArray("numericKeyProperties");
      layout.numericKeyProperties().stream().sorted().forEach(numeric::add);
    }
    for (IndexDefinition index : indexes) {
      index.write(root.withArray("indexes").addObject());
    }
    for (MaterializedViewDefinition view : materializedViews) {
      view.write(root.withArray("materializedViews").addObject());
    }
    if (!droppedColumns.isEmpty()) {
      ArrayNode dropped = root.putArray("droppedColumns"); // drivers before ALTER TABLE ignore it
      droppedColumns.forEach(dropped::add);
    }
    return root.toString();
  }

  /** An encoded key as its columns and directions; a template as its text. */
  private static void key(ObjectNode root, String name, KeyFormat format) {
    if (format instanceof TemplateKey template) {
      root.putObject(name).put("template", template.template());
      return;
    }
    if (format instanceof GeneratedKey) {
      root.putObject(name).put("generated", true);
      return;
    }
    ArrayNode nodes = root.putArray(name);
    for (KeyColumn column : format.columns()) {
      nodes.addObject().put("column", column.name()).put("descending", column.descending());
    }
  }

  /**
   * Reads a definition written in any format up to {@link #FORMAT}.
   *
   * @throws IllegalArgumentException for a definition of a later format or a damaged one
   */
  public static TableDefinition fromJson(String text) {
    try {
      JsonNode root = JSON.readTree(text);
      int format = root.path("format").asInt(-1);
      int keyEncoding = root.path("keyEncoding").asInt(-1);
      if (format < 1 || format > FORMAT || keyEncoding < 1 || keyEncoding > KeyEncoding.VERSION) {
        throw new IllegalArgumentException("catalog format " + format + " (key encoding " + keyEncoding
            + ") is newer than this driver reads (" + FORMAT + "); use a newer tablesql");
      }
      List<Column> columns = new ArrayList<>();
      for (JsonNode node : root.path("columns")) {
        String type = node.path("type").asText();
        boolean uuid = type.equals("UUID");
        Column column = Column.declared(node.path("name").asText(), uuid ? SqlTypeName.VARCHAR
            : SqlTypeName.valueOf(type), uuid, node.path("precision").asInt(-1), node.path("scale").asInt(-1),
            node.path("nullable").asBoolean());
        column = node.path("referencesBlob").asBoolean() ? column.referencingBlobs()
            : node.path("blobs").asBoolean() ? column.holdingBlobs()
            : node.path("large").asBoolean() ? column.holdingLargeValues() : column;
        columns.add(node.has("part") ? column.inPart(node.path("part").asInt()) : column);
      }
      JsonNode discriminator = root.path("discriminator");
      List<String> keyProperties = new ArrayList<>();
      root.path("keyProperties").forEach(node -> keyProperties.add(node.asText()));
      java.util.Set<String> numericKeyProperties = new java.util.HashSet<>();
      root.path("numericKeyProperties").forEach(node -> numericKeyProperties.add(node.asText()));
      KeyLayout layout = new KeyLayout(key(root.path("partitionKey"), columns),
          key(root.path("rowKey"), columns),
          discriminator.isObject() ? new KeyLayout.Discriminator(discriminator.path("property").asText(),
              discriminator.path("value").asText()) : null, keyProperties, numericKeyProperties);
      List<IndexDefinition> indexes = new ArrayList<>();
      for (JsonNode index : root.path("indexes")) {
        indexes.add(IndexDefinition.read(index));
      }
      List<String> dropped = new ArrayList<>();
      root.path("droppedColumns").forEach(node -> dropped.add(node.asText()));
      List<MaterializedViewDefinition> views = new ArrayList<>();
      for (JsonNode view : root.path("materializedViews")) {
        views.add(MaterializedViewDefinition.read(view));
      }
      return new TableDefinition(root.path("name").asText(), root.path("table").asText(), columns, layout, indexes,
          dropped, views);
    } catch (com.fasterxml.jackson.core.JsonProcessingException | RuntimeException e) {
      throw new IllegalArgumentException("unreadable table definition: " + e.getMessage(), e);
    }
  }

  private static KeyFormat key(JsonNode node, List<Column> columns) {
    if (node.path("generated").asBoolean()) {
      return new GeneratedKey();
    }
    if (node.isObject()) {
      return TemplateKey.parse(node.path("template").asText(), name -> columns.stream()
          .filter(c -> c.name().equals(name)).findFirst().map(c -> keyColumn(c, false)).orElse(null));
    }
    return new EncodedKey(keyColumns(node, columns));
  }

  private static List<KeyColumn> keyColumns(JsonNode nodes, List<Column> columns) {
    List<KeyColumn> keys = new ArrayList<>();
    for (JsonNode node : nodes) {
      String name = node.path("column").asText();
      Column column = columns.stream().filter(c -> c.name().equals(name)).findFirst()
          .orElseThrow(() -> new IllegalArgumentException("key column " + name + " is not a column"));
      KeyColumn key = keyColumn(column, node.path("descending").asBoolean());
      if (key == null) {
        throw new IllegalArgumentException("key column " + name + " has a type keys cannot hold");
      }
      keys.add(key);
    }
    return keys;
  }

  /** The key column of a declared column, or null if a key cannot hold its type. */
  public static KeyColumn keyColumn(Column column, boolean descending) {
    return keyColumn(column, descending, false);
  }

  /** A key column that holds NULL too when {@code nullable} (a summary's group of NULLs). */
  public static KeyColumn keyColumn(Column column, boolean descending, boolean nullable) {
    KeyEncoding.KeyType type = KeyLayout.keyType(column.sqlType(), column.singleEdmType() == EdmType.GUID);
    if (type == null) {
      return null;
    }
    return new KeyColumn(column.name(), column.sqlType(),
        new KeyEncoding.Component(type, descending, Math.max(0, column.scale()), nullable));
  }
}
