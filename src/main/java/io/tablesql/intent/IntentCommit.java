package io.tablesql.intent;

import com.azure.data.tables.models.TableEntity;
import io.tablesql.catalog.TableShape;
import io.tablesql.errors.SqlExceptions;
import io.tablesql.errors.SqlStates;
import io.tablesql.session.Session;
import io.tablesql.settings.DriverProperty;
import io.tablesql.store.Parallel;
import io.tablesql.store.RequestCounters;
import io.tablesql.store.StoreException;
import io.tablesql.store.TableStore.EntityWrite;
import io.tablesql.txn.RowMarks;
import io.tablesql.txn.WriteOperation.Kind;
import io.tablesql.txn.WriteOperation;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Commits writes that do not fit one entity group transaction, all or nothing, through a durable
 * intent (docs/architecture/intents.md, "Writes across partitions"): every write is made conditional on the
 * row before it, and that row kept; the intent records both; then the groups are applied; once
 * all are, one conditional write of the intent's header commits the write (until then readers
 * read the rows as they were before), and its marks are cleared and the intent deleted behind
 * the commit. A group refused for good undoes the groups applied; a group whose outcome cannot
 * be learnt leaves the intent to recovery (08007).
 */
public final class IntentCommit {
  /** One group's answer. */
  private enum Answer { APPLIED, REFUSED, UNKNOWN, NOT_SENT, WAITING }

  /** Causes of a failed recording that a retry meets again; any other is reported as 40001 (retry). */
  private static final java.util.Set<String> RETRY_CANNOT_PASS = java.util.Set.of(SqlStates.INVALID_AUTHORIZATION,
      SqlStates.INSUFFICIENT_PRIVILEGE, SqlStates.UNABLE_TO_CONNECT, SqlStates.READ_ONLY,
      SqlStates.PROGRAM_LIMIT_EXCEEDED, SqlStates.SERVICE_BUSY);

  private final Session session;
  private final GroupUpkeep upkeep = GroupUpkeep.installed();
  private final RequestCounters counters;
  /** The failures of the groups, in the order they came. */
  private final List<StoreException> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
  /** Set when renewing the lease found the intent taken over: nothing more is sent. */
  private volatile StoreException lostLease;
  /** The ETag each applied write left its row with, as the groups' answers gave it: the clearing needs no read. */
  private final Map<WriteOperation.EntityKey, String> written = new java.util.concurrent.ConcurrentHashMap<>();

  private IntentCommit(Session session, RequestCounters counters) {
    this.session = session;
    this.counters = counters;
  }

  /**
   * Commits the writes (each entity at most once, deletes resolved). {@code what} names them in
   * messages ("The transaction", "The statement").
   */
  public static void commit(Session session, List<WriteOperation> writes, RequestCounters counters, String what)
      throws SQLException {
    new IntentCommit(session, counters).run(writes, what);
  }

  private void run(List<WriteOperation> writes, String what) throws SQLException {
    String id = Intent.newId();
    List<WriteOperation> conditional = prepare(writes).stream().map(write -> RowMarks.withMark(write, id)).toList();
    List<List<WriteOperation>> groups = upkeep.groups(session, conditional);
    upkeep.checkUniqueAcrossGroups(session, groups);
    List<Intent.Step> steps = new ArrayList<>();
    for (int g = 0; g < groups.size(); g++) {
      for (WriteOperation write : groups.get(g)) {
        steps.add(new Intent.Step(g, write, write.before()));
      }
    }
    boolean derives = upkeep.derives(session, conditional);
    if (derives) {
      try {
        upkeep.checkViews(session, conditional);
      } catch (StoreException e) {
        throw e.toSqlException();
      }
    }
    Intent intent = new Intent(id, session.id(), steps, derives, true);
    Intent.Records records;
    try {
      records = intent.records(Intent.State.APPLYING, null, OffsetDateTime.now(ZoneOffset.UTC));
    } catch (IllegalArgumentException e) {
      throw SqlExceptions.of(what + " is too large to commit all or nothing: " + e.getMessage() + ". Nothing was "
          + "written. Write in smaller transactions.", SqlStates.PROGRAM_LIMIT_EXCEEDED);
    }
    IntentLease lease = record(intent, records, what);
    if (derives && upkeep.summaryBuildBegan(session, conditional)) {
      // a summary's build began before its scan could see this intent: nothing is applied yet
      deleteQuietly(lease, records);
      try {
        upkeep.awaitFreshSummaries(session, conditional);
      } catch (StoreException e) {
        throw e.toSqlException();
      }
      run(writes, what);
      return;
    }
    for (String table : tablesOf(groups)) {
      upkeep.tableChanged(session, table);
    }
    Answer[] answers = apply(groups, lease);
    StoreException refusal = null;
    StoreException unknown = null;
    boolean allApplied = true;
    Map<Integer, IntentSettlement.Verdict> known = new HashMap<>();
    for (int g = 0; g < answers.length; g++) {
      allApplied &= answers[g] == Answer.APPLIED;
      if (answers[g] == Answer.APPLIED) {
        known.put(g, IntentSettlement.Verdict.APPLIED);
      } else if (answers[g] == Answer.REFUSED || answers[g] == Answer.NOT_SENT) {
        known.put(g, IntentSettlement.Verdict.NOT_APPLIED);
      }
    }
    for (StoreException failure : failures) {
      if (SqlStates.TRANSACTION_RESOLUTION_UNKNOWN.equals(failure.sqlState())) {
        unknown = unknown == null ? failure : unknown;
      } else {
        refusal = refusal == null ? failure : refusal;
      }
    }
    if (allApplied) {
      if (derives) {
        repairViews(intent, lease, what);
      } else {
        commitPoint(lease, groups.size(), what);
      }
      CommittedReads.committed(intent.id());
      finishBehind(intent, lease, records);
      return;
    }
    if (lostLease != null) {
      throw lostLease.toSqlException();
    }
    IntentSettlement.Result result;
    try {
      result = IntentSettlement.settle(session, intent, lease, records.stepGroups().stream().mapToInt(List::size)
          .sum(), false, known, null);
    } catch (StoreException e) {
      throw SqlExceptions.of(what + " was sent as " + groups.size() + " entity groups through intent " + intent.id()
          + ", and its outcome is not known yet: " + e.getMessage(), SqlStates.TRANSACTION_RESOLUTION_UNKNOWN);
    }
    StoreException cause = refusal != null ? refusal : unknown;
    switch (result.outcome()) {
      case COMMITTED:
        return; // the groups whose answers were lost were applied
      case UNDONE:
        // a group whose answer was lost and that its rows show not applied was refused (a row
        // changed since it was read) or never reached the service: nothing is written, a retry is safe
        throw SqlExceptions.of(cause.getMessage() + " " + what + " was not committed: nothing of it was written (its "
            + groups.size() + " entity groups were sent through intent " + intent.id() + "; those applied were undone)."
            + (refusal != null ? "" : " Run it again."), refusal != null ? refusal.sqlState()
            : SqlStates.SERIALIZATION_FAILURE);
      default:
        throw SqlExceptions.of(cause.getMessage() + " " + what + " was not committed and was undone, except where "
            + "another writer changed a row after it was written: " + result.reason() + " Intent " + intent.id()
            + " is parked; SELECT * FROM tablesql.pending_writes shows it.", SqlStates.SERIALIZATION_FAILURE);
    }
  }

  /**
   * Every write made conditional on the row before it, and that row kept for the undo: an insert
   * requires the row's absence; an update or delete carries the ETag and values its statement
   * read; an upsert reads the row and becomes an insert or a conditional update.
   */
  /** A commit is not a statement: no cancel or query timeout stops its wait for another's intent. */
  private static final Runnable NO_STOP = () -> { };

  private List<WriteOperation> prepare(List<WriteOperation> writes) throws SQLException {
    List<WriteOperation> unread = writes.stream()
        .filter(w -> w.kind() != Kind.INSERT && (w.etag() == null || w.before() == null)).toList();
    List<Optional<TableEntity>> read = Parallel.map(unread, session.maxConcurrency(),
        w -> session.store().get(w.table(), w.partitionKey(), w.rowKey(), null, counters));
    Map<WriteOperation, Optional<TableEntity>> rows = new java.util.IdentityHashMap<>();
    for (int i = 0; i < unread.size(); i++) {
      rows.put(unread.get(i), read.get(i));
    }
    List<WriteOperation> prepared = new ArrayList<>(writes.size());
    for (WriteOperation write : writes) {
      Optional<TableEntity> row = rows.get(write);
      if (row != null && row.isPresent() && RowMarks.isTombstone(row.get().getProperties())) {
        IntentMarks.checkNotPending(session, row.get(), counters, NO_STOP);
        row = Optional.empty(); // a deleted row (a write over it replaces the tombstone: IndexedWrites)
      }
      if (row == null) {
        prepared.add(write);
      } else if (row.isEmpty()) {
        // an upsert of an absent row inserts it; an update of one is refused when applied (40001)
        boolean upsert = write.kind() == Kind.UPSERT_MERGE || write.kind() == Kind.UPSERT_REPLACE;
        prepared.add(upsert ? with(write, Kind.INSERT, null, null) : write);
      } else {
        IntentMarks.checkNotPending(session, row.get(), counters, NO_STOP);
        Kind kind = write.kind() == Kind.UPSERT_MERGE ? Kind.MERGE
            : write.kind() == Kind.UPSERT_REPLACE ? Kind.REPLACE : write.kind();
        prepared.add(with(write, kind, write.etag() != null ? write.etag() : row.get().getETag(),
            TableShape.userProperties(row.get())));
      }
    }
    return prepared;
  }

  private static WriteOperation with(WriteOperation write, Kind kind, String etag, Map<String, Object> before) {
    return new WriteOperation(write.table(), write.partitionKey(), write.rowKey(), kind, write.properties(), etag,
        write.origin(), before);
  }

  /**
   * Records the intent: its step entities, then its header, whose write starts the lease. A
   * failure here has written nothing of the user's (an intent without applied groups is undone
   * by recovery as nothing).
   */
  private IntentLease record(Intent intent, Intent.Records records, String what) throws SQLException {
    long leaseNanos = TimeUnit.SECONDS.toNanos(session.settings().getInt(DriverProperty.INTENT_LEASE));
    long requestNanos = TimeUnit.SECONDS.toNanos(session.settings().getInt(DriverProperty.REQUEST_TIMEOUT));
    long begun = System.nanoTime();
    try {
      for (List<WriteOperation> group : records.stepGroups()) {
        withIntentTable(() -> {
          session.store().submit(Intent.TABLE, group, counters);
          return null;
        });
      }
      long headerSent = System.nanoTime();
      if (!records.stepGroups().isEmpty() && headerSent - begun > leaseNanos - requestNanos) {
        // recovery removes step entities without a header once they are a lease old: the header's
        // answer must arrive before that
        throw new StoreException("Recording its steps took longer than intentLeaseSeconds allows.",
            SqlStates.COMMUNICATION_FAILURE, null);
      }
      EntityWrite header = withIntentTable(() -> session.store().write(Intent.TABLE, records.header(), counters));
      if (!header.written() || header.etag() == null) {
        throw new StoreException("The service refused its header (HTTP " + header.status() + ").",
            SqlStates.GENERAL_ERROR, null);
      }
      return new IntentLease(session, intent.id(), headerSent, header.etag(), counters.stoppable());
    } catch (StoreException e) {
      // nothing of the user's is written: an intent recorded without its answer is undone by
      // recovery as nothing, so unless the cause is one a retry cannot pass, a retry is safe
      String state = RETRY_CANNOT_PASS.contains(e.sqlState()) ? e.sqlState() : SqlStates.SERIALIZATION_FAILURE;
      throw SqlExceptions.of(what + " was not committed: nothing of it was written. Its intent (the record that "
          + "makes a write of several entity groups all or nothing) could not be written to " + Intent.TABLE + ": "
          + e.getMessage() + (state.equals(SqlStates.SERIALIZATION_FAILURE) ? " Run it again." : ""), state);
    }
  }

  /** Runs a write to the intents' table, creating the table on first need. */
  private <T> T withIntentTable(java.util.function.Supplier<T> write) {
    try {
      return write.get();
    } catch (StoreException e) {
      if (!SqlStates.TABLE_NOT_FOUND.equals(e.sqlState())) {
        throw e;
      }
      session.store().createTable(Intent.TABLE, counters);
      return write.get();
    }
  }

  /**
   * Sends the groups, {@code maxConcurrency} at a time; after a refusal, the groups not yet sent
   * are not sent (they would only be undone). A group that takes a UNIQUE value from a row another
   * group writes waits for a later round, when that group is applied (a row moving to another
   * partition, a value passed from one row to another); a round that applies nothing is followed
   * by one that waits for nothing, which gives those groups their final answer.
   */
  private Answer[] apply(List<List<WriteOperation>> groups, IntentLease lease) {
    Answer[] answers = new Answer[groups.size()];
    java.util.Arrays.fill(answers, Answer.NOT_SENT);
    AtomicBoolean stop = new AtomicBoolean();
    List<Integer> pending = java.util.stream.IntStream.range(0, groups.size()).boxed().toList();
    boolean waitForOthers = true;
    while (!pending.isEmpty() && !stop.get()) {
      java.util.Set<WriteOperation.EntityKey> pendingRows = waitForOthers
          ? keysOf(pending.stream().map(groups::get).toList()) : java.util.Set.of();
      List<Answer> round = Parallel.map(pending, session.maxConcurrency(),
          g -> send(groups.get(g), lease, pendingRows, stop));
      List<Integer> waiting = new ArrayList<>();
      for (int i = 0; i < pending.size(); i++) {
        answers[pending.get(i)] = round.get(i);
        if (round.get(i) == Answer.WAITING) {
          waiting.add(pending.get(i));
        }
      }
      waitForOthers = waiting.size() < pending.size();
      pending = waiting;
    }
    for (int g = 0; g < answers.length; g++) {
      answers[g] = answers[g] == Answer.WAITING ? Answer.NOT_SENT : answers[g];
    }
    return answers;
  }

  private Answer send(List<WriteOperation> group, IntentLease lease, java.util.Set<WriteOperation.EntityKey> pendingRows,
      AtomicBoolean stop) {
    if (stop.get()) {
      return Answer.NOT_SENT;
    }
    try {
      lease.renewIfDue();
    } catch (StoreException e) {
      lostLease = e;
      stop.set(true);
      return Answer.NOT_SENT;
    }
    try {
      List<String> etags = upkeep.submit(session, group, lease.counters(), pendingRows);
      if (etags == null) {
        return Answer.WAITING;
      }
      for (int i = 0; i < group.size(); i++) {
        if (etags.get(i) != null) {
          written.put(group.get(i).key(), etags.get(i));
        }
      }
      return Answer.APPLIED;
    } catch (StoreException e) {
      failures.add(e);
      if (SqlStates.TRANSACTION_RESOLUTION_UNKNOWN.equals(e.sqlState())) {
        return Answer.UNKNOWN;
      }
      stop.set(true);
      return Answer.REFUSED;
    } catch (RuntimeException e) { // not the service's answer: the rows tell whether the group was applied
      failures.add(new StoreException("Writing an entity group failed: " + e, SqlStates.TRANSACTION_RESOLUTION_UNKNOWN,
          e));
      return Answer.UNKNOWN;
    }
  }

  /**
   * Brings the materialized views of the committed rows up to date. If that fails, the intent
   * stays and recovery repairs them: the statement fails with 08007, since it did commit.
   */
  private void repairViews(Intent intent, IntentLease lease, String what) throws SQLException {
    try {
      // the decision first: a recovery after this point only brings the views up to date, and never
      // judges the groups again from rows that later writers may have changed
      lease.state(Intent.State.DERIVING, null);
      upkeep.repairViews(session, intent, true, lease.counters());
    } catch (RuntimeException e) { // the service's refusal, or a view entity that cannot hold a stored value
      throw SqlExceptions.of(what + " was committed, but its materialized views could not be brought up to date: "
          + e.getMessage() + " Recovery does that through intent " + intent.id() + " within intentLeaseSeconds.",
          SqlStates.TRANSACTION_RESOLUTION_UNKNOWN);
    }
  }

  /**
   * The commit point: the header's state becomes {@code committed}, on the lease's condition.
   * Until then readers read the rows as they were before; if this write's outcome is not known,
   * recovery decides (it finds every group applied, and commits).
   */
  private void commitPoint(IntentLease lease, int groups, String what) throws SQLException {
    try {
      lease.state(Intent.State.COMMITTED, null);
    } catch (StoreException e) {
      throw SqlExceptions.of(what + " was applied in all its " + groups + " entity groups, but its commit through "
          + "intent " + lease.id() + " could not be recorded: " + e.getMessage(),
          SqlStates.TRANSACTION_RESOLUTION_UNKNOWN);
    }
  }

  /**
   * After the commit point: the marks are cleared from tables the application reads itself before
   * the commit returns, and behind it from tables tablesql declared; then the intent is deleted.
   * A failure leaves the intent committed, for recovery to finish.
   */
  private void finishBehind(Intent intent, IntentLease lease, Intent.Records records) {
    boolean applicationsCleared = IntentMarks.clear(session, intent, IntentMarks.Which.THE_APPLICATIONS, written,
        new RequestCounters());
    IntentLease behind = lease.countedBy(new RequestCounters());
    int stepEntities = records.stepGroups().stream().mapToInt(List::size).sum();
    session.runBehind(() -> {
      boolean cleared = IntentMarks.clear(session, intent, IntentMarks.Which.TABLESQLS, behind.counters());
      if (!cleared || !applicationsCleared) {
        return; // kept, committed: recovery clears what is left, then deletes it
      }
      try {
        behind.delete(stepEntities);
      } catch (StoreException e) { // recovery deletes it
      }
    }, IntentMarks.BEHIND);
  }

  /** Deletes the intent; false if it may be left (for recovery, which finds every group applied and deletes it). */
  private boolean deleteQuietly(IntentLease lease, Intent.Records records) {
    try {
      lease.delete(records.stepGroups().stream().mapToInt(List::size).sum());
      return true;
    } catch (StoreException e) {
      return false;
    }
  }

  private static java.util.Set<WriteOperation.EntityKey> keysOf(List<List<WriteOperation>> groups) {
    java.util.Set<WriteOperation.EntityKey> keys = new java.util.HashSet<>();
    groups.forEach(group -> group.forEach(write -> keys.add(write.key())));
    return keys;
  }

  private static List<String> tablesOf(List<List<WriteOperation>> groups) {
    return groups.stream().map(g -> g.get(0).table()).distinct().toList();
  }
}
