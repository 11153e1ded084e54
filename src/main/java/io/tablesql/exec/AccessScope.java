package io.tablesql.exec;

import com.azure.data.tables.models.TableEntity;
import io.tablesql.catalog.Column;
import io.tablesql.query.Operand;
import io.tablesql.query.TableQuery;
import java.util.function.Function;

/**
 * Whether a table query would return an entity, judged in the client exactly as the service
 * would: its keys or partitions, and its {@code $filter}. Serves entities the service did not
 * select: cached lookup tables and a transaction's own writes.
 */
final class AccessScope {
  private AccessScope() {
  }

  static boolean contains(TableQuery query, TableEntity entity, Function<Operand, Object> values) {
    switch (query.path()) {
      case POINT_LOOKUP:
      case MULTI_POINT_LOOKUP:
        return query.keys().stream().anyMatch(key -> entity.getPartitionKey().equals(values.apply(key.partitionKey()))
            && entity.getRowKey().equals(values.apply(key.rowKey())));
      case MULTI_PARTITION_SCAN:
        if (query.partitions().stream().noneMatch(p -> entity.getPartitionKey().equals(values.apply(p)))) {
          return false;
        }
        break;
      default:
        break;
    }
    Function<String, Object> property = name -> switch (name) {
      case Column.PARTITION_KEY -> entity.getPartitionKey();
      case Column.ROW_KEY -> entity.getRowKey();
      case Column.TIMESTAMP -> entity.getTimestamp();
      default -> entity.getProperty(name);
    };
    return query.filter() == null || query.filter().matches(property, values);
  }
}
