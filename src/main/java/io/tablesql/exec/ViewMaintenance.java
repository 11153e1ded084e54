package io.tablesql.exec;

import com.azure.data.tables.models.TableEntity;
import io.tablesql.catalog.Catalog;
import io.tablesql.catalog.MaterializedViewDefinition;
import io.tablesql.catalog.TableDefinition;
import io.tablesql.catalog.TableShape;
import io.tablesql.errors.SqlStates;
import io.tablesql.session.Session;
import io.tablesql.store.EntityMatch;
import io.tablesql.store.Parallel;
import io.tablesql.store.RequestCounters;
import io.tablesql.store.StoreException;
import io.tablesql.store.TableStore.EntityWrite;
import io.tablesql.txn.Intent;
import io.tablesql.txn.WriteOperation;
import io.tablesql.txn.WriteOperation.Kind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Keeps materialized views in step with their base tables (ARCHITECTURE.md, "Derived data"). A
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
        Map<String, Object> after = after(write, write.before());
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

  /** Whether any of these steps writes a table with views. */
  static boolean derives(Session session, List<WriteOperation> writes) {
    return writes.stream().map(WriteOperation::table).distinct().anyMatch(table -> hasViews(session, table));
  }

  /**
   * Repairs every view entity the intent's steps may have changed: the entities of each written
   * row before and after. Run after the commit point, by the committer or by recovery.
   */
  static void repairAfter(Session session, List<Intent.Step> steps, RequestCounters counters) {
    Map<String, List<ViewEntities>> views = new HashMap<>();
    Map<List<String>, Target> targets = new LinkedHashMap<>();
    for (Intent.Step step : steps) {
      WriteOperation write = step.write();
      ViewEntities.RowRef row = new ViewEntities.RowRef(write.partitionKey(), write.rowKey());
      for (ViewEntities view : views.computeIfAbsent(write.table(), table -> viewsOf(session, table))) {
        for (Map<String, Object> image : java.util.Arrays.asList(step.before(), after(write, step.before()))) {
          String[] key = image == null ? null : keyQuietly(view, write, image);
          if (key != null) {
            targets.computeIfAbsent(List.of(view.view().name(), key[0], key[1]),
                k -> new Target(view, key[0], key[1], new LinkedHashSet<>())).rows().add(row);
          }
        }
      }
    }
    Parallel.map(List.copyOf(targets.values()), session.maxConcurrency(), target -> {
      repair(session, target.view(), target.partitionKey(), target.rowKey(), target.rows(), counters);
      return null;
    });
  }

  /** A row's view key; null if a value no key holds (an old row written before the view): it has no entity. */
  private static String[] keyQuietly(ViewEntities view, WriteOperation write, Map<String, Object> image) {
    try {
      return view.keyOf(write.partitionKey(), write.rowKey(), image);
    } catch (StoreException e) {
      return null;
    }
  }

  /** The views kept from an Azure table's rows. */
  static List<ViewEntities> viewsOf(Session session, String physicalTable) {
    TableDefinition base = Catalog.ofPhysicalTable(session, physicalTable);
    List<ViewEntities> views = new ArrayList<>();
    if (base != null) {
      for (MaterializedViewDefinition view : base.materializedViews()) {
        views.add(new ViewEntities(base, view));
      }
    }
    return views;
  }

  /** A row's properties after a write (null: deleted), from its properties before (null: absent). */
  private static Map<String, Object> after(WriteOperation write, Map<String, Object> before) {
    if (write.kind().deletes()) {
      return null;
    }
    boolean merges = write.kind() == Kind.MERGE || write.kind() == Kind.UPSERT_MERGE;
    Map<String, Object> after = merges && before != null ? new HashMap<>(before) : new HashMap<>();
    write.properties().forEach((name, value) -> {
      if (value != null) {
        after.put(name, value);
      }
    });
    return after;
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
        TableEntity copy = row.map(view::entityOf).orElse(null);
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
      EntityWrite written = session.store().write(view.table(), write, counters);
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

  private static List<Optional<TableEntity>> readRows(Session session, String table, List<ViewEntities.RowRef> refs,
      RequestCounters counters) {
    List<Optional<TableEntity>> rows = new ArrayList<>();
    for (ViewEntities.RowRef ref : refs) {
      rows.add(session.store().get(table, ref.partitionKey(), ref.rowKey(), null, counters));
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
