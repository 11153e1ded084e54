package io.tablesql.exec;

import com.azure.data.tables.models.TableEntity;
import io.tablesql.catalog.TableShape;
import io.tablesql.query.AccessScope;
import io.tablesql.query.Operand;
import io.tablesql.query.TableQuery;
import io.tablesql.store.RequestCounters;
import io.tablesql.store.TableStore;
import io.tablesql.txn.WriteOperation;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * What a connection reads while its transaction is open: the stored entities with its own
 * pending writes applied. Entities the transaction touched are taken out of the service's
 * answer and put back as they will be after commit, if they still satisfy the query; the
 * result stays in key order if the service's answer is (whatever its order, no entity is lost).
 */
final class PendingOverlay {
  private static final Comparator<TableEntity> KEY_ORDER =
      Comparator.comparing(TableEntity::getPartitionKey).thenComparing(TableEntity::getRowKey);

  private PendingOverlay() {
  }

  static Iterator<TableEntity> apply(Iterator<TableEntity> stored, List<WriteOperation> pending, TableQuery query,
      Function<Operand, Object> values, TableStore store, RequestCounters counters) {
    Set<String> touched = new HashSet<>();
    List<TableEntity> changed = new ArrayList<>();
    for (WriteOperation operation : pending) {
      if (!AccessScope.mayContain(query, operation.partitionKey(), operation.rowKey(), values)) {
        continue; // outside the query's keys: not in its answer either way, and not read to know
      }
      touched.add(operation.partitionKey() + "\u0000" + operation.rowKey());
      TableEntity after = afterCommit(operation, store, counters);
      if (after != null && AccessScope.contains(query, after, values)) {
        changed.add(after);
      }
    }
    changed.sort(KEY_ORDER);
    Iterator<TableEntity> untouched = new Iterator<>() {
      private TableEntity next = advance();

      private TableEntity advance() {
        while (stored.hasNext()) {
          TableEntity entity = stored.next();
          if (!touched.contains(entity.getPartitionKey() + "\u0000" + entity.getRowKey())) {
            return entity;
          }
        }
        return null;
      }

      @Override
      public boolean hasNext() {
        return next != null;
      }

      @Override
      public TableEntity next() {
        TableEntity current = next;
        next = advance();
        return current;
      }
    };
    return merge(untouched, changed.iterator());
  }

  /** The entity as it will be once the operation is committed; null if it will not exist. */
  private static TableEntity afterCommit(WriteOperation operation, TableStore store, RequestCounters counters) {
    TableEntity entity = new TableEntity(operation.partitionKey(), operation.rowKey());
    switch (operation.kind()) {
      case DELETE:
      case DELETE_IF_PRESENT:
        return null;
      case MERGE:
      case UPSERT_MERGE: {
        Optional<TableEntity> stored = store.get(operation.table(), operation.partitionKey(), operation.rowKey(),
            null, counters);
        if (stored.isEmpty() && operation.kind() == WriteOperation.Kind.MERGE) {
          return null;
        }
        stored.ifPresent(base -> base.getProperties().forEach((name, value) -> {
          if (TableShape.isUserProperty(name) || name.equals("odata.etag")) {
            entity.addProperty(name, value);
          }
        }));
        break;
      }
      default:
        if (operation.etag() != null) {
          entity.addProperty("odata.etag", operation.etag());
        }
        break;
    }
    operation.properties().forEach((name, value) -> {
      if (value != null) {
        entity.addProperty(name, value);
      }
    });
    return entity;
  }

  private static Iterator<TableEntity> merge(Iterator<TableEntity> left, Iterator<TableEntity> right) {
    return new Iterator<>() {
      private TableEntity l = left.hasNext() ? left.next() : null;
      private TableEntity r = right.hasNext() ? right.next() : null;

      @Override
      public boolean hasNext() {
        return l != null || r != null;
      }

      @Override
      public TableEntity next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        TableEntity result;
        if (r == null || (l != null && KEY_ORDER.compare(l, r) <= 0)) {
          result = l;
          l = left.hasNext() ? left.next() : null;
        } else {
          result = r;
          r = right.hasNext() ? right.next() : null;
        }
        return result;
      }
    };
  }
}
