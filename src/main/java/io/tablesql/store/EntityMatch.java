package io.tablesql.store;

import com.azure.data.tables.models.TableEntity;
import io.tablesql.txn.WriteOperation;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Whether an entity as read shows a write's effect, or holds given values: how a lost answer is
 * settled and how an intent's groups are judged applied or not. Values compare as the service
 * gives them back (the emulator reads a Double with an integral value back as an Int32).
 */
public final class EntityMatch {
  private EntityMatch() {
  }

  /** Whether the entity as read (empty: absent) shows the operation's effect. */
  public static boolean holds(WriteOperation operation, Optional<TableEntity> entity) {
    if (operation.kind() == WriteOperation.Kind.TOMBSTONE) { // the intent's tombstone, as it wrote it
      return entity.isPresent() && io.tablesql.txn.RowMarks.isTombstone(entity.get().getProperties())
          && Objects.equals(operation.properties().get(io.tablesql.txn.RowMarks.MARK),
          entity.get().getProperties().get(io.tablesql.txn.RowMarks.MARK));
    }
    if (operation.kind().deletes()) {
      return entity.isEmpty();
    }
    if (entity.isEmpty()) {
      return false;
    }
    Map<String, Object> stored = entity.get().getProperties();
    boolean whole = operation.kind() == WriteOperation.Kind.INSERT || operation.kind() == WriteOperation.Kind.REPLACE
        || operation.kind() == WriteOperation.Kind.UPSERT_REPLACE;
    long sent = 0;
    for (Map.Entry<String, Object> property : operation.properties().entrySet()) {
      if (property.getValue() == null) {
        continue; // not sent: a merge keeps the property, a replace removes it
      }
      sent++;
      if (!sameValue(property.getValue(), stored.get(property.getKey()))) {
        return false;
      }
    }
    return !whole || userProperties(stored) == sent;
  }

  /** Whether the entity holds exactly these user properties, no more. */
  public static boolean holdsExactly(Map<String, Object> properties, TableEntity entity) {
    return holds(new WriteOperation("", entity.getPartitionKey(), entity.getRowKey(), WriteOperation.Kind.REPLACE,
        properties, null, null), Optional.of(entity));
  }

  private static long userProperties(Map<String, Object> stored) {
    return stored.keySet().stream().filter(name -> !name.equals("PartitionKey") && !name.equals("RowKey")
        && !name.equals("Timestamp") && !name.startsWith("odata.") && !name.contains("@")).count(); // the rest is metadata
  }

  private static boolean sameValue(Object sent, Object stored) {
    if (sent instanceof byte[] bytes) {
      return stored instanceof byte[] other && Arrays.equals(bytes, other);
    }
    if (sent instanceof OffsetDateTime time) {
      return stored instanceof OffsetDateTime other && time.isEqual(other);
    }
    if (sent instanceof Number number && stored instanceof Number other) {
      // the emulator answers a Double with an integral value as an Int32
      return number.doubleValue() == other.doubleValue();
    }
    return Objects.equals(sent, stored == null ? null : sent instanceof String ? stored.toString() : stored);
  }
}
