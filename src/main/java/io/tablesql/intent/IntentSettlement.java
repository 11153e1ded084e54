package io.tablesql.intent;

import com.azure.data.tables.models.TableEntity;
import io.tablesql.errors.SqlStates;
import io.tablesql.session.Session;
import io.tablesql.store.EntityMatch;
import io.tablesql.store.Parallel;
import io.tablesql.store.StoreException;
import io.tablesql.txn.RowMarks;
import io.tablesql.txn.WriteOperation.Kind;
import io.tablesql.txn.WriteOperation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Settles an intent whose groups did not all answer "applied": judges each group from its rows
 * (a group is one entity group transaction, all or nothing, so its rows agree), then either
 * deletes the intent (every group applied: the write is committed) or undoes the applied groups
 * and then deletes it. The committing connection settles its own failed commit this way, and
 * recovery settles an intent whose committer is gone; each write is conditional on the row as
 * just read, so a settlement interrupted and run again never applies or undoes anything twice.
 * A row changed by another writer since the intent wrote it is not overwritten: the intent is
 * parked with the reason.
 */
final class IntentSettlement {
  /** Whether a group's writes were applied. */
  enum Verdict { APPLIED, NOT_APPLIED }

  /** What the settlement came to: committed, undone, or parked (undone but for the rows the reason names). */
  enum Outcome { COMMITTED, UNDONE, PARKED }

  /** The outcome, and for a parked intent why. */
  record Result(Outcome outcome, String reason) {
  }

  /** What a row shows of its step: the intent's write, the row before it, or another writer's change. */
  private enum RowState { WRITTEN, BEFORE, OTHER }

  private final Session session;
  private final Intent intent;
  private final IntentLease lease;
  private final int stepEntities;
  private final List<String> parked = new ArrayList<>();

  private IntentSettlement(Session session, Intent intent, IntentLease lease, int stepEntities) {
    this.session = session;
    this.intent = intent;
    this.lease = lease;
    this.stepEntities = stepEntities;
  }

  /**
   * Settles the intent. {@code known}: verdicts the caller is sure of (a group answered, refused
   * or never sent); the others are read. {@code undoing}: the intent was already decided undone,
   * and {@code toUndo} names the groups that may have been applied (null: all). Throws 08007 when
   * the rows cannot be read or the lease is lost: the intent stays for recovery.
   */
  static Result settle(Session session, Intent intent, IntentLease lease, int stepEntities, boolean undoing,
      Map<Integer, Verdict> known, java.util.Set<Integer> toUndo) {
    return new IntentSettlement(session, intent, lease, stepEntities).settle(undoing, known, toUndo);
  }

  private Result settle(boolean undoing, Map<Integer, Verdict> known, java.util.Set<Integer> toUndo) {
    Map<Integer, List<Intent.Step>> groups = new TreeMap<>();
    intent.steps().forEach(step -> groups.computeIfAbsent(step.group(), g -> new ArrayList<>()).add(step));
    java.util.Set<Integer> undo = new java.util.TreeSet<>(toUndo == null ? groups.keySet() : toUndo);
    if (!undoing) {
      undo.clear();
      for (Map.Entry<Integer, List<Intent.Step>> group : groups.entrySet()) {
        Verdict verdict = known.get(group.getKey());
        if (verdict == null) {
          verdict = judge(group.getValue(), read(group.getValue()));
        }
        if (verdict == Verdict.APPLIED) {
          undo.add(group.getKey());
        }
      }
      if (undo.size() == groups.size()) {
        commit(session, intent, lease, stepEntities, Intent.State.APPLYING);
        return new Result(Outcome.COMMITTED, null);
      }
      // the decision, and the groups it concerns, before any undo: a group refused for good is
      // told from one applied and changed since only now
      lease.update(Map.of("state", Intent.stateName(Intent.State.UNDOING), "undo",
          undo.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(","))));
    }
    undoInRounds(groups, undo);
    if (intent.marked()) {
      IntentMarks.removeUndoneUniqueEntries(session, intent, intent.steps(), lease.counters());
    }
    if (intent.derives()) { // a copy read while a group was applied follows the undo (no summary took it)
      GroupUpkeep.installed().repairViews(session, intent, false, lease.counters());
    }
    if (parked.isEmpty()) {
      lease.delete(stepEntities);
      return new Result(Outcome.UNDONE, null);
    }
    String reason = String.join(" ", parked);
    lease.state(Intent.State.PARKED, reason.length() > 30_000 ? reason.substring(0, 30_000) + "..." : reason);
    return new Result(Outcome.PARKED, reason);
  }

  /**
   * Commits an intent whose groups are all applied, or finishes one committed already: the
   * decision (one conditional write of the header: {@code deriving} when views follow, else
   * {@code committed}; none where {@code state}, the header's, says so already), the views, the
   * marks cleared, the intent deleted. An intent of format 3
   * has no {@code committed} state, which drivers that know only format 3 do not read: it is
   * deleted first, as they do, and its marks cleared after (while its header exists, their
   * recovery judges its groups by the marks).
   */
  static void commit(Session session, Intent intent, IntentLease lease, int stepEntities, Intent.State state) {
    if (intent.derives()) {
      if (state != Intent.State.DERIVING) {
        lease.state(Intent.State.DERIVING, null);
      }
      GroupUpkeep.installed().repairViews(session, intent, true, lease.counters());
    } else if (intent.hasCommitState() && state != Intent.State.COMMITTED) {
      lease.state(Intent.State.COMMITTED, null);
    }
    if (intent.hasCommitState()) {
      if (IntentMarks.clear(session, intent, IntentMarks.Which.ALL, lease.counters())) {
        lease.delete(stepEntities);
      } // else kept, committed: the next recovery clears what is left, then deletes it
    } else {
      lease.delete(stepEntities);
      IntentMarks.clear(session, intent, IntentMarks.Which.ALL, lease.counters());
    }
  }

  /**
   * Whether a group was applied. An intent that marks its rows: applied if a row carries its mark
   * (a group is one entity group transaction, so one row decides it) or, for a group that only
   * deletes, if its rows are gone; otherwise not, whatever its rows hold now: a row changed by
   * another writer since it was read refused the group (412), and taking that change for this
   * intent's write would report a lost write as committed. An intent of an earlier format (no
   * marks): applied unless one of its rows is still as it was before.
   */
  private Verdict judge(List<Intent.Step> steps, List<Optional<TableEntity>> rows) {
    if (intent.marked()) {
      boolean onlyDeletes = true;
      boolean allGone = true;
      for (int i = 0; i < steps.size(); i++) {
        Optional<TableEntity> row = rows.get(i);
        if (row.isPresent() && RowMarks.carriesMark(row.get().getProperties(), intent.id())) {
          return Verdict.APPLIED;
        }
        onlyDeletes &= steps.get(i).write().kind().deletes();
        allGone &= row.isEmpty();
      }
      return onlyDeletes && allGone ? Verdict.APPLIED : Verdict.NOT_APPLIED;
    }
    for (int i = 0; i < steps.size(); i++) {
      if (state(steps.get(i), rows.get(i)) == RowState.BEFORE) {
        return Verdict.NOT_APPLIED;
      }
    }
    // every row shows the write, or a later one: the group's transaction was applied
    return Verdict.APPLIED;
  }

  /**
   * Undoes the groups one by one. A group that takes back a UNIQUE value from a row another
   * group still to be undone holds (a row moved back) waits for a later round; a round that
   * undoes nothing is followed by one that waits for nothing.
   */
  private void undoInRounds(Map<Integer, List<Intent.Step>> groups, java.util.Set<Integer> undo) {
    List<Integer> left = undo.stream().filter(groups::containsKey).toList();
    boolean waitForOthers = true;
    while (!left.isEmpty()) {
      java.util.Set<Integer> notUndone = new java.util.HashSet<>(left);
      List<Integer> waiting = new ArrayList<>();
      for (int group : left) {
        java.util.Set<WriteOperation.EntityKey> others = new java.util.HashSet<>();
        if (waitForOthers) { // the rows of the other groups still to undo (not this group's own)
          notUndone.stream().filter(g -> g != group)
              .forEach(g -> groups.get(g).forEach(step -> others.add(step.write().key())));
        }
        if (undo(group, groups.get(group), others)) {
          notUndone.remove(group);
        } else {
          waiting.add(group);
        }
      }
      waitForOthers = waiting.size() < left.size();
      left = waiting;
    }
  }

  /**
   * Undoes one group's writes that its rows still show, in one entity group transaction; parks
   * the rest. False if it waits for the groups writing {@code others}.
   */
  private boolean undo(int group, List<Intent.Step> steps, java.util.Set<WriteOperation.EntityKey> others) {
    for (int attempt = 1; ; attempt++) {
      List<Optional<TableEntity>> rows = read(steps);
      List<WriteOperation> undo = new ArrayList<>();
      List<String> changed = new ArrayList<>();
      for (int i = 0; i < steps.size(); i++) {
        Intent.Step step = steps.get(i);
        switch (state(step, rows.get(i))) {
          case WRITTEN -> undo.add(undoOf(step, rows.get(i).orElse(null)));
          case OTHER -> changed.add(step.write().describe());
          default -> { } // as before: never applied, or undone already
        }
      }
      try {
        if (!undo.isEmpty()) {
          lease.renewIfDue();
          if (!GroupUpkeep.installed().submitUndo(session, undo, lease.counters(), others, intent.id())) {
            return false;
          }
        }
        if (!changed.isEmpty()) {
          parked.add("Group " + group + ": " + String.join(", ", changed) + " changed after this write applied, "
              + "and stays as the later writer left it.");
        }
        return true;
      } catch (StoreException e) {
        if (SqlStates.TRANSACTION_RESOLUTION_UNKNOWN.equals(e.sqlState())) {
          throw e;
        }
        if (attempt == 2 && SqlStates.SERIALIZATION_FAILURE.equals(e.sqlState())) {
          // a conflict that passes (a row changing under the undo, a UNIQUE entry within its
          // grace period): not a step that can never apply, so not parked; recovery tries again
          throw new StoreException("Group " + group + " of intent " + intent.id() + " could not be undone yet ("
              + e.getMessage() + "). Recovery tries again within intentLeaseSeconds; SELECT * FROM "
              + "tablesql.pending_writes shows it until then.", SqlStates.TRANSACTION_RESOLUTION_UNKNOWN, e);
        }
        if (attempt == 2) {
          parked.add("Group " + group + " could not be undone: " + e.getMessage());
          return true;
        }
        // a row changed between the read and the undo: read again, undo what still shows the write
      }
    }
  }

  /** The write that puts a row back as it was before the step, conditional on the row as read now. */
  private static WriteOperation undoOf(Intent.Step step, TableEntity now) {
    WriteOperation write = step.write();
    if (write.kind() == Kind.DELETE) {
      return new WriteOperation(write.table(), write.partitionKey(), write.rowKey(), Kind.INSERT, step.before(), null,
          "undo of intent");
    }
    if (step.before() == null) {
      return new WriteOperation(write.table(), write.partitionKey(), write.rowKey(), Kind.DELETE, Map.of(),
          now.getETag(), "undo of intent");
    }
    return new WriteOperation(write.table(), write.partitionKey(), write.rowKey(), Kind.REPLACE, step.before(),
        now.getETag(), "undo of intent");
  }

  /**
   * What a row shows of its step. For an intent that marks its rows: its mark with the write's
   * values means the write is there; its mark with other values, that another writer changed it
   * since; no mark, that nothing of the write is there. For an intent of an earlier format: the
   * ETag the write was conditional on, or the absence an insert required, means the write never
   * applied; the write's values mean it did; the values before it (under another ETag) mean it was
   * undone; anything else is another writer's.
   */
  private RowState state(Intent.Step step, Optional<TableEntity> row) {
    WriteOperation write = step.write();
    if (intent.marked() && (write.kind() == Kind.TOMBSTONE || !write.kind().deletes())) {
      // the mark, not the values, tells this intent's write from another writer's: a row without
      // it holds nothing of this intent (never applied, or undone already, perhaps by an undo
      // whose answer was lost and on which tablesql's writers have built since: they refuse a row
      // whose mark names an intent in flight, never one without)
      if (row.isPresent() && RowMarks.carriesMark(row.get().getProperties(), intent.id())) {
        return EntityMatch.holds(write, row) ? RowState.WRITTEN : RowState.OTHER;
      }
      return RowState.BEFORE;
    }
    if (write.kind() == Kind.INSERT) {
      return row.isEmpty() ? RowState.BEFORE : EntityMatch.holds(write, row) ? RowState.WRITTEN : RowState.OTHER;
    }
    if (write.kind() == Kind.DELETE) {
      if (row.isEmpty()) {
        return RowState.WRITTEN;
      }
    } else if (row.isEmpty()) {
      return RowState.OTHER;
    } else if (EntityMatch.holds(write, row) && !row.get().getETag().equals(write.etag())) {
      return RowState.WRITTEN;
    }
    if (row.get().getETag().equals(write.etag())
        || (step.before() != null && EntityMatch.holdsExactly(step.before(), row.get()))) {
      return RowState.BEFORE;
    }
    return RowState.OTHER;
  }

  /** The rows the steps name, as they are now; 08007 if they cannot be read. */
  private List<Optional<TableEntity>> read(List<Intent.Step> steps) {
    try {
      return Parallel.map(steps, session.maxConcurrency(), step -> session.store().get(step.write().table(),
          step.write().partitionKey(), step.write().rowKey(), null, lease.counters()));
    } catch (StoreException e) {
      throw new StoreException("The rows of intent " + intent.id() + " could not be read to settle it ("
          + e.getMessage() + "). Recovery settles it all or nothing within intentLeaseSeconds; SELECT * FROM "
          + "tablesql.pending_writes shows it until then.", SqlStates.TRANSACTION_RESOLUTION_UNKNOWN, e);
    }
  }
}
