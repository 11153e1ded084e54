package io.tablesql.catalog;

import com.azure.data.tables.models.TableEntity;
import io.tablesql.keys.KeyLayout;
import io.tablesql.store.EdmType;
import io.tablesql.txn.RowMarks;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The columns of one table: PartitionKey, RowKey and Timestamp, then the union of the
 * properties of the sampled entities, in name order. Immutable; one shape serves a statement
 * from planning to its last row.
 *
 * <p>A declared table (CREATE TABLE with a PRIMARY KEY) has its declared columns instead, and a
 * {@code layout} that says how its key columns make up PartitionKey and RowKey; its other
 * columns are properties.
 *
 * @param layout the key layout of a declared table, or null for a table of properties
 * @param sampledPartitionKeys distinct PartitionKeys of the sample, in order, at most
 *     {@link #MAX_SAMPLED_PARTITION_KEYS} spread evenly over them: where a large scan can be split
 *     without asking the service; empty for a declared table
 * @param estimatedEntities the table's entities as its sample tells ({@code TableStore.Sample}):
 *     exact for a complete sample, rough for a spread one, -1 when it cannot tell
 */
public record TableShape(String tableName, List<Column> columns, long sampledEntities, boolean completeSample,
    KeyLayout layout, List<String> sampledPartitionKeys, long estimatedEntities) {
  static final int MAX_SAMPLED_PARTITION_KEYS = 64;

  public TableShape(String tableName, List<Column> columns, long sampledEntities, boolean completeSample) {
    this(tableName, columns, sampledEntities, completeSample, null, List.of(),
        completeSample ? sampledEntities : -1);
  }

  /** The same shape with other columns (a column a statement adds). */
  TableShape withColumns(List<Column> columns) {
    return new TableShape(tableName, List.copyOf(columns), sampledEntities, completeSample, layout,
        sampledPartitionKeys, estimatedEntities);
  }

  /** The shape of a declared table: its columns as declared, its size unknown. */
  public static TableShape declared(String tableName, List<Column> columns, KeyLayout layout) {
    return new TableShape(tableName, List.copyOf(columns), 0, false, layout, List.of(), -1);
  }

  /** The position of a column in the key (see {@link KeyLayout#columns}), or -1 for a property. */
  public int keyPosition(Column column) {
    if (layout == null) {
      return -1;
    }
    List<KeyLayout.KeyColumn> keys = layout.columns();
    for (int i = 0; i < keys.size(); i++) {
      if (keys.get(i).name().equals(column.name())) {
        return i;
      }
    }
    return -1;
  }

  /**
   * Infers a shape from declared columns (which win) and sampled entities; {@code completeSample}
   * when the sample is the whole table.
   */
  public static TableShape infer(String tableName, List<Column> declared, List<TableEntity> sample,
      boolean completeSample) {
    return infer(tableName, declared, sample, completeSample, completeSample ? sample.size() : -1);
  }

  /** As {@link #infer(String, List, List, boolean)}, with the table's entities as the sample estimated them. */
  public static TableShape infer(String tableName, List<Column> declared, List<TableEntity> sample,
      boolean completeSample, long estimatedEntities) {
    Map<String, Set<EdmType>> types = new TreeMap<>(Comparator.comparing((String s) -> s.toLowerCase(java.util.Locale.ROOT))
        .thenComparing(Comparator.naturalOrder()));
    for (TableEntity entity : sample) {
      for (Map.Entry<String, Object> property : entity.getProperties().entrySet()) {
        String name = property.getKey();
        EdmType type = EdmType.of(property.getValue());
        if (type != null && isUserProperty(name)) {
          types.computeIfAbsent(name, n -> EnumSet.noneOf(EdmType.class)).add(type);
        }
      }
    }
    List<Column> columns = new ArrayList<>();
    columns.add(Column.of(Column.PARTITION_KEY, Set.of(EdmType.STRING)));
    columns.add(Column.of(Column.ROW_KEY, Set.of(EdmType.STRING)));
    columns.add(Column.of(Column.TIMESTAMP, Set.of(EdmType.DATETIME)));
    for (Column column : declared) {
      if (!column.isKey() && !column.name().equals(Column.TIMESTAMP)) {
        columns.add(column);
        types.remove(column.name());
      }
    }
    types.forEach((name, edmTypes) -> columns.add(Column.of(name, edmTypes)));
    return new TableShape(tableName, List.copyOf(columns), sample.size(), completeSample, null,
        partitionKeys(sample), estimatedEntities);
  }

  /** The sample's distinct PartitionKeys in order, thinned evenly to at most MAX_SAMPLED_PARTITION_KEYS. */
  private static List<String> partitionKeys(List<TableEntity> sample) {
    List<String> keys = new ArrayList<>(new java.util.TreeSet<>(sample.stream().map(TableEntity::getPartitionKey)
        .filter(java.util.Objects::nonNull).toList()));
    if (keys.size() <= MAX_SAMPLED_PARTITION_KEYS) {
      return List.copyOf(keys);
    }
    List<String> thinned = new ArrayList<>();
    for (int i = 0; i < MAX_SAMPLED_PARTITION_KEYS; i++) {
      thinned.add(keys.get((int) ((long) i * keys.size() / MAX_SAMPLED_PARTITION_KEYS)));
    }
    return List.copyOf(thinned);
  }

  /** An entity's user properties (no keys, Timestamp or metadata), as a new map; null for no entity. */
  public static Map<String, Object> userProperties(TableEntity entity) {
    if (entity == null) {
      return null;
    }
    Map<String, Object> properties = new java.util.HashMap<>(entity.getProperties());
    properties.keySet().removeIf(name -> !isUserProperty(name));
    return properties;
  }

  /** Whether two entities' properties hold equal values, Binary ones (byte arrays) by their content. */
  public static boolean sameProperties(Map<String, Object> these, Map<String, Object> those) {
    if (these.size() != those.size()) {
      return false;
    }
    for (Map.Entry<String, Object> value : these.entrySet()) {
      if (!those.containsKey(value.getKey()) || !java.util.Objects.deepEquals(value.getValue(),
          those.get(value.getKey()))) {
        return false;
      }
    }
    return true;
  }

  /** The SDK mixes OData annotations and system properties into an entity's properties. */
  public static boolean isUserProperty(String name) {
    return !name.startsWith("odata.") && name.indexOf('@') < 0 && !name.equals(Column.PARTITION_KEY)
        && !name.equals(Column.ROW_KEY) && !name.equals(Column.TIMESTAMP) && !name.equals(RowMarks.MARK)
        && !name.equals(RowMarks.DELETED);
  }

  public int indexOf(String columnName) {
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).name().equals(columnName)) {
        return i;
      }
    }
    return -1;
  }

  /** Rough number of entities, for costing access paths: exact when the sample saw the whole table. */
  public double estimatedRowCount() {
    return completeSample ? Math.max(1, sampledEntities) : Math.max(100_000, sampledEntities * 10.0);
  }
}
