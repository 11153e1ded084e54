package io.tablesql.exec;

import com.azure.data.tables.models.TableEntity;
import io.tablesql.catalog.Column;
import io.tablesql.catalog.ValueParts;
import io.tablesql.errors.SqlStates;
import io.tablesql.intent.CommittedReads;
import io.tablesql.keys.KeyLayout;
import io.tablesql.query.AccessScope;
import io.tablesql.query.Operand;
import io.tablesql.query.ServiceFilter.Comparison;
import io.tablesql.query.ServiceFilter;
import io.tablesql.query.TableQuery;
import io.tablesql.session.Session;
import io.tablesql.session.StatementContext;
import io.tablesql.settings.DriverProperty;
import io.tablesql.store.EdmType;
import io.tablesql.store.Parallel;
import io.tablesql.store.RequestCounters;
import io.tablesql.store.StoreException;
import io.tablesql.store.TableStore;
import io.tablesql.txn.EntityRules;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;

/**
 * Runs a {@link TableQuery}: binds its parameters, sends its requests through the
 * {@link TableStore}, and streams entities as rows. Nothing is read before it is needed, except
 * for concurrent lookups and the first page of upcoming partitions.
 */
public final class QueryRunner {
  private static final Comparator<TableQuery.Key> KEY_ORDER = Comparator.comparing((TableQuery.Key k) ->
      (String) k.partitionKey().literal()).thenComparing(k -> (String) k.rowKey().literal());

  /** The most entities of a page when a column of long values is read: 100 of up to 1 MiB each. */
  static final int LONG_VALUE_PAGE = 100;

  private QueryRunner() {
  }

  /**
   * The DataContext variable that is true where the rows go to the caller as they are read, so a
   * value kept in a blob may be a {@link io.tablesql.catalog.LongValue} read only if asked
   * ({@code prepare.DirectPlan}); never where Calcite computes on them.
   */
  public static final String LONG_VALUES_UNREAD = "tablesqlLongValuesUnread";

  /**
   * The DataContext variable naming the physical tables a plan reads through materialized views
   * of them ({@code TableSqlPrepare}); absent for a plan that reads no view in a table's place.
   */
  public static final String READ_THROUGH_VIEWS = "tablesqlReadThroughViews";

  /** Called by the code Calcite generates for an {@link io.tablesql.plan.AzureTableScan}. */
  public static Enumerable<Object> enumerable(DataContext root, TableQuery query, Object[] correlated) {
    return new AbstractEnumerable<>() {
      @Override
      public Enumerator<Object> enumerator() {
        refuseViewsOfWrittenTables(root, query.table().session());
        StatementContext context = query.table().session().context(root);
        Guard guard = new Guard(root);
        Function<Operand, Object> values = operand -> operand.resolve(root, correlated);
        Session session = query.table().session();
        List<io.tablesql.txn.WriteOperation> pending = session.autoCommit() ? List.of()
            : session.pending().forTable(query.table().name());
        // rows found through an index are read as committed by the index scan, which checks them against their entries
        boolean throughIndex = query.index() != null;
        TableQuery sent = throughIndex ? query : CommittedReads.relaxed(query);
        List<String> select = sent == query ? query.select() : CommittedReads.withFiltered(query.select(), query);
        Iterator<TableEntity> scanned = open(sent, select, values, context, guard);
        Iterator<TableEntity> committed = throughIndex ? scanned
            : new CommittedReads(session, context).rows(scanned, query, sent != query, values);
        Iterator<TableEntity> entities = pending.isEmpty() ? committed
            : PendingOverlay.apply(committed, pending, query, values, session.store(), context.counters());
        Long limit = query.limit() == null ? null : query.limit().resolve(values);
        return new RowEnumerator(entities, query, limit, context, guard,
            scanned instanceof PrefetchingConcatenation scans ? scans::close : () -> { },
            Boolean.TRUE.equals(root.get(LONG_VALUES_UNREAD)));
      }
    };
  }

  /**
   * Refuses a plan made to read a table through its materialized views once this transaction has
   * written the table: a view holds the transaction's writes only once it commits, so its answer
   * would leave them out. (A statement planned in the transaction is planned on the table.)
   */
  private static void refuseViewsOfWrittenTables(DataContext root, Session session) {
    if (root.get(READ_THROUGH_VIEWS) instanceof java.util.Set<?> tables && !session.autoCommit()) {
      for (Object table : tables) {
        if (session.pending().writes((String) table)) {
          throw new StoreException("This statement was planned to answer from a materialized view of table " + table
              + ", which this transaction has written since: the view holds those writes only once the transaction "
              + "commits. Prepare the statement again within the transaction (it is then planned on the table), or "
              + "set materializedViews=false.", SqlStates.FEATURE_NOT_SUPPORTED, null);
        }
      }
    }
  }

  /** The keys or partitions of a query as EXPLAIN shows them. */
  public static String describeKeys(TableQuery query) {
    Function<Operand, String> show = operand -> operand.isParameter()
        ? operand.label() : "'" + operand.literal() + "'";
    if (!query.keys().isEmpty()) {
      TableQuery.Key first = query.keys().get(0);
      if (first.partitionKey().slot() >= 0 || first.rowKey().slot() >= 0) {
        // a lookup join's batch: the same pair of columns of every row of the batch
        return "(" + show.apply(first.partitionKey()) + ", " + show.apply(first.rowKey()) + "), ... for each row of "
            + "the batch";
      }
      return query.keys().stream().map(k -> "(" + show.apply(k.partitionKey()) + ", " + show.apply(k.rowKey()) + ")")
          .collect(Collectors.joining(", "));
    }
    return query.partitions().stream().map(show).collect(Collectors.joining(", "));
  }

  static Iterator<TableEntity> open(TableQuery query, List<String> select, Function<Operand, Object> values,
      StatementContext context, Guard guard) {
    TableStore store = query.table().session().store();
    String table = query.table().name();
    int concurrency = query.table().session().maxConcurrency();
    Long limit = query.limit() == null ? null : query.limit().resolve(values);
    boolean longValues = query.columns().stream().anyMatch(Column::large);
    // rows of long values may be a MiB each: pages of at most 100 of them, read one chain at a time
    int pageSize = (int) Math.max(1, Math.min(longValues ? Math.min(context.pageSize(), LONG_VALUE_PAGE)
        : context.pageSize(), limit == null ? 1000 : limit));
    Session session = query.table().session();
    String access = query.accessLabel();
    if (query.cached()) {
      List<TableEntity> cached = LookupCache.entities(session, table, context.counters());
      if (cached != null) {
        return cached.stream().filter(entity -> AccessScope.contains(query, entity, values)).iterator();
      }
      context.warn("Lookup table " + table + " holds more than lookupCacheMaxEntities="
          + session.settings().get(DriverProperty.LOOKUP_CACHE_MAX_ENTITIES) + " entities, so it is read from "
          + "the service, not cached. Raise the bound or remove it from lookupTables.");
    }
    switch (query.path()) {
      case INDEX_LOOKUP:
      case INDEX_RANGE_SCAN:
        return IndexScan.rows(query, values, context, guard);
      case POINT_LOOKUP:
      case MULTI_POINT_LOOKUP: {
        List<TableQuery.Key> keys = boundKeys(query, values);
        List<Optional<TableEntity>> found = Parallel.map(keys, concurrency, key -> storable(key)
            ? store.get(table, (String) key.partitionKey().literal(), (String) key.rowKey().literal(),
                select, context.counters(), access)
            : Optional.empty());
        return found.stream().flatMap(Optional::stream).iterator();
      }
      case MULTI_PARTITION_SCAN: {
        List<String> partitions = new ArrayList<>(new TreeSet<>(query.partitions().stream().map(values)
            .filter(v -> v != null).map(String.class::cast).collect(Collectors.toList())));
        List<Supplier<Iterator<List<TableEntity>>>> scans = new ArrayList<>();
        RequestCounters requests = context.counters().stoppable();
        for (String partition : partitions) {
          ServiceFilter key = new Comparison(Column.PARTITION_KEY, ServiceFilter.Op.EQ, EdmType.STRING,
              Operand.literal(partition), false);
          ServiceFilter filter = query.filter() == null ? key : new ServiceFilter.And(List.of(key, query.filter()));
          String text = filter.render(values);
          scans.add(() -> store.query(table, text, select, pageSize, requests, access));
        }
        return new PrefetchingConcatenation(scans, concurrency, 1, guard, requests);
      }
      default: {
        List<ServiceFilter> keyRanges = ServiceFilter.SequentialRanges.split(query.filter());
        if (keyRanges != null) {
          return rangeAfterRange(query, keyRanges, select, values, context, guard, pageSize, limit);
        }
        int ranges = longValues ? 1 : KeyRangeSplitter.plannedRanges(query);
        // a scan that stops within its first page (LIMIT, setMaxRows) reads one chain of pages
        if (ranges > 1 && (limit == null || limit > pageSize)
            && (context.maxRows() == 0 || context.maxRows() > pageSize)) {
          Iterator<TableEntity> split = splitScan(query, ranges, select, values, context, guard, pageSize);
          if (split != null) {
            return split;
          }
        }
        String filter = query.filter() == null ? null : query.filter().render(values);
        return flatten(store.query(table, filter, select, pageSize, context.counters(), access,
            pageEnds(query, limit, pageSize)), guard);
      }
    }
  }

  /**
   * A scan of {@link ServiceFilter.SequentialRanges}, one range at a time in key order: a LIMIT
   * met in a range sends no request for the next, and a range asks for no more entities than the
   * LIMIT still needs.
   */
  private static Iterator<TableEntity> rangeAfterRange(TableQuery query, List<ServiceFilter> ranges,
      List<String> select, Function<Operand, Object> values, StatementContext context, Guard guard, int pageSize,
      Long limit) {
    TableStore store = query.table().session().store();
    RequestCounters requests = context.counters().stoppable();
    long[] read = {0}; // by the ranges before: a range starts when the one before has ended
    List<Supplier<Iterator<List<TableEntity>>>> scans = new ArrayList<>();
    for (ServiceFilter range : ranges) {
      String text = range.render(values);
      scans.add(() -> {
        int size = limit == null ? pageSize : (int) Math.max(1, Math.min(pageSize, limit - read[0]));
        Iterator<List<TableEntity>> pages = store.query(query.table().name(), text, select, size, requests,
            query.accessLabel());
        return new Iterator<>() {
          @Override
          public boolean hasNext() {
            return pages.hasNext();
          }

          @Override
          public List<TableEntity> next() {
            List<TableEntity> page = pages.next();
            read[0] += page.size();
            return page;
          }
        };
      });
    }
    return new PrefetchingConcatenation(scans, 1, 1, guard, requests);
  }

  /**
   * A scan read as PartitionKey ranges, each range continuing in the background a few pages
   * ahead, {@code maxConcurrency} ranges at a time (memory: at most that many ranges × pages ahead ×
   * pageSize entities); null when the probes found too few keys to split.
   */
  private static Iterator<TableEntity> splitScan(TableQuery query, int ranges, List<String> select,
      Function<Operand, Object> values, StatementContext context, Guard guard, int pageSize) {
    TableStore store = query.table().session().store();
    String table = query.table().name();
    String access = query.accessLabel();
    int concurrency = query.table().session().maxConcurrency();
    RequestCounters requests = context.counters().stoppable();
    List<String> filters = KeyRangeSplitter.rangeFilters(query, ranges, values, points -> Parallel.map(points,
        concurrency, point -> firstKeyFrom(store, table, point, requests, access)));
    if (filters == null) {
      return null;
    }
    List<Supplier<Iterator<List<TableEntity>>>> scans = new ArrayList<>();
    Consumer<String> pageEnds = pageEnds(query, null, pageSize);
    for (String filter : filters) {
      scans.add(() -> store.query(table, filter, select, pageSize, requests, access, pageEnds));
    }
    return new PrefetchingConcatenation(scans, concurrency, KeyRangeSplitter.PAGES_AHEAD, guard, requests);
  }

  /**
   * Where a scan records its page ends, for later scans to split at; null under a LIMIT (pages cut
   * short) and in one partition (its pages all begin at the same key; the keyed paths stay as they were).
   */
  private static Consumer<String> pageEnds(TableQuery query, Long limit, int pageSize) {
    return limit != null || query.fixesPartition() ? null
        : PageEnds.recorder(query.table().session(), query.table().name(), pageSize);
  }

  /** The first PartitionKey at or after {@code point}, or null: one {@code $top=1} request (more if pages end early). */
  static String firstKeyFrom(TableStore store, String table, String point, RequestCounters requests,
      String access) {
    String filter = new Comparison(Column.PARTITION_KEY, ServiceFilter.Op.GE, EdmType.STRING, Operand.literal(point),
        false).render(null);
    Iterator<List<TableEntity>> pages = store.query(table, filter, List.of(Column.PARTITION_KEY), 1, requests, access);
    while (pages.hasNext()) {
      List<TableEntity> page = pages.next();
      if (!page.isEmpty()) {
        return page.get(0).getPartitionKey();
      }
    }
    return null;
  }

  /** Keys with their parameters bound, without NULLs or repeats, in key order. */
  private static List<TableQuery.Key> boundKeys(TableQuery query, Function<Operand, Object> values) {
    if (query.keys().size() == 1) { // a point lookup, executed again and again: no set to order one key
      TableQuery.Key key = query.keys().get(0);
      Object partition = values.apply(key.partitionKey());
      Object row = values.apply(key.rowKey());
      return partition == null || row == null ? List.of()
          : List.of(new TableQuery.Key(Operand.literal(partition), Operand.literal(row)));
    }
    TreeSet<TableQuery.Key> keys = new TreeSet<>(KEY_ORDER);
    for (TableQuery.Key key : query.keys()) {
      Object partition = values.apply(key.partitionKey());
      Object row = values.apply(key.rowKey());
      if (partition != null && row != null) {
        keys.add(new TableQuery.Key(Operand.literal(partition), Operand.literal(row)));
      }
    }
    return new ArrayList<>(keys);
  }

  /** A key the service could never have stored is not asked for (its URL would be malformed). */
  private static boolean storable(TableQuery.Key key) {
    return storable((String) key.partitionKey().literal()) && storable((String) key.rowKey().literal());
  }

  private static boolean storable(String key) {
    for (int i = 0; i < key.length(); i++) {
      if (!EntityRules.isAllowedInKey(key.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  /** The entities of {@code pages}, checking the guard before each page is asked for. */
  static Iterator<TableEntity> flatten(Iterator<List<TableEntity>> pages, Guard guard) {
    return new Iterator<>() {
      private Iterator<TableEntity> page = Collections.emptyIterator();

      @Override
      public boolean hasNext() {
        while (!page.hasNext()) {
          guard.check();
          if (!pages.hasNext()) {
            return false;
          }
          page = pages.next().iterator();
        }
        return true;
      }

      @Override
      public TableEntity next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return page.next();
      }
    };
  }

  /** Stops a statement that was cancelled or ran past its query timeout. */
  static final class Guard {
    private final AtomicBoolean cancelled;
    private final long deadlineNanos;

    Guard(DataContext root) {
      this.cancelled = DataContext.Variable.CANCEL_FLAG.get(root);
      Object timeout = root.get(DataContext.Variable.TIMEOUT.camelName);
      this.deadlineNanos = timeout instanceof Long millis && millis > 0
          ? System.nanoTime() + millis * 1_000_000L : Long.MAX_VALUE;
    }

    /** A statement past its deadline timed out, whether or not its cancel flag was set too. */
    void check() {
      if (deadlineNanos != Long.MAX_VALUE && System.nanoTime() - deadlineNanos > 0) {
        throw new StoreException("The statement ran past its query timeout (Statement.setQueryTimeout) and was "
            + "stopped.", SqlStates.TIMEOUT, null);
      }
      if (cancelled != null && cancelled.get()) {
        throw new StoreException("The statement was cancelled (Statement.cancel).", SqlStates.QUERY_CANCELED, null);
      }
    }
  }

  /** Entities as Calcite rows, up to the query's row limit. */
  private static final class RowEnumerator implements Enumerator<Object> {
    private final Iterator<TableEntity> entities;
    private final List<Column> columns;
    /** For each column, its place in a declared table's key, or -1 for a property. */
    private final int[] keyPositions;
    private final KeyLayout layout;
    private final boolean decodesKeys;
    private final boolean recordsRows;
    private final long limit;
    private final String table;
    private final StatementContext context;
    private final Guard guard;
    private final Runnable stopScans;
    private final ValueParts.BlobReader blobs;
    private final Session session;
    /** Whether a value kept in a blob is left unread ({@link #LONG_VALUES_UNREAD}). */
    private final boolean longValuesUnread;
    private long produced;
    private Object current;

    RowEnumerator(Iterator<TableEntity> entities, TableQuery query, Long limit, StatementContext context, Guard guard,
        Runnable stopScans, boolean longValuesUnread) {
      this.entities = entities;
      this.longValuesUnread = longValuesUnread && !context.kind().readsBeforeWriting(); // a write reads values to write them
      this.stopScans = stopScans;
      this.columns = query.columns();
      this.layout = query.shape().layout();
      this.keyPositions = new int[columns.size()];
      boolean readsKeys = false;
      for (int i = 0; i < keyPositions.length; i++) {
        keyPositions[i] = query.shape().keyPosition(columns.get(i));
        readsKeys |= keyPositions[i] >= 0;
      }
      this.decodesKeys = readsKeys || layout != null && layout.isMapped(); // rows of a mapped table are told by keys
      // a table without a primary key: its UPDATE and DELETE find their entities by the rows read
      this.recordsRows = layout != null && layout.isGenerated() && context.kind().readsBeforeWriting()
          && query.projection().size() == query.shape().columns().size();
      this.limit = limit == null ? Long.MAX_VALUE : limit;
      this.table = query.table().name();
      this.context = context;
      this.guard = guard;
      this.session = query.table().session();
      this.blobs = new BlobValues(session, context.counters()).reader(table);
    }

    @Override
    public Object current() {
      return current;
    }

    @Override
    public boolean moveNext() {
      guard.check();
      while (produced < limit && entities.hasNext()) {
        TableEntity entity = entities.next();
        Object[] keys = decodesKeys ? layout.decode(entity.getPartitionKey(), entity.getRowKey()) : null;
        if (decodesKeys && (keys == null || !isRow(entity))) {
          continue; // an entity of another kind sharing the table
        }
        produced++;
        context.recordRead(table, entity);
        current = toRow(entity, keys);
        if (recordsRows) {
          context.recordRow(table, columns.size() == 1 ? java.util.Collections.singletonList(current)
              : Arrays.asList((Object[]) current), entity);
        }
        return true;
      }
      return false;
    }

    private boolean isRow(TableEntity entity) {
      KeyLayout.Discriminator discriminator = layout.discriminator();
      return discriminator == null || discriminator.value().equals(entity.getProperty(discriminator.property()));
    }

    private Object toRow(TableEntity entity, Object[] keys) {
      if (columns.size() == 1) {
        return value(entity, 0, keys);
      }
      Object[] row = new Object[columns.size()];
      for (int i = 0; i < row.length; i++) {
        row[i] = value(entity, i, keys);
      }
      return row;
    }

    private Object value(TableEntity entity, int index, Object[] keys) {
      return keyPositions[index] >= 0 ? keys[keyPositions[index]] : value(entity, columns.get(index));
    }

    private Object value(TableEntity entity, Column column) {
      switch (column.name()) {
        case Column.PARTITION_KEY: return entity.getPartitionKey();
        case Column.ROW_KEY: return entity.getRowKey();
        case Column.TIMESTAMP: return column.toInternal(entity.getTimestamp());
        default:
          if (ValueParts.widenable(column, layout) && ValueParts.isFirstPartOnly(entity::getProperty, column.name())) {
            io.tablesql.catalog.Catalog.forget(session); // the statement run again reads the definition anew
            session.schemaChanged();
            throw new StoreException("Table " + table + " changed while this statement was prepared: column "
                + column.name() + " now holds long values (ALTER COLUMN ... TYPE by another connection). Run the "
                + "statement again.", SqlStates.SERIALIZATION_FAILURE, null);
          }
          try {
            if (longValuesUnread && (column.large() || column.referencesBlob())) {
              Object value = ValueParts.unreadValueOf(column, entity::getProperty, blobs);
              return value instanceof io.tablesql.catalog.LongValue ? value : column.toInternal(value);
            }
            return column.toInternal(ValueParts.valueOf(column, entity::getProperty, blobs));
          } catch (Column.UnreadableValue e) {
            throw new StoreException("Cannot read the entity (PartitionKey '" + entity.getPartitionKey() + "', RowKey '"
                + entity.getRowKey() + "') of Azure table " + table + ": property " + column.name() + " "
                + e.getMessage() + ". Correct that entity, or declare the column with a type that holds its values "
                + "(VARCHAR holds text).", e.sqlState(), null);
          }
      }
    }

    @Override
    public void reset() {
      throw new UnsupportedOperationException();
    }

    /** Pages are fetched on demand, but partition scans may have been started ahead. */
    @Override
    public void close() {
      stopScans.run();
    }
  }
}
