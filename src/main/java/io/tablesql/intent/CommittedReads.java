package io.tablesql.intent;

import com.azure.data.tables.models.TableEntity;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.tablesql.catalog.Column;
import io.tablesql.errors.SqlStates;
import io.tablesql.query.AccessScope;
import io.tablesql.query.Operand;
import io.tablesql.query.ServiceFilter;
import io.tablesql.query.TableQuery;
import io.tablesql.session.Session;
import io.tablesql.session.StatementContext;
import io.tablesql.store.EdmType;
import io.tablesql.store.RequestCounters;
import io.tablesql.store.StoreException;
import io.tablesql.txn.RowMarks;
import io.tablesql.txn.WriteOperation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.function.Function;

/**
 * Reads rows as committed (docs/architecture/intents.md, "Readers see committed data only"): a row that
 * carries the mark of an intent that has not committed is read as the intent says it was before
 * (absent, for a row it inserts). The intent's header decides; a gone header is told by reading
 * the row again. A statement keeps the first verdict it reaches on an intent.
 */
public final class CommittedReads {
  /** Intents whose marked rows are read as they are (committed, or parked): a verdict that never changes. */
  private static final Cache<String, Boolean> AS_IS = Caffeine.newBuilder().maximumSize(100_000).build();
  /** The rows before of intents met uncommitted, by row: an intent's steps never change. */
  private static final Cache<String, Map<WriteOperation.EntityKey, Intent.Step>> BEFORE = Caffeine.newBuilder()
      .maximumSize(64).expireAfterAccess(Duration.ofMinutes(10)).build();
  /** A row read again this often, each time marked by another intent that is gone, is refused rather than chased. */
  private static final int MAX_REREADS = 4;

  private final Session session;
  private final StatementContext context;
  private final RequestCounters counters;

  public CommittedReads(Session session, StatementContext context) {
    this.session = session;
    this.context = context;
    this.counters = context.counters();
  }

  /** Remembers an intent this JVM committed: its marks need no question. */
  static void committed(String id) {
    AS_IS.put(id, Boolean.TRUE);
  }

  /**
   * A query whose filter the service can judge on committed rows: a filter that tests more than
   * the keys (which an intent never changes) also lets through every row that carries a mark, as
   * {@code K and (P or TablesqlIntent gt '')}, or as its key conditions {@code K} alone where that
   * would exceed the service's comparisons; the same query where nothing changes.
   */
  public static TableQuery relaxed(TableQuery query) {
    List<ServiceFilter> parts = ServiceFilter.topLevelComparisons(query.filter());
    List<ServiceFilter> keys = new ArrayList<>();
    List<ServiceFilter> others = new ArrayList<>();
    for (ServiceFilter part : parts) {
      (onKeysOnly(part) ? keys : others).add(part);
    }
    if (others.isEmpty()) {
      return query;
    }
    ServiceFilter marked = new ServiceFilter.Comparison(RowMarks.MARK, ServiceFilter.Op.GT, EdmType.STRING,
        Operand.literal(""), false);
    List<ServiceFilter> relaxed = new ArrayList<>(keys);
    relaxed.add(new ServiceFilter.Or(List.of(others.size() == 1 ? others.get(0) : new ServiceFilter.And(others),
        marked)));
    ServiceFilter filter = new ServiceFilter.And(relaxed);
    if (filter.comparisons() > ServiceFilter.MAX_COMPARISONS) {
      filter = keys.isEmpty() ? null : keys.size() == 1 ? keys.get(0) : new ServiceFilter.And(keys);
    }
    return query.withFilter(filter);
  }

  /** A {@code $select} (null: everything) with the properties the query's filter tests, which the client judges again. */
  public static List<String> withFiltered(List<String> select, TableQuery query) {
    if (select == null) {
      return null;
    }
    java.util.Set<String> names = new java.util.LinkedHashSet<>(select);
    names.addAll(properties(query.filter()));
    return List.copyOf(names);
  }

  private static boolean onKeysOnly(ServiceFilter filter) {
    return List.of(Column.PARTITION_KEY, Column.ROW_KEY).containsAll(properties(filter));
  }

  /** The properties a filter tests. */
  private static java.util.Set<String> properties(ServiceFilter filter) {
    java.util.Set<String> names = new java.util.LinkedHashSet<>();
    if (filter instanceof ServiceFilter.Comparison comparison) {
      names.add(comparison.property());
    } else if (filter instanceof ServiceFilter.FirstPart firstPart) {
      names.add(firstPart.comparison().property());
    } else if (filter != null) {
      List<ServiceFilter> parts = filter instanceof ServiceFilter.And and ? and.operands()
          : filter instanceof ServiceFilter.Or or ? or.operands() : ((ServiceFilter.SequentialRanges) filter).ranges();
      parts.forEach(part -> names.addAll(properties(part)));
    }
    return names;
  }

  /**
   * The committed rows among {@code entities}, read for {@code query}; {@code relaxed}: they were
   * read with {@link #relaxed} filter, so each is judged by the query's own filter again.
   */
  public Iterator<TableEntity> rows(Iterator<TableEntity> entities, TableQuery query, boolean relaxed,
      Function<Operand, Object> values) {
    String table = query.table().name();
    return new Iterator<>() {
      private TableEntity next;

      @Override
      public boolean hasNext() {
        while (next == null && entities.hasNext()) {
          TableEntity read = entities.next();
          TableEntity row = resolve(table, read);
          if (row != null && (!relaxed && row == read || AccessScope.contains(query, row, values))) {
            next = row;
          }
        }
        return next != null;
      }

      @Override
      public TableEntity next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        TableEntity row = next;
        next = null;
        return row;
      }
    };
  }

  /**
   * The row as committed: {@code read} itself, the row an uncommitted intent replaces (carrying
   * {@link Intent#BEFORE_IMAGE}), a newer read of it, or null where it did not exist.
   */
  public TableEntity resolve(String table, TableEntity read) {
    TableEntity row = read;
    boolean whole = false;
    for (int reread = 0; ; reread++) {
      if (!(row.getProperties().get(RowMarks.MARK) instanceof String id) || id.isEmpty()) {
        return row;
      }
      if (!whole && row.getProperties().get(RowMarks.DELETED) != null) { // null: named in $select, absent
        // a tombstone, unless values were merged into it since, which a read with a $select may not show
        Optional<TableEntity> again = session.store().get(table, row.getPartitionKey(), row.getRowKey(), null,
            counters);
        if (again.isEmpty()) {
          return null;
        }
        row = again.get();
        whole = true;
        continue;
      }
      Boolean committed = verdict(id);
      if (committed == null) { // the intent is gone: committed if the row still carries its mark
        if (reread == MAX_REREADS) {
          throw new StoreException("The row (PartitionKey '" + row.getPartitionKey() + "', RowKey '"
              + row.getRowKey() + "') of " + table + " changed " + MAX_REREADS + " times while it was read. Run the "
              + "statement again.", SqlStates.SERIALIZATION_FAILURE, null);
        }
        Optional<TableEntity> again = session.store().get(table, row.getPartitionKey(), row.getRowKey(), null,
            counters);
        if (again.isEmpty()) {
          return null;
        }
        if (RowMarks.carriesMark(again.get().getProperties(), id)) {
          AS_IS.put(id, Boolean.TRUE);
          context.intentsCommitted().putIfAbsent(id, Boolean.TRUE);
          return asCommitted(again.get());
        }
        row = again.get();
        whole = true;
        continue;
      }
      return committed ? asCommitted(row) : before(table, row, id);
    }
  }

  /** A row as its committed intent left it: absent where that is its tombstone. */
  private static TableEntity asCommitted(TableEntity row) {
    return RowMarks.isTombstone(row.getProperties()) ? null : row;
  }

  /** Whether an entity holds nothing uncommitted: it carries no mark, or one of an intent known committed. */
  public boolean holdsCommitted(TableEntity entity) {
    return !(entity.getProperties().get(RowMarks.MARK) instanceof String id) || id.isEmpty()
        || Boolean.TRUE.equals(verdict(id));
  }

  /** Whether the intent has committed (true), has not (false), or is gone (null); the statement's first verdict holds. */
  private Boolean verdict(String id) {
    Boolean known = context.intentsCommitted().get(id);
    if (known != null) {
      return known;
    }
    if (AS_IS.getIfPresent(id) != null) {
      return remember(id, true);
    }
    Optional<TableEntity> header = IntentMarks.header(session, id, counters);
    if (header.isEmpty()) {
      return null;
    }
    Intent.State state = Intent.header(id, header.get().getProperties()).state();
    // a state this version does not know is a later version's: its rows are read as they are
    boolean asIs = state == null || state.committed() || state == Intent.State.PARKED;
    if (asIs) {
      AS_IS.put(id, Boolean.TRUE);
    }
    return remember(id, asIs);
  }

  private Boolean remember(String id, boolean committed) {
    Boolean first = context.intentsCommitted().putIfAbsent(id, committed);
    return first != null ? first : committed;
  }

  /** The row as it was before the uncommitted intent {@code id} wrote it; null where it did not exist. */
  private TableEntity before(String table, TableEntity row, String id) {
    Map<WriteOperation.EntityKey, Intent.Step> steps = BEFORE.getIfPresent(id);
    if (steps == null) {
      steps = readSteps(id);
      if (steps == null) { // settled between the two reads: judged again by the row
        context.intentsCommitted().remove(id);
        return resolve(table, row);
      }
      BEFORE.put(id, steps);
    }
    Intent.Step step = steps.get(new WriteOperation.EntityKey(table.toLowerCase(Locale.ROOT), row.getPartitionKey(),
        row.getRowKey()));
    if (step == null) { // a mark the intent did not write (copied by the application): the row as it is
      return RowMarks.isTombstone(row.getProperties()) ? null : row;
    }
    if (step.before() == null) {
      return null;
    }
    TableEntity before = new TableEntity(row.getPartitionKey(), row.getRowKey());
    step.before().forEach((name, value) -> {
      if (value != null) {
        before.addProperty(name, value);
      }
    });
    // the committed version's Timestamp, which the ETag the intent's write was conditional on names
    Object timestamp = committedTimestamp(step);
    if (timestamp == null) {
      timestamp = row.getProperties().get(Column.TIMESTAMP);
    }
    if (timestamp != null) {
      before.addProperty(Column.TIMESTAMP, timestamp);
    }
    before.addProperty(Intent.BEFORE_IMAGE, id);
    return before;
  }

  /**
   * The rows of {@code table} as they were before the uncommitted intent whose before-image
   * {@code before} is ({@link #resolve} gave it): the committed state of every row that intent
   * writes, as its steps hold them; none for a row read as it is.
   */
  public List<TableEntity> othersBefore(String table, TableEntity before) {
    if (!(before.getProperties().get(Intent.BEFORE_IMAGE) instanceof String id)) {
      return List.of();
    }
    Map<WriteOperation.EntityKey, Intent.Step> steps = BEFORE.getIfPresent(id);
    if (steps == null) {
      steps = readSteps(id); // evicted since resolve read them
    }
    List<TableEntity> rows = new ArrayList<>();
    if (steps == null) {
      return rows; // gone: settled since, and the statement's verdict stands on the rows it read
    }
    String lowerCase = table.toLowerCase(Locale.ROOT);
    steps.forEach((key, step) -> {
      if (key.table().equals(lowerCase) && step.before() != null && !(key.partitionKey().equals(
          before.getPartitionKey()) && key.rowKey().equals(before.getRowKey()))) {
        TableEntity row = new TableEntity(key.partitionKey(), key.rowKey());
        step.before().forEach((name, value) -> {
          if (value != null) {
            row.addProperty(name, value);
          }
        });
        Object timestamp = committedTimestamp(step);
        if (timestamp != null) {
          row.addProperty(Column.TIMESTAMP, timestamp);
        }
        row.addProperty(Intent.BEFORE_IMAGE, id);
        rows.add(row);
      }
    });
    return rows;
  }

  /** The Timestamp of the version a step's write replaces (its ETag names it); null where it is not known. */
  private static java.time.OffsetDateTime committedTimestamp(Intent.Step step) {
    return step.write() == null ? null : io.tablesql.store.TableStore.timestampOf(step.write().etag());
  }

  /** The steps of an intent by the row each writes; null if the intent is gone. */
  private Map<WriteOperation.EntityKey, Intent.Step> readSteps(String id) {
    IntentRecovery.Stored stored = IntentRecovery.read(session, id, counters);
    if (stored == null) {
      return null;
    }
    Intent intent;
    try {
      intent = stored.intent();
    } catch (IllegalStateException e) { // a later version's intent, or damaged: its rows as they are
      return Map.of();
    }
    Map<WriteOperation.EntityKey, Intent.Step> steps = new HashMap<>();
    for (Intent.Step step : intent.steps()) {
      steps.put(step.write().key(), step);
    }
    return steps;
  }
}
