package io.tablesql.exec;

import com.azure.data.tables.models.TableEntity;
import io.tablesql.catalog.Catalog;
import io.tablesql.catalog.TableDefinition;
import io.tablesql.catalog.TableShape;
import io.tablesql.errors.SqlStates;
import io.tablesql.intent.Intent;
import io.tablesql.session.Session;
import io.tablesql.store.EntityMatch;
import io.tablesql.store.Parallel;
import io.tablesql.store.RequestCounters;
import io.tablesql.store.StoreException;
import io.tablesql.store.TableStore.EntityWrite;
import io.tablesql.txn.RowMarks;
import io.tablesql.txn.WriteOperation.Kind;
import io.tablesql.txn.WriteOperation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Keeps materialized views in step with their base tables (docs/architecture/views.md, "Derived data"). A
 * write of a table with views commits through an intent; once its rows are applied (the commit
 * point), every view entity the write may have changed is <em>repaired</em>: made the copy of the
 * base row that holds its key now, or deleted if none does. A repair reads the view entity, then
 * the base rows, writes on the entity's ETag, then reads the rows again: if a row changed since it
 * was read, it starts again. So a repair never leaves older data over a newer commit, concurrent
 * repairs of one entity agree, and a repair can be run again at any time (by recovery, for a
 * writer that died after its commit point).
 */
public final class ViewMaintenance {
  /** Rounds a repair tries before it gives up to a row that keeps changing. */
  private static final int ATTEMPTS = 20;

  private ViewMaintenance() {
  }

  /** One view entity to repair, and the base rows that may hold its key. */
  private record Target(ViewEntities view, String partitionKey, String rowKey, Set<ViewEntities.RowRef> rows) {
  }

  /** Whether writes of this Azure table keep materialized views (they then go through an intent). */
  public static boolean hasViews(Session session, String physicalTable) {
    TableDefinition base = Catalog.ofPhysicalTable(session, physicalTable);
    return base != null && !base.materializedViews().isEmpty();
  }

  /**
   * Checks, before anything is written, that every view can hold the rows as written: a write the
   * views cannot follow is refused (22000), not committed with views left behind.
   */
  static void checkWritable(Session session, List<WriteOperation> writes) {
    Map<String, List<ViewEntities>> views = new HashMap<>();
    for (WriteOperation write : writes) {
      for (ViewEntities view : views.computeIfAbsent(write.table(), table -> viewsOf(session, table))) {
        Map<String, Object> after = write.after(write.before());
        if (after != null) {
          try {
            view.keyOf(write.partitionKey(), write.rowKey(), after);
          } catch (StoreException e) {
            throw new StoreException("Cannot write " + write.describe() + ": " + e.getMessage() + " Nothing was "
                + "written.", e.sqlState(), null);
          }
        }
      }
    }
  }

  /**
   * Waits while a summary view of a table these writes change is being built or verified (its
   * totals are computed from a scan, which a write's change must not be added to twice); reads
   * the catalog again while it waits ({@code fresh}: from the first read on).
   *
   * @throws StoreException 40001 if the build takes longer than a lease
   */
  static void awaitSummariesReady(Session session, List<WriteOperation> writes, boolean fresh) {
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(
        session.settings().getInt(io.tablesql.settings.DriverProperty.INTENT_LEASE));
    for (boolean read = fresh; ; read = true) {
      if (read) {
        refreshWrittenTables(session, writes);
      }
      String building = summaryBuilding(session, writes);
      if (building == null) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new StoreException("Materialized view " + building + " is being built or verified, and writes of its "
            + "table wait for that; it took longer than intentLeaseSeconds. Nothing was written; try again.",
            SqlStates.SERIALIZATION_FAILURE, null);
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new StoreException("Interrupted while waiting for materialized view " + building + ".",
            SqlStates.QUERY_CANCELED, e);
      }
    }
  }

  /**
   * Whether, by the catalog as it is now (one read of each written table's definition), a summary
   * view of a written table is being built: asked once the intent is recorded, so that a build
   * either lists the intent and waits for it, or began before and this write waits for the build.
   */
  static boolean summaryBuildBegan(Session session, List<WriteOperation> writes) {
    boolean summaries = writes.stream().map(WriteOperation::table).distinct()
        .anyMatch(table -> viewsOf(session, table).stream().anyMatch(v -> v.view().summary()));
    if (!summaries) {
      return false;
    }
    refreshWrittenTables(session, writes);
    return summaryBuilding(session, writes) != null;
  }

  /** The definitions of the written tables as the catalog holds them now (one read each, not the catalog's). */
  private static void refreshWrittenTables(Session session, List<WriteOperation> writes) {
    writes.stream().map(WriteOperation::table).distinct().forEach(table -> Catalog.freshTablesOver(session, table));
  }

  /** The name of a summary view of a written table that is not ready, or null. */
  private static String summaryBuilding(Session session, List<WriteOperation> writes) {
    for (String table : writes.stream().map(WriteOperation::table).distinct().toList()) {
      for (ViewEntities view : viewsOf(session, table)) {
        if (view.view().summary() && !view.view().ready()) {
          return view.view().name();
        }
      }
    }
    return null;
  }

  /** Whether any of these steps writes a table with views. */
  static boolean derives(Session session, List<WriteOperation> writes) {
    return writes.stream().map(WriteOperation::table).distinct().anyMatch(table -> hasViews(session, table));
  }

  /**
   * Repairs every view entity the intent's steps may have changed: the entities of each written
   * row before and after. Run after the commit point, by the committer or by recovery
   * ({@code committed}: summaries take the intent's change too); after an undo, copies only, since
   * a repair may have copied a group's rows while they were applied.
   */
  static void repairAfter(Session session, Intent intent, boolean committed, RequestCounters counters) {
    Map<String, List<ViewEntities>> views = new HashMap<>();
    Map<List<String>, Target> targets = new LinkedHashMap<>();
    Map<List<String>, Change> changes = new LinkedHashMap<>();
    for (Intent.Step step : intent.steps()) {
      WriteOperation write = step.write();
      ViewEntities.RowRef row = new ViewEntities.RowRef(write.partitionKey(), write.rowKey());
      for (ViewEntities view : views.computeIfAbsent(write.table(), table -> viewsOf(session, table))) {
        int sign = -1; // the row before is taken away from its group, the row after added to its own
        for (Map<String, Object> image : java.util.Arrays.asList(step.before(), write.after(step.before()))) {
          Map<String, Object> values = image == null ? null : qualifyingQuietly(view, write, image);
          String[] key = values == null ? null : keyQuietly(view, values, write);
          if (key != null && view.view().summary() && committed) {
            changes.computeIfAbsent(List.of(view.view().name(), key[0], key[1]),
                k -> new Change(view, key[0], key[1], new SummaryTotals(view.view()))).totals().add(values, sign);
          } else if (key != null && !view.view().summary()) {
            targets.computeIfAbsent(List.of(view.view().name(), key[0], key[1]),
                k -> new Target(view, key[0], key[1], new LinkedHashSet<>())).rows().add(row);
          }
          sign = 1;
        }
      }
    }
    Parallel.map(List.copyOf(targets.values()), session.maxConcurrency(), target -> {
      repair(session, target.view(), target.partitionKey(), target.rowKey(), target.rows(), counters);
      return null;
    });
    Parallel.map(changes.values().stream().filter(c -> !c.totals().isZero()).toList(), session.maxConcurrency(),
        change -> {
          add(session, change, intent.id(), counters);
          return null;
        });
  }

  /** A change of one summary group's totals by one intent. */
  private record Change(ViewEntities view, String partitionKey, String rowKey, SummaryTotals totals) {
  }

  /** A written row's values if it is in the view; null if not, or if it holds values the view cannot read. */
  private static Map<String, Object> qualifyingQuietly(ViewEntities view, WriteOperation write,
      Map<String, Object> image) {
    try {
      return view.qualifying(write.partitionKey(), write.rowKey(), image);
    } catch (StoreException e) {
      return null;
    }
  }

  /**
   * Adds an intent's change to a summary group, once: the group's entity records the intents it
   * took (kept while they exist), and is replaced on its ETag, so that concurrent writers of the
   * group each add theirs (one that lost the race reads again).
   */
  private static void add(Session session, Change change, String intentId, RequestCounters counters) {
    ViewEntities view = change.view();
    for (int attempt = 0; attempt < CONTENDED_ATTEMPTS; attempt++) {
      Optional<TableEntity> entity = session.store().get(view.table(), change.partitionKey(), change.rowKey(), null,
          counters);
      SummaryTotals totals = entity.map(e -> SummaryTotals.of(view.view(), e))
          .orElseGet(() -> new SummaryTotals(view.view()));
      if (totals.applied(intentId)) {
        return;
      }
      totals.add(change.totals());
      List<String> applied = totals.appliedList();
      if (applied.size() >= PRUNE_FROM) {
        applied = stillPending(session, applied, counters);
      }
      applied.add(intentId);
      WriteOperation write = new WriteOperation(view.table(), change.partitionKey(), change.rowKey(),
          entity.isEmpty() ? Kind.INSERT : Kind.REPLACE, totals.properties(view.base(), applied),
          entity.map(TableEntity::getETag).orElse(null), "materialized view " + view.view().name());
      EntityWrite written = writeUnlessDropped(session, view, write, counters);
      if (written == null || written.written()) {
        return;
      }
      try {
        Thread.sleep(java.util.concurrent.ThreadLocalRandom.current().nextInt(5 + 10 * Math.min(attempt, 10)));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    throw new StoreException("Materialized view " + view.view().name() + " could not add a write to a group that "
        + "other writers kept changing. Recovery adds it within intentLeaseSeconds.", SqlStates.SERIALIZATION_FAILURE,
        null);
  }

  /**
   * Writes a view's entity; null if its table is gone because the view was dropped (by a
   * connection whose DROP this one's cached catalog may not show for up to schemaTtlSeconds).
   */
  private static EntityWrite writeUnlessDropped(Session session, ViewEntities view, WriteOperation write,
      RequestCounters counters) {
    try {
      return session.store().write(view.table(), write, counters);
    } catch (StoreException e) {
      if (SqlStates.TABLE_NOT_FOUND.equals(e.sqlState()) && dropped(session, view)) {
        return null;
      }
      throw e;
    }
  }

  /** Whether a view no longer exists, by the catalog as it is now (read again). */
  private static boolean dropped(Session session, ViewEntities view) {
    TableDefinition base = Catalog.fresh(session).tables().values().stream()
        .filter(t -> t.physicalTable().equalsIgnoreCase(view.base().physicalTable())).filter(t -> t.materializedView(
            view.view().name()) != null).findFirst().orElse(null);
    return base == null || !base.materializedView(view.view().name()).table().equals(view.table());
  }

  /** Tries of a change to one summary group under contention. */
  private static final int CONTENDED_ATTEMPTS = 100;
  /** Intent ids a summary entity records before those of finished intents are dropped. */
  private static final int PRUNE_FROM = 16;

  /** The ids whose intents still exist: only those can be applied again (by their committer or recovery). */
  private static List<String> stillPending(Session session, List<String> ids, RequestCounters counters) {
    List<Boolean> exist = Parallel.map(ids, session.maxConcurrency(), id -> {
      try {
        return session.store().get(Intent.TABLE, id, Intent.HEADER, List.of("PartitionKey"), counters).isPresent();
      } catch (StoreException e) {
        return true; // not known to be gone: kept
      }
    });
    List<String> pending = new ArrayList<>();
    for (int i = 0; i < ids.size(); i++) {
      if (exist.get(i)) {
        pending.add(ids.get(i));
      }
    }
    return pending;
  }

  /** A row's view key; null if a value no key holds (an old row written before the view): it has no entity. */
  private static String[] keyQuietly(ViewEntities view, Map<String, Object> values, WriteOperation write) {
    try {
      return view.key(values, write.partitionKey(), write.rowKey());
    } catch (StoreException e) {
      return null;
    }
  }

  /**
   * The views of each table definition as the catalog cache holds it (by identity): a statement
   * asks for them several times, and each parses its view's condition.
   */
  private static final com.github.benmanes.caffeine.cache.Cache<TableDefinition, List<ViewEntities>> VIEWS =
      com.github.benmanes.caffeine.cache.Caffeine.newBuilder().weakKeys().build();

  /** The views kept from an Azure table's rows. */
  static List<ViewEntities> viewsOf(Session session, String physicalTable) {
    TableDefinition base = Catalog.ofPhysicalTable(session, physicalTable);
    if (base == null || base.materializedViews().isEmpty()) {
      return List.of();
    }
    return VIEWS.get(base, definition -> definition.materializedViews().stream()
        .map(view -> new ViewEntities(definition, view)).toList());
  }



  /**
   * Makes one view entity the copy of the base row that holds its key now (among {@code rows}
   * and the row the entity names), or deletes it if none does.
   *
   * @return whether the entity was written or deleted
   * @throws StoreException 40001 if the rows kept changing under it
   */
  static boolean repair(Session session, ViewEntities view, String partitionKey, String rowKey,
      Set<ViewEntities.RowRef> rows, RequestCounters counters) {
    String baseTable = view.base().physicalTable();
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      Optional<TableEntity> entity = session.store().get(view.table(), partitionKey, rowKey, null, counters);
      Set<ViewEntities.RowRef> candidates = new LinkedHashSet<>(rows);
      entity.map(ViewEntities::named).ifPresent(candidates::add);
      List<ViewEntities.RowRef> refs = List.copyOf(candidates);
      List<Optional<TableEntity>> read = readRows(session, baseTable, refs, counters);
      TableEntity wanted = null;
      for (Optional<TableEntity> row : read) {
        TableEntity copy = row.map(r -> copyQuietly(view, r)).orElse(null);
        if (copy != null && copy.getPartitionKey().equals(partitionKey) && copy.getRowKey().equals(rowKey)) {
          wanted = copy;
          break;
        }
      }
      WriteOperation write;
      String origin = "materialized view " + view.view().name();
      if (wanted == null) {
        if (entity.isEmpty()) {
          return false;
        }
        write = new WriteOperation(view.table(), partitionKey, rowKey, Kind.DELETE, Map.of(), entity.get().getETag(),
            origin);
      } else {
        Map<String, Object> properties = TableShape.userProperties(wanted);
        if (entity.isPresent() && EntityMatch.holdsExactly(properties, entity.get())) {
          return false;
        }
        write = new WriteOperation(view.table(), partitionKey, rowKey, entity.isEmpty() ? Kind.INSERT : Kind.REPLACE,
            properties, entity.map(TableEntity::getETag).orElse(null), origin);
      }
      EntityWrite written = writeUnlessDropped(session, view, write, counters);
      if (written == null) {
        return false; // the view was dropped by a connection this one has not heard from yet
      }
      if (!written.written()) {
        continue; // another repair of the entity came first (409, 412, 404): read again
      }
      // a row changed after it was read may have a repair that came before this write: read again
      if (sameVersions(read, readRows(session, baseTable, refs, counters))) {
        return true;
      }
    }
    throw new StoreException("Materialized view " + view.view().name() + " could not be brought up to date: the rows "
        + "of " + view.base().name() + " it copies kept changing. ALTER MATERIALIZED VIEW " + view.view().name()
        + " VERIFY repairs it.", SqlStates.SERIALIZATION_FAILURE, null);
  }

  /** A row's copy; null if the row holds values the view cannot hold (it then holds no key of the view). */
  private static TableEntity copyQuietly(ViewEntities view, TableEntity row) {
    try {
      return view.entityOf(row);
    } catch (StoreException e) {
      return null;
    }
  }

  private static List<Optional<TableEntity>> readRows(Session session, String table, List<ViewEntities.RowRef> refs,
      RequestCounters counters) {
    List<Optional<TableEntity>> rows = new ArrayList<>();
    for (ViewEntities.RowRef ref : refs) {
      // an intent's tombstone is a deleted row: views are kept from committed rows
      rows.add(session.store().get(table, ref.partitionKey(), ref.rowKey(), null, counters)
          .filter(row -> !RowMarks.isTombstone(row.getProperties())));
    }
    return rows;
  }

  private static boolean sameVersions(List<Optional<TableEntity>> these, List<Optional<TableEntity>> those) {
    for (int i = 0; i < these.size(); i++) {
      String a = these.get(i).map(TableEntity::getETag).orElse(null);
      String b = those.get(i).map(TableEntity::getETag).orElse(null);
      if (!java.util.Objects.equals(a, b)) {
        return false;
      }
    }
    return true;
  }
}
