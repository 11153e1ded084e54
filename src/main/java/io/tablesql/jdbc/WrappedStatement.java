package io.tablesql.jdbc;

import static io.tablesql.jdbc.JdbcCalls.call;

import io.tablesql.TableSqlStatement;
import io.tablesql.errors.SqlExceptions;
import io.tablesql.errors.SqlStates;
import io.tablesql.exec.WriteSender;
import io.tablesql.prepare.DirectPlan;
import io.tablesql.prepare.LiteralLifter;
import io.tablesql.prepare.NewColumns;
import io.tablesql.prepare.PlanCache;
import io.tablesql.session.CurrentStatement;
import io.tablesql.prepare.SqlAction;
import io.tablesql.prepare.StatementRouter;
import io.tablesql.prepare.StatementText;
import io.tablesql.session.Session;
import io.tablesql.session.StatementContext;
import io.tablesql.session.StatementKind;
import io.tablesql.settings.DriverProperty;
import io.tablesql.store.FirstUse;
import io.tablesql.store.RequestCounters;
import io.tablesql.store.SettledConflict;
import io.tablesql.txn.WriteOperation;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A statement of a tablesql connection: Calcite's statement underneath, with execution
 * attributed to this statement's {@link RequestCounters} and errors translated.
 */
class WrappedStatement extends ForwardingStatement implements TableSqlStatement {
  /** The one action a wrapper runs on behalf of its caller. */
  private Statement delegate;
  final TableSqlConnection connection;
  private RequestCounters counters = new RequestCounters();
  private StatementContext lastContext;
  private int fetchSize;
  private final List<StatementText> batch = new ArrayList<>();
  private ResultSet currentResultSet;
  /** The current result's update count: -1 when it is a result set or there are no more results. */
  private long updateCount = -1;
  /** Whether closing the current result set closes this statement too (Statement.closeOnCompletion). */
  private boolean closeOnCompletion;
  /** The cached plan whose result set is open, which cancel() must reach too. */
  private PreparedStatement runningPlan;
  /** Keeps a cancel from reaching a plan once it went back to the cache and on to another statement. */
  private final Object runningPlanLock = new Object();
  /** Whether cancel() was called since the statement last started executing. */
  private volatile boolean cancelled;
  /** The last execution's own warnings as handed out, the context and texts they were made of. */
  private SQLWarning ownWarnings;
  private StatementContext ownWarningsContext;
  private List<String> ownWarningTexts = List.of();
  /** Set once this statement (HY010) or its connection (08003) is closed: why a fetch under way stops. */
  private volatile String closedState;

  WrappedStatement(Statement delegate, TableSqlConnection connection) {
    this.delegate = delegate;
    this.connection = connection;
    connection.opened(this);
  }

  @Override
  Statement delegate() {
    return delegate;
  }

  /** Runs an execution of {@code text} as this statement's, translating any failure. */
  final <T> T execution(StatementText text, SqlAction<T> action) throws SQLException {
    Session session = connection.session();
    boolean retried = session.autoCommit()
        && (text.kind() == StatementKind.UPDATE || text.kind() == StatementKind.DELETE);
    int retriesLeft = retried ? session.settings().getInt(DriverProperty.OPTIMISTIC_RETRIES) : 0;
    boolean waited = false;
    while (true) {
      try {
        return run(context -> action.run(), text.kind(), null);
      } catch (SQLException e) {
        // a row another transaction was writing, which has ended since: run again once, as
        // PostgreSQL's writers go on once a row's lock is released (nothing was written; in a
        // transaction, a statement's writes join it only once the statement has run whole)
        if (!waited && !cancelled && SettledConflict.in(e)) {
          waited = true;
          continue;
        }
        // the guide's optimistic retry: a row changed since the statement read it; read and run again
        if (retriesLeft-- <= 0 || !SqlStates.SERIALIZATION_FAILURE.equals(e.getSQLState())) {
          throw e;
        }
      }
    }
  }

  /**
   * SQL given to this Statement, analysed before it is planned: an INSERT or UPSERT may name
   * properties no sampled entity has ({@link NewColumns}). A PreparedStatement's was at prepare.
   */
  private StatementText analysed(String sql) {
    StatementText text = StatementText.of(sql);
    NewColumns.declare(text, connection.session());
    return text;
  }

  /**
   * Runs a query as this statement's current result. Executing closes the result set of the
   * previous execution and forgets its update count, as JDBC wants, also when it fails.
   */
  final ResultSet queryResult(StatementText text, SqlAction<ResultSet> query) throws SQLException {
    startResult();
    currentResultSet = execution(text, query);
    return currentResultSet;
  }

  /** Runs a write or DDL whose update count becomes the current result. */
  final long updateResult(StatementText text, SqlAction<Long> update) throws SQLException {
    startResult();
    updateCount = execution(text, update);
    return updateCount;
  }

  /** Runs a statement of either kind (Statement.execute): its result set or its update count is the current result. */
  final boolean executeResult(StatementText text, SqlAction<Boolean> execute) throws SQLException {
    startResult();
    if (execution(text, execute)) {
      currentResultSet = wrap(delegate.getResultSet());
      return true;
    }
    updateCount = delegate.getLargeUpdateCount();
    return false;
  }

  private void startResult() throws SQLException {
    closeCurrentResultSet();
    updateCount = -1;
  }

  /** The one action that runs with a statement context. */
  interface ContextAction<T> {
    T run(StatementContext context) throws SQLException;
  }

  private <T> T run(ContextAction<T> action, StatementKind kind, List<StatementKind> batch) throws SQLException {
    Session session = connection.session();
    cancelled = false;
    CancelFlags.clear(delegate);
    counters = new RequestCounters();
    int pageSize = fetchSize > 0 ? Math.min(fetchSize, 1000) : session.settings().getInt(DriverProperty.PAGE_SIZE);
    StatementContext context = (batch == null ? StatementContext.single(counters, pageSize, kind)
        : StatementContext.batch(counters, pageSize, batch)).maxRows(getLargeMaxRows());
    session.begin(CancelFlags.of(delegate), context);
    lastContext = context;
    try (CurrentStatement.Scope planning = CurrentStatement.bounded(delegate.getQueryTimeout())) {
      return session.during(context, () -> connection.withFreshTables(() -> action.run(context)));
    } finally {
      FirstUse.signal();
    }
  }

  /**
   * Runs a batch: every execution's writes are collected, then sent grouped by table and
   * PartitionKey into entity groups of up to 100, concurrently. Without auto-commit they join
   * the transaction instead.
   */
  final int[] batchExecution(List<StatementKind> kinds, ContextAction<int[]> executeAll) throws SQLException {
    startResult();
    return run(context -> {
      int[] counts;
      BatchUpdateException failure = null;
      try {
        counts = executeAll.run(context);
      } catch (BatchUpdateException e) {
        // The statements before the failing one ran, as they would have one by one: their writes go.
        failure = e;
        counts = e.getUpdateCounts();
      }
      List<WriteOperation> writes = context.batch();
      Session session = connection.session();
      if (!session.autoCommit()) {
        session.pending().add(writes);
      } else {
        counts = BatchOutcome.check(counts, context,
            WriteSender.send(session, WriteSender.groups(session, writes), counters));
      }
      if (failure != null) {
        throw failure;
      }
      return counts;
    }, kinds.isEmpty() ? StatementKind.OTHER : kinds.get(0), kinds);
  }

  /**
   * The statement's result set, holding at most its max rows as they are when it runs: Calcite
   * applies max rows only when it plans, so a prepared statement's would otherwise be ignored.
   */
  final ResultSet wrap(ResultSet resultSet) throws SQLException {
    return resultSet == null ? null : new WrappedResultSet(resultSet, this, getLargeMaxRows());
  }

  /**
   * A result set made outside an execution (Calcite's metadata) as this statement's current one;
   * closing it closes this statement, which exists only to own it.
   */
  final WrappedResultSet own(ResultSet resultSet) {
    WrappedResultSet owned = new WrappedResultSet(resultSet, this, 0);
    currentResultSet = owned;
    closeOnCompletion = true;
    return owned;
  }

  /** The caller closed a result set of this statement; executions close theirs through closeCurrentResultSet. */
  final void resultSetClosed(ResultSet resultSet) throws SQLException {
    if (resultSet == currentResultSet) {
      currentResultSet = null;
      if (closeOnCompletion) {
        close();
      }
    }
  }

  @Override
  public long requestCount() {
    return counters.requests();
  }

  @Override
  public long entityCount() {
    return counters.entities();
  }

  @Override
  public ResultSet executeQuery(String written) throws SQLException {
    StatementText text = StatementText.of(JdbcEscapes.translate(written));
    return query(text, connection.router().route(text, StatementRouter.Call.EXECUTE_QUERY, getLargeMaxRows()));
  }

  /** A query on its route: unplanned, lifted onto a plan of the plan cache, or planned as written. */
  private ResultSet query(StatementText text, StatementRouter.Routed routed) throws SQLException {
    if (routed.route() != StatementRouter.Route.UNPLANNED) {
      return queryResult(text, planned(text, routed));
    }
    return queryResult(text, () -> {
      ResultSet unplanned = connection.unplanned(text, delegate);
      return unplanned != null ? wrap(unplanned)
          : planned(text, connection.router().planned(text, getLargeMaxRows())).run();
    });
  }

  /**
   * A query planned: on a plan of the plan cache when its literals were lifted and the plan takes
   * them, else as written (an INSERT's new columns declared first, as for any statement planned).
   */
  private SqlAction<ResultSet> planned(StatementText text, StatementRouter.Routed routed) {
    if (routed.route() != StatementRouter.Route.LIFTED) {
      NewColumns.declare(text, connection.session());
    }
    return () -> {
      ResultSet cached = routed.route() == StatementRouter.Route.LIFTED ? fromPlanCache(routed.lifted()) : null;
      return cached != null ? cached : wrap(text.plannedBy(() -> delegate.executeQuery(text.sql())));
    };
  }

  /**
   * Runs a query on a cached plan when it has literals to lift; null when it must be planned
   * as written. The plan returns to the cache when its result set closes.
   */
  private ResultSet fromPlanCache(LiteralLifter.Lifted lifted) throws SQLException {
    if (!connection.cachedPlansServe()) {
      return null; // planned as written
    }
    PlanCache cache = connection.planCache();
    PreparedStatement plan = cache.acquire(lifted);
    if (plan == null) {
      return null;
    }
    try {
      connection.session().begin(CancelFlags.of(plan), lastContext); // the lent plan runs for this statement
      plan.setFetchSize(fetchSize);
      plan.setQueryTimeout(getQueryTimeout());
      synchronized (runningPlanLock) {
        runningPlan = plan;
      }
      DirectPlan direct = cache.direct(plan);
      ResultSet rows = direct == null ? null : direct.execute(plan);
      return new WrappedResultSet(rows != null ? rows : plan.executeQuery(), this, 0)
          .onClose(() -> releasePlan(cache, lifted.sql(), plan));
    } catch (SQLException | RuntimeException | AssertionError | ExceptionInInitializerError e) {
      releasePlan(cache, lifted.sql(), plan);
      throw e;
    }
  }

  private void releasePlan(PlanCache cache, String sql, PreparedStatement plan) {
    synchronized (runningPlanLock) {
      runningPlan = null;
    }
    cache.release(sql, plan);
  }

  final void closeCurrentResultSet() throws SQLException {
    if (currentResultSet != null) {
      ResultSet previous = currentResultSet;
      currentResultSet = null;
      previous.close();
    }
  }

  @Override
  public int executeUpdate(String written) throws SQLException {
    return saturated(executeLargeUpdate(written));
  }

  @Override
  public long executeLargeUpdate(String written) throws SQLException {
    StatementText text = analysed(JdbcEscapes.translate(written));
    return updateResult(text, () -> text.plannedBy(() -> delegate.executeLargeUpdate(text.sql())));
  }

  /** An update count as an int, as Calcite's int methods give it: Integer.MAX_VALUE when larger. */
  static int saturated(long count) {
    return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, count));
  }

  @Override
  public boolean execute(String written) throws SQLException {
    return executeAsWritten(JdbcEscapes.translate(written));
  }

  private boolean executeAsWritten(String sql) throws SQLException {
    StatementText text = StatementText.of(sql);
    StatementRouter.Routed routed = connection.router().route(text, StatementRouter.Call.EXECUTE, getLargeMaxRows());
    if (routed.route() != StatementRouter.Route.AS_WRITTEN) {
      query(text, routed);
      return true;
    }
    NewColumns.declare(text, connection.session());
    return executeResult(text, () -> text.plannedBy(() -> delegate.execute(sql)));
  }

  // The overloads naming generated keys run as the statement alone: an entity's keys are
  // PartitionKey and RowKey, which the statement itself gives, so there are none to generate.

  @Override
  public int executeUpdate(String written, int autoGeneratedKeys) throws SQLException {
    checkAutoGeneratedKeys(autoGeneratedKeys);
    return executeUpdate(written);
  }

  @Override
  public int executeUpdate(String written, int[] columnIndexes) throws SQLException {
    return executeUpdate(written);
  }

  @Override
  public int executeUpdate(String written, String[] columnNames) throws SQLException {
    return executeUpdate(written);
  }

  @Override
  public long executeLargeUpdate(String written, int autoGeneratedKeys) throws SQLException {
    checkAutoGeneratedKeys(autoGeneratedKeys);
    return executeLargeUpdate(written);
  }

  @Override
  public long executeLargeUpdate(String written, int[] columnIndexes) throws SQLException {
    return executeLargeUpdate(written);
  }

  @Override
  public long executeLargeUpdate(String written, String[] columnNames) throws SQLException {
    return executeLargeUpdate(written);
  }

  @Override
  public boolean execute(String written, int autoGeneratedKeys) throws SQLException {
    checkAutoGeneratedKeys(autoGeneratedKeys);
    return execute(written);
  }

  @Override
  public boolean execute(String written, int[] columnIndexes) throws SQLException {
    return execute(written);
  }

  @Override
  public boolean execute(String written, String[] columnNames) throws SQLException {
    return execute(written);
  }

  static void checkAutoGeneratedKeys(int autoGeneratedKeys) throws SQLException {
    if (autoGeneratedKeys != RETURN_GENERATED_KEYS && autoGeneratedKeys != NO_GENERATED_KEYS) {
      throw SqlExceptions.of("autoGeneratedKeys must be Statement.RETURN_GENERATED_KEYS or NO_GENERATED_KEYS, not "
          + autoGeneratedKeys + ".", SqlStates.INVALID_ATTRIBUTE_VALUE);
    }
  }

  @Override
  public void addBatch(String written) throws SQLException {
    batch.add(StatementText.of(JdbcEscapes.translate(written)));
  }

  @Override
  public void clearBatch() throws SQLException {
    batch.clear();
  }

  @Override
  public int[] executeBatch() throws SQLException {
    List<StatementText> statements = new ArrayList<>(batch);
    batch.clear();
    connection.session().requireWritable();
    return batchExecution(statements.stream().map(StatementText::kind).toList(), context -> {
      int[] counts = new int[statements.size()];
      for (int i = 0; i < counts.length; i++) {
        StatementText text = statements.get(i);
        NewColumns.declare(text, connection.session());
        try {
          counts[i] = text.plannedBy(() -> connection.withFreshTables(() -> delegate.executeUpdate(text.sql())));
        } catch (SQLException e) {
          throw BatchOutcome.stopped("statement", i, counts.length, Arrays.copyOf(counts, i), e);
        }
      }
      return counts;
    });
  }

  /**
   * The batch's counts as longs; a failed batch's {@link java.sql.BatchUpdateException} carries
   * them as longs too ({@code getLargeUpdateCounts}).
   */
  @Override
  public long[] executeLargeBatch() throws SQLException {
    return Arrays.stream(executeBatch()).asLongStream().toArray();
  }

  @Override
  public ResultSet getResultSet() throws SQLException {
    checkOpen();
    return currentResultSet;
  }

  @Override
  public void setFetchSize(int rows) throws SQLException {
    if (rows < 0) {
      throw SqlExceptions.of("Fetch size must be 0 or more, not " + rows + ".", SqlStates.INVALID_ATTRIBUTE_VALUE);
    }
    fetchSize = rows;
    call(() -> delegate.setFetchSize(rows));
  }

  @Override
  public int getFetchSize() {
    return fetchSize;
  }

  @Override
  public Connection getConnection() {
    return connection;
  }

  // close, cancel, warnings, update counts, getMoreResults, getGeneratedKeys, closeOnCompletion,
  // setEscapeProcessing, and the checks of max rows and query timeout have behaviour of their own;
  // the rest of Statement forwards to Calcite's (ForwardingStatement).

  @Override
  public void close() throws SQLException {
    markClosed(SqlStates.INVALID_STATE);
    closeCurrentResultSet();
    call(() -> delegate.close());
  }

  /** Records why reads stop, before the result set is closed under a thread that may be fetching. */
  final void markClosed(String state) {
    if (closedState == null) {
      closedState = state;
    }
    connection.closed(this);
  }

  /** Closes this statement because its connection closes. */
  final void closeWithConnection() throws SQLException {
    markClosed(SqlStates.CONNECTION_CLOSED);
    close();
  }

  @Override
  public int getMaxRows() throws SQLException {
    return saturated(getLargeMaxRows());
  }

  @Override
  public void setMaxRows(int max) throws SQLException {
    setLargeMaxRows(max);
  }

  @Override
  public void setLargeMaxRows(long max) throws SQLException {
    if (max < 0) { // checked here: Calcite's refusal has no SQLState
      throw SqlExceptions.of("Max rows must be 0 (no limit) or more, not " + max + ".",
          SqlStates.INVALID_ATTRIBUTE_VALUE);
    }
    call(() -> delegate.setLargeMaxRows(max));
  }

  /**
   * Escapes are always processed ({@link JdbcEscapes}, also for the text of a PreparedStatement):
   * true, the default, is accepted, as tools set it; false would need a parser without them.
   */
  @Override
  public void setEscapeProcessing(boolean enable) throws SQLException {
    checkOpen();
    if (!enable) {
      throw SqlExceptions.of("Not supported by tablesql: Statement.setEscapeProcessing(false); JDBC escapes are "
          + "always processed.", SqlStates.FEATURE_NOT_SUPPORTED);
    }
  }

  @Override
  public void setQueryTimeout(int seconds) throws SQLException {
    if (seconds < 0) { // checked here: Calcite's refusal has no SQLState
      throw SqlExceptions.of("Query timeout must be 0 (no limit) or more seconds, not " + seconds + ".",
          SqlStates.INVALID_ATTRIBUTE_VALUE);
    }
    call(() -> delegate.setQueryTimeout(seconds));
  }

  /**
   * A failure met while reading rows. Calcite's result set reports a cancel noticed between two
   * rows as a general error ("Statement canceled"); named here for what it is.
   */
  final SQLException readFailure(Throwable failure) {
    String closed = closedState;
    if (closed != null) {
      return SqlExceptions.of(SqlStates.CONNECTION_CLOSED.equals(closed)
          ? "The connection was closed while rows of this statement were being read; open a new connection."
          : "The statement was closed (Statement.close) while its rows were being read; run it again to read "
              + "them.", closed, failure);
    }
    SQLException translated = SqlErrors.translate(failure);
    if (cancelled && SqlStates.GENERAL_ERROR.equals(translated.getSQLState())) {
      return SqlExceptions.of("The statement was cancelled (Statement.cancel).", SqlStates.QUERY_CANCELED, failure);
    }
    return translated;
  }

  @Override
  public void cancel() throws SQLException {
    cancelled = true;
    synchronized (runningPlanLock) {
      if (runningPlan != null) {
        runningPlan.cancel();
      }
    }
    call(() -> delegate.cancel());
  }

  /** Once closed, for a statement whose delegate went back to the plan cache. */
  void detachDelegate() {
    delegate = StandIns.CLOSED_STATEMENT;
  }

  /**
   * Calcite's warnings, then the execution's own ({@link StatementContext#warn}). The same
   * warnings are the same objects on every call: tools tell warnings they showed by identity
   * (sqlline asks twice after a statement, and showed a materialized view's report twice).
   */
  @Override
  public SQLWarning getWarnings() throws SQLException {
    SQLWarning warnings = call(() -> delegate.getWarnings());
    SQLWarning own = ownWarnings();
    if (warnings == null || own == null) {
      return warnings == null ? own : warnings;
    }
    SQLWarning last = warnings;
    while (last.getNextWarning() != null && last.getNextWarning() != own) {
      last = last.getNextWarning();
    }
    if (last.getNextWarning() == null) {
      last.setNextWarning(own);
    }
    return warnings;
  }

  /** The last execution's own warnings as one chain, made again only when they change. */
  private SQLWarning ownWarnings() {
    List<String> current = lastContext == null ? List.of() : List.copyOf(lastContext.warnings());
    if (lastContext != ownWarningsContext || !current.equals(ownWarningTexts)) {
      ownWarningsContext = lastContext;
      ownWarningTexts = current;
      ownWarnings = null;
      for (String warning : current) {
        SQLWarning next = new SQLWarning(warning, SqlStates.WARNING);
        if (ownWarnings == null) {
          ownWarnings = next;
        } else {
          ownWarnings.setNextWarning(next);
        }
      }
    }
    return ownWarnings;
  }

  @Override
  public void clearWarnings() throws SQLException {
    call(() -> delegate.clearWarnings());
    if (lastContext != null) {
      lastContext.warnings().clear();
    }
    ownWarnings = null;
    ownWarningTexts = List.of();
  }

  @Override
  public int getUpdateCount() throws SQLException {
    return saturated(getLargeUpdateCount());
  }

  @Override
  public long getLargeUpdateCount() throws SQLException {
    checkOpen();
    return updateCount;
  }

  @Override
  public boolean getMoreResults() throws SQLException {
    return getMoreResults(CLOSE_CURRENT_RESULT);
  }

  /**
   * Every statement has one result, so there are never more: the current one is closed. Keeping
   * it open while moving on is refused, as by Calcite (supportsMultipleOpenResults is false).
   */
  @Override
  public boolean getMoreResults(int current) throws SQLException {
    checkOpen();
    if (current == KEEP_CURRENT_RESULT || current == CLOSE_ALL_RESULTS) {
      throw SqlExceptions.of("Not supported by tablesql: getMoreResults with KEEP_CURRENT_RESULT or "
          + "CLOSE_ALL_RESULTS; use CLOSE_CURRENT_RESULT.", SqlStates.FEATURE_NOT_SUPPORTED);
    }
    if (current != CLOSE_CURRENT_RESULT) {
      throw SqlExceptions.of("getMoreResults takes Statement.CLOSE_CURRENT_RESULT, KEEP_CURRENT_RESULT or "
          + "CLOSE_ALL_RESULTS, not " + current + ".", SqlStates.INVALID_ATTRIBUTE_VALUE);
    }
    startResult();
    return false;
  }

  private void checkOpen() throws SQLException {
    if (closedState != null) {
      throw SqlExceptions.of(SqlStates.CONNECTION_CLOSED.equals(closedState) ? "The connection is closed; open a new one."
          : "The statement is closed; create a new one.", closedState);
    }
  }

  /** Empty, as JDBC wants when no keys were generated: nothing generates keys (see executeUpdate). */
  @Override
  public ResultSet getGeneratedKeys() throws SQLException {
    checkOpen();
    Statement keys = connection.createStatement();
    keys.closeOnCompletion(); // the statement exists only for this result
    return keys.executeQuery("SELECT * FROM (VALUES (CAST(NULL AS VARCHAR), CAST(NULL AS VARCHAR))) "
        + "AS t(\"PartitionKey\", \"RowKey\") WHERE 1 = 0");
  }

  @Override
  public void closeOnCompletion() throws SQLException {
    checkOpen();
    closeOnCompletion = true;
  }

  @Override
  public boolean isCloseOnCompletion() throws SQLException {
    checkOpen();
    return closeOnCompletion;
  }

}
