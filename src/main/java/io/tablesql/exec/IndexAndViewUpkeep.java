package io.tablesql.exec;

import com.azure.data.tables.models.TableEntity;
import io.tablesql.catalog.Catalog;
import io.tablesql.catalog.TableDefinition;
import io.tablesql.catalog.TableShape;
import io.tablesql.intent.GroupUpkeep;
import io.tablesql.intent.Intent;
import io.tablesql.session.Session;
import io.tablesql.store.RequestCounters;
import io.tablesql.txn.RowMarks;
import io.tablesql.txn.WriteOperation.Kind;
import io.tablesql.txn.WriteOperation;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The index and view upkeep that the intent protocol drives ({@link GroupUpkeep}): entity groups
 * ({@link WriteSender}), their rows' index entries ({@link IndexedWrites}, {@link IndexEntries}),
 * materialized views ({@link ViewMaintenance}) and cached lookup tables ({@link LookupCache}).
 * Named in {@code META-INF/services}.
 */
public final class IndexAndViewUpkeep implements GroupUpkeep {
  @Override
  public List<List<WriteOperation>> groups(Session session, List<WriteOperation> writes) throws SQLException {
    return WriteSender.groups(session, writes);
  }

  @Override
  public void checkUniqueAcrossGroups(Session session, List<List<WriteOperation>> groups) {
    IndexedWrites.checkUniqueAcrossGroups(session, groups);
  }

  @Override
  public List<String> submit(Session session, List<WriteOperation> group, RequestCounters counters,
      Set<WriteOperation.EntityKey> pendingRows) {
    return IndexedWrites.submit(session, group, counters, pendingRows);
  }

  @Override
  public boolean submitUndo(Session session, List<WriteOperation> undo, RequestCounters counters,
      Set<WriteOperation.EntityKey> pendingRows, String undoing) {
    return IndexedWrites.submitUndo(session, undo, counters, pendingRows, undoing);
  }

  @Override
  public void tableChanged(Session session, String table) {
    LookupCache.invalidate(session, table);
  }

  @Override
  public boolean derives(Session session, List<WriteOperation> writes) {
    return ViewMaintenance.derives(session, writes);
  }

  @Override
  public void checkViews(Session session, List<WriteOperation> writes) {
    ViewMaintenance.checkWritable(session, writes);
    ViewMaintenance.awaitSummariesReady(session, writes, false);
  }

  @Override
  public boolean summaryBuildBegan(Session session, List<WriteOperation> writes) {
    return ViewMaintenance.summaryBuildBegan(session, writes);
  }

  @Override
  public void awaitFreshSummaries(Session session, List<WriteOperation> writes) {
    ViewMaintenance.awaitSummariesReady(session, writes, true);
  }

  @Override
  public void repairViews(Session session, Intent intent, boolean committed, RequestCounters counters) {
    ViewMaintenance.repairAfter(session, intent, committed, counters);
  }

  @Override
  public List<WriteOperation> keptUniqueEntries(Session session, Intent intent, Intent.Step step, boolean undone,
      RequestCounters counters) {
    WriteOperation write = step.write();
    TableDefinition base = step.before() == null && !undone ? null : Catalog.ofPhysicalTable(session, write.table());
    List<WriteOperation> removals = new ArrayList<>();
    if (base == null) {
      return removals;
    }
    Map<String, Object> after = write.after(step.before());
    for (io.tablesql.catalog.IndexDefinition definition : base.indexes()) {
      IndexEntries index = new IndexEntries(base, definition);
      if (!index.keepsOldEntryUntilCommit()) {
        continue;
      }
      IndexEntries.Entry old = undone ? entryOf(index, write, after) : entryOf(index, write, step.before());
      IndexEntries.Entry now = undone ? entryOf(index, write, step.before()) : entryOf(index, write, after);
      if (old != null && !old.sameKey(now)) {
        entry(session, index, old, counters).filter(e -> RowMarks.carriesMark(e.getProperties(), intent.id())
            && e.getProperties().get(RowMarks.DELETED) != null).ifPresent(e -> removals.add(new WriteOperation(
            definition.table(), e.getPartitionKey(), e.getRowKey(), Kind.DELETE, Map.of(), e.getETag(),
            "removing the old entry of intent " + intent.id())));
      }
    }
    return removals;
  }

  /** The old entry kept until the commit point is {@code IndexEntries.tombstone}. */
  @Override
  public List<WriteOperation> localEntryClearings(Session session, Intent intent, Intent.Step step,
      RequestCounters counters) {
    WriteOperation write = step.write();
    TableDefinition base = Catalog.ofPhysicalTable(session, write.table());
    List<WriteOperation> clears = new ArrayList<>();
    if (base == null) {
      return clears;
    }
    Map<String, Object> after = write.after(step.before());
    for (io.tablesql.catalog.IndexDefinition definition : base.indexes()) {
      if (!definition.local()) {
        continue;
      }
      IndexEntries index = new IndexEntries(base, definition);
      IndexEntries.Entry old = entryOf(index, write, step.before());
      IndexEntries.Entry now = entryOf(index, write, after);
      if (old != null && !old.sameKey(now)) {
        entry(session, index, old, counters).filter(e -> RowMarks.carriesMark(e.getProperties(), intent.id())
            && e.getProperties().get(RowMarks.DELETED) != null).ifPresent(e -> clears.add(new WriteOperation(
            write.table(), e.getPartitionKey(), e.getRowKey(), Kind.DELETE, Map.of(), e.getETag(),
            "removing the old entry of intent " + intent.id())));
      }
      if (now != null) {
        entry(session, index, now, counters).filter(e -> RowMarks.carriesMark(e.getProperties(), intent.id())
            && e.getProperties().get(RowMarks.DELETED) == null).ifPresent(e -> clears.add(new WriteOperation(
            write.table(), e.getPartitionKey(), e.getRowKey(), Kind.REPLACE, TableShape.userProperties(e),
            e.getETag(), "clearing the mark of intent " + intent.id())));
      }
    }
    return clears;
  }

  private static IndexEntries.Entry entryOf(IndexEntries index, WriteOperation write, Map<String, Object> row) {
    try {
      return row == null ? null : index.of(write.partitionKey(), write.rowKey(), row);
    } catch (IllegalArgumentException e) { // values no entry could hold: the write made none
      return null;
    }
  }

  private static Optional<TableEntity> entry(Session session, IndexEntries index, IndexEntries.Entry entry,
      RequestCounters counters) {
    return session.store().get(index.index().table(), entry.partitionKey(), entry.rowKey(), null, counters);
  }
}
