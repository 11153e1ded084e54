package io.tablesql.exec;

import com.azure.data.tables.models.TableEntity;
import io.tablesql.errors.SqlStates;
import io.tablesql.intent.CommittedReads;
import io.tablesql.intent.Intent;
import io.tablesql.query.Operand;
import io.tablesql.query.TableQuery;
import io.tablesql.session.Session;
import io.tablesql.session.StatementContext;
import io.tablesql.store.Parallel;
import io.tablesql.store.RequestCounters;
import io.tablesql.store.StoreException;
import io.tablesql.txn.RowMarks;
import io.tablesql.txn.WriteOperation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.function.Function;

/**
 * Reads rows through a secondary index: the entries its query selects, then the row each names
 * (by its key, {@code maxConcurrency} at a time), kept only if the row still has the entry's
 * values. So an entry ahead of its row (a write under way, or one that failed after adding it)
 * or behind it (old values not yet removed) never makes a row appear that does not match, and
 * since entries are added before their rows are written, no committed row is missed. A stale
 * entry past the grace period is removed on the way. A covering global index's verified entries
 * are rows already; an unverified one that holds its row's values and is past the grace period is
 * marked verified on the way.
 */
final class IndexScan implements Iterator<List<TableEntity>> {
  /** Entries whose rows are read together: one multi-point lookup's worth. */
  private static final int BATCH = 100;

  private final Iterator<TableEntity> entries;
  private final IndexEntries index;
  private final Session session;
  private final String table;
  private final RequestCounters counters;
  private final Duration grace;
  private final boolean covered;
  private final CommittedReads committed;
  /**
   * The keys of the rows given so far, where one scan can read two entries of a row: a row whose
   * value of a global index changes during a scan of several values is found through its old entry
   * and its new one, each matching the row as read at its time; an answer holds it once, as the
   * table does. Null where that cannot happen (a local entry changes with its row; a global
   * index's value is its entries' PartitionKey, so a scan of one value reads one entry per row).
   */
  private final java.util.Set<String> given;

  private IndexScan(Iterator<TableEntity> entries, TableQuery query, StatementContext context) {
    this.entries = entries;
    this.index = new IndexEntries(query.table().definition(), query.index().definition());
    this.session = query.table().session();
    this.table = query.table().name();
    this.counters = context.counters();
    this.grace = IndexedWrites.grace(session);
    // an UPDATE or DELETE writes on the version of each row it read: an entry has none, so the rows are read
    this.covered = query.index().covered() && !context.kind().readsBeforeWriting();
    this.committed = new CommittedReads(session, context);
    this.given = index.index().local() || query.index().entries().fixesPartition() ? null : new java.util.HashSet<>();
  }

  static Iterator<TableEntity> rows(TableQuery query, Function<Operand, Object> values, StatementContext context,
      QueryRunner.Guard guard) {
    Iterator<TableEntity> entries = QueryRunner.open(query.index().entries(), null, values, context, guard);
    return QueryRunner.flatten(new IndexScan(entries, query, context), guard);
  }

  @Override
  public boolean hasNext() {
    return entries.hasNext();
  }

  /** The rows of the next entries (up to {@link #BATCH}) that still match them; may be none. */
  @Override
  public List<TableEntity> next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    List<TableEntity> found = new ArrayList<>();
    while (found.size() < BATCH && entries.hasNext()) {
      found.add(entries.next());
    }
    List<TableEntity> matching = new ArrayList<>();
    if (covered && index.index().local()) {
      // a local entry changes with its row (an adopted one that names no row is no row's); one an
      // intent not known committed wrote is checked against its row as committed
      List<TableEntity> marked = new ArrayList<>();
      for (TableEntity entry : found) {
        if (!committed.holdsCommitted(entry)) {
          marked.add(entry);
        } else if (entry.getProperties().get(RowMarks.DELETED) != null) {
          continue; // the old entry of a committed intent: no longer the row's
        } else if (named(entry) != null && index.row(entry) != null) {
          addOnce(matching, index.row(entry));
        }
      }
      if (marked.isEmpty()) {
        return matching;
      }
      found = marked;
    }
    if (covered) {
      // a covering global index's verified entries hold their rows' values; the others are checked
      List<TableEntity> unverified = new ArrayList<>();
      for (TableEntity entry : found) {
        TableEntity row = IndexEntries.verified(entry) ? index.row(entry) : null;
        if (row != null) {
          addOnce(matching, row);
        } else {
          unverified.add(entry); // a damaged entry naming no row is checked, and removed, as the others
        }
      }
      found = unverified;
    }
    String access = "INDEX " + index.index().name() + " ROW LOOKUP";
    List<Optional<TableEntity>> rows = Parallel.map(found, session.maxConcurrency(), entry -> {
      IndexEntries.Entry named = named(entry);
      return named.rowPartitionKey() == null ? Optional.<TableEntity>empty()
          : session.store().get(table, named.rowPartitionKey(), named.rowRowKey(), null, counters, access);
    });
    TableEntity holder;
    for (int i = 0; i < found.size(); i++) {
      TableEntity stored = rows.get(i).orElse(null);
      TableEntity row = stored == null ? null : committed.resolve(table, stored);
      if (row != null && index.matches(found.get(i), row)) {
        addOnce(matching, row);
        if (index.index().coveringGlobal() && row == stored) {
          IndexBuild.verifyIfSettled(session, index, found.get(i), row, grace, counters);
        }
      } else if (stored != null && row != stored && index.keepsOldEntryUntilCommit()
          && !committed.holdsCommitted(stored)) {
        // a UNIQUE value an uncommitted intent passes between two of its rows has one entry, naming
        // the row taking it: the row that holds it as committed is among the intent's rows before
        for (TableEntity before : committed.othersBefore(table, row == null ? marked(stored) : row)) {
          if (index.matches(found.get(i), before)) {
            addOnce(matching, before);
          }
        }
      } else if ((holder = heldBefore(table, found.get(i), access)) != null) {
        // a UNIQUE value moving between two rows of one entity group transaction: until the group
        // is written (and for good if its writer died first) the row it moves from holds it
        addOnce(matching, holder);
      } else if (row == stored && (index.index().local() || IndexEntries.pastGrace(found.get(i), grace))) {
        // an entry is judged only against a row as stored and committed: one an intent in flight
        // wrote or replaced may be right again once it commits or is undone
        IndexBuild.removeIfUnchanged(session, index, found.get(i), counters);
      }
    }
    return matching;
  }

  /**
   * The row an entry names. An application's copy (an adopted entry) whose key properties name no
   * row is refused: skipping it could lose its row from the answer.
   */
  private IndexEntries.Entry named(TableEntity entry) {
    IndexEntries.Entry named = index.readEntry(entry);
    if (index.index().adopted() && named.rowRowKey() == null) {
      throw new StoreException("Index " + index.index().name() + " cannot tell which row its entity (PartitionKey '"
          + entry.getPartitionKey() + "', RowKey '" + entry.getRowKey() + "') of Azure table " + table + " copies: its "
          + "key properties (" + String.join(", ", index.base().layout().keyProperties()) + ") make no key of the "
          + "table's. Correct that entity, or DROP INDEX " + index.index().name() + " to read the table without it.",
          SqlStates.DATA_EXCEPTION, null);
    }
    return named;
  }

  /** A stand-in naming the intent that marks a row it inserts (read as absent), for its other rows before. */
  private static TableEntity marked(TableEntity stored) {
    TableEntity stand = new TableEntity(stored.getPartitionKey(), stored.getRowKey());
    if (stored.getProperties().get(RowMarks.MARK) instanceof String id && !id.isEmpty()) {
      stand.addProperty(Intent.BEFORE_IMAGE, id);
    }
    return stand;
  }

  private void addOnce(List<TableEntity> rows, TableEntity row) {
    if (given == null || given.add(row.getPartitionKey() + '\u0000' + row.getRowKey())) {
      rows.add(row);
    }
  }

  /** The row an entry's value moves from ({@link IndexEntries#heldBy}), as committed, if it still holds the value; else null. */
  private TableEntity heldBefore(String table, TableEntity entry, String access) {
    WriteOperation.EntityKey key = IndexEntries.heldBy(entry, table);
    if (key == null) {
      return null;
    }
    TableEntity stored = session.store().get(table, key.partitionKey(), key.rowKey(), null, counters, access)
        .orElse(null);
    TableEntity row = stored == null ? null : committed.resolve(table, stored);
    return index.matches(entry, row) ? row : null;
  }
}
