package io.tablesql.exec;

import com.azure.data.tables.models.TableEntity;
import io.tablesql.catalog.Catalog;
import io.tablesql.catalog.IndexDefinition;
import io.tablesql.catalog.TableDefinition;
import io.tablesql.errors.SqlStates;
import io.tablesql.intent.GroupUpkeep;
import io.tablesql.intent.IntentMarks;
import io.tablesql.session.Session;
import io.tablesql.settings.DriverProperty;
import io.tablesql.store.ConcurrentChange;
import io.tablesql.store.Parallel;
import io.tablesql.store.RequestCounters;
import io.tablesql.store.StoreException;
import io.tablesql.store.TableStore.EntityWrite;
import io.tablesql.txn.RowMarks;
import io.tablesql.txn.WriteOperation.Kind;
import io.tablesql.txn.WriteOperation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Sends one entity group of a table with secondary indexes and keeps its indexes right (see
 * docs/architecture/indexes.md, "Global index consistency"). No transaction spans the row's partition and the
 * index's, so the steps are ordered to make a crash leave only extra entries, which reads
 * recognise, never a missing one:
 * <ol>
 *   <li>read the rows as they are now (an INSERT needs not: its row is absent) and make every row
 *       write conditional on that version, so that what the indexes held before is known exactly;</li>
 *   <li>add the entries of the new values;</li>
 *   <li>write the rows (one entity group transaction, as without indexes);</li>
 *   <li>remove the entries of the old values, each on the condition that it is still the one read.</li>
 * </ol>
 * If the rows are not written, the entries this write made are removed again, each only as it
 * made it (an entry that was there already, or was written again since, may be a concurrent
 * write's and stays as an extra entry); if nobody can tell whether they were (a lost answer),
 * all stay, and reads check them against their rows.
 *
 * <p>Within an intent (a write of several groups), a UNIQUE value this group takes from a row
 * another group of the intent writes waits for that group: the group is not sent, and
 * {@link #submit(Session, List, RequestCounters, java.util.Set)} answers null.
 */
final class IndexedWrites {
  private final Session session;
  private final RequestCounters counters;
  private final String table;
  private final List<IndexEntries> indexes = new ArrayList<>();
  /** Entries added (with the ETag they got), removed again if the rows are not written. */
  private final List<Added> added = new ArrayList<>();
  /**
   * Rows that other groups of the same intent, not yet applied, write: a UNIQUE value one of them
   * holds is not judged until that group is applied (it may release the value).
   */
  private final java.util.Set<WriteOperation.EntityKey> others;
  /** The intent whose group this is (its mark on the rows), or null for a write of one group. */
  private String intent;
  /** The intent this group undoes (its writes carry no mark), or null. */
  private final String undoing;

  /** The intent whose marks are this group's own: the one it writes for, or the one it undoes; null for neither. */
  private String ownIntent() {
    return intent != null ? intent : undoing;
  }

  /**
   * An entry added, with the ETag it got, and the entry of another row of this group it took
   * the place of (a UNIQUE value moving between rows), which it goes back to if the rows fail.
   * {@code exclusive}: an entry this write made, or a UNIQUE one it took from another row; not
   * one that was there already (a concurrent write of the same row and value may need it). A
   * concurrent write that needs an exclusive entry writes it again, so removing it as added
   * (conditional on its ETag) never takes it from that write.
   */
  record Added(IndexEntries index, IndexEntries.Entry entry, String etag, IndexEntries.Entry replaced,
      boolean exclusive) {
  }

  /**
   * What {@link #add} answers instead of an entry when a UNIQUE value is held by a row another
   * group of the same intent writes: nothing is added, and the group waits for that group.
   */
  static final Added WAITS = new Added(null, null, null, null, false);

  /** An entry to remove once the rows are written: as read, with its ETag. */
  record Removal(IndexEntries index, IndexEntries.Entry entry, String etag) {
  }

  private IndexedWrites(Session session, TableDefinition base, RequestCounters counters,
      java.util.Set<WriteOperation.EntityKey> others, String undoing) {
    this.session = session;
    this.undoing = undoing;
    this.counters = counters;
    this.others = others;
    this.table = base.physicalTable();
    for (IndexDefinition index : base.indexes()) {
      indexes.add(new IndexEntries(base, index));
    }
  }

  /** Sends the writes of one table and partition as one entity group transaction, indexes kept right. */
  static void submit(Session session, List<WriteOperation> group, RequestCounters counters) {
    submit(session, group, counters, java.util.Set.of(), null, null);
  }

  /**
   * As {@link #submit(Session, List, RequestCounters)}, for a statement's one group: an INSERT
   * that meets a row another transaction in flight inserts waits for it to end first, until
   * {@code waitStop} throws (a cancel, a timeout); null: refused at once.
   */
  static void submit(Session session, List<WriteOperation> group, RequestCounters counters, Runnable waitStop) {
    submit(session, group, counters, java.util.Set.of(), waitStop, null);
  }

  /**
   * As {@link #submit(Session, List, RequestCounters)}, for one group of an intent whose groups
   * not yet applied write the rows {@code pending} (keys with lower-case table names; this
   * group's own may be among them): null, with nothing of the group written, rather than judge
   * a UNIQUE value one of those rows holds.
   */
  static List<String> submit(Session session, List<WriteOperation> group, RequestCounters counters,
      java.util.Set<WriteOperation.EntityKey> pending) {
    return submit(session, group, counters, pending, null, null); // an intent's group: it never waits for another
  }

  /**
   * As {@link #submit(Session, List, RequestCounters, java.util.Set)}, for a group that undoes
   * intent {@code undoing}'s writes: the entries that intent marked are its own to take back.
   */
  static boolean submitUndo(Session session, List<WriteOperation> group, RequestCounters counters,
      java.util.Set<WriteOperation.EntityKey> pending, String undoing) {
    return submit(session, group, counters, pending, null, undoing) != null;
  }

  /**
   * Sends the group with its indexes kept; returns the ETag each of its writes left its row with,
   * in order (null where none is known: a delete, a lost answer); null if it waits for a row of
   * {@code pending} (nothing sent).
   */
  private static List<String> submit(Session session, List<WriteOperation> group, RequestCounters counters,
      java.util.Set<WriteOperation.EntityKey> pending, Runnable waitStop, String undoing) {
    try {
      return submitGroup(session, group, counters, pending, undoing);
    } catch (StoreException e) {
      List<WriteOperation> overTombstones = IntentMarks.overTombstones(session, group, e, counters, waitStop);
      if (overTombstones == null) {
        throw e;
      }
      return submitGroup(session, overTombstones, counters, pending, undoing); // the keys were free: their rows were deleted
    }
  }

  private static List<String> submitGroup(Session session, List<WriteOperation> group, RequestCounters counters,
      java.util.Set<WriteOperation.EntityKey> pending, String undoing) {
    String table = group.get(0).table();
    TableDefinition base = Catalog.ofPhysicalTable(session, table);
    if (base == null || base.indexes().isEmpty()) {
      return session.store().submit(table, keyOnlyMergesOverTombstones(session, group, counters), counters);
    }
    java.util.Set<WriteOperation.EntityKey> others = new java.util.HashSet<>(pending);
    group.forEach(write -> others.remove(write.key()));
    return new IndexedWrites(session, base, counters, others, undoing).send(group);
  }

  /**
   * The group with each blind upsert that merges no value (keys only) over an intent's tombstone
   * made a REPLACE of the tombstone, conditional on its ETag: merged, nothing would change it, and
   * the row would stay deleted. One of an intent in flight is refused (40001). Reads only the rows
   * of such upserts (a merge of values makes a tombstone a row again by itself).
   */
  private static List<WriteOperation> keyOnlyMergesOverTombstones(Session session, List<WriteOperation> group,
      RequestCounters counters) {
    List<WriteOperation> sent = new ArrayList<>(group.size());
    for (WriteOperation write : group) {
      boolean keysOnly = write.kind() == Kind.UPSERT_MERGE
          && write.properties().values().stream().noneMatch(Objects::nonNull);
      Optional<TableEntity> row = keysOnly ? session.store().get(write.table(), write.partitionKey(),
          write.rowKey(), null, counters) : Optional.empty();
      sent.add(row.isPresent() && RowMarks.isTombstone(row.get().getProperties())
          ? overTombstone(session, write, row.get(), counters) : write);
    }
    return sent;
  }


  /** Sends the group; returns its writes' ETags, in order (the rows come first in the transaction). */
  private List<String> send(List<WriteOperation> group) {
    intent = group.stream().map(write -> write.properties().get(RowMarks.MARK))
        .filter(mark -> mark instanceof String id && !id.isEmpty()).map(String.class::cast).findFirst().orElse(null);
    List<Optional<TableEntity>> current = Parallel.map(group, session.maxConcurrency(),
        write -> write.kind() == Kind.INSERT ? Optional.<TableEntity>empty()
            : session.store().get(table, write.partitionKey(), write.rowKey(), null, counters));
    List<WriteOperation> rows = new ArrayList<>();
    List<IndexEntries.Entry[]> adds = new ArrayList<>();
    List<IndexEntries.Entry[]> olds = new ArrayList<>();
    List<boolean[]> keptValues = new ArrayList<>();
    for (int i = 0; i < group.size(); i++) {
      WriteOperation write = group.get(i);
      TableEntity read = current.get(i).orElse(null);
      // a tombstone is a deleted row: no entries; a write over it replaces it (conditional on its ETag)
      TableEntity before = read != null && RowMarks.isTombstone(read.getProperties()) ? null : read;
      rows.add(read != before ? overTombstone(session, write, read, counters) : conditional(write, before));
      Map<String, Object> after = write.after(io.tablesql.catalog.TableShape.userProperties(before));
      IndexEntries.Entry[] newEntries = new IndexEntries.Entry[indexes.size()];
      IndexEntries.Entry[] oldEntries = new IndexEntries.Entry[indexes.size()];
      boolean[] kept = new boolean[indexes.size()];
      for (int x = 0; x < indexes.size(); x++) {
        IndexEntries index = indexes.get(x);
        oldEntries[x] = before == null ? null : index.of(before);
        newEntries[x] = after == null ? null : entryOf(index, write, after);
        if (newEntries[x] != null && newEntries[x].sameKey(oldEntries[x])) {
          kept[x] = true;
          // the same entry: unchanged, or (covering) rewritten with the row's new included values
          newEntries[x] = newEntries[x].same(oldEntries[x]) || !index.index().holdsValues() ? null : newEntries[x];
          oldEntries[x] = null;
        }
      }
      adds.add(newEntries);
      olds.add(oldEntries);
      keptValues.add(kept);
    }
    Map<String, String> copiesRead = checkAdoptedValues(group, adds, keptValues);
    List<CopyInsert> copiesInserted = new ArrayList<>();
    List<Removal> removals = prepareRemovals(olds);
    List<Removal> coveringOld = new ArrayList<>(); // every old entry of a covering global index, found or not
    List<Removal> placeholders = new ArrayList<>(); // those of an index being built verified: kept, not removed
    for (IndexEntries.Entry[] entries : olds) {
      for (int x = 0; x < entries.length; x++) {
        if (entries[x] != null && indexes.get(x).index().coveringGlobal()) {
          (indexes.get(x).index().keepsPlaceholders() ? placeholders : coveringOld)
              .add(new Removal(indexes.get(x), entries[x], null));
        }
      }
    }
    // a local index's entries change in the rows' own entity group transaction, unless the
    // statement writes that entity itself (the raw table, updating a row and its copy by hand)
    java.util.Set<String> written = new java.util.HashSet<>();
    group.forEach(write -> written.add(write.partitionKey() + '\u0000' + write.rowKey()));
    java.util.Set<String> added = new java.util.HashSet<>();
    adds.forEach(entries -> java.util.Arrays.stream(entries).filter(Objects::nonNull)
        .forEach(entry -> added.add(entry.partitionKey() + '\u0000' + entry.rowKey())));
    for (Removal removal : List.copyOf(removals)) {
      if (removal.index().index().local()) {
        String key = removal.entry().partitionKey() + '\u0000' + removal.entry().rowKey();
        if (!written.contains(key)) {
          // an intent keeps the old entry until its commit point: a lookup by the old value finds the row
          boolean keep = intent != null && removal.index().keepsOldEntriesForReaders() && !added.contains(key);
          rows.add(keep ? removal.index().tombstone(removal.entry(), removal.etag(), intent)
              : removal.index().delete(removal.entry(), removal.etag(), null));
        }
        removals.remove(removal);
      }
    }
    for (int i = 0; i < adds.size(); i++) {
      for (int x = 0; x < indexes.size(); x++) {
        IndexEntries.Entry entry = adds.get(i)[x];
        if (entry != null && indexes.get(x).index().local()) {
          if (!written.contains(entry.partitionKey() + '\u0000' + entry.rowKey())) {
            // an intent's mark goes on the entry too: a covered lookup tells it uncommitted by it
            WriteOperation put = asRead(indexes.get(x).put(entry, group.get(i).origin()), copiesRead);
            if (indexes.get(x).index().adopted() && put.kind() == Kind.INSERT) {
              copiesInserted.add(new CopyInsert(indexes.get(x), group.get(i), entry));
            }
            rows.add(intent == null ? put : RowMarks.withMark(put, intent));
          }
          adds.get(i)[x] = null;
        }
      }
    }
    if (rows.size() > io.tablesql.txn.EntityRules.MAX_GROUP_OPERATIONS) {
      throw new StoreException("The writes to one partition of " + table + " and the entries of its LOCAL indexes "
          + "make " + rows.size() + " operations, more than the 100 of one entity group transaction. Nothing was "
          + "written. Write fewer rows per transaction.", SqlStates.TRANSACTION_RULE, null);
    }
    if (!addEntries(group, adds, keptValues, removals)) {
      return null; // a UNIQUE value held by a row another group of the intent writes: after that group
    }
    try {
      keepAsPlaceholders(placeholders);
      removals = markLeaving(removals);
    } catch (StoreException e) {
      removeAdded(); // no row was sent: the entries this write made go, as when a UNIQUE index refuses it
      throw e;
    }
    List<String> etags;
    try {
      etags = session.store().submit(table, rows, counters);
    } catch (StoreException e) {
      if (!SqlStates.TRANSACTION_RESOLUTION_UNKNOWN.equals(e.sqlState())) {
        removeAdded();
      }
      if (SqlStates.UNIQUE_VIOLATION.equals(e.sqlState())) {
        refuseIfACopyWasTaken(copiesInserted);
      }
      throw e;
    }
    afterRows(removals, coveringOld, placeholders);
    return etags.subList(0, group.size());
  }

  /**
   * Once the rows are written: a covering global index's new entries hold the committed values,
   * so each is marked verified (unless written since); old entries are removed, each as this
   * write marked or read it (one left by a failure here is only extra, and reads skip it). An old
   * entry of a covering index that is not removed so, because something wrote it after this
   * write's mark or it appeared after this write found none (a build, or a VERIFY, writing it from
   * an older read of the row; a reader that verified it while this write was slower than the
   * grace period), is marked unverified: a verified entry must not outlive its row's values. So
   * is each placeholder, which a build's check or VERIFY may have verified (past the grace
   * period) while this write was slower than that.
   */
  private void afterRows(List<Removal> removals, List<Removal> coveringOld, List<Removal> placeholders) {
    List<Removal> unmarked = coveringOld.stream()
        .filter(old -> removals.stream().noneMatch(r -> r.index() == old.index() && r.entry().sameKey(old.entry())))
        .filter(old -> added.stream().noneMatch(a -> a.index() == old.index() && a.entry().sameKey(old.entry())))
        .toList();
    List<Runnable> steps = new ArrayList<>();
    for (Added a : added) {
      // an intent's entries hold values not committed yet: readers verify them once they are
      if (a.index().index().coveringGlobal() && intent == null) {
        steps.add(() -> bestEffort(session, a.index().index().table(), a.index().markVerified(a.entry(), a.etag()),
            counters));
      }
    }
    // an intent's old entries stay: until it commits, readers find its rows by their old values
    // (as committed); a later read removes each as it removes any entry its row no longer has. A
    // UNIQUE index's is kept as a tombstone its clearing removes (IntentMarks), so that the row
    // another group of the intent gives the value to can take it
    String keeper = ownIntent();
    for (Removal removal : removals.stream().filter(r -> intent == null || r.index().index().unique()).toList()) {
      steps.add(() -> {
        if (keeper != null && removal.index().keepsOldEntryUntilCommit()) {
          // kept for readers until the commit point, free for this intent's other groups (addOnce);
          // in an undo, held for the row the undo gives the value back to, so that no other
          // transaction takes it between the two rows' undos
          bestEffort(session, removal.index().index().table(),
              removal.index().tombstone(removal.entry(), removal.etag(), keeper), counters);
          return;
        }
        EntityWrite deleted = bestEffort(session, removal.index().index().table(),
            removal.index().delete(removal.entry(), removal.etag(), null), counters);
        if (removal.index().index().coveringGlobal() && (deleted == null || deleted.status() == 412)) {
          bestEffort(session, removal.index().index().table(), removal.index().markUnverified(removal.entry()),
              counters);
        }
      });
    }
    for (Removal old : Stream.concat(unmarked.stream(), placeholders.stream()).toList()) {
      steps.add(() -> bestEffort(session, old.index().index().table(), old.index().markUnverified(old.entry()),
          counters));
    }
    added.clear();
    Parallel.map(steps, session.maxConcurrency(), step -> {
      step.run();
      return null;
    });
  }

  /**
   * Marks the old entries of covering global indexes unverified before the rows change (If-Match
   * *: whatever wrote them since, a verified entry must not outlive its row's values); returns the
   * removals with the ETags the marks got. An entry found gone needs no removal.
   */
  private List<Removal> markLeaving(List<Removal> removals) {
    List<Removal> covering = removals.stream().filter(r -> r.index().index().coveringGlobal()).toList();
    if (covering.isEmpty()) {
      return removals;
    }
    List<EntityWrite> marks = Parallel.map(covering, session.maxConcurrency(), removal -> session.store()
        .write(removal.index().index().table(), removal.index().markUnverified(removal.entry()), counters));
    List<Removal> marked = new ArrayList<>(removals);
    marked.removeAll(covering);
    for (int i = 0; i < covering.size(); i++) {
      if (marks.get(i).written()) {
        Removal removal = covering.get(i);
        marked.add(new Removal(removal.index(), removal.entry(), marks.get(i).etag()));
      }
    }
    return marked;
  }

  /**
   * Writes the old entries of an index being built verified ({@link IndexDefinition#keepsPlaceholders})
   * unverified before the rows change, whether they are there or not, and leaves them: an entry
   * the build then inserts from a read of the row before this write finds one there and stays
   * unverified. Reads remove them, past the grace period, as they remove any entry its row no
   * longer has.
   */
  private void keepAsPlaceholders(List<Removal> placeholders) {
    Parallel.map(placeholders, session.maxConcurrency(), placeholder -> session.store()
        .write(placeholder.index().index().table(), placeholder.index().put(placeholder.entry(), null), counters));
  }

  /** A write whose failure leaves only an extra entry, which reads recognise: not the statement's failure. */
  static EntityWrite bestEffort(Session session, String table, WriteOperation write, RequestCounters counters) {
    try {
      return session.store().write(table, write, counters);
    } catch (StoreException e) {
      return null;
    }
  }

  /**
   * The write as the service is to apply it: on the condition that the row is still the version
   * read, so that the entries of its old values are the ones removed. An upsert of an absent row
   * becomes an insert, of a present one an update.
   */
  private static WriteOperation conditional(WriteOperation write, TableEntity before) {
    if (write.kind() == Kind.INSERT || before == null) {
      return write.kind() == Kind.UPSERT_MERGE || write.kind() == Kind.UPSERT_REPLACE
          ? with(write, Kind.INSERT, null) : write;
    }
    String etag = write.etag() != null ? write.etag() : before.getETag();
    switch (write.kind()) {
      case UPSERT_MERGE: return with(write, Kind.MERGE, etag);
      case UPSERT_REPLACE: return with(write, Kind.REPLACE, etag);
      default: return with(write, write.kind(), etag);
    }
  }

  /**
   * An upsert of a row an intent's tombstone holds as a REPLACE of the tombstone (refused, 40001,
   * while that intent is in flight: its undo would put the row back); other writes as given.
   */
  private static WriteOperation overTombstone(Session session, WriteOperation write, TableEntity tombstone,
      RequestCounters counters) {
    boolean upsert = write.kind() == Kind.UPSERT_MERGE || write.kind() == Kind.UPSERT_REPLACE;
    if (!upsert) {
      return conditional(write, tombstone);
    }
    IntentMarks.refuseIfPending(session, tombstone, counters);
    return with(write, Kind.REPLACE, tombstone.getETag());
  }

  private static WriteOperation with(WriteOperation write, Kind kind, String etag) {
    return new WriteOperation(write.table(), write.partitionKey(), write.rowKey(), kind, write.properties(), etag,
        write.origin(), write.before());
  }



  private static IndexEntries.Entry entryOf(IndexEntries index, WriteOperation write, Map<String, Object> after) {
    try {
      return index.of(write.partitionKey(), write.rowKey(), after);
    } catch (IllegalArgumentException e) {
      throw new StoreException("Cannot write " + write.describe() + ": index " + index.index().name() + " on ("
          + index.index().describeColumns() + ") cannot hold its values: " + e.getMessage() + ". Nothing was written.",
          SqlStates.DATA_EXCEPTION, null);
    }
  }

  /** Reads the entries of old values (an entry is removed only as read: a newer write of it stays). */
  private List<Removal> prepareRemovals(List<IndexEntries.Entry[]> olds) {
    List<Removal> wanted = new ArrayList<>();
    for (IndexEntries.Entry[] entries : olds) {
      for (int x = 0; x < entries.length; x++) {
        if (entries[x] != null && !indexes.get(x).index().keepsPlaceholders()) {
          wanted.add(new Removal(indexes.get(x), entries[x], null));
        }
      }
    }
    List<Optional<TableEntity>> read = Parallel.map(wanted, session.maxConcurrency(), removal -> session.store()
        .get(removal.index().index().table(), removal.entry().partitionKey(), removal.entry().rowKey(),
            List.of(IndexDefinition.ROW_PARTITION_KEY, IndexDefinition.ROW_ROW_KEY), counters));
    List<Removal> removals = new ArrayList<>();
    for (int i = 0; i < wanted.size(); i++) {
      Removal removal = wanted.get(i);
      // an entry another row took over (a UNIQUE value moved there) is that row's: not removed
      read.get(i).filter(entity -> !removal.index().index().unique()
              || namesSameRow(IndexEntries.read(entity), removal.entry()))
          .ifPresent(entity -> removals.add(new Removal(removal.index(), removal.entry(), entity.getETag())));
    }
    return removals;
  }

  private static boolean namesSameRow(IndexEntries.Entry held, IndexEntries.Entry wanted) {
    return java.util.Objects.equals(held.rowPartitionKey(), wanted.rowPartitionKey())
        && java.util.Objects.equals(held.rowRowKey(), wanted.rowRowKey());
  }

  /**
   * Adds the entries of the new values: UNIQUE indexes' first, so that a statement a UNIQUE index
   * refuses (23505, before any row is written) has added no entry of another index. An entry of
   * these values another row holds, and that is past the grace period, is taken over. False,
   * with nothing added, if the group waits for another group of its intent ({@link #WAITS}).
   */
  private boolean addEntries(List<WriteOperation> group, List<IndexEntries.Entry[]> adds, List<boolean[]> kept,
      List<Removal> removals) {
    checkUniqueWithin(group, adds);
    for (boolean unique : new boolean[] {true, false}) {
      List<Object[]> wanted = new ArrayList<>();
      for (int i = 0; i < adds.size(); i++) {
        for (int x = 0; x < indexes.size(); x++) {
          if (adds.get(i)[x] != null && indexes.get(x).index().unique() == unique) {
            wanted.add(new Object[] {indexes.get(x), adds.get(i)[x], group.get(i), kept.get(i)[x]});
          }
        }
      }
      List<Object> results = Parallel.map(wanted, session.maxConcurrency(), item -> {
        IndexEntries index = (IndexEntries) item[0];
        IndexEntries.Entry entry = (IndexEntries.Entry) item[1];
        WriteOperation write = (WriteOperation) item[2];
        try {
          if ((Boolean) item[3] && !index.index().unique()) {
            // the row's own entry, rewritten with its new included values: one upsert, not exclusive
            EntityWrite put = session.store().write(index.index().table(), index.put(entry, write.origin()), counters);
            return new Added(index, entry, put.etag(), null, false);
          }
          return add(session, table, index, entry, write.describe(), write.origin(), removals, others,
              ownIntent(), counters);
        } catch (StoreException e) {
          return e;
        }
      });
      StoreException failure = null;
      boolean waits = false;
      for (Object result : results) {
        if (result instanceof StoreException e) {
          failure = failure == null ? e : failure;
        } else if (result == WAITS) {
          waits = true;
        } else {
          added.add((Added) result);
        }
      }
      if (failure != null || waits) {
        removeAdded();
        if (failure != null) {
          throw failure; // a refusal is final: it wins over waiting for other groups
        }
        return false;
      }
    }
    // an entry taken over from a row of this group is the new row's now: not removed afterwards
    removals.removeIf(removal -> added.stream().anyMatch(a -> a.index() == removal.index()
        && a.entry().sameKey(removal.entry())));
    return true;
  }

  /**
   * Adds one entry of a row of {@code table}. An entry that is there already is written again (a
   * write of the same row and values that fails then cannot remove it) and not exclusive. A
   * UNIQUE index's entry of the same values is taken over if it names the same row, a row of
   * {@code removals} (the value moves there in this group), or a row without those values (past
   * the grace period); held by a row of {@code others} it waits ({@link #WAITS});
   * otherwise the write fails with 23505 (or 40001 while the other write may still be under way).
   * {@code intent}: the intent whose group this is, or which it undoes: an entry it keeps for
   * readers (a value one of its groups gave up) is its own to take.
   */
  static Added add(Session session, String table, IndexEntries index, IndexEntries.Entry entry, String describe,
      String origin, List<Removal> removals, java.util.Set<WriteOperation.EntityKey> others, String intent,
      RequestCounters counters) {
    for (int attempt = 0; attempt < 3; attempt++) {
      Added added = addOnce(session, table, index, entry, describe, origin, removals, others, intent, counters);
      if (added != null) {
        return added; // or WAITS
      }
    }
    throw ConcurrentChange.uniqueValue(index.index().name(), describe,
        "kept being removed and written by other writes");
  }

  /** One attempt of {@link #add}; null if the entry it found was removed before it could be taken over. */
  private static Added addOnce(Session session, String table, IndexEntries index, IndexEntries.Entry entry,
      String describe, String origin, List<Removal> removals, java.util.Set<WriteOperation.EntityKey> others,
      String intent, RequestCounters counters) {
    EntityWrite put = session.store().write(index.index().table(), index.insert(entry, origin), counters);
    if (put.written()) {
      return new Added(index, entry, put.etag(), null, true);
    }
    if (!index.index().unique()) {
      EntityWrite again = session.store().write(index.index().table(), index.put(entry, origin), counters);
      return new Added(index, entry, again.etag(), null, false);
    }
    // 409: a UNIQUE index holds an entry of these values
    Optional<TableEntity> held = session.store().get(index.index().table(), entry.partitionKey(), entry.rowKey(),
        null, counters);
    if (held.isEmpty()) {
      return null; // removed in between
    }
    IndexEntries.Entry holder = IndexEntries.read(held.get());
    boolean same = entry.rowPartitionKey().equals(holder.rowPartitionKey())
        && entry.rowRowKey().equals(holder.rowRowKey());
    // the value moves from a row this group changes: the entry is the new row's if the group is written
    boolean fromThisGroup = removals.stream().anyMatch(r -> r.index() == index && r.entry().sameKey(holder)
        && r.entry().rowPartitionKey().equals(holder.rowPartitionKey())
        && r.entry().rowRowKey().equals(holder.rowRowKey()));
    if (!same && index.keepsOldEntryUntilCommit() && held.get().getProperties().get(RowMarks.DELETED) != null) {
      // the old entry an intent keeps for readers until its commit point: free if it is this
      // intent's own (the value passes to a row of another of its groups) or its intent has
      // committed; while that intent is in flight the value may yet come back to its row
      String keeping = intent != null && RowMarks.carriesMark(held.get().getProperties(), intent) ? null
          : IntentMarks.pendingIntent(session, held.get(), counters);
      if (keeping != null) {
        throw ConcurrentChange.uniqueValue(index.index().name(), describe,
            "is being given up by another transaction (intent " + keeping + ") that has not committed yet");
      }
      // if this write fails, the entry goes back to naming the row that held it (removeAdded)
      return replaceHeld(session, index, entry, held.get(), origin, describe, IndexEntries.read(held.get()), true,
          counters);
    }
    if (!same && !fromThisGroup && others.contains(new WriteOperation.EntityKey(
        table.toLowerCase(java.util.Locale.ROOT), holder.rowPartitionKey(), holder.rowRowKey()))) {
      return WAITS; // held by a row another entity group of the same write changes
    }
    if (!same && !fromThisGroup) {
      Optional<TableEntity> row = session.store().get(table, holder.rowPartitionKey(), holder.rowRowKey(), null,
          counters);
      if (row.isPresent() && index.matches(held.get(), row.get())) {
        throw new StoreException("Duplicate value: " + describe + " would give UNIQUE index "
            + index.index().name() + " on (" + index.index().describeColumns() + ") a value that the row (PartitionKey '"
            + holder.rowPartitionKey() + "', RowKey '" + holder.rowRowKey() + "') holds already. Nothing was written.",
            SqlStates.UNIQUE_VIOLATION, null);
      }
      // a row an intent in flight changed may get the value back if the intent is undone
      String changing = row.isEmpty() || (intent != null && RowMarks.carriesMark(row.get().getProperties(), intent))
          ? null : IntentMarks.pendingIntent(session, row.get(), counters);
      if (changing != null) {
        throw ConcurrentChange.uniqueValue(index.index().name(), describe,
            "is held by a row another transaction (intent " + changing + ") is changing and has not committed yet");
      }
      if (!IndexEntries.pastGrace(held.get(), grace(session))) {
        throw ConcurrentChange.uniqueValue(index.index().name(), describe, "may be being written by another "
            + "write (its entry names a row without that value, written less than indexGraceSeconds ago)");
      }
    }
    return replaceHeld(session, index, entry, held.get(), origin, describe, fromThisGroup ? holder : null, !same,
        counters);
  }

  /** Takes over the entry held, conditional on its ETag; null if it was removed in between (add it anew). */
  private static Added replaceHeld(Session session, IndexEntries index, IndexEntries.Entry entry, TableEntity held,
      String origin, String describe, IndexEntries.Entry fromThisGroup, boolean exclusive, RequestCounters counters) {
    EntityWrite replaced = session.store().write(index.index().table(),
        index.replace(entry, held.getETag(), origin, fromThisGroup), counters);
    if (!replaced.written() && session.store().get(index.index().table(), entry.partitionKey(), entry.rowKey(),
        null, counters).isEmpty()) {
      return null; // removed in between (the row holding it changed): the value is free, add it anew
    }
    if (!replaced.written()) {
      throw ConcurrentChange.uniqueValue(index.index().name(), describe, "changed while it was written");
    }
    return new Added(index, entry, replaced.etag(), fromThisGroup, exclusive);
  }

  /**
   * Two rows of one statement, in different entity groups, whose whole new values (an insert or a
   * replace) give a UNIQUE index the same value: refused before anything is sent, as within one
   * group, rather than left to race.
   */
  static void checkUniqueAcrossGroups(Session session, List<List<WriteOperation>> groups) {
    if (groups.size() < 2) {
      return;
    }
    Map<String, WriteOperation> seen = new HashMap<>();
    Map<String, List<IndexEntries>> uniqueByTable = new HashMap<>();
    for (List<WriteOperation> group : groups) {
      for (WriteOperation write : group) {
        if (write.kind() != Kind.INSERT && write.kind() != Kind.UPSERT_REPLACE && write.kind() != Kind.REPLACE) {
          continue; // a merge's new values depend on the row it merges into
        }
        List<IndexEntries> unique = uniqueByTable.computeIfAbsent(write.table(), table -> {
          TableDefinition base = Catalog.ofPhysicalTable(session, table);
          return base == null ? List.of() : base.indexes().stream().filter(i -> i.unique() && !i.local())
              .map(i -> new IndexEntries(base, i)).toList();
        });
        for (IndexEntries index : unique) {
          IndexEntries.Entry entry;
          try {
            entry = index.of(write.partitionKey(), write.rowKey(), write.properties());
          } catch (IllegalArgumentException e) {
            continue; // refused when its group is sent, with its own message
          }
          WriteOperation earlier = entry == null ? null
              : seen.putIfAbsent(index.index().name() + "\u0000" + entry.partitionKey(), write);
          if (earlier != null) {
            throw new StoreException("Duplicate value: " + write.describe() + " and " + earlier.describe()
                + " have the same values of UNIQUE index " + index.index().name() + " on ("
                + index.index().describeColumns() + "). Nothing was written.", SqlStates.UNIQUE_VIOLATION, null);
          }
        }
      }
    }
  }

  /** Two rows of one group with the same values of a UNIQUE index: the second would fail anyway. */
  private void checkUniqueWithin(List<WriteOperation> group, List<IndexEntries.Entry[]> adds) {
    for (int x = 0; x < indexes.size(); x++) {
      if (!indexes.get(x).index().unique()) {
        continue;
      }
      Map<String, WriteOperation> seen = new HashMap<>();
      for (int i = 0; i < adds.size(); i++) {
        IndexEntries.Entry entry = adds.get(i)[x];
        if (entry != null) {
          WriteOperation earlier = seen.putIfAbsent(entry.partitionKey(), group.get(i));
          if (earlier != null) {
            throw new StoreException("Duplicate value: " + group.get(i).describe() + " and " + earlier.describe()
                + " have the same values of UNIQUE index " + indexes.get(x).index().name() + " on ("
                + indexes.get(x).index().describeColumns() + "). Nothing was written.", SqlStates.UNIQUE_VIOLATION,
                null);
          }
        }
      }
    }
  }

  /**
   * An adopted index holds one entity per value and partition, a copy of its row: a value that
   * another row of the partition has (as its entity says, and the row confirms) is refused, as
   * is one two rows of the group would both take. Nothing is written then. Only a value a row
   * takes anew costs a read: one it {@code kept} is its own already.
   */
  private Map<String, String> checkAdoptedValues(List<WriteOperation> group, List<IndexEntries.Entry[]> adds,
      List<boolean[]> kept) {
    List<int[]> wanted = new ArrayList<>();
    Map<String, Integer> seen = new HashMap<>();
    for (int i = 0; i < adds.size(); i++) {
      for (int x = 0; x < indexes.size(); x++) {
        IndexEntries.Entry entry = adds.get(i)[x];
        if (entry == null || !indexes.get(x).index().adopted()) {
          continue;
        }
        Integer earlier = seen.putIfAbsent(x + "\u0000" + entry.rowKey(), i);
        if (earlier != null && !group.get(earlier).rowKey().equals(group.get(i).rowKey())) {
          throw duplicateAdopted(indexes.get(x), group.get(i), group.get(earlier).describe());
        }
        if (!kept.get(i)[x]) {
          wanted.add(new int[] {i, x});
        }
      }
    }
    Map<String, String> read = new java.util.concurrent.ConcurrentHashMap<>();
    List<String> holders = Parallel.map(wanted, session.maxConcurrency(), item -> {
      IndexEntries index = indexes.get(item[1]);
      IndexEntries.Entry entry = adds.get(item[0])[item[1]];
      Optional<TableEntity> held = session.store().get(table, entry.partitionKey(), entry.rowKey(), null, counters);
      read.put(entry.partitionKey() + '\u0000' + entry.rowKey(), held.map(TableEntity::getETag).orElse(NONE_READ));
      return anotherHolder(index, entry, held);
    });
    for (int k = 0; k < wanted.size(); k++) {
      if (holders.get(k) != null) {
        int[] item = wanted.get(k);
        throw duplicateAdopted(indexes.get(item[1]), group.get(item[0]),
            "(PartitionKey '" + group.get(item[0]).partitionKey() + "', RowKey '" + holders.get(k) + "')");
      }
    }
    return read;
  }

  /** An adopted copy inserted where {@link #checkAdoptedValues} found none, for the row {@code write} writes. */
  private record CopyInsert(IndexEntries index, WriteOperation write, IndexEntries.Entry entry) {
  }

  /**
   * The RowKey of another row that holds the value of an adopted copy, as read ({@code held}):
   * null if none does (no copy, the row's own, or a stale copy whose row no longer has the value).
   * A copy or row another transaction in flight writes is not judged: 40001.
   */
  private String anotherHolder(IndexEntries index, IndexEntries.Entry entry, Optional<TableEntity> held) {
    held.ifPresent(this::refuseIfAnotherIntentsInFlight);
    String holder = held.map(entity -> index.readEntry(entity).rowRowKey()).orElse(null);
    if (holder == null || holder.equals(entry.rowRowKey())) {
      return null;
    }
    // the entity names another row: a stale copy unless that row still has the value
    Optional<TableEntity> other = session.store().get(table, entry.partitionKey(), holder, null, counters);
    other.ifPresent(this::refuseIfAnotherIntentsInFlight);
    IndexEntries.Entry its = other.map(index::of).orElse(null);
    return its != null && its.sameKey(entry) ? holder : null;
  }

  /**
   * After a group refused as a duplicate: where a copy it inserted was written meanwhile for
   * another row that holds the value (it took the value first), that is the duplicate to report
   * (23505 naming the row); where it was written otherwise, a retry decides (40001); where none
   * was, the refusal stands as it was.
   */
  private void refuseIfACopyWasTaken(List<CopyInsert> copies) {
    for (CopyInsert copy : copies) {
      Optional<TableEntity> held = session.store().get(table, copy.entry().partitionKey(), copy.entry().rowKey(), null,
          counters);
      String holder = anotherHolder(copy.index(), copy.entry(), held);
      if (holder != null) {
        throw duplicateAdopted(copy.index(), copy.write(),
            "(PartitionKey '" + copy.write().partitionKey() + "', RowKey '" + holder + "')");
      }
      if (held.isPresent()) { // written since it was found free, for no row that holds the value now
        throw ConcurrentChange.nothingWritten("the entity " + copy.entry().rowKey() + " of index "
            + copy.index().index().name() + " for " + copy.write().describe() + " was written by another writer");
      }
    }
  }

  /** Stands for "no copy was there" among the copies {@link #checkAdoptedValues} read. */
  private static final String NONE_READ = "";

  /**
   * An adopted copy's write as conditional as its check: an insert where none was read, else a
   * replace on the ETag read. Two writers that both found a value free cannot both take it: the
   * second one's group is refused, and run again it finds the value held.
   */
  private static WriteOperation asRead(WriteOperation put, Map<String, String> copiesRead) {
    String etag = copiesRead.get(put.partitionKey() + '\u0000' + put.rowKey());
    if (etag == null) {
      return put; // not checked: the row's own copy, kept with new included values
    }
    return new WriteOperation(put.table(), put.partitionKey(), put.rowKey(),
        etag.equals(NONE_READ) ? Kind.INSERT : Kind.REPLACE, put.properties(), etag.equals(NONE_READ) ? null : etag,
        put.origin());
  }

  /**
   * An adopted copy (or its row) that another transaction in flight writes: that transaction's
   * copy of a value not committed yet, or the copy it keeps for readers of a value it may give
   * back to its row (if undone). Its value is not free: 40001. This intent's own marks are not.
   */
  private void refuseIfAnotherIntentsInFlight(TableEntity entity) {
    String own = ownIntent();
    if (own == null || !RowMarks.carriesMark(entity.getProperties(), own)) {
      IntentMarks.refuseIfPending(session, entity, counters);
    }
  }

  private static StoreException duplicateAdopted(IndexEntries index, WriteOperation write, String other) {
    return new StoreException("Duplicate value: " + write.describe() + " and " + other + " have the same values of "
        + "index " + index.index().name() + " on (" + index.index().describeColumns() + "), whose adopted entities "
        + "hold one row per value in each partition. Nothing was written.", SqlStates.UNIQUE_VIOLATION, null);
  }

  /**
   * Removes the exclusive entries this group added ({@link Added#exclusive}), each only as added
   * (an entry written since stays: any other write of the same entry writes it again); one taken
   * from another row of the group names that row again. Other entries are left: a concurrent
   * write of the same row and values may have put the same entry and need it, so it stays as an
   * extra entry, which reads check against its row and remove once past the grace period.
   */
  private void removeAdded() {
    List<Added> exclusive = added.stream().filter(Added::exclusive).toList();
    Parallel.map(exclusive, session.maxConcurrency(), a -> bestEffort(session, a.index().index().table(),
        a.replaced() != null ? a.index().replace(a.replaced(), a.etag(), null, null)
            : a.index().delete(a.entry(), a.etag(), null), counters));
    added.clear();
  }

  static Duration grace(Session session) {
    return Duration.ofSeconds(session.settings().getInt(DriverProperty.INDEX_GRACE));
  }
}
