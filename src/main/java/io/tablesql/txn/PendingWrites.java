package io.tablesql.txn;

import io.tablesql.errors.SqlExceptions;
import io.tablesql.errors.SqlStates;
import io.tablesql.txn.WriteOperation.EntityKey;
import io.tablesql.txn.WriteOperation.Kind;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The writes of a JDBC transaction (auto-commit off), held until commit sends them: as one
 * entity group transaction when they fit one, otherwise through a durable intent. Several writes
 * to one entity are combined into one operation; a statement whose writes would make the
 * transaction larger than an intent holds, or (with {@code oneGroup}) than one entity group
 * transaction, is refused whole.
 */
public final class PendingWrites {
  /** The most entities one transaction or statement writes: what one intent is sized for. */
  public static final int MAX_ENTITIES = 100_000;

  private final LinkedHashMap<EntityKey, WriteOperation> operations = new LinkedHashMap<>();
  /** Each statement's changes since the transaction's first savepoint, oldest first ({@link #snapshot}). */
  private final List<Change> journal = new ArrayList<>();
  private boolean journaling;
  private final boolean oneGroup;

  /** {@code oneGroup}: refuse what one entity group transaction cannot hold ({@code strictAtomicity}). */
  public PendingWrites(boolean oneGroup) {
    this.oneGroup = oneGroup;
  }

  public synchronized boolean isEmpty() {
    return operations.isEmpty();
  }

  /** Adds a statement's writes, or throws and leaves the transaction as it was. */
  public synchronized void add(List<WriteOperation> statementWrites) throws SQLException {
    LinkedHashMap<EntityKey, WriteOperation> combined = new LinkedHashMap<>(operations);
    for (WriteOperation next : statementWrites) {
      WriteOperation earlier = combined.get(next.key());
      WriteOperation merged = earlier == null ? next : combine(earlier, next);
      if (merged == null) {
        combined.remove(next.key());
      } else {
        combined.put(next.key(), merged);
      }
    }
    if (oneGroup && !combined.isEmpty()) {
      EntityRules.checkGroup(new ArrayList<>(combined.values()));
    }
    checkSize(combined.size());
    if (journaling) {
      for (WriteOperation next : statementWrites) {
        journal.add(new Change(next.key(), operations.get(next.key()))); // as before this statement
      }
    }
    operations.clear();
    operations.putAll(combined);
  }

  /** Refuses a write of more entities than one intent holds, before anything is sent. */
  public static void checkSize(int entities) throws SQLException {
    if (entities > MAX_ENTITIES) {
      throw SqlExceptions.of("This write would change " + entities + " entities; one transaction or statement "
          + "writes at most " + MAX_ENTITIES + " (all or nothing, through a durable intent). Nothing was written. "
          + "Write in smaller transactions.", SqlStates.PROGRAM_LIMIT_EXCEEDED);
    }
  }

  /** The pending operation on an entity, if any. */
  public synchronized WriteOperation get(EntityKey key) {
    return operations.get(key);
  }

  /** Whether the transaction has written (or deleted) anything of a table yet. */
  public synchronized boolean writes(String table) {
    return operations.values().stream().anyMatch(operation -> operation.table().equalsIgnoreCase(table));
  }

  /** The pending operations on a table, in the order they were made. */
  public synchronized List<WriteOperation> forTable(String table) {
    List<WriteOperation> result = new ArrayList<>();
    for (WriteOperation operation : operations.values()) {
      if (operation.table().equalsIgnoreCase(table)) {
        result.add(operation);
      }
    }
    return result;
  }

  /**
   * A mark of the pending operations as they are now, for a savepoint to go back to: from the
   * first one on, each statement's changes are journalled (an entity's operation before it), so
   * a savepoint costs a number, not a copy of the transaction.
   */
  public synchronized Snapshot snapshot() {
    journaling = true;
    return new Snapshot(journal.size());
  }

  /** Goes back to a snapshot: the operations the statements since changed are as they were then. */
  public synchronized void restore(Snapshot snapshot) {
    for (int i = journal.size() - 1; i >= snapshot.journalled(); i--) {
      Change change = journal.remove(i);
      if (change.before() == null) {
        operations.remove(change.key());
      } else {
        operations.put(change.key(), change.before());
      }
    }
  }

  /** Where the journal stood at a savepoint. */
  public record Snapshot(int journalled) {
  }

  /** An entity's pending operation before a statement changed it (null: it had none). */
  private record Change(EntityKey key, WriteOperation before) {
  }

  /** Takes every pending operation, leaving the transaction empty. */
  public synchronized List<WriteOperation> drain() {
    List<WriteOperation> all = new ArrayList<>(operations.values());
    operations.clear();
    journal.clear();
    journaling = false;
    return all;
  }

  /** One operation with the effect of {@code earlier} then {@code next}; null when nothing remains. */
  static WriteOperation combine(WriteOperation earlier, WriteOperation next) throws SQLException {
    Kind before = earlier.kind();
    Kind after = next.kind();
    if (after == Kind.INSERT && !before.deletes()) {
      throw SqlExceptions.of("Duplicate key: " + next.describe() + " was already written in this transaction.",
          SqlStates.UNIQUE_VIOLATION);
    }
    switch (after) {
      case DELETE:
        if (before == Kind.INSERT) {
          return null;
        }
        // after an upsert the entity may not have existed (unless a delete conditional on an ETag
        // read came first): no operation deletes if present, so the commit reads it to decide
        return with(earlier, earlier.etag() == null && (before == Kind.UPSERT_MERGE
            || before == Kind.UPSERT_REPLACE || before == Kind.DELETE_IF_PRESENT)
            ? Kind.DELETE_IF_PRESENT : Kind.DELETE, Map.of());
      case INSERT:
      case UPSERT_REPLACE:
        // after a delete, the entity is known not to exist (or to be replaced whole); a delete
        // conditional on an ETag read keeps the entity's existence a condition of the commit
        return with(earlier, before == Kind.DELETE && after == Kind.INSERT && earlier.etag() != null
            ? Kind.REPLACE : Kind.UPSERT_REPLACE, next.properties());
      case REPLACE:
        // after an upsert the entity exists whatever it was before: replacing it is an upsert too
        return with(earlier, before == Kind.INSERT || before == Kind.UPSERT_REPLACE ? before
            : before == Kind.UPSERT_MERGE ? Kind.UPSERT_REPLACE : Kind.REPLACE, next.properties());
      default: {
        // MERGE or UPSERT_MERGE: overlay the new values on what the earlier write sends
        Map<String, Object> properties = new HashMap<>(before.deletes() ? Map.of() : earlier.properties());
        properties.putAll(next.properties());
        Kind kind = before.deletes() ? Kind.UPSERT_REPLACE
            : before == Kind.MERGE && after == Kind.UPSERT_MERGE ? Kind.MERGE : before;
        return with(earlier, kind, properties);
      }
    }
  }

  private static WriteOperation with(WriteOperation earlier, Kind kind, Map<String, Object> properties) {
    return new WriteOperation(earlier.table(), earlier.partitionKey(), earlier.rowKey(), kind,
        new HashMap<>(properties), earlier.etag(), earlier.origin(), earlier.before());
  }
}
