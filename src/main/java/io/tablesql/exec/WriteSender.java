package io.tablesql.exec;

import com.azure.data.tables.models.TableEntity;
import io.tablesql.errors.SqlExceptions;
import io.tablesql.errors.SqlStates;
import io.tablesql.intent.IntentCommit;
import io.tablesql.intent.IntentMarks;
import io.tablesql.session.Session;
import io.tablesql.settings.DriverProperty;
import io.tablesql.store.Parallel;
import io.tablesql.store.RequestCounters;
import io.tablesql.store.StoreException;
import io.tablesql.txn.EntityRules;
import io.tablesql.txn.PendingWrites;
import io.tablesql.txn.WriteOperation.Kind;
import io.tablesql.txn.WriteOperation;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Sends the writes of an auto-commit statement, a batch or a transaction: grouped by table and
 * PartitionKey into entity group transactions of at most 100 operations and 4 MiB. A statement
 * or transaction is all or nothing (through an intent when it spans groups); a batch's groups
 * are sent concurrently, each all or nothing, and each row reports its own outcome.
 */
public final class WriteSender {
  private WriteSender() {
  }

  /** The outcome of one entity group: its operations and the failure that stopped it, if any. */
  public record GroupOutcome(List<WriteOperation> operations, StoreException failure) {
  }

  /**
   * Splits writes into entity groups, checking every rule before anything is sent. A table with
   * LOCAL indexes takes fewer rows per group: each row may add and remove an entry per index in
   * the same transaction.
   */
  public static List<List<WriteOperation>> groups(Session session, List<WriteOperation> operations)
      throws SQLException {
    BlobValues.checkFresh(session, operations);
    Map<PartitionRef, List<WriteOperation>> byPartition = new LinkedHashMap<>();
    PartitionRefs refs = new PartitionRefs();
    for (WriteOperation operation : operations) {
      byPartition.computeIfAbsent(refs.of(operation), k -> new ArrayList<>()).add(operation);
    }
    List<List<WriteOperation>> groups = new ArrayList<>();
    List<Long> groupBytes = new ArrayList<>();
    Map<String, Integer> perRow = new HashMap<>();
    for (List<WriteOperation> partition : byPartition.values()) {
      int operationsPerRow = perRow.computeIfAbsent(partition.get(0).table(), table -> operationsPerRow(session, table));
      int entitiesPerRow = entitiesPerRow(session, partition.get(0).table());
      List<WriteOperation> group = new ArrayList<>();
      Set<String> rowKeys = new HashSet<>(); // of the group: an entity appears once per transaction
      long bytes = 0;
      for (WriteOperation operation : partition) {
        long size = groupShare(operation, operationsPerRow - entitiesPerRow + 1)
            + (entitiesPerRow - 1) * EntityRules.payloadSizeOf(new WriteOperation(operation.table(),
                operation.partitionKey(), operation.rowKey(), operation.kind(), Map.of(), null, null));
        if (!group.isEmpty() && (group.size() == EntityRules.MAX_GROUP_OPERATIONS / operationsPerRow
            || bytes + size > EntityRules.MAX_GROUP_BYTES
            || rowKeys.contains(operation.rowKey()))) {
          groups.add(group);
          groupBytes.add(bytes);
          group = new ArrayList<>();
          rowKeys.clear();
          bytes = 0;
        }
        group.add(operation);
        rowKeys.add(operation.rowKey());
        bytes += size;
      }
      groups.add(group);
      groupBytes.add(bytes);
    }
    Map<String, Copier> copiers = new HashMap<>();
    for (WriteOperation operation : operations) {
      Copier copier = copiers.computeIfAbsent(operation.table(), table -> copierOfLongValues(session, table));
      if (copier != Copier.NONE && !operation.kind().deletes()) {
        checkCopyFits(operation, copier);
      }
    }
    for (int i = 0; i < groups.size(); i++) {
      // every rule checked again, but each operation's size counted once
      EntityRules.checkGroup(groups.get(i), groupBytes.get(i));
    }
    return groups;
  }

  /**
   * What one row's write may add to its entity group's request: the larger of the write and its
   * undo (an intent undoes a group by writing the rows before back, in the same groups), and
   * the local indexes' entries, which copy the row's values but not a long value's later parts
   * (a local index includes no column of long values).
   */
  private static long groupShare(WriteOperation operation, int operationsPerRow) {
    long row = EntityRules.payloadSizeOf(operation);
    if (operation.before() != null) {
      row = Math.max(row, EntityRules.payloadSizeOf(new WriteOperation(operation.table(), operation.partitionKey(),
          operation.rowKey(), WriteOperation.Kind.REPLACE, operation.before(), operation.etag(), null)));
    }
    if (operationsPerRow == 1) {
      return row;
    }
    Map<String, Object> copied = new HashMap<>(operation.properties());
    copied.keySet().removeIf(io.tablesql.catalog.ValueParts::isPartProperty);
    return row + (operationsPerRow - 1) * EntityRules.payloadSizeOf(new WriteOperation(operation.table(),
        operation.partitionKey(), operation.rowKey(), operation.kind(), copied, operation.etag(), null));
  }

  /** Bytes a copy of a row (a view's entity, a covering entry) may add to it: its keys and the row's, and a flag. */
  static final int COPY_ROOM = 8 * 1024;

  /** A materialized view or covering index ("view V", "index I") and the columns of long values it copies. */
  private record Copier(String name, Set<String> columns, boolean copies) {
    static final Copier NONE = new Copier("", Set.of(), false);
  }

  /**
   * The first materialized view or covering index that copies columns of long values of the
   * table, or {@link Copier#NONE}: a row near the entity's limit, or with a value kept in Blob
   * storage, could not be copied.
   */
  private static Copier copierOfLongValues(Session session, String table) {
    io.tablesql.catalog.TableDefinition definition = io.tablesql.catalog.Catalog.ofPhysicalTable(session, table);
    if (definition == null) {
      return Copier.NONE;
    }
    java.util.function.Predicate<String> isLong = name -> definition.columns().stream()
        .anyMatch(c -> c.large() && c.name().equals(name));
    for (ViewEntities view : ViewMaintenance.viewsOf(session, table)) {
      // a view reads the values it copies and those its condition tests: neither may be in a blob
      Set<String> read = definition.columns().stream().map(io.tablesql.catalog.Column::name).filter(isLong)
          .filter(name -> view.view().columns().contains(name) || view.conditionReads(name))
          .collect(java.util.stream.Collectors.toSet());
      if (!read.isEmpty()) {
        return new Copier("materialized view " + view.view().name(), read,
            read.stream().anyMatch(view.view().columns()::contains));
      }
    }
    for (var index : definition.indexes()) {
      Set<String> copied = index.include().stream().filter(isLong).collect(java.util.stream.Collectors.toSet());
      if (!copied.isEmpty()) {
        return new Copier("index " + index.name(), copied, true);
      }
    }
    return Copier.NONE;
  }

  /**
   * Refuses a write whose row would leave no room for its copy, or whose copied value is kept in
   * Blob storage: the copy's entity is written after the row commits (a view's) or with it (an
   * index entry's), and must not be refused then.
   */
  private static void checkCopyFits(WriteOperation operation, Copier copier) throws SQLException {
    Map<String, Object> row = new HashMap<>(operation.before() == null || operation.kind() != WriteOperation.Kind.MERGE
        ? Map.of() : operation.before());
    row.putAll(operation.properties());
    for (String column : copier.columns()) {
      if (io.tablesql.catalog.ValueParts.referenceIn(row, column) != null) {
        throw io.tablesql.errors.SqlExceptions.of("Cannot write " + operation.describe() + ": its value of " + column
            + " is longer than an entity holds (1 MiB) and is kept in Blob storage, and " + copier.name()
            + " copies or tests that column (it keeps entities of its own, up to 1 MiB each). Nothing of this "
            + "statement was written.",
            io.tablesql.errors.SqlStates.DATA_EXCEPTION);
      }
    }
    long size = EntityRules.sizeOf(new WriteOperation(operation.table(), operation.partitionKey(),
        operation.rowKey(), WriteOperation.Kind.REPLACE, row, null, null));
    if (copier.copies() && size + COPY_ROOM > EntityRules.MAX_ENTITY_BYTES) {
      throw io.tablesql.errors.SqlExceptions.of("Cannot write " + operation.describe() + ": it is about " + size
          + " bytes, and its copy in " + copier.name() + " adds keys to it; a row whose long values are copied holds "
          + "at most " + (EntityRules.MAX_ENTITY_BYTES - COPY_ROOM) + " bytes. Nothing of this statement was written.",
          io.tablesql.errors.SqlStates.DATA_EXCEPTION);
    }
  }

  /**
   * Operations of an entity group one row's write may take: the row's entities (several for a
   * wide row), and an entry added and removed per local index.
   */
  private static int operationsPerRow(Session session, String table) {
    io.tablesql.catalog.TableDefinition definition = io.tablesql.catalog.Catalog.ofPhysicalTable(session, table);
    long local = definition == null ? 0 : definition.indexes().stream().filter(i -> i.local()).count();
    return entitiesPerRow(session, table) + 2 * (int) local;
  }

  /** The entities one row is kept as: its parts for a wide row, else 1. */
  private static int entitiesPerRow(Session session, String table) {
    io.tablesql.catalog.TableDefinition definition = io.tablesql.catalog.Catalog.ofPhysicalTable(session, table);
    io.tablesql.store.RowParts parts = definition == null || definition.layout().isMapped() ? null
        : definition.rowParts();
    return parts == null ? 1 : parts.count();
  }

  /**
   * Sends the writes of one auto-commit statement, all or nothing: as one entity group
   * transaction when they fit one, otherwise through a durable intent ({@link IntentCommit}).
   */
  public static void sendStatement(Session session, List<WriteOperation> operations, RequestCounters counters,
      Runnable stopIfAsked) throws SQLException {
    if (operations.isEmpty()) {
      return;
    }
    List<List<WriteOperation>> groups = groups(session, operations);
    if (oneEntityGroup(session, groups, operations)) {
      List<GroupOutcome> outcome = send(session, groups, counters, stopIfAsked);
      StoreException failure = outcome.get(0).failure();
      if (failure != null) {
        throw failure.toSqlException();
      }
      return; // send() deleted the blobs the group released
    }
    if (groups.size() > 1 && session.settings().getBoolean(DriverProperty.STRICT_ATOMICITY)) {
      throw SqlExceptions.of("This statement writes " + operations.size() + " entities in " + groups.size()
          + " entity groups (one per table and PartitionKey, at most 100 each), which one entity group transaction "
          + "cannot hold, and strictAtomicity=true refuses that. Nothing was written.", SqlStates.TRANSACTION_RULE);
    }
    PendingWrites.checkSize(operations.size());
    PendingWrites combined = new PendingWrites(false); // an entity written twice is written once, as in a transaction
    combined.add(operations);
    List<WriteOperation> writes = resolveDeletesIfPresent(session, combined.drain(), counters);
    IntentCommit.commit(session, writes, counters, "The statement");
    BlobValues.deleteReleased(session, writes, writes, counters);
  }

  /**
   * Sends groups, failures returned rather than thrown, in the order given, at most maxConcurrency
   * at a time. Groups of one partition that write an entity more than once go one after another,
   * so that the later write wins, as the statement or batch ordered it; all others go concurrently.
   */
  public static List<GroupOutcome> send(Session session, List<List<WriteOperation>> groups, RequestCounters counters) {
    return send(session, groups, counters, null);
  }

  /**
   * As {@link #send(Session, List, RequestCounters)}; {@code waitStop}, for one statement's group:
   * an INSERT meeting a row another transaction in flight inserts waits for it to end
   * ({@link IntentMarks#awaitOutcome}, stopped by a cancel or timeout) before it is refused
   * (SettledConflict); null: refused at once (a batch's groups, whose earlier groups are written).
   */
  private static List<GroupOutcome> send(Session session, List<List<WriteOperation>> groups, RequestCounters counters,
      Runnable waitStop) {
    Map<PartitionRef, List<List<WriteOperation>>> byPartition = new LinkedHashMap<>();
    PartitionRefs refs = new PartitionRefs();
    String invalidated = null;
    for (List<WriteOperation> group : groups) {
      String table = group.get(0).table();
      if (!table.equals(invalidated)) {
        LookupCache.invalidate(session, table);
        invalidated = table;
      }
      byPartition.computeIfAbsent(refs.of(group.get(0)), k -> new ArrayList<>()).add(group);
    }
    List<List<List<WriteOperation>>> chains = new ArrayList<>();
    for (List<List<WriteOperation>> partition : byPartition.values()) {
      if (writesAnEntityTwice(partition)) {
        chains.add(partition);
      } else {
        partition.forEach(group -> chains.add(List.of(group))); // no order to keep: all at once
      }
    }
    List<List<GroupOutcome>> sent = Parallel.map(chains, session.maxConcurrency(),
        chain -> {
          List<GroupOutcome> outcomes = new ArrayList<>();
          for (List<WriteOperation> group : chain) {
            try {
              if (oneEntityGroup(session, List.of(group), group)) {
                IndexedWrites.submit(session, group, counters, waitStop);
              } else {
                List<WriteOperation> writes = resolveDeletesIfPresent(session, group, counters);
                if (!writes.isEmpty()) {
                  IntentCommit.commit(session, writes, counters, "The entity group");
                }
              }
              outcomes.add(new GroupOutcome(group, null));
            } catch (StoreException e) {
              outcomes.add(new GroupOutcome(group, e));
            } catch (SQLException e) {
              outcomes.add(new GroupOutcome(group, new StoreException(e.getMessage(), e.getSQLState(), e)));
            }
          }
          return outcomes;
        });
    List<GroupOutcome> outcomes = new ArrayList<>();
    sent.forEach(outcomes::addAll); // groups() puts the groups of a partition together, in order
    deleteReleased(session, outcomes, counters);
    return outcomes;
  }

  /**
   * Deletes the blobs the groups that were written released, once all have been sent: a row moved
   * by a batch may leave in one group and arrive in another, still naming its blob, and a blob a
   * failed group's write would name is kept (an orphan at worst, never a row naming nothing).
   */
  private static void deleteReleased(Session session, List<GroupOutcome> outcomes, RequestCounters counters) {
    List<WriteOperation> written = new ArrayList<>();
    List<WriteOperation> all = new ArrayList<>();
    for (GroupOutcome outcome : outcomes) {
      all.addAll(outcome.operations());
      if (outcome.failure() == null) {
        written.addAll(outcome.operations());
      }
    }
    BlobValues.deleteReleased(session, written, all, counters);
  }

  /**
   * How writes that must be all or nothing commit, decided here only: as one entity group
   * transaction when they are one group ({@link #groups}) whose tables keep no materialized view
   * (a view's entities live in other tables), otherwise through a durable intent ({@link IntentCommit}).
   */
  private static boolean oneEntityGroup(Session session, List<List<WriteOperation>> groups,
      List<WriteOperation> writes) {
    return groups.size() == 1 && !ViewMaintenance.derives(session, writes);
  }

  /** Whether some entity is written by more than one of these groups of one partition. */
  private static boolean writesAnEntityTwice(List<List<WriteOperation>> groups) {
    if (groups.size() < 2) {
      return false;
    }
    Set<String> rowKeys = new HashSet<>();
    for (List<WriteOperation> group : groups) {
      for (WriteOperation operation : group) {
        if (!rowKeys.add(operation.rowKey())) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Commits the transaction's writes, all or nothing: as one entity group transaction when they
   * fit one, otherwise through a durable intent ({@link IntentCommit}).
   */
  public static void commit(Session session) throws SQLException {
    List<WriteOperation> pendingWrites = session.endTransaction();
    if (pendingWrites.isEmpty()) {
      return;
    }
    RequestCounters counters = new RequestCounters();
    List<List<WriteOperation>> groups;
    try {
      List<WriteOperation> writes = resolveDeletesIfPresent(session, pendingWrites, counters);
      if (writes.isEmpty()) {
        return;
      }
      groups = groups(session, writes);
      if (!oneEntityGroup(session, groups, writes)) {
        IntentCommit.commit(session, writes, counters, "The transaction");
      } else {
        LookupCache.invalidate(session, writes.get(0).table());
        IndexedWrites.submit(session, writes, counters);
      }
      BlobValues.deleteReleased(session, writes, writes, counters);
    } catch (StoreException e) {
      if (SqlStates.TRANSACTION_RESOLUTION_UNKNOWN.equals(e.sqlState())) {
        throw SqlExceptions.of("Commit: " + e.getMessage(), e.sqlState());
      }
      throw SqlExceptions.of("Commit failed, nothing of the transaction was written: " + e.getMessage(),
          e.sqlState());
    }
  }

  /**
   * The writes as the service can apply them: each {@link Kind#DELETE_IF_PRESENT} (an upsert
   * deleted again) reads its entity first; absent, nothing is sent for it; present, a DELETE
   * conditional on the ETag read, so that a change in between fails the commit with 40001.
   */
  private static List<WriteOperation> resolveDeletesIfPresent(Session session, List<WriteOperation> writes,
      RequestCounters counters) {
    List<WriteOperation> unresolved = writes.stream().filter(w -> w.kind() == Kind.DELETE_IF_PRESENT).toList();
    if (unresolved.isEmpty()) {
      return writes;
    }
    Iterator<Optional<TableEntity>> read = Parallel.map(unresolved, session.maxConcurrency(),
        w -> session.store().get(w.table(), w.partitionKey(), w.rowKey(), null, counters)).iterator();
    List<WriteOperation> resolved = new ArrayList<>();
    for (WriteOperation write : writes) {
      if (write.kind() != Kind.DELETE_IF_PRESENT) {
        resolved.add(write);
      } else {
        Optional<TableEntity> entity = read.next();
        if (entity.isPresent() && io.tablesql.txn.RowMarks.isTombstone(entity.get().getProperties())) {
          IntentMarks.refuseIfPending(session, entity.get(), counters); // else a deleted row: nothing to delete
        } else if (entity.isPresent()) {
          resolved.add(new WriteOperation(write.table(), write.partitionKey(), write.rowKey(), Kind.DELETE, Map.of(),
              entity.get().getETag(), write.origin(), io.tablesql.catalog.TableShape.userProperties(entity.get())));
        }
      }
    }
    return resolved;
  }

  /** A table (names compare case-insensitively) and a PartitionKey. */
  private record PartitionRef(String table, String partitionKey) {
  }

  /** Makes {@link PartitionRef}s, lower-casing each table name once: the writes of a batch share theirs. */
  private static final class PartitionRefs {
    private String table;
    private String lowerCase;

    PartitionRef of(WriteOperation operation) {
      if (!operation.table().equals(table)) {
        table = operation.table();
        lowerCase = table.toLowerCase(Locale.ROOT);
      }
      return new PartitionRef(lowerCase, operation.partitionKey());
    }
  }
}
