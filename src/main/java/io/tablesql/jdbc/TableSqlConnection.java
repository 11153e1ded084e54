package io.tablesql.jdbc;

import static io.tablesql.jdbc.JdbcCalls.call;

import io.tablesql.KeyRanges;
import io.tablesql.LookupTables;
import io.tablesql.catalog.Column;
import io.tablesql.errors.SqlExceptions;
import io.tablesql.errors.SqlStates;
import io.tablesql.exec.KeyRangeSplitter;
import io.tablesql.exec.LookupCache;
import io.tablesql.exec.WriteSender;
import io.tablesql.intent.IntentRecovery;
import io.tablesql.keys.KeyLayout;
import io.tablesql.plan.AzureSchema;
import io.tablesql.plan.AzureTable;
import io.tablesql.plan.PendingWritesTable;
import io.tablesql.prepare.DirectPlan;
import io.tablesql.prepare.NewColumns;
import io.tablesql.prepare.ParserSettings;
import io.tablesql.prepare.PlanCache;
import io.tablesql.prepare.PlannerWarmup;
import io.tablesql.prepare.SqlAction;
import io.tablesql.prepare.StatementRouter;
import io.tablesql.prepare.StatementText;
import io.tablesql.prepare.UnplannedQuery;
import io.tablesql.session.Session;
import io.tablesql.settings.Choices;
import io.tablesql.settings.ConnectionSettings;
import io.tablesql.settings.DriverProperty;
import io.tablesql.store.FirstUse;
import io.tablesql.store.RequestCounters;
import io.tablesql.store.StoreException;
import io.tablesql.store.TableStore;
import java.sql.CallableStatement;
import java.sql.ClientInfoStatus;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLClientInfoException;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.sql.dialect.CalciteSqlDialect;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.TryThreadLocal;

/**
 * A connection to one storage account: a Calcite connection whose default schema holds the
 * account's tables, handing out statements that count requests and translate errors.
 */
public final class TableSqlConnection extends ForwardingConnection implements LookupTables, KeyRanges {
  static {
    // Calcite reads these once, when its classes load, and every way in (Driver, DataSource)
    // passes here first: SQL text and data are Unicode.
    setIfAbsent("calcite.default.charset", "UTF-8");
    setIfAbsent("calcite.default.nationalcharset", "UTF-8");
    setIfAbsent("calcite.default.collation.name", "UTF-8$en_US");
    // Statements planned again (prepared anew, new shapes of ad-hoc queries) often generate the
    // same code: keep the compiled classes instead of compiling them each time.
    setIfAbsent("calcite.bindable.cache.maxSize", "200");
  }

  private static final CalciteDriver CALCITE = new CalciteDriver();
  private static final int IN_LIST_THRESHOLD = 101;

  private final CalciteConnection delegate;
  private final Session session;

  private final AzureSchema schema;
  private final String schemaName;
  private final PlanCache planCache;
  private final StatementRouter router;
  /** Driver property unplannedLookups: always, or cold (while nothing has been planned in the JVM). */
  private final boolean unplannedAlways;
  private final boolean unplannedWhileCold;
  /** Statements not closed yet, which closing the connection closes (ending their fetches). */
  private final java.util.Set<WrappedStatement> openStatements = java.util.concurrent.ConcurrentHashMap.newKeySet();
  /** This connection's share of recovering unfinished writes: now, and once per intentLeaseSeconds. */
  private volatile AutoCloseable recovery = () -> { };

  private TableSqlConnection(CalciteConnection delegate, Session session, AzureSchema schema, String schemaName) {
    this.delegate = delegate;
    this.session = session;
    this.schema = schema;
    this.schemaName = schemaName;
    this.planCache = new PlanCache(delegate, session.settings().getInt(DriverProperty.PLAN_CACHE_SIZE),
        session.store().metrics(), CancelFlags::clear);
    Choices.UnplannedLookups unplanned = session.settings().choice(DriverProperty.UNPLANNED_LOOKUPS,
        Choices.UnplannedLookups.class);
    this.unplannedAlways = unplanned == Choices.UnplannedLookups.ALWAYS;
    this.unplannedWhileCold = unplanned == Choices.UnplannedLookups.COLD;
    this.router = new StatementRouter(planCache, this::mayRunUnplanned);
  }

  /** The type name of a column of a table of this connection's schema where SQL's says less ({@link TypeNames#declared}). */
  String declaredTypeName(String tableName, String columnName) {
    return tableName == null || tableName.isEmpty() ? null : TypeNames.declared(schema.getTable(tableName), columnName);
  }

  /** Whether a Statement's query may run without the planner now (driver property unplannedLookups). */
  boolean mayRunUnplanned() {
    return unplannedAlways || unplannedWhileCold && !PlannerWarmup.planned();
  }

  /** A Statement's query run without the planner ({@link UnplannedQuery}); null when it must be planned. */
  ResultSet unplanned(StatementText text, Statement calcite) throws SQLException {
    return schemaName.equals(delegate.getSchema()) ? UnplannedQuery.run(text, schema, schemaName, delegate, calcite)
        : null;
  }

  @Override
  Connection delegate() {
    return delegate;
  }

  PlanCache planCache() {
    return planCache;
  }

  StatementRouter router() {
    return router;
  }

  /** Reads the account's table list again and registers the schema anew, forgetting Calcite's view of it. */
  void refreshSchema() {
    planCache.clear();
    schema.refresh();
    delegate.getRootSchema().add(schemaName, schema);
  }

  @Override
  public void refreshLookupTables() {
    for (String table : session.settings().lookupTables()) {
      LookupCache.invalidate(session, table);
    }
  }

  @Override
  public String[] keyRangePredicates(String table, int ranges) throws SQLException {
    String stored = storedTableName(table);
    if (stored == null || !(schema.getTable(stored) instanceof AzureTable azure)) {
      throw SqlExceptions.of("Table '" + table + "' not found: key ranges are those of the account's tables and "
          + "declared tables (not views).", SqlStates.TABLE_NOT_FOUND);
    }
    KeyLayout layout = azure.definition() == null ? null : azure.definition().layout();
    KeyLayout.KeyColumn leading = layout == null || layout.partition().isEmpty() ? null : layout.partition().get(0);
    boolean text = leading == null || leading.sqlType() == SqlTypeName.VARCHAR;
    if (layout != null && (leading == null || leading.descending() || !text && !SqlTypeName.INT_TYPES.contains(
        leading.sqlType()))) {
      throw SqlExceptions.of("Table " + table + " has no ascending VARCHAR or integer column leading its partition "
          + "key to split it by.", SqlStates.FEATURE_NOT_SUPPORTED);
    }
    String column = layout == null ? Column.PARTITION_KEY : leading.name();
    List<String> bounds = new ArrayList<>();
    Comparable<Object> last = null;
    for (String key : KeyRangeSplitter.partitionKeyBoundaries(session, azure.name(), Math.max(1, ranges))) {
      Object value;
      try {
        value = layout == null ? key : layout.partitionFormat().decode(key).get(0);
      } catch (IllegalArgumentException e) {
        continue; // an entity of another kind sharing the Azure table
      }
      if (value == null) {
        continue; // a summary's group of NULLs, after every value: the last range takes it
      }
      @SuppressWarnings("unchecked")
      Comparable<Object> bound = text ? (Comparable<Object>) (Object) value.toString()
          : (Comparable<Object>) (Object) ((Number) value).longValue();
      if (last == null || bound.compareTo(last) > 0) { // ranges must not overlap (an unpadded number sorts as text)
        bounds.add(text ? "'" + value.toString().replace("'", "''") + "'" : value.toString());
        last = bound;
      }
    }
    if (bounds.isEmpty()) {
      return new String[] {"1 = 1"};
    }
    String quoted = CalciteSqlDialect.DEFAULT.quoteIdentifier(column);
    List<String> predicates = new ArrayList<>();
    predicates.add(quoted + " < " + bounds.get(0));
    for (int i = 1; i < bounds.size(); i++) {
      predicates.add(quoted + " >= " + bounds.get(i - 1) + " AND " + quoted + " < " + bounds.get(i));
    }
    predicates.add(quoted + " >= " + bounds.get(bounds.size() - 1)
        + (leading != null && leading.component().nullable() ? " OR " + quoted + " IS NULL" : ""));
    return predicates.toArray(new String[0]);
  }

  /** The key columns of a table declared with a PRIMARY KEY, in key order; null for any other table. */
  List<KeyLayout.KeyColumn> declaredKey(String table) {
    return schema.getTable(table) instanceof AzureTable azure && azure.definition() != null
        ? azure.definition().layout().columns() : null;
  }

  /** The secondary indexes of a declared table (empty for others). */
  List<io.tablesql.catalog.IndexDefinition> declaredIndexes(String table) {
    return schema.getTable(table) instanceof AzureTable azure && azure.definition() != null
        ? azure.definition().indexes() : List.of();
  }

  /** A statement of Calcite's connection, for DDL a prepared statement runs when executed. */
  Statement calciteStatement() throws SQLException {
    return delegate.createStatement();
  }

  /** The name a table is stored under, found case-insensitively; null if there is none. */
  String storedTableName(String name) {
    for (String table : schema.getTableNames()) {
      if (table.equalsIgnoreCase(name)) {
        return table;
      }
    }
    return null;
  }

  /** Refreshes the table list when it is older than the schema TTL. */
  void refreshSchemaIfStale() {
    if (schema.isStale()) {
      refreshSchema();
    }
  }

  /**
   * Opens a connection: lists the account's tables (which proves the endpoint and the
   * credentials) and sets up Calcite with them as the default schema.
   */
  public static TableSqlConnection open(ConnectionSettings settings) throws SQLException {
    CompletableFuture<CalciteConnection> calciteConnecting = connectCalcite();
    TableStore store;
    try {
      store = new TableStore(settings);
    } catch (StoreException e) {
      closeWhenConnected(calciteConnecting);
      throw e.toSqlException();
    } catch (RuntimeException | Error e) {
      closeWhenConnected(calciteConnecting);
      throw e;
    }
    try {
      Session session = new Session(settings, store);
      List<String> listing = listTables(settings, store);
      AzureSchema schema = listing != null ? new AzureSchema(session, listing, true)
          : new AzureSchema(session, new ArrayList<>(settings.declaredTables()), false);
      CalciteConnection calciteConnection = connected(calciteConnecting);
      String schemaName = settings.schemaName();
      calciteConnection.getRootSchema().add(schemaName, schema);
      if (!schemaName.equalsIgnoreCase(PendingWritesTable.SCHEMA)) {
        calciteConnection.getRootSchema().add(PendingWritesTable.SCHEMA, PendingWritesTable.schema(session));
      }
      io.tablesql.metadata.SystemCatalogs.register(calciteConnection.getRootSchema(), schema, schemaName,
          PostgresFunctions.version());
      calciteConnection.setSchema(schemaName);
      TableSqlConnection connection = new TableSqlConnection(calciteConnection, session, schema, schemaName);
      session.onSchemaChange(connection::refreshSchema);
      connection.recovery = IntentRecovery.schedule(session);
      PlannerWarmup.startOnce(CALCITE, calciteProperties());
      return connection;
    } catch (SQLException | RuntimeException | Error e) {
      store.close(); // a connection that failed to open does not keep its account's metrics published
      closeWhenConnected(calciteConnecting);
      throw e;
    }
  }

  /**
   * Calcite's connection, made on another thread while the connecting one builds the SDK's
   * client and lists the tables. The first in a JVM loads and initializes Calcite's connection,
   * type factory and (then, for a first statement) parser classes, 0.4 s of CPU here, which
   * the connecting thread then does not wait for.
   */
  private static CompletableFuture<CalciteConnection> connectCalcite() {
    CompletableFuture<CalciteConnection> connecting = new CompletableFuture<>();
    Thread thread = new Thread(() -> {
      try {
        connecting.complete((CalciteConnection) CALCITE.connect("jdbc:calcite:", calciteProperties()));
        PlannerWarmup.parserOnce();
      } catch (Throwable e) {
        connecting.completeExceptionally(e);
      }
    }, "tablesql-connect");
    thread.setDaemon(true);
    thread.start();
    return connecting;
  }

  private static CalciteConnection connected(CompletableFuture<CalciteConnection> connecting) throws SQLException {
    try {
      return connecting.join();
    } catch (java.util.concurrent.CompletionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof SQLException sql) {
        throw sql;
      }
      if (cause instanceof Error error) {
        throw error;
      }
      throw cause instanceof RuntimeException runtime ? runtime : e;
    }
  }

  /** A connection that failed to open closes the Calcite connection made for it, when it is made. */
  private static void closeWhenConnected(CompletableFuture<CalciteConnection> connecting) {
    connecting.thenAccept(calcite -> {
      try {
        calcite.close();
      } catch (SQLException e) {
        // nothing was opened through it
      }
    });
  }

  /**
   * The account's table list, whose reading proves the endpoint and the credentials; null when
   * the settings name the tables instead, or when a SAS may not list tables (one scoped to a
   * table): that connection finds its tables as statements name them.
   */
  private static List<String> listTables(ConnectionSettings settings, TableStore store) throws SQLException {
    if (!settings.declaredTables().isEmpty()) {
      return null;
    }
    try {
      return store.listTables(new RequestCounters());
    } catch (StoreException e) {
      if (settings.sharedAccessSignature() != null && SqlStates.INSUFFICIENT_PRIVILEGE.equals(e.sqlState())) {
        return null;
      }
      throw e.toSqlException();
    }
  }

  private static Properties calciteProperties() {
    Properties calcite = ParserSettings.connectionProperties();
    calcite.setProperty("defaultNullCollation", DialectFacts.NULL_COLLATION.name()); // what metadata tells tools
    calcite.setProperty("timeZone", "UTC");
    calcite.setProperty("metaColumnFactory", PlainTypeColumns.class.getName());
    calcite.setProperty("typeSystem", io.tablesql.plan.TableSqlTypeSystem.class.getName());
    return calcite;
  }

  private static void setIfAbsent(String name, String value) {
    if (System.getProperty(name) == null) {
      System.setProperty(name, value);
    }
  }

  public Session session() {
    return session;
  }

  @Override
  public Statement createStatement() throws SQLException {
    return call(() -> new WrappedStatement(delegate.createStatement(), this));
  }

  @Override
  public Statement createStatement(int resultSetType, int resultSetConcurrency) throws SQLException {
    return call(() -> new WrappedStatement(delegate.createStatement(resultSetType, resultSetConcurrency), this));
  }

  @Override
  public Statement createStatement(int resultSetType, int resultSetConcurrency, int resultSetHoldability)
      throws SQLException {
    return call(() -> new WrappedStatement(
        delegate.createStatement(resultSetType, resultSetConcurrency, resultSetHoldability), this));
  }

  @Override
  public PreparedStatement prepareStatement(String written) throws SQLException {
    return prepareAsWritten(JdbcEscapes.translate(written));
  }

  private PreparedStatement prepareAsWritten(String sql) throws SQLException {
    StatementText text = StatementText.of(sql);
    StatementRouter.Routed routed = router.route(text, StatementRouter.Call.PREPARE, 0);
    if (routed.route() == StatementRouter.Route.LIFTED) {
      PreparedStatement plan = cachedPlansServe() ? withFreshTables(() -> planCache.acquire(routed.lifted())) : null;
      if (plan != null) {
        return WrappedPreparedStatement.onCachedPlan(plan, this, text, planCache, routed.lifted().sql(),
            planCache.direct(plan));
      }
      return prepared(text, router.unlifted(text, StatementRouter.Call.PREPARE), () -> delegate.prepareStatement(sql));
    }
    return prepared(text, routed, () -> delegate.prepareStatement(sql));
  }

  /** A statement prepared on {@code routed}'s route (not {@code LIFTED}): {@code action} prepares it as written. */
  private PreparedStatement prepared(StatementText text, StatementRouter.Routed routed,
      SqlAction<PreparedStatement> action) throws SQLException {
    return switch (routed.route()) {
      case KEPT_PLAN -> onKeptPlan(text);
      // Calcite would run DDL as it prepares it: it runs when executed instead, as a statement
      case DEFERRED_DDL -> WrappedPreparedStatement.ofDdl(call(() -> delegate.prepareStatement("VALUES 0")), this, text);
      case AS_WRITTEN, QUERY_AS_WRITTEN -> {
        DirectPlan.Prepared prepared = plan(text, action);
        yield new WrappedPreparedStatement(prepared.statement(), this, text, prepared.direct());
      }
      case UNPLANNED, LIFTED -> throw new IllegalStateException(routed.route() + " is not a route of a prepare");
    };
  }

  /**
   * Whether a plan of the cache may serve a statement now: not once this transaction has
   * written, since a cached plan may read a view of a table it wrote (which holds those writes
   * only at the commit); planned now, the statement reads the table.
   */
  boolean cachedPlansServe() {
    return session.pending().isEmpty();
  }

  /**
   * A statement prepared as written (with parameter markers, or a write) on its text's plan in
   * the plan cache, made now if none is idle, and kept there once the statement is closed:
   * applications that prepare a statement for each execution (Spring's JdbcTemplate, Hibernate,
   * a batch per call) plan it once per connection.
   */
  private PreparedStatement onKeptPlan(StatementText text) throws SQLException {
    PreparedStatement plan = cachedPlansServe() ? withFreshTables(() -> planCache.reuse(text.sql())) : null;
    if (plan != null) {
      NewColumns.declare(text, session); // as planning would: a shape sampled again since may lack them
      return WrappedPreparedStatement.onKeptPlan(plan, this, text, planCache, planCache.direct(plan));
    }
    DirectPlan.Prepared prepared = plan(text, () -> delegate.prepareStatement(text.sql()));
    planCache.lend(text, prepared);
    return WrappedPreparedStatement.onKeptPlan(prepared.statement(), this, text, planCache, prepared.direct());
  }

  /**
   * The other overloads: with the default cursor (forward-only, read-only, holdability as the
   * connection's) they are {@link #prepareStatement(String)}, on the plan cache; generated keys
   * asked for change nothing (no statement generates keys: {@code getGeneratedKeys} is empty).
   */
  @Override
  public PreparedStatement prepareStatement(String written, int resultSetType, int resultSetConcurrency)
      throws SQLException {
    if (resultSetType == ResultSet.TYPE_FORWARD_ONLY && resultSetConcurrency == ResultSet.CONCUR_READ_ONLY) {
      return prepareStatement(written);
    }
    String sql = JdbcEscapes.translate(written);
    StatementText text = StatementText.of(sql);
    return prepared(text, router.route(text, StatementRouter.Call.PREPARE_WITH_CURSOR, 0),
        () -> delegate.prepareStatement(sql, resultSetType, resultSetConcurrency));
  }

  @Override
  public PreparedStatement prepareStatement(String written, int resultSetType, int resultSetConcurrency,
      int resultSetHoldability) throws SQLException {
    if (resultSetHoldability == getHoldability()) {
      return prepareStatement(written, resultSetType, resultSetConcurrency);
    }
    String sql = JdbcEscapes.translate(written);
    StatementText text = StatementText.of(sql);
    return prepared(text, router.route(text, StatementRouter.Call.PREPARE_WITH_CURSOR, 0),
        () -> delegate.prepareStatement(sql, resultSetType, resultSetConcurrency, resultSetHoldability));
  }

  @Override
  public PreparedStatement prepareStatement(String written, int autoGeneratedKeys) throws SQLException {
    WrappedStatement.checkAutoGeneratedKeys(autoGeneratedKeys);
    return prepareStatement(written);
  }

  @Override
  public PreparedStatement prepareStatement(String written, int[] columnIndexes) throws SQLException {
    return prepareStatement(written);
  }

  @Override
  public PreparedStatement prepareStatement(String written, String[] columnNames) throws SQLException {
    return prepareStatement(written);
  }

  private DirectPlan.Prepared plan(StatementText text, SqlAction<PreparedStatement> action) throws SQLException {
    NewColumns.declare(text, session);
    // planned as a statement of its kind (an UPDATE of a lookup table reads it fresh: LookupCache)
    return session.during(session.detached(text.kind()),
        () -> text.plannedBy(() -> withFreshTables(() -> DirectPlan.preparing(action))));
  }

  /**
   * Runs an action that plans SQL; if it names a table the connection does not know, the table
   * list is read again and the action retried once, so tables created elsewhere are usable at once.
   */
  <T> T withFreshTables(SqlAction<T> action) throws SQLException {
    refreshSchemaIfStale();
    // IN lists up to the multi-point limit stay predicates the rules can turn into lookups;
    // Calcite would otherwise plan lists of 20 or more as a join with a VALUES table.
    try (TryThreadLocal.Memo ignored = Prepare.THREAD_INSUBQUERY_THRESHOLD.push(IN_LIST_THRESHOLD)) {
      return action.run();
    } catch (SQLException | RuntimeException | AssertionError | ExceptionInInitializerError e) { // Calcite asserts what it cannot plan
      SQLException translated = SqlErrors.translate(e);
      // a batch that failed has sent the writes before its failing statement: never run it twice
      if (translated instanceof java.sql.BatchUpdateException
          || !SqlStates.TABLE_NOT_FOUND.equals(translated.getSQLState())) {
        throw translated;
      }
      if (schema.listed()) {
        refreshSchema();
      } else {
        discoverTable(SqlErrors.missingTable(e), translated);
      }
      try {
        return action.run();
      } catch (SQLException | RuntimeException | AssertionError | ExceptionInInitializerError again) {
        throw SqlErrors.translate(again);
      }
    }
  }

  /** Adds a table a statement named to a schema that cannot list tables, if it can be read. */
  private void discoverTable(String name, SQLException notFound) throws SQLException {
    if (name == null) {
      throw notFound;
    }
    try {
      schema.discover(name);
    } catch (StoreException e) {
      throw e.toSqlException();
    }
    planCache.clear();
    delegate.getRootSchema().add(schemaName, schema);
  }

  @Override
  public CallableStatement prepareCall(String sql) throws SQLException {
    throw noStoredProcedures();
  }

  @Override
  public CallableStatement prepareCall(String sql, int resultSetType, int resultSetConcurrency)
      throws SQLException {
    throw noStoredProcedures();
  }

  @Override
  public CallableStatement prepareCall(String sql, int resultSetType, int resultSetConcurrency,
      int resultSetHoldability) throws SQLException {
    throw noStoredProcedures();
  }

  private static SQLException noStoredProcedures() {
    return SqlExceptions.of("Azure Table storage has no stored procedures: use "
        + "prepareStatement.", SqlStates.FEATURE_NOT_SUPPORTED);
  }

  /** One request for one table name, given at most {@code timeout} seconds (0: no limit of its own). */
  @Override
  public boolean isValid(int timeout) throws SQLException {
    if (timeout < 0) {
      throw SqlExceptions.of("isValid takes a timeout in seconds, 0 for none, not " + timeout + ".",
          SqlStates.INVALID_ATTRIBUTE_VALUE);
    }
    if (delegate.isClosed()) {
      return false;
    }
    return ServiceProbe.answers(session.store(), timeout);
  }

  // nativeSQL, transactions, close, metadata, read-only, isolation, client info and setSchema have
  // behaviour of their own; the rest of Connection forwards to Calcite's (ForwardingConnection).

  @Override
  public String nativeSQL(String sql) throws SQLException {
    return JdbcEscapes.translate(sql); // the user's text, only the escapes the parser does not read translated
  }

  /**
   * Auto-commit off makes the connection keep its writes until {@link #commit}, which sends them
   * as one entity group transaction (one table, one PartitionKey, at most 100 entities).
   */
  @Override
  public void setAutoCommit(boolean autoCommit) throws SQLException {
    if (autoCommit && !session.autoCommit()) {
      commit(); // turning auto-commit back on commits what is pending, as JDBC asks
    }
    session.setAutoCommit(autoCommit);
  }

  @Override
  public boolean getAutoCommit() {
    return session.autoCommit();
  }

  @Override
  public void commit() throws SQLException {
    session.awaitBehind();
    call(() -> WriteSender.commit(session));
  }

  @Override
  public void rollback() {
    session.rollback();
  }

  /** A savepoint: going back to it drops the writes made since (they are held in the client until commit). */
  @Override
  public java.sql.Savepoint setSavepoint() throws SQLException {
    requireOpen();
    return new TableSqlSavepoint(this, session.setSavepoint(null).id(), null);
  }

  @Override
  public java.sql.Savepoint setSavepoint(String name) throws SQLException {
    requireOpen();
    if (name == null) {
      throw SqlExceptions.of("A named savepoint needs a name: call setSavepoint() for an unnamed one.",
          SqlStates.INVALID_SAVEPOINT);
    }
    return new TableSqlSavepoint(this, session.setSavepoint(name).id(), name);
  }

  @Override
  public void rollback(java.sql.Savepoint savepoint) throws SQLException {
    session.rollbackTo(idOf(savepoint));
  }

  @Override
  public void releaseSavepoint(java.sql.Savepoint savepoint) throws SQLException {
    session.release(idOf(savepoint));
  }

  private int idOf(java.sql.Savepoint savepoint) throws SQLException {
    requireOpen();
    if (!(savepoint instanceof TableSqlSavepoint ours)) {
      throw SqlExceptions.of("Not a savepoint of this connection: " + savepoint + ".", SqlStates.INVALID_SAVEPOINT);
    }
    return ours.idFor(this);
  }

  /** Closing discards writes not committed, like a rollback, and ends the fetches of its statements. */
  @Override
  public void close() throws SQLException {
    try {
      recovery.close();
    } catch (Exception e) {
      // cancelling a scheduled task does not fail
    }
    try {
      session.rollback();
      session.awaitBehind(); // the last commit's marks are cleared, rather than left to recovery
      for (WrappedStatement statement : List.copyOf(openStatements)) {
        statement.closeWithConnection();
      }
      planCache.clear();
      call(() -> delegate.close());
    } finally {
      session.store().close(); // idempotent: closing again releases the metrics once
    }
  }

  void opened(WrappedStatement statement) {
    openStatements.add(statement);
  }

  void closed(WrappedStatement statement) {
    openStatements.remove(statement);
  }

  private void requireOpen() throws SQLException {
    if (delegate.isClosed()) {
      throw SqlExceptions.of("The connection is closed; open a new one.", SqlStates.CONNECTION_CLOSED);
    }
  }

  @Override
  public DatabaseMetaData getMetaData() throws SQLException {
    FirstUse.signal();
    return call(() -> new TableSqlDatabaseMetaData(delegate.getMetaData(), this));
  }

  /** A read-only connection refuses every write, DDL and commit with SQLState 25006, sending nothing. */
  @Override
  public void setReadOnly(boolean readOnly) throws SQLException {
    requireOpen();
    session.setReadOnly(readOnly);
  }

  @Override
  public boolean isReadOnly() throws SQLException {
    requireOpen();
    return session.readOnly();
  }

  /** See {@link TransactionIsolation}: READ COMMITTED, the only level there is. */
  @Override
  public void setTransactionIsolation(int level) throws SQLException {
    requireOpen();
    TransactionIsolation.check(level);
  }

  @Override
  public int getTransactionIsolation() throws SQLException {
    requireOpen();
    return TransactionIsolation.LEVEL;
  }

  @Override
  public void setClientInfo(String name, String value) throws SQLClientInfoException {
    throw noClientInfo(java.util.Collections.singleton(name));
  }

  @Override
  public void setClientInfo(Properties properties) throws SQLClientInfoException {
    throw noClientInfo(properties.stringPropertyNames());
  }

  /** Calcite keeps no client info and refuses it without a SQLState; SQLClientInfoException is the one class allowed. */
  private static SQLClientInfoException noClientInfo(java.util.Set<String> names) {
    java.util.Map<String, ClientInfoStatus> failed = new java.util.HashMap<>();
    names.forEach(name -> failed.put(name, ClientInfoStatus.REASON_UNKNOWN_PROPERTY));
    return new SQLClientInfoException("Not supported by tablesql: client info properties.",
        SqlStates.FEATURE_NOT_SUPPORTED, failed);
  }

  @Override
  public void setSchema(String schema) throws SQLException {
    call(() -> {
      // Calcite takes any name, and every table is then not found: a schema that is not there is refused.
      if (schema == null || delegate.getRootSchema().getSubSchema(schema) == null) {
        throw SqlExceptions.of("There is no schema '" + schema + "': the account's tables are in schema '"
            + schemaName + "'.", SqlStates.INVALID_SCHEMA_NAME);
      }
      delegate.setSchema(schema);
    });
  }

}
