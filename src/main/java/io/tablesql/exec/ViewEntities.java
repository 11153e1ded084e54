package io.tablesql.exec;

import com.azure.data.tables.models.TableEntity;
import io.tablesql.catalog.Column;
import io.tablesql.catalog.IndexDefinition;
import io.tablesql.catalog.MaterializedViewDefinition;
import io.tablesql.catalog.RowCondition;
import io.tablesql.catalog.TableDefinition;
import io.tablesql.catalog.TableShape;
import io.tablesql.catalog.ValueParts;
import io.tablesql.errors.SqlStates;
import io.tablesql.store.StoreException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The entities of a materialized view that copies: which one (PartitionKey, RowKey) a base row
 * gives, if it meets the view's condition, and what it holds. One place, so that maintenance,
 * the build and VERIFY agree on every entity.
 */
final class ViewEntities {
  private final TableDefinition base;
  private final MaterializedViewDefinition view;
  private final TableDefinition entries;
  private final RowCondition condition;

  /** A base row by its keys. */
  record RowRef(String partitionKey, String rowKey) {
  }

  ViewEntities(TableDefinition base, MaterializedViewDefinition view) {
    this.base = base;
    this.view = view;
    this.entries = view.entries(base);
    this.condition = view.condition() == null ? null : RowCondition.parse(view.condition(), base);
  }

  MaterializedViewDefinition view() {
    return view;
  }

  /** Whether the view's condition reads a column of the base table. */
  boolean conditionReads(String column) {
    return condition != null && condition.reads(column);
  }

  String table() {
    return view.table();
  }

  TableDefinition base() {
    return base;
  }

  /**
   * The row's values by column name (Calcite's representation), or null for an entity that is no
   * row of a mapped base table (another kind of entity sharing its Azure table).
   */
  private Map<String, Object> values(String partitionKey, String rowKey, Map<String, Object> properties) {
    if (!base.layout().isRow(partitionKey, rowKey, properties)) {
      return null;
    }
    Object[] keyValues = base.layout().decode(partitionKey, rowKey);
    Map<String, Object> values = new HashMap<>();
    for (Column column : base.columns()) {
      int keyPosition = base.shape().keyPosition(column);
      try {
        values.put(column.name(), keyPosition >= 0 ? keyValues[keyPosition]
            : readsWhole(column, properties) ? column.toInternal(ValueParts.valueOf(column, properties::get, null))
            : standIn(column, properties));
      } catch (Column.UnreadableValue e) {
        throw new StoreException("Materialized view " + view.name() + " cannot read (PartitionKey '" + partitionKey
            + "', RowKey '" + rowKey + "') of " + base.name() + ": property " + column.name() + " " + e.getMessage()
            + ".", e.sqlState(), null);
      }
    }
    return values;
  }

  /**
   * Whether the view needs a column's whole value: a value kept in a blob (its own, or an
   * application's a REFERENCES BLOB column names) is read only where the view copies or tests its
   * column (and then refused), otherwise an empty value stands for it, which is what NULL tests
   * and counts see.
   */
  private boolean readsWhole(Column column, Map<String, Object> properties) {
    boolean inBlob = ValueParts.referenceIn(properties, column.name()) != null || column.referencesBlob();
    return !inBlob || condition != null && condition.reads(column.name())
        || entries.columns().stream().anyMatch(c -> c.name().equals(column.name()));
  }

  /** What stands for a value in a blob the view does not read: empty where there is a value, NULL where not. */
  private static Object standIn(Column column, Map<String, Object> properties) {
    if (properties.get(column.name()) == null) {
      return null;
    }
    return column.singleEdmType() == io.tablesql.store.EdmType.BINARY
        ? new org.apache.calcite.avatica.util.ByteString(new byte[0]) : "";
  }

  /**
   * The view entity's keys of a base row, or null if the row is not in the view.
   *
   * @throws StoreException 22000 if the view's key cannot hold the row's values
   */
  String[] keyOf(String partitionKey, String rowKey, Map<String, Object> properties) {
    Map<String, Object> values = qualifying(partitionKey, rowKey, properties);
    return values == null ? null : key(values, partitionKey, rowKey);
  }

  /** A base row's values (Calcite's representation) if it is in the view (meets its condition), else null. */
  Map<String, Object> qualifying(String partitionKey, String rowKey, Map<String, Object> properties) {
    Map<String, Object> values = values(partitionKey, rowKey, properties);
    return values == null || (condition != null && !condition.holds(values)) ? null : values;
  }

  /** The view's entries as a declared table. */
  TableDefinition entries() {
    return entries;
  }

  /** The view entity's keys of a qualifying row's values: a copy's key, or a summary's group. */
  String[] key(Map<String, Object> values, String partitionKey, String rowKey) {
    List<Object> partition = new ArrayList<>();
    view.partition().forEach(c -> partition.add(values.get(c.column())));
    List<Object> row = new ArrayList<>();
    view.row().forEach(c -> row.add(values.get(c.column())));
    try {
      return new String[] {entries.layout().partitionKey(partition), entries.layout().rowKey(row)};
    } catch (IllegalArgumentException e) {
      throw cannotHold(partitionKey, rowKey, e.getMessage());
    }
  }

  private StoreException cannotHold(String partitionKey, String rowKey, String why) {
    return new StoreException("Materialized view " + view.name() + " cannot hold (PartitionKey '" + partitionKey
        + "', RowKey '" + rowKey + "') of " + base.name() + ": " + why + ".", SqlStates.DATA_EXCEPTION, null);
  }

  /** The view entity of a base row as read, or null if the row is not in the view. */
  TableEntity entityOf(TableEntity row) {
    Map<String, Object> values = qualifying(row.getPartitionKey(), row.getRowKey(), TableShape.userProperties(row));
    if (values == null) {
      return null;
    }
    String[] key = key(values, row.getPartitionKey(), row.getRowKey());
    TableEntity entity = new TableEntity(key[0], key[1]);
    Map<String, Object> properties = new HashMap<>();
    for (Column column : entries.columns()) {
      Object value = values.get(column.name());
      if (value != null && entries.shape().keyPosition(column) < 0) {
        if (column.large()) {
          try {
            ValueParts.put(properties, column, column.toSdk(value), false, null);
          } catch (java.sql.SQLException e) {
            throw cannotHold(row.getPartitionKey(), row.getRowKey(), e.getMessage());
          }
        } else {
          properties.put(column.name(), column.toSdk(value));
        }
      }
    }
    properties.forEach(entity::addProperty);
    entity.addProperty(IndexDefinition.ROW_PARTITION_KEY, row.getPartitionKey());
    entity.addProperty(IndexDefinition.ROW_ROW_KEY, row.getRowKey());
    return entity;
  }

  /** The base row a view entity names, or null if it names none. */
  static RowRef named(TableEntity entity) {
    return entity.getProperty(IndexDefinition.ROW_PARTITION_KEY) instanceof String partitionKey
        && entity.getProperty(IndexDefinition.ROW_ROW_KEY) instanceof String rowKey
        ? new RowRef(partitionKey, rowKey) : null;
  }
}
