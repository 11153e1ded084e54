package io.tablesql.exec;

import com.azure.data.tables.models.TableEntity;
import io.tablesql.catalog.Catalog;
import io.tablesql.catalog.MaterializedViewDefinition;
import io.tablesql.catalog.TableDefinition;
import io.tablesql.query.TableQuery;
import io.tablesql.session.Session;
import io.tablesql.store.Parallel;
import io.tablesql.store.RequestCounters;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
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
    long[] fromRows = build.copyRows(allRows, resume ? definition.resumeFrom() : null);
    long[] fromEntities = build.checkEntities();
    Catalog.update(session, base.name(), table -> {
      MaterializedViewDefinition current = table.materializedView(definition.name());
      if (current == null) {
        return null; // dropped meanwhile
      }
      return replace(table, current, current.withState(true, null));
    });
    return new Outcome(fromRows[0], fromEntities[0], fromRows[1] + fromEntities[1]);
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
      List<TableEntity> page = pages.next();
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
