package io.tablesql.query;

import com.azure.data.tables.models.TableEntity;
import io.tablesql.catalog.Column;
import io.tablesql.query.AccessPath;
import io.tablesql.query.Operand;
import io.tablesql.query.TableQuery;
import java.util.function.Function;

/**
 * Whether a table query would return an entity, judged in the client exactly as the service
 * would: its keys or partitions, and its {@code $filter}. Serves entities the service did not
 * select: cached lookup tables and a transaction's own writes.
 */
public final class AccessScope {
  private AccessScope() {
  }

  public static boolean contains(TableQuery query, TableEntity entity, Function<Operand, Object> values) {
    if (!mayContain(query, entity.getPartitionKey(), entity.getRowKey(), values)) {
      return false;
    }
    if (query.path() == AccessPath.POINT_LOOKUP || query.path() == AccessPath.MULTI_POINT_LOOKUP) {
      return true;
    }
    Function<String, Object> property = name -> switch (name) {
      case Column.PARTITION_KEY -> entity.getPartitionKey();
      case Column.ROW_KEY -> entity.getRowKey();
      case Column.TIMESTAMP -> entity.getTimestamp();
      default -> entity.getProperty(name);
    };
    return query.filter() == null || query.filter().matches(property, values);
  }

  /**
   * Whether the query's keys or partitions admit an entity of these keys, before its properties
   * are known (a lookup's keys, a multi-partition scan's partitions; any other path may).
   */
  public static boolean mayContain(TableQuery query, String partitionKey, String rowKey, Function<Operand, Object> values) {
    return switch (query.path()) {
      case POINT_LOOKUP, MULTI_POINT_LOOKUP -> query.keys().stream().anyMatch(key ->
          partitionKey.equals(values.apply(key.partitionKey())) && rowKey.equals(values.apply(key.rowKey())));
      case MULTI_PARTITION_SCAN -> query.partitions().stream().anyMatch(p -> partitionKey.equals(values.apply(p)));
      default -> true;
    };
  }
}
