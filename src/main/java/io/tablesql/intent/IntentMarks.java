package io.tablesql.intent;

import com.azure.data.tables.models.TableEntity;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.tablesql.catalog.Catalog;
import io.tablesql.catalog.TableDefinition;
import io.tablesql.catalog.TableShape;
import io.tablesql.errors.SqlStates;
import io.tablesql.session.Session;
import io.tablesql.settings.DriverProperty;
import io.tablesql.store.ConcurrentChange;
import io.tablesql.store.EntityMatch;
import io.tablesql.store.Parallel;
import io.tablesql.store.RequestCounters;
import io.tablesql.store.SettledConflict;
import io.tablesql.store.StoreException;
import io.tablesql.txn.RowMarks;
import io.tablesql.txn.WriteOperation.Kind;
import io.tablesql.txn.WriteOperation;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The marks ({@link RowMarks#MARK}) an intent leaves on the rows it writes: whether a row's mark
 * names an intent still in flight (for writers; readers ask {@link CommittedReads}), and their
 * removal once an intent has committed: from tables the application may read itself (raw,
 * mapped OVER its data) before the commit returns, from tables tablesql declared behind it.
 */
public final class IntentMarks {
  private static final Logger LOG = LoggerFactory.getLogger(IntentMarks.class);
  /** Runs the work behind commits (clearing marks, deleting intents) on daemon threads. */
  static final java.util.concurrent.ExecutorService BEHIND = java.util.concurrent.Executors.newCachedThreadPool(work -> {
    Thread thread = new Thread(work, "tablesql-behind-commit");
    thread.setDaemon(true);
    return thread;
  });
  /** Intents known settled: a settled intent never becomes pending again, and its id is never reused. */
  private static final Cache<String, Boolean> SETTLED = Caffeine.newBuilder().maximumSize(10_000).build();

  private IntentMarks() {
  }

  /**
   * Refuses (40001) a write of a row that carries the mark of an intent still being applied or
   * undone: its values may be undone yet, and writing over them would lose that undo or build on
   * a write that never commits. A mark of an intent that is gone (committed, or undone: an undone
   * row no longer carries it), committed with its views still to follow, or parked, is settled:
   * the write goes on (conditional on the ETag it read, so a row undone since is refused anyway).
   * Before refusing, it waits for that intent to end ({@link #awaitOutcome}), so that the refusal
   * is a {@link SettledConflict}: the statement run again proceeds on the row as committed. Only
   * statements wait here, before their own intent exists: an intent never waits for another.
   */
  public static void checkNotPending(Session session, TableEntity read, RequestCounters counters, Runnable stopIfAsked)
      throws SQLException {
    if (read != null && read.getProperties().get(Intent.BEFORE_IMAGE) instanceof String writer) {
      String message = "The row (PartitionKey '" + read.getPartitionKey() + "', RowKey '" + read.getRowKey()
          + "') was read as it was before another transaction (intent " + writer + ") that had not committed when "
          + "it was read. Nothing was written; run the statement again.";
      throw (awaitOutcome(session, writer, counters, stopIfAsked) ? new SettledConflict(message)
          : new StoreException(message, SqlStates.SERIALIZATION_FAILURE, null)).toSqlException();
    }
    String pending = pendingIntent(session, read, counters);
    if (pending != null) {
      StoreException refusal = beingWritten(read, pending);
      throw (awaitOutcome(session, pending, counters, stopIfAsked) ? new SettledConflict(refusal.getMessage()) : refusal)
          .toSqlException();
    }
  }

  /**
   * Refuses (40001) a write of a row whose mark names an intent being applied or undone, at once:
   * for writes that may be an intent's own ({@link #beingWritten}).
   */
  public static void refuseIfPending(Session session, TableEntity row, RequestCounters counters) {
    String pending = pendingIntent(session, row, counters);
    if (pending != null) {
      throw beingWritten(row, pending);
    }
  }

  /** The id of the intent applying or undoing that marked the row; null for none (or one settled). */
  public static String pendingIntent(Session session, TableEntity row, RequestCounters counters) {
    Object mark = row == null ? null : row.getProperties().get(RowMarks.MARK);
    if (!(mark instanceof String id) || id.isEmpty() || SETTLED.getIfPresent(id) != null) {
      return null;
    }
    if (inFlight(header(session, id, counters))) {
      // a writer that stopped: settled now, as recovery would, so that the statement's retry goes on
      IntentRecovery.settleIfExpired(session, id, counters);
      return id;
    }
    SETTLED.put(id, Boolean.TRUE);
    return null;
  }

  private static boolean inFlight(Optional<TableEntity> header) {
    Object state = header.map(entity -> entity.getProperties().get("state")).orElse(null);
    return Intent.stateName(Intent.State.APPLYING).equals(state) || Intent.stateName(Intent.State.UNDOING).equals(state);
  }

  /** In flight, or committed with its marks still being cleared (its header is deleted after them). */
  private static boolean unfinished(Optional<TableEntity> header) {
    return inFlight(header) || Intent.stateName(Intent.State.COMMITTED)
        .equals(header.map(entity -> entity.getProperties().get("state")).orElse(null));
  }

  /** The longest pause between two looks at an intent a writer waits for. */
  private static final long MAX_PAUSE_MILLIS = 200;

  /**
   * Waits until an intent in flight has ended (committed, or undone) and, if committed, its marks
   * are cleared (so that a statement run again reads the rows as they stay), as a writer that
   * meets a row another transaction is writing does, looking at its header with growing pauses;
   * past its lease it is settled as recovery would (its writer stopped). At most the lease and one
   * more pause; {@code stopIfAsked} throws for a cancel or a query timeout. Returns whether it has
   * ended; false if it is still in flight (its recovery failed, or the wait was interrupted).
   */
  static boolean awaitOutcome(Session session, String id, RequestCounters counters, Runnable stopIfAsked) {
    long lease = TimeUnit.SECONDS.toNanos(session.settings().getInt(DriverProperty.INTENT_LEASE));
    long start = System.nanoTime();
    long pause = 10;
    while (unfinished(header(session, id, counters))) {
      stopIfAsked.run();
      if (System.nanoTime() - start > lease) {
        IntentRecovery.settleIfExpired(session, id, counters);
        return !inFlight(header(session, id, counters));
      }
      try {
        Thread.sleep(pause);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
      pause = Math.min(MAX_PAUSE_MILLIS, pause * 2);
    }
    return true;
  }

  /** An intent's header with its state only (one GET); empty if it is gone, or no intent was ever recorded. */
  static Optional<TableEntity> header(Session session, String id, RequestCounters counters) {
    return header(session, id, List.of("state"), counters);
  }

  /** An intent's header with the properties {@code select} names (null: all); empty if it is gone. */
  static Optional<TableEntity> header(Session session, String id, List<String> select, RequestCounters counters) {
    try {
      return session.store().get(Intent.TABLE, id, Intent.HEADER, select, counters);
    } catch (StoreException e) {
      if (SqlStates.TABLE_NOT_FOUND.equals(e.sqlState())) {
        return Optional.empty();
      }
      throw e;
    }
  }

  /**
   * The refusal of a write of a row an intent in flight wrote. An intent's own groups are refused
   * at once (no wait): two intents waiting for each other would wait out their leases.
   */
  private static StoreException beingWritten(TableEntity row, String intent) {
    return ConcurrentChange.nothingWritten("the row (PartitionKey '" + row.getPartitionKey() + "', RowKey '"
        + row.getRowKey() + "') is being written by another transaction (intent " + intent + ") that has not "
        + "committed yet");
  }

  /**
   * What a duplicate key that an INSERT of {@code group} met comes to; reads the inserted keys,
   * only on this error's path. A row there that an intent in flight wrote is that transaction's
   * write in flight, not a committed row: 40001 (run again once it has settled), not 23505,
   * thrown; with {@code waitStop} (a statement's own group) only once that transaction has ended
   * ({@link #awaitOutcome}), as a {@link SettledConflict}, so that the statement run again meets
   * the committed row (23505) or a free key. A tombstone of a settled intent is a deleted row: the group is returned with each such
   * INSERT a REPLACE of the tombstone, conditional on its ETag, to be sent again; so is a group
   * whose inserted key is free by the time it is read (the tombstone was removed since). Null
   * where the duplicate stands.
   */
  public static List<WriteOperation> overTombstones(Session session, List<WriteOperation> group, StoreException e,
      RequestCounters counters, Runnable waitStop) {
    if (!SqlStates.UNIQUE_VIOLATION.equals(e.sqlState())) {
      return null;
    }
    List<WriteOperation> again = new ArrayList<>(group.size());
    boolean overTombstone = false;
    for (WriteOperation write : group) {
      Optional<TableEntity> row = write.kind() != Kind.INSERT ? Optional.empty()
          : session.store().get(write.table(), write.partitionKey(), write.rowKey(), null, counters);
      // a key that is free now held a tombstone the intent's clearing removed since the 409: send again
      overTombstone |= write.kind() == Kind.INSERT && row.isEmpty();
      String pending = row.isEmpty() ? null : pendingIntent(session, row.get(), counters);
      if (pending != null && !pending.equals(write.properties().get(RowMarks.MARK))) {
        StoreException refusal = beingWritten(row.get(), pending);
        throw waitStop != null && awaitOutcome(session, pending, counters, waitStop)
            ? new SettledConflict(refusal.getMessage()) : refusal;
      }
      if (row.isPresent() && pending == null && RowMarks.isTombstone(row.get().getProperties())) {
        overTombstone = true;
        again.add(new WriteOperation(write.table(), write.partitionKey(), write.rowKey(), Kind.REPLACE,
            write.properties(), row.get().getETag(), write.origin(), write.before()));
      } else if (row.isPresent() && pending == null) {
        return null; // a committed row holds the key: the duplicate stands
      } else {
        again.add(write);
      }
    }
    return overTombstone ? again : null;
  }

  /**
   * Removes a committed intent's marks from its rows in the tables {@code which} chooses, after its
   * commit point (before it, recovery may still judge its groups by them). Each group's rows are
   * read, and those that still hold exactly what the intent wrote, mark included, are written
   * again without it, conditional on the ETag just read, in one entity group transaction per
   * group. A row changed since keeps what its later writer left; a failure leaves marks of a
   * committed intent, which readers tell committed (logged, never an error of the statement).
   */
  static boolean clear(Session session, Intent intent, Which which, RequestCounters counters) {
    return clear(session, intent, which, Map.of(), counters);
  }

  /**
   * As {@link #clear(Session, Intent, Which, RequestCounters)}, knowing the ETag {@code written}
   * gives for each row as the intent's group left it (the group's answer): such a row is not read
   * again. Its clearing is conditional on that ETag, so a row changed since is not cleared by it.
   * Returns whether it is done: false if the service could not be reached or was busy (the intent
   * is then kept, committed, for recovery to clear again: deleted, its kept entries and marks
   * would stay for good); true once every entity was cleared or refused for good (changed since,
   * or not writable as it is), whose mark readers take as committed.
   */
  static boolean clear(Session session, Intent intent, Which which, Map<WriteOperation.EntityKey, String> written,
      RequestCounters counters) {
    if (!intent.marked()) {
      return true;
    }
    SETTLED.put(intent.id(), Boolean.TRUE);
    try {
      clearTables(session, intent, which, written, counters);
      return true;
    } catch (StoreException e) {
      LOG.debug("The marks of intent {} stay on some of its rows: {}", intent.id(), e.getMessage());
      return !PASSING.contains(e.sqlState());
    } catch (RuntimeException e) {
      LOG.debug("The marks of intent {} stay on its rows for now: {}", intent.id(), e.getMessage());
      return false;
    }
  }

  /** Failures that pass (a busy or unreachable service): a clearing they stopped is tried again. */
  private static final java.util.Set<String> PASSING = java.util.Set.of(SqlStates.SERVICE_BUSY,
      SqlStates.COMMUNICATION_FAILURE, SqlStates.UNABLE_TO_CONNECT, SqlStates.TIMEOUT,
      SqlStates.TRANSACTION_RESOLUTION_UNKNOWN);

  /** Which tables' marks a clearing removes. */
  enum Which {
    /** Tables the application reads itself (raw, mapped OVER its data): cleared before the commit returns. */
    THE_APPLICATIONS,
    /** Tables tablesql declared: cleared behind the commit. */
    TABLESQLS,
    ALL;

    boolean includes(Session session, String table) {
      return this == ALL || (this == TABLESQLS) == ownedByTableSql(session, table);
    }
  }

  /** Whether tablesql declared the table, so that only tablesql reads its entities. */
  private static boolean ownedByTableSql(Session session, String table) {
    TableDefinition definition = Catalog.ofPhysicalTable(session, table);
    return definition != null && !definition.layout().isMapped();
  }

  private static void clearTables(Session session, Intent intent, Which which,
      Map<WriteOperation.EntityKey, String> answered, RequestCounters counters) {
    Map<Integer, List<Intent.Step>> groups = new TreeMap<>();
    Map<String, Boolean> chosen = new java.util.HashMap<>();
    for (Intent.Step step : intent.steps()) {
      if ((step.write().kind() == Kind.TOMBSTONE || !step.write().kind().deletes())
          && chosen.computeIfAbsent(step.write().table(), table -> which.includes(session, table))) {
        groups.computeIfAbsent(step.group(), g -> new ArrayList<>()).add(step);
      }
    }
    Parallel.map(new ArrayList<>(groups.values()), session.maxConcurrency(), steps -> {
      try {
        clearGroup(session, intent, steps, answered, counters);
      } catch (StoreException e) {
        if (!SqlStates.TABLE_NOT_FOUND.equals(e.sqlState()) && !SqlStates.OBJECT_IN_USE.equals(e.sqlState())) {
          throw e;
        } // a table dropped since (or being deleted): nothing of it to clear
      }
      return null;
    });
  }

  /** Clears the marks of one group's rows (one table and partition) and of their LOCAL and UNIQUE entries. */
  private static void clearGroup(Session session, Intent intent, List<Intent.Step> steps,
      Map<WriteOperation.EntityKey, String> answered, RequestCounters counters) {
    List<WriteOperation> clears = new ArrayList<>();
    for (Intent.Step step : steps) {
      WriteOperation write = step.write();
      WriteOperation known = clearingAsWritten(intent, step, answered.get(write.key()));
      if (known != null) {
        clears.add(known);
        continue;
      }
      Optional<TableEntity> row = session.store().get(write.table(), write.partitionKey(), write.rowKey(), null,
          counters);
      if (write.kind() == Kind.TOMBSTONE) { // the delete, done
        if (EntityMatch.holds(write, row)) {
          clears.add(new WriteOperation(write.table(), write.partitionKey(), write.rowKey(), Kind.DELETE, Map.of(),
              row.get().getETag(), "removing the tombstone of intent " + intent.id()));
        }
        continue;
      }
      Map<String, Object> written = write.after(step.before());
      if (row.isPresent() && RowMarks.carriesMark(row.get().getProperties(), intent.id())
          && EntityMatch.holdsExactly(written, row.get())) {
        clears.add(new WriteOperation(write.table(), write.partitionKey(), write.rowKey(), Kind.REPLACE,
            TableShape.userProperties(row.get()), row.get().getETag(), "clearing the mark of intent " + intent.id()));
      }
    }
    for (Intent.Step step : steps) {
      clears.addAll(GroupUpkeep.installed().localEntryClearings(session, intent, step, counters));
    }
    // an entry the statement wrote itself (an adopted copy written by hand) is also a step:
    // one clearing per entity, as a transaction names each entity once
    java.util.Set<WriteOperation.EntityKey> named = new java.util.HashSet<>();
    clears.removeIf(clear -> !named.add(clear.key()));
    if (!clears.isEmpty()) {
      try {
        session.store().submit(clears.get(0).table(), clears, counters);
      } catch (StoreException e) {
        // an entity changed since it was read (its later writer's values stay): the others one by one,
        // so that one row's change leaves no tombstone or mark of the rest behind
        LOG.debug("The marks of intent {} are cleared one by one in a group: {}", intent.id(), e.getMessage());
        for (WriteOperation clear : clears) {
          session.store().write(clear.table(), clear, counters);
        }
      }
    }
    for (Intent.Step step : steps) {
      for (WriteOperation old : GroupUpkeep.installed().keptUniqueEntries(session, intent, step, false, counters)) {
        bestEffort(session, old, counters); // another table: one by one
      }
    }
  }

  /**
   * The clearing of a step's row as its group left it, from the ETag that group's answer gave and
   * the row's whole values then (the values before, which the intent holds whole, with the write):
   * the tombstone deleted, or the row replaced by its values without the mark, on that ETag. Null
   * where the ETag or the whole row is not known (the row is read then).
   */
  private static WriteOperation clearingAsWritten(Intent intent, Intent.Step step, String etag) {
    WriteOperation write = step.write();
    if (etag == null) {
      return null;
    }
    if (write.kind() == Kind.TOMBSTONE) {
      return new WriteOperation(write.table(), write.partitionKey(), write.rowKey(), Kind.DELETE, Map.of(), etag,
          "removing the tombstone of intent " + intent.id());
    }
    boolean whole = write.kind() == Kind.INSERT || write.kind() == Kind.REPLACE
        || (write.kind() == Kind.MERGE && step.before() != null);
    if (!whole) {
      return null;
    }
    Map<String, Object> values = write.after(step.before());
    values.keySet().removeIf(name -> !TableShape.isUserProperty(name));
    return new WriteOperation(write.table(), write.partitionKey(), write.rowKey(), Kind.REPLACE, values, etag,
        "clearing the mark of intent " + intent.id());
  }

  /**
   * After an undo: the removal of the entries of the values its groups gave back up (a step's
   * values after it, which the row no longer has) that the undo kept as this intent's tombstones
   * for the row another of its groups took the value back to, where none took them (as
   * after a commit, the other way round). Each conditional on the ETag just read; best
   * effort: a tombstone of a settled intent is free to any writer, and readers skip it.
   */
  static void removeUndoneUniqueEntries(Session session, Intent intent, List<Intent.Step> steps,
      RequestCounters counters) {
    for (Intent.Step step : steps) {
      for (WriteOperation kept : GroupUpkeep.installed().keptUniqueEntries(session, intent, step, true, counters)) {
        bestEffort(session, kept, counters);
      }
    }
  }

  /** A write whose failure leaves nothing wrong (what it removes, readers skip). */
  private static void bestEffort(Session session, WriteOperation write, RequestCounters counters) {
    try {
      session.store().write(write.table(), write, counters);
    } catch (StoreException e) {
      LOG.debug("Left for readers to skip: {}", e.getMessage());
    }
  }
}
