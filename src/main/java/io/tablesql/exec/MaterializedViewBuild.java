package io.tablesql.exec;

import com.azure.data.tables.models.TableEntity;
import io.tablesql.catalog.Catalog;
import io.tablesql.catalog.MaterializedViewDefinition;
import io.tablesql.catalog.TableDefinition;
import io.tablesql.intent.IntentRecovery;
import io.tablesql.query.TableQuery;
import io.tablesql.session.Session;
import io.tablesql.store.Parallel;
import io.tablesql.store.RequestCounters;
import io.tablesql.store.StoreException;
import io.tablesql.txn.WriteOperation;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Builds and verifies a materialized view that copies, one page of rows at a time: every base
 * row's entity is repaired ({@link ViewMaintenance#repair}), so a build never writes older data
 * over a concurrent writer's newer copy; the build records after each page the row it goes on
 * from (ALTER MATERIALIZED VIEW ... REBUILD resumes there); then every entity of the view is
 * repaired from the row it names, which removes those of rows gone or changed; then the view is
 * marked ready.
 */
public final class MaterializedViewBuild {
  /** Progress is reported every this many pages (JDBC warnings, which the shell prints). */
  private static final int PAGES_PER_REPORT = 10;

  private final Session session;
  private final ViewEntities view;
  private final Consumer<String> progress;
  private final RequestCounters counters = new RequestCounters();

  /** What a build or verification did: rows read, entities checked, entities written or deleted. */
  public record Outcome(long rows, long entitiesChecked, long entitiesRepaired) {
  }

  private MaterializedViewBuild(Session session, ViewEntities view, Consumer<String> progress) {
    this.session = session;
    this.view = view;
    this.progress = progress;
  }

  /**
   * Builds (from where an interrupted build stopped, if {@code resume}) or verifies the view, then
   * marks it ready. {@code allRows} is the full scan of the base table as the planner makes it.
   */
  public static Outcome run(Session session, TableDefinition base, MaterializedViewDefinition definition,
      TableQuery allRows, boolean resume, Consumer<String> progress) {
    MaterializedViewBuild build = new MaterializedViewBuild(session, new ViewEntities(base, definition), progress);
    long[] fromRows;
    long[] fromEntities;
    if (definition.summary()) {
      build.lockForSummary(base, definition);
      fromRows = build.summarize(allRows);
      fromEntities = new long[] {fromRows[2], fromRows[1]};
    } else {
      // unsorted results (Cosmos DB) have no "after this key": the copy starts again from the first row
      fromRows = build.copyRows(allRows, resume && session.resultsInKeyOrder() ? definition.resumeFrom() : null);
      fromEntities = build.checkEntities();
    }
    Catalog.update(session, base.name(), table -> {
      MaterializedViewDefinition current = table.materializedView(definition.name());
      if (current == null) {
        return null; // dropped meanwhile
      }
      return replace(table, current, current.withState(true, null));
    });
    return new Outcome(fromRows[0], fromEntities[0], fromRows[1] + fromEntities[1]);
  }

  /**
   * Makes writes of the table wait (the view is marked building; writers check that once their
   * intent is recorded), then waits until no intent that writes the table is left: from then on,
   * every committed row is in the table, and no change of a group is added while the totals are
   * computed from a scan.
   */
  private void lockForSummary(TableDefinition base, MaterializedViewDefinition definition) {
    if (definition.ready()) {
      Catalog.update(session, base.name(), table -> {
        MaterializedViewDefinition current = table.materializedView(definition.name());
        return current == null ? null : replace(table, current, current.withState(false, null));
      });
      session.schemaChanged();
    }
    int leaseSeconds = session.settings().getInt(io.tablesql.settings.DriverProperty.INTENT_LEASE);
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(3L * leaseSeconds);
    while (IntentRecovery.list(session, counters).stream().anyMatch(listed ->
        listed.header().state() != io.tablesql.intent.Intent.State.PARKED
        && listed.header().tables().stream().anyMatch(t -> t.equalsIgnoreCase(base.physicalTable())))) {
      if (System.nanoTime() > deadline) {
        throw new StoreException("Writes of " + base.name() + " still in flight (see tablesql.pending_writes) kept "
            + "materialized view " + definition.name() + " from being summed up.", io.tablesql.errors.SqlStates
            .SERIALIZATION_FAILURE, null);
      }
      try {
        Thread.sleep(250);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new StoreException("Interrupted while waiting for the writes of " + base.name() + " in flight; "
            + "materialized view " + definition.name() + " was not summed up.", io.tablesql.errors.SqlStates.QUERY_CANCELED,
            e);
      }
    }
  }

  /**
   * Computes every group's totals from a scan of the table, and makes the view's entities hold
   * them: a group whose entity is right is not written; one no row is in any more is removed.
   * Returns rows read, entities written or removed, entities checked.
   */
  private long[] summarize(TableQuery allRows) {
    Map<List<String>, SummaryTotals> groups = new LinkedHashMap<>();
    Iterator<List<TableEntity>> pages = session.store().query(view.base().physicalTable(),
        IndexBuild.rowsFilter(allRows, null), null, pageSize(), counters);
    long rows = 0;
    while (pages.hasNext()) {
      for (TableEntity row : IndexBuild.withoutTombstones(pages.next())) {
        rows++;
        Map<String, Object> values = view.qualifying(row.getPartitionKey(), row.getRowKey(),
            io.tablesql.catalog.TableShape.userProperties(row));
        if (values != null) {
          String[] key = view.key(values, row.getPartitionKey(), row.getRowKey());
          groups.computeIfAbsent(List.of(key[0], key[1]), k -> new SummaryTotals(view.view())).add(values, 1);
        }
      }
    }
    List<WriteOperation> writes = new ArrayList<>();
    long repairs = 0;
    long checked = 0;
    Iterator<List<TableEntity>> entities = session.store().query(view.table(), null, null, pageSize(), counters);
    String origin = "materialized view " + view.view().name();
    while (entities.hasNext()) {
      for (TableEntity entity : entities.next()) {
        checked++;
        SummaryTotals totals = groups.remove(List.of(entity.getPartitionKey(), entity.getRowKey()));
        Map<String, Object> properties = totals == null ? null : totals.properties(view.base(), List.of());
        // the intents a group took are done (none is left): only totals that differ are a repair
        Map<String, Object> held = new java.util.HashMap<>(io.tablesql.catalog.TableShape.userProperties(entity));
        held.remove(SummaryTotals.APPLIED);
        boolean live = MaterializedViewDefinition.LIVE.equals(held.get(MaterializedViewDefinition.GROUP_STATE));
        boolean right = properties == null ? !live : io.tablesql.catalog.TableShape.sameProperties(properties, held);
        repairs += right ? 0 : 1;
        if (properties == null) { // no row is in the group: its entity goes (an empty one is no repair)
          writes.add(new WriteOperation(view.table(), entity.getPartitionKey(), entity.getRowKey(),
              WriteOperation.Kind.DELETE, Map.of(), entity.getETag(), origin));
        } else if (!right) {
          writes.add(new WriteOperation(view.table(), entity.getPartitionKey(), entity.getRowKey(),
              WriteOperation.Kind.REPLACE, properties, entity.getETag(), origin));
        }
      }
    }
    repairs += groups.size();
    groups.forEach((key, totals) -> writes.add(new WriteOperation(view.table(), key.get(0), key.get(1),
        WriteOperation.Kind.INSERT, totals.properties(view.base(), List.of()), null, origin)));
    Parallel.map(writes, session.maxConcurrency(), write -> {
      session.store().submit(view.table(), List.of(write), counters);
      return null;
    });
    return new long[] {rows, repairs, checked};
  }

  static TableDefinition replace(TableDefinition table, MaterializedViewDefinition current,
      MaterializedViewDefinition changed) {
    List<MaterializedViewDefinition> views = new ArrayList<>(table.materializedViews());
    views.set(views.indexOf(current), changed);
    return table.withMaterializedViews(views);
  }

  /** Repairs the entity of every base row; returns rows read and entities written. */
  private long[] copyRows(TableQuery allRows, List<String> resumeFrom) {
    Iterator<List<TableEntity>> pages = session.store().query(view.base().physicalTable(),
        IndexBuild.rowsFilter(allRows, resumeFrom), null, pageSize(), counters);
    long rows = 0;
    long repaired = 0;
    long pagesDone = 0;
    while (pages.hasNext()) {
      List<TableEntity> page = IndexBuild.withoutTombstones(pages.next());
      if (page.isEmpty()) {
        continue;
      }
      List<Boolean> written = Parallel.map(page, session.maxConcurrency(), row -> {
        TableEntity copy = view.entityOf(row);
        return copy != null && ViewMaintenance.repair(session, view, copy.getPartitionKey(), copy.getRowKey(),
            Set.of(new ViewEntities.RowRef(row.getPartitionKey(), row.getRowKey())), counters);
      });
      repaired += written.stream().filter(Boolean::booleanValue).count();
      rows += page.size();
      TableEntity last = page.get(page.size() - 1);
      recordProgress(List.of(last.getPartitionKey(), last.getRowKey()));
      if (++pagesDone % PAGES_PER_REPORT == 0) {
        progress.accept("Materialized view " + view.view().name() + ": " + rows + " rows of " + view.base().name()
            + " copied");
      }
    }
    return new long[] {rows, repaired};
  }

  /** Repairs every entity of the view from the row it names; returns entities checked and repaired. */
  private long[] checkEntities() {
    Iterator<List<TableEntity>> pages = session.store().query(view.table(), null,
        List.of("PartitionKey", "RowKey"), pageSize(), counters);
    long checked = 0;
    long repaired = 0;
    while (pages.hasNext()) {
      List<TableEntity> page = pages.next();
      List<Boolean> written = Parallel.map(page, session.maxConcurrency(), entity -> ViewMaintenance.repair(session,
          view, entity.getPartitionKey(), entity.getRowKey(), Set.of(), counters));
      checked += page.size();
      repaired += written.stream().filter(Boolean::booleanValue).count();
    }
    return new long[] {checked, repaired};
  }

  private void recordProgress(List<String> resumeFrom) {
    Catalog.update(session, view.base().name(), table -> {
      MaterializedViewDefinition current = table.materializedView(view.view().name());
      if (current == null || current.ready()) {
        return null;
      }
      return replace(table, current, current.withState(false, resumeFrom));
    });
  }

  private int pageSize() {
    return session.settings().getInt(io.tablesql.settings.DriverProperty.PAGE_SIZE);
  }
}
