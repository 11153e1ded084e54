package io.tablesql.exec;

import com.azure.data.tables.models.TableEntity;
import io.tablesql.catalog.Catalog;
import io.tablesql.catalog.Column;
import io.tablesql.catalog.IndexDefinition;
import io.tablesql.catalog.TableDefinition;
import io.tablesql.intent.IntentMarks;
import io.tablesql.query.Operand;
import io.tablesql.query.ServiceFilter.And;
import io.tablesql.query.ServiceFilter.Comparison;
import io.tablesql.query.ServiceFilter.Op;
import io.tablesql.query.ServiceFilter.Or;
import io.tablesql.query.ServiceFilter;
import io.tablesql.query.TableQuery;
import io.tablesql.session.Session;
import io.tablesql.store.EdmType;
import io.tablesql.store.Parallel;
import io.tablesql.store.RequestCounters;
import io.tablesql.store.StoreException;
import io.tablesql.store.TableStore.EntityWrite;
import io.tablesql.txn.EntityRules;
import io.tablesql.txn.RowMarks;
import io.tablesql.txn.WriteOperation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Builds, verifies and repairs a global index against its table: one page of rows (or entries,
 * {@code pageSize} of them) in memory at a time. The build records after each page the row it goes on from, so that an
 * interrupted one resumes there ({@code ALTER INDEX ... REBUILD}); then every entry is checked
 * against its row, and one whose row lacks its values (past the grace period, see
 * {@code indexGraceSeconds}) is removed.
 */
public final class IndexBuild {
  private final Session session;
  private final TableDefinition base;
  private final IndexEntries entries;
  /** The full scans of the table and of the index's entries: every read of them has their $filters. */
  private final TableQuery allRows;
  private final TableQuery allEntries;
  private final Consumer<String> progress;
  /** Progress is reported every this many pages (JDBC warnings, which the shell prints). */
  private static final int PAGES_PER_REPORT = 10;

  private final RequestCounters counters = new RequestCounters();
  private long pagesDone;
  /** Entries a local index's first pass wrote; of an adopted index's, those that were missing. */
  private long written;
  private long missing;
  /** Entries of a covering global index the build inserted verified. */
  private long verifiedAtBuild;
  /**
   * Whether this build inserts entries verified: while the index keeps placeholders, until
   * another build (a concurrent REBUILD) is found to have made it ready, after which writers
   * remove old entries again.
   */
  private boolean verifiedInserts;

  /**
   * What a build or verification did: rows read, entries a local index's build wrote (an adopted
   * index's: only the missing and the different ones, and of those the missing), entries
   * checked, stale ones removed and left, and a covering global index's entries marked verified or
   * given their rows' values.
   */
  public record Outcome(long rows, long entriesWritten, long entriesMissing, long entriesChecked, long staleRemoved,
      long staleLeft, long entriesSettled) {
  }

  private IndexBuild(Session session, TableDefinition base, IndexDefinition index, TableQuery allRows,
      TableQuery allEntries, Consumer<String> progress) {
    this.session = session;
    this.base = base;
    this.entries = new IndexEntries(base, index);
    this.verifiedInserts = index.keepsPlaceholders();
    this.allRows = allRows;
    this.allEntries = allEntries;
    this.progress = progress;
  }

  /**
   * Writes the entries of every row (from where an interrupted build stopped, if {@code resume}),
   * checks every entry, and marks the index ready. {@code allRows} and {@code allEntries} are the
   * full scans of the table and of the index's entries, as the planner makes them.
   *
   * @throws StoreException 23505 for a UNIQUE index two rows have the same values of
   */
  public static Outcome run(Session session, TableDefinition base, IndexDefinition index, TableQuery allRows,
      TableQuery allEntries, boolean resume, Consumer<String> progress) {
    IndexBuild build = new IndexBuild(session, base, index, allRows, allEntries, progress);
    // a service that does not return rows in key order (Cosmos DB) has no "after this key" to
    // resume from: the build starts again from the first row (writing an entry again changes nothing)
    long rows = build.indexRows(resume && session.resultsInKeyOrder() ? index.resumeFrom() : null);
    long[] checked = build.removeStale();
    Catalog.update(session, base.name(), definition -> {
      IndexDefinition current = definition.index(index.name());
      if (current == null) {
        return null; // dropped meanwhile
      }
      List<IndexDefinition> indexes = new ArrayList<>(definition.indexes());
      indexes.set(indexes.indexOf(current), current.withState(true, null));
      return definition.withIndexes(indexes);
    });
    return new Outcome(rows, build.written, build.missing, checked[0], checked[1], checked[2],
        checked[3] + build.verifiedAtBuild);
  }

  private long indexRows(List<String> resumeFrom) {
    // when the page being indexed was asked for: before the iterator (which may ask for the first at once), then
    // before each hasNext (which asks for the next)
    long readAt = System.nanoTime();
    Iterator<List<TableEntity>> pages = session.store().query(base.physicalTable(), rowsFilter(allRows, resumeFrom),
        null, pageSize(), counters);
    long rows = 0;
    for (; pages.hasNext(); readAt = System.nanoTime()) {
      List<TableEntity> page = withoutTombstones(pages.next());
      if (page.isEmpty()) {
        continue;
      }
      long pageReadAt = readAt;
      if (entries.index().local()) {
        written += writeLocalEntries(page);
      } else {
        Parallel.map(page, session.maxConcurrency(), row -> {
          IndexEntries.Entry entry = entryOf(row);
          if (entry == null) {
            return null;
          }
          if (verifiedInserts && insertedVerified(entry, pageReadAt)) {
            return null;
          }
          if (entries.index().coveringGlobal() && !entries.index().unique() && !verifiedInserts) {
            // added only where none is: an entry there already (a verified one that holds the
            // row's values stays verified through a REBUILD) is settled by the check pass
            return session.store().write(entries.index().table(), entries.insert(entry, null), counters);
          }
          if (!entries.index().unique()) { // one upsert: whose entry it was does not matter here
            return session.store().write(entries.index().table(), entries.put(entry, null), counters);
          }
          return IndexedWrites.add(session, base.physicalTable(), entries, entry,
              "(PartitionKey '" + row.getPartitionKey() + "', RowKey '" + row.getRowKey() + "') of " + base.name(),
              null, List.of(), java.util.Set.of(), null, counters);
        });
      }
      rows += page.size();
      TableEntity last = page.get(page.size() - 1);
      recordProgress(List.of(last.getPartitionKey(), last.getRowKey()));
      if (++pagesDone % PAGES_PER_REPORT == 0) {
        progress.accept("Index " + entries.index().name() + ": " + rows + " rows of " + base.name() + " indexed");
      }
    }
    return rows;
  }

  /**
   * Inserts a covering entry verified, from its row as read at {@code readAt}, if none is there:
   * a write of the row since then has left its old entry as a placeholder, which fails the
   * insert, and a later one marks the entry unverified before the row changes (docs/architecture/indexes.md,
   * "Covering global indexes"). Only within half the grace period of the read, the time a
   * placeholder is sure to stay (none is removed before it is past the grace period); returns
   * whether it inserted the entry (if not, the caller writes it unverified).
   */
  private boolean insertedVerified(IndexEntries.Entry entry, long readAt) {
    if (System.nanoTime() - readAt > IndexedWrites.grace(session).toNanos() / 2) {
      return false;
    }
    boolean inserted = session.store().write(entries.index().table(), entries.insertVerified(entry), counters)
        .written();
    if (inserted) {
      synchronized (this) {
        verifiedAtBuild++;
      }
    }
    return inserted;
  }

  /**
   * A local index's entries of a page of rows: in their rows' partitions, up to 100 per
   * transaction. An adopted index's entry already right is not written again (its ETag stays: the
   * application may rely on it).
   */
  private long writeLocalEntries(List<TableEntity> page) {
    List<IndexEntries.Entry> wanted = new ArrayList<>();
    for (TableEntity row : page) {
      IndexEntries.Entry entry = entryOf(row);
      if (entry != null) {
        wanted.add(entry);
      }
    }
    // an adopted entry as stored: right (TRUE), different (FALSE) or missing (null)
    List<Boolean> right = entries.index().adopted()
        ? Parallel.map(wanted, session.maxConcurrency(), entry -> session.store()
            .get(base.physicalTable(), entry.partitionKey(), entry.rowKey(), null, counters)
            .map(stored -> entries.readEntry(stored).same(entry)).orElse(null))
        : java.util.Collections.nCopies(wanted.size(), false);
    List<WriteOperation> writes = new ArrayList<>();
    for (int i = 0; i < wanted.size(); i++) {
      if (!Boolean.TRUE.equals(right.get(i))) {
        missing += right.get(i) == null ? 1 : 0;
        writes.add(entries.put(wanted.get(i), null));
      }
    }
    submitByPartition(session, base.physicalTable(), writes, counters);
    return writes.size();
  }

  /** Sends writes of one table as transactions of up to 100 per partition, maxConcurrency at a time. */
  private static void submitByPartition(Session session, String table, List<WriteOperation> writes,
      RequestCounters counters) {
    Map<String, List<WriteOperation>> byPartition = new LinkedHashMap<>();
    writes.forEach(write -> byPartition.computeIfAbsent(write.partitionKey(), k -> new ArrayList<>()).add(write));
    List<List<WriteOperation>> groups = new ArrayList<>();
    for (List<WriteOperation> partition : byPartition.values()) {
      for (int i = 0; i < partition.size(); i += EntityRules.MAX_GROUP_OPERATIONS) {
        groups.add(partition.subList(i, Math.min(partition.size(), i + EntityRules.MAX_GROUP_OPERATIONS)));
      }
    }
    Parallel.map(groups, session.maxConcurrency(), group -> {
      session.store().submit(table, group, counters);
      return null;
    });
  }

  /** The $filter of the table's rows (as every read of them has it), after {@code resumeFrom} if given. */
  static String rowsFilter(TableQuery allRows, List<String> resumeFrom) {
    ServiceFilter rows = allRows.filter();
    if (resumeFrom == null) {
      return rows == null ? null : rows.render(null);
    }
    ServiceFilter after = new Or(List.of(key(Column.PARTITION_KEY, Op.GT, resumeFrom.get(0)),
        new And(List.of(key(Column.PARTITION_KEY, Op.EQ, resumeFrom.get(0)),
            key(Column.ROW_KEY, Op.GT, resumeFrom.get(1))))));
    return (rows == null ? after : new And(List.of(after, rows))).render(null);
  }

  private static Comparison key(String name, Op op, String value) {
    return new Comparison(name, op, EdmType.STRING, Operand.literal(value), false);
  }

  /** The $filter of an index's entries: none for a global one's own table, a local one's RowKey prefix. */
  private static String entriesFilter(TableQuery allEntries) {
    ServiceFilter filter = allEntries.filter();
    return filter == null ? null : filter.render(null);
  }

  /**
   * Deletes every entry of a local index (a dropped one), a partition's worth of transactions at a
   * time; {@code allEntries} is the full scan of its entries.
   */
  public static void deleteLocalEntries(Session session, IndexDefinition index, TableQuery allEntries) {
    RequestCounters counters = new RequestCounters();
    Iterator<List<TableEntity>> pages = session.store().query(index.table(), entriesFilter(allEntries),
        List.of(Column.PARTITION_KEY, Column.ROW_KEY), 1000, counters);
    while (pages.hasNext()) {
      List<WriteOperation> deletes = new ArrayList<>();
      for (TableEntity entry : pages.next()) {
        deletes.add(new WriteOperation(index.table(), entry.getPartitionKey(), entry.getRowKey(),
            WriteOperation.Kind.DELETE, Map.of(), null, "DROP INDEX " + index.name()));
      }
      submitByPartition(session, index.table(), deletes, counters);
    }
  }

  private IndexEntries.Entry entryOf(TableEntity row) {
    try {
      return entries.of(row.getPartitionKey(), row.getRowKey(), io.tablesql.catalog.TableShape.userProperties(row));
    } catch (IllegalArgumentException e) {
      throw new StoreException("Index " + entries.index().name() + " cannot hold the values of (PartitionKey '"
          + row.getPartitionKey() + "', RowKey '" + row.getRowKey() + "') of " + base.name() + ": " + e.getMessage()
          + ". Change that row or index other columns.", io.tablesql.errors.SqlStates.DATA_EXCEPTION, null);
    }
  }

  private void recordProgress(List<String> resumeFrom) {
    Catalog.update(session, base.name(), definition -> {
      IndexDefinition current = definition.index(entries.index().name());
      if (current == null || current.ready()) {
        verifiedInserts = false;
        return null;
      }
      List<IndexDefinition> indexes = new ArrayList<>(definition.indexes());
      indexes.set(indexes.indexOf(current), current.withState(false, resumeFrom));
      return definition.withIndexes(indexes);
    });
  }

  /**
   * Checks every entry against its row; returns entries checked, stale ones removed, stale ones
   * left, and (covering global index) entries marked verified or given their rows' values.
   */
  private long[] removeStale() {
    Duration grace = IndexedWrites.grace(session);
    Iterator<List<TableEntity>> pages = session.store().query(entries.index().table(),
        entriesFilter(allEntries), null, pageSize(), counters);
    long[] counts = new long[4];
    while (pages.hasNext()) {
      List<TableEntity> page = pages.next();
      List<Optional<TableEntity>> rows = Parallel.map(page, session.maxConcurrency(), entry -> {
        IndexEntries.Entry read = entries.readEntry(entry);
        return read.rowRowKey() == null ? null
            : session.store().get(base.physicalTable(), read.rowPartitionKey(), read.rowRowKey(), null, counters);
      });
      for (int i = 0; i < page.size(); i++) {
        counts[0]++;
        TableEntity entry = page.get(i);
        if (rows.get(i) == null) {
          counts[2]++; // an adopted entity that names no row by its key properties: the application's, left
          continue;
        }
        TableEntity stored = rows.get(i).orElse(null);
        TableEntity row = stored == null || RowMarks.isTombstone(stored.getProperties()) ? null : stored;
        if (IntentMarks.pendingIntent(session, stored, counters) != null
            || IntentMarks.pendingIntent(session, entry, counters) != null) {
          // the row (or the entry, an old one kept) is being written by an intent in flight: the
          // row as stored is not committed (an entry matching it is not verified by it), and as
          // committed it may hold the entry's values, which an undo puts back
          counts[2]++;
          continue;
        }
        if (entries.matches(entry, row)) {
          if (entries.index().coveringGlobal()) {
            counts[3] += (IndexEntries.verified(entry) ? repairIfDifferent(entry, row)
                : verifyIfSettled(session, entries, entry, row, grace, counters)) ? 1 : 0;
          }
        } else {
          // a local entry changes with its row, so one that does not match is no write under way
          if (entries.index().local() || IndexEntries.pastGrace(entry, grace)) {
            removeIfUnchanged(session, entries, entry, counters);
            counts[1]++;
          } else {
            counts[2]++;
          }
        }
      }
      if (++pagesDone % PAGES_PER_REPORT == 0) {
        progress.accept("Index " + entries.index().name() + ": " + counts[0] + " entries checked");
      }
    }
    return counts;
  }

  /**
   * Settles an unverified entry of a covering global index that names {@code row} (read after the
   * entry): one that holds the row's values is marked verified, one that holds other values is
   * given the row's (still unverified), each on the entry's ETag, and only once the entry is past
   * the grace period. Why that is safe: a write of the row marks its entries unverified, or
   * rewrites them, before the row changes, which changes their ETags; a write under way whose
   * marks came before this entry was last written committed within the grace period, so before
   * the row was read. Returns whether it wrote the entry.
   */
  static boolean verifyIfSettled(Session session, IndexEntries entries, TableEntity entry, TableEntity row,
      Duration grace, RequestCounters counters) {
    if (IndexEntries.verified(entry) || !IndexEntries.pastGrace(entry, grace)) {
      return false;
    }
    IndexEntries.Entry held = IndexEntries.read(entry);
    IndexEntries.Entry current = entries.of(row);
    WriteOperation settle = held.same(current) ? entries.markVerified(held, entry.getETag())
        : entries.replace(current, entry.getETag(), null, null);
    EntityWrite written = IndexedWrites.bestEffort(session, entries.index().table(), settle, counters);
    return written != null && written.written();
  }

  /**
   * Gives a verified entry that holds values its row (read after it) does not the row's values,
   * unverified, on the entry's ETag: damage (an entity changed by hand, say) that a covered lookup
   * would trust. A write of the row since the entry was read changed its ETag (it marks the entry
   * unverified before the row changes), so the repair never overwrites a newer entry. Returns
   * whether it wrote the entry.
   */
  private boolean repairIfDifferent(TableEntity entry, TableEntity row) {
    IndexEntries.Entry current = entries.of(row);
    if (IndexEntries.read(entry).same(current)) {
      return false;
    }
    EntityWrite written = IndexedWrites.bestEffort(session, entries.index().table(),
        entries.replace(current, entry.getETag(), null, null), counters);
    return written != null && written.written();
  }

  /** Removes a stale entry as read: if a write changed it since, it stays. */
  static void removeIfUnchanged(Session session, IndexEntries entries, TableEntity entry, RequestCounters counters) {
    IndexedWrites.bestEffort(session, entries.index().table(),
        entries.delete(IndexEntries.read(entry), entry.getETag(), null), counters);
  }

  private int pageSize() {
    return session.settings().getInt(io.tablesql.settings.DriverProperty.PAGE_SIZE);
  }


  /** A page of rows without intents' tombstones, which are deleted rows. */
  static List<TableEntity> withoutTombstones(List<TableEntity> page) {
    return page.stream().anyMatch(row -> RowMarks.isTombstone(row.getProperties()))
        ? page.stream().filter(row -> !RowMarks.isTombstone(row.getProperties())).toList() : page;
  }
}
