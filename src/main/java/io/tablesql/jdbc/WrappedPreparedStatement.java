package io.tablesql.jdbc;

import static io.tablesql.jdbc.JdbcCalls.call;

import io.tablesql.errors.SqlExceptions;
import io.tablesql.errors.SqlStates;
import io.tablesql.exec.WriteRunner;
import io.tablesql.prepare.DirectPlan;
import io.tablesql.catalog.StreamedValue;
import io.tablesql.exec.WriteRunner;
import io.tablesql.prepare.InsertBatch;
import io.tablesql.prepare.PlanCache;
import io.tablesql.prepare.StatementText;
import io.tablesql.session.StatementContext;
import io.tablesql.txn.WriteOperation;
import java.math.BigDecimal;
import java.sql.Date;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLType;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Arrays;
import java.util.Calendar;
import java.util.List;

/** A prepared statement of a tablesql connection; see {@link WrappedStatement}. */
final class WrappedPreparedStatement extends ForwardingPreparedStatement {
  private PreparedStatement delegate;
  private final StatementText text;
  /** The fast path of INSERT batches; a no-op recorder for other statements. */
  private final InsertBatch insertBatch;
  /**
   * The cache whose plan this statement runs, given back on close (under {@code plannedSql}):
   * a query's written without parameters (its literals lifted, and bound), or any statement's
   * prepared as written; null for a plan of this statement alone.
   */
  private final PlanCache lender;
  private final String plannedSql;
  /** Whether the plan's parameters are the text's lifted literals, not parameters the user sets. */
  private final boolean lifted;
  /** The plan run without Calcite's per-execution machinery, for a query that is one table access; else null. */
  private final DirectPlan direct;
  /** The SQL type of each parameter (1-based), read from the parameter metadata on first need. */
  private int[] parameterTypes;
  /** How many rows addBatch added since the batch was last run or cleared. */
  private int batchRows;
  /**
   * Parameters given as streams longer than an entity holds, by index, not yet bound to Calcite:
   * an INSERT of parameters writes them to their blobs as it reads them; any other execution
   * reads them whole and binds them first ({@link #bindStreamsWhole}).
   */
  private final java.util.Map<Integer, StreamedValue> streamed = new java.util.HashMap<>();
  /** Parameters whose long stream an execution read (or began to), until they are set again. */
  private final java.util.Set<Integer> streamsRead = new java.util.TreeSet<>();

  /** DDL, which runs when executed (Calcite would run it when preparing it); it has no parameters. */
  private boolean ddl;

  WrappedPreparedStatement(PreparedStatement delegate, TableSqlConnection connection, StatementText text,
      DirectPlan direct) {
    this(delegate, connection, text, null, null, false, direct);
  }

  /** A prepared CREATE, DROP or ALTER: {@code placeholder} serves the parameter-less metadata calls. */
  static WrappedPreparedStatement ofDdl(PreparedStatement placeholder, TableSqlConnection connection,
      StatementText text) {
    WrappedPreparedStatement statement = new WrappedPreparedStatement(placeholder, connection, text, null);
    statement.ddl = true;
    return statement;
  }

  private long runDdl() throws SQLException {
    try (Statement statement = connection.calciteStatement()) {
      return text.plannedBy(() -> statement.executeLargeUpdate(text.sql()));
    }
  }

  private WrappedPreparedStatement(PreparedStatement delegate, TableSqlConnection connection, StatementText text,
      PlanCache lender, String plannedSql, boolean lifted, DirectPlan direct) {
    super(delegate, connection);
    this.direct = direct;
    this.delegate = delegate;
    this.text = text;
    this.insertBatch = InsertBatch.of(text);
    this.lender = lender;
    this.plannedSql = plannedSql;
    this.lifted = lifted;
  }

  /** A query without parameter markers, on a plan lent by the cache with its lifted values bound. */
  static WrappedPreparedStatement onCachedPlan(PreparedStatement plan, TableSqlConnection connection, StatementText text,
      PlanCache lender, String plannedSql, DirectPlan direct) {
    return new WrappedPreparedStatement(plan, connection, text, lender, plannedSql, true, direct);
  }

  /** A statement prepared as written, on a plan of its text lent by the cache and kept there once closed. */
  static WrappedPreparedStatement onKeptPlan(PreparedStatement plan, TableSqlConnection connection, StatementText text,
      PlanCache lender, DirectPlan direct) {
    return new WrappedPreparedStatement(plan, connection, text, lender, text.sql(), false, direct);
  }

  @Override
  PreparedStatement delegate() {
    return delegate;
  }

  /** Setting a parameter of a statement that has none (its values are the lifted literals) fails. */
  private void checkParameter(int parameterIndex) throws SQLException {
    if (lifted) {
      throw StandIns.noParameter(parameterIndex);
    }
    streamed.remove(parameterIndex); // set again
    streamsRead.remove(parameterIndex);
  }

  /**
   * Refuses to run while a parameter's long stream was read by an earlier execution (or an
   * attempt of this one) and not set again: Calcite holds no value for it.
   */
  private void requireStreamsSet() throws SQLException {
    if (!streamsRead.isEmpty()) {
      throw SqlExceptions.of("Parameter " + streamsRead.iterator().next() + " was given as a stream, which an "
          + "execution of this statement read: a stream is read once. Set it again, then run the statement again.",
          SqlStates.INVALID_PARAMETER_VALUE);
    }
  }

  /** A value set by a setter not overridden here (streams, LOBs, ...) keeps the batch off the fast path. */
  @Override
  void parameterSet(int parameterIndex) throws SQLException {
    checkParameter(parameterIndex);
    insertBatch.unsupported(parameterIndex);
  }

  @Override
  public void close() throws SQLException {
    if (lender == null) {
      super.close();
      return;
    }
    if (delegate == StandIns.CLOSED_STATEMENT) {
      return;
    }
    markClosed(SqlStates.INVALID_STATE);
    closeCurrentResultSet();
    PreparedStatement plan = delegate;
    delegate = StandIns.CLOSED_STATEMENT;
    detachDelegate();
    lender.release(plannedSql, plan);
  }

  @Override
  public ResultSet executeQuery() throws SQLException {
    requireStreamsSet();
    bindStreamsWhole();
    return queryResult(text, () -> wrap(runQuery()));
  }

  /** Binds each parameter given as a long stream, read whole: for an execution that computes on it. */
  private void bindStreamsWhole() throws SQLException {
    for (java.util.Map.Entry<Integer, StreamedValue> entry : java.util.List.copyOf(streamed.entrySet())) {
      int index = entry.getKey();
      Object whole = StreamParameters.whole(entry.getValue(), index);
      if (whole instanceof byte[] bytes) {
        setBytes(index, bytes);
      } else {
        setString(index, (String) whole);
      }
    }
  }

  /**
   * Runs an INSERT or UPSERT of parameters, one of them a long stream, writing each such value to
   * its blob as it reads it: the batch fast path's conversion for one row, then the writes end as
   * any write statement's (WriteRunner.finish). A statement of another shape, or with values the
   * fast path does not convert, binds the streams whole and runs through Calcite.
   */
  private long runWithStreams() throws SQLException {
    if (!streamsRead.isEmpty()) { // the execution runs this again (a conflict settled meanwhile): the streams were read
      throw SqlExceptions.of("A row this statement writes was being written by another transaction, which has ended; "
          + "the stream given for parameter " + streamsRead.iterator().next() + " was read by the first attempt. "
          + "Nothing was written: set the stream again and run the statement again.",
          SqlStates.SERIALIZATION_FAILURE);
    }
    io.tablesql.session.Session session = connection.session();
    io.tablesql.session.StatementContext context = session.executing();
    InsertBatch.Rows rows = null;
    if (insertBatch.table() != null) {
      session.requireWritable(); // before any stream is read
      try {
        rows = insertBatch.currentWrites(session, connection.storedTableName(insertBatch.table()),
            context.counters());
      } finally {
        if (rows != null || !streamed.isEmpty() && streamed.values().iterator().next().wasRead()) {
          streamsRead.addAll(streamed.keySet()); // read, or begun to be read: set again to run again
          streamed.keySet().forEach(insertBatch::unsupported);
          streamed.clear();
        }
      }
    }
    if (rows == null) {
      bindStreamsWhole();
      return delegate.executeLargeUpdate();
    }
    if (rows.gaveTimestamps()) {
      context.warn(WriteRunner.TIMESTAMP_SET_BY_THE_SERVICE);
    }
    if (rows.failure() != null) {
      throw rows.failure();
    }
    java.util.concurrent.atomic.AtomicBoolean cancelled = CancelFlags.of(delegate);
    WriteRunner.finish(session, context, rows.writes(), () -> {
      if (cancelled != null && cancelled.get()) {
        throw new io.tablesql.store.StoreException("The statement was cancelled (Statement.cancel).",
            SqlStates.QUERY_CANCELED, null);
      }
    });
    return rows.writes().size();
  }

  /** Runs the query on its direct plan where it has one and can (see DirectPlan), otherwise through Calcite. */
  private ResultSet runQuery() throws SQLException {
    ResultSet direct = this.direct == null ? null : this.direct.execute(delegate);
    return direct != null ? direct : delegate.executeQuery();
  }

  // JDBC forbids a prepared statement the methods of Statement that take SQL text: it runs its own.
  // The overloads naming generated keys come here through WrappedStatement.

  @Override
  public ResultSet executeQuery(String sql) throws SQLException {
    throw sqlTextRefused("executeQuery");
  }

  @Override
  public long executeLargeUpdate(String sql) throws SQLException {
    throw sqlTextRefused("executeLargeUpdate");
  }

  @Override
  public int executeUpdate(String sql) throws SQLException {
    throw sqlTextRefused("executeUpdate");
  }

  @Override
  public boolean execute(String sql) throws SQLException {
    throw sqlTextRefused("execute");
  }

  @Override
  public void addBatch(String sql) throws SQLException {
    throw sqlTextRefused("addBatch");
  }

  private static SQLException sqlTextRefused(String method) {
    return SqlExceptions.of("A PreparedStatement runs the SQL it was prepared with: call " + method + "() without "
        + "SQL text, or run other SQL with a Statement.", SqlStates.WRONG_OBJECT_TYPE);
  }

  @Override
  public int executeUpdate() throws SQLException {
    return saturated(executeLargeUpdate());
  }

  @Override
  public boolean execute() throws SQLException {
    requireStreamsSet();
    if (ddl || !streamed.isEmpty() && insertBatch.table() != null) {
      executeLargeUpdate();
      return false;
    }
    bindStreamsWhole();
    if (direct != null) {
      executeQuery(); // a query: its result set is the current result
      return true;
    }
    return executeResult(text, delegate::execute);
  }

  @Override
  public long executeLargeUpdate() throws SQLException {
    requireStreamsSet();
    return updateResult(text, ddl ? this::runDdl : !streamed.isEmpty() ? this::runWithStreams
        : delegate::executeLargeUpdate);
  }

  /**
   * Runs the batch: an INSERT of parameters binds each row straight into an entity; any other
   * batch runs each row through Calcite. Both then group and send the rows the same way, and
   * stop the same way at a row that cannot be written: the rows before it are sent.
   */
  @Override
  public int[] executeBatch() throws SQLException {
    try {
      connection.session().requireWritable();
      InsertBatch.Rows rows = insertBatch.table() == null ? null
          : insertBatch.writes(connection.session(), connection.storedTableName(insertBatch.table()));
      if (rows == null) {
        return batchExecution(List.of(text.kind()), this::calciteBatch);
      }
      return batchExecution(List.of(text.kind()), context -> {
        if (rows.gaveTimestamps()) {
          context.warn(WriteRunner.TIMESTAMP_SET_BY_THE_SERVICE);
        }
        for (WriteOperation write : rows.writes()) {
          context.addBatchWrites(List.of(write));
          context.executionDone();
        }
        delegate.clearBatch();
        // each row before the failing one inserts one entity: its count is known, unlike Calcite's
        int[] counts = new int[rows.writes().size()];
        Arrays.fill(counts, 1);
        if (rows.failure() != null) {
          throw BatchOutcome.stopped("row", counts.length, batchRows, counts, rows.failure());
        }
        return counts;
      });
    } finally {
      insertBatch.clear();
      batchRows = 0;
    }
  }

  /**
   * Runs every batch row through Calcite, which stops at a failing row and then gives no update
   * counts: the rows before it ran (their writes go as the batch's) and count as SUCCESS_NO_INFO.
   */
  private int[] calciteBatch(StatementContext context) throws SQLException {
    try {
      return delegate.executeBatch();
    } catch (SQLException | RuntimeException e) {
      int ran = rowsRun(context);
      int[] counts = new int[ran];
      Arrays.fill(counts, Statement.SUCCESS_NO_INFO);
      throw BatchOutcome.stopped("row", ran, batchRows, counts, SqlErrors.translate(e));
    }
  }

  /**
   * How many rows ran before the one that failed. WriteRunner counts the failing row's execution
   * as done too, but keeps none of its writes: the last row counted ran only if it kept writes.
   * (A failure before WriteRunner, not expected, may so leave out a row before it that wrote
   * nothing; never a row whose writes are sent.)
   */
  private static int rowsRun(StatementContext context) {
    int counted = context.execution();
    boolean lastKeptWrites = context.batch().stream().anyMatch(write -> context.batchRow(write) == counted - 1);
    return counted > 0 && !lastKeptWrites ? counted - 1 : counted;
  }

  @Override
  public void clearBatch() throws SQLException {
    call(() -> delegate.clearBatch());
    insertBatch.clear();
    batchRows = 0;
  }

  /**
   * Binds an integral value of another Java type (long, short, BigDecimal...) to an INTEGER
   * parameter as an int, when it fits: Calcite's code for LIMIT, OFFSET and FETCH casts such a
   * parameter to Integer, and tools like jOOQ bind them with setLong. False when not bound here.
   */
  private boolean boundAsInt(int parameterIndex, Object value) throws SQLException {
    if (!(value instanceof Number) || value instanceof Integer || value instanceof Double || value instanceof Float) {
      return false;
    }
    if (parameterType(parameterIndex) != Types.INTEGER) { // an index the statement lacks is OTHER
      return false;
    }
    int exact;
    try {
      exact = new BigDecimal(value.toString()).intValueExact();
    } catch (NumberFormatException | ArithmeticException e) {
      return false; // not an int: bound as given
    }
    call(() -> delegate.setInt(parameterIndex, exact));
    return true;
  }

  /**
   * Binds a value converted to the parameter's SQL type ({@link JdbcConversions#toSqlType}).
   * Dates and times are bound as the numbers Calcite holds (see {@link UtcWallClock}), so that
   * Avatica's own conversions, tied to the JVM zone of the moment they loaded, never touch them.
   */
  private void bind(int parameterIndex, Object value) throws SQLException {
    int type = parameterType(parameterIndex);
    Object converted = JdbcConversions.toSqlType(value, type, "parameter " + parameterIndex);
    if (converted == null) {
      call(() -> delegate.setNull(parameterIndex, type));
    } else if (converted instanceof LocalDateTime wallClock && type == Types.TIMESTAMP) {
      call(() -> delegate.setLong(parameterIndex, UtcWallClock.toMillis(wallClock)));
    } else if (converted instanceof LocalDate date && type == Types.DATE) {
      call(() -> delegate.setInt(parameterIndex, Math.toIntExact(date.toEpochDay())));
    } else if (converted instanceof LocalTime time && type == Types.TIME) {
      call(() -> delegate.setInt(parameterIndex, UtcWallClock.toMillisOfDay(time)));
    } else {
      call(() -> delegate.setObject(parameterIndex, converted)); // numbers, booleans, text and bytes as Calcite holds them
    }
  }

  private int parameterType(int parameterIndex) throws SQLException {
    if (parameterTypes == null) {
      ParameterMetaData metaData = call(() -> delegate.getParameterMetaData());
      int[] types = new int[metaData.getParameterCount() + 1];
      for (int i = 1; i < types.length; i++) {
        types[i] = metaData.getParameterType(i);
      }
      parameterTypes = types;
    }
    // an index out of range reaches the delegate, which reports it
    return parameterIndex > 0 && parameterIndex < parameterTypes.length ? parameterTypes[parameterIndex] : Types.OTHER;
  }

  // The setters below record their value for the batch fast path; setObject and the setters of
  // dates and times bind as described at bind(), integral setters as at boundAsInt(). addBatch,
  // clearParameters, getMetaData and getParameterMetaData have behaviour of their own. The rest
  // of PreparedStatement forwards to Calcite's (ForwardingPreparedStatement), calling
  // parameterSet first.

  @Override
  public void setNull(int parameterIndex, int sqlType) throws SQLException {
    checkParameter(parameterIndex);
    insertBatch.record(parameterIndex, null);
    call(() -> delegate.setNull(parameterIndex, sqlType));
  }

  @Override
  public void setBoolean(int parameterIndex, boolean x) throws SQLException {
    checkParameter(parameterIndex);
    insertBatch.record(parameterIndex, x);
    call(() -> delegate.setBoolean(parameterIndex, x));
  }

  @Override
  public void setByte(int parameterIndex, byte x) throws SQLException {
    checkParameter(parameterIndex);
    insertBatch.record(parameterIndex, x);
    if (!boundAsInt(parameterIndex, x)) {
      call(() -> delegate.setByte(parameterIndex, x));
    }
  }

  @Override
  public void setShort(int parameterIndex, short x) throws SQLException {
    checkParameter(parameterIndex);
    insertBatch.record(parameterIndex, x);
    if (!boundAsInt(parameterIndex, x)) {
      call(() -> delegate.setShort(parameterIndex, x));
    }
  }

  @Override
  public void setInt(int parameterIndex, int x) throws SQLException {
    checkParameter(parameterIndex);
    insertBatch.record(parameterIndex, x);
    call(() -> delegate.setInt(parameterIndex, x));
  }

  @Override
  public void setLong(int parameterIndex, long x) throws SQLException {
    checkParameter(parameterIndex);
    insertBatch.record(parameterIndex, x);
    if (!boundAsInt(parameterIndex, x)) {
      call(() -> delegate.setLong(parameterIndex, x));
    }
  }

  @Override
  public void setFloat(int parameterIndex, float x) throws SQLException {
    checkParameter(parameterIndex);
    insertBatch.record(parameterIndex, x);
    call(() -> delegate.setFloat(parameterIndex, x));
  }

  @Override
  public void setDouble(int parameterIndex, double x) throws SQLException {
    checkParameter(parameterIndex);
    insertBatch.record(parameterIndex, x);
    call(() -> delegate.setDouble(parameterIndex, x));
  }

  @Override
  public void setBigDecimal(int parameterIndex, BigDecimal x) throws SQLException {
    checkParameter(parameterIndex);
    insertBatch.record(parameterIndex, x);
    if (!boundAsInt(parameterIndex, x)) {
      call(() -> delegate.setBigDecimal(parameterIndex, x));
    }
  }

  @Override
  public void setString(int parameterIndex, String x) throws SQLException {
    checkParameter(parameterIndex);
    insertBatch.record(parameterIndex, x);
    call(() -> delegate.setString(parameterIndex, x));
  }

  /** Bytes as Calcite binds them (a copy, as of now), which the fast path writes to a column of long values. */
  @Override
  public void setBytes(int parameterIndex, byte[] x) throws SQLException {
    checkParameter(parameterIndex);
    insertBatch.record(parameterIndex, x == null ? null : new org.apache.calcite.avatica.util.ByteString(x));
    call(() -> delegate.setBytes(parameterIndex, x));
  }

  // Streams and large objects bind the text or bytes they hold; one longer than an entity holds
  // waits for the execution, which writes it to its blob as it reads it where it can (streamed).

  /** Binds text or bytes read from a stream, or keeps a long stream for the execution. */
  private void bindRead(int parameterIndex, Object value) throws SQLException {
    if (value instanceof StreamedValue stream) {
      checkParameter(parameterIndex);
      insertBatch.record(parameterIndex, stream);
      streamed.put(parameterIndex, stream);
    } else if (value instanceof byte[] bytes) {
      setBytes(parameterIndex, bytes);
    } else {
      setString(parameterIndex, (String) value);
    }
  }

  @Override
  public void setCharacterStream(int parameterIndex, java.io.Reader reader) throws SQLException {
    bindRead(parameterIndex, StreamParameters.textOrStream(reader, -1, parameterIndex));
  }

  @Override
  public void setCharacterStream(int parameterIndex, java.io.Reader reader, int length) throws SQLException {
    bindRead(parameterIndex, StreamParameters.textOrStream(reader, length, parameterIndex));
  }

  @Override
  public void setCharacterStream(int parameterIndex, java.io.Reader reader, long length) throws SQLException {
    bindRead(parameterIndex, StreamParameters.textOrStream(reader, length, parameterIndex));
  }

  @Override
  public void setNCharacterStream(int parameterIndex, java.io.Reader reader) throws SQLException {
    setCharacterStream(parameterIndex, reader);
  }

  @Override
  public void setNCharacterStream(int parameterIndex, java.io.Reader reader, long length) throws SQLException {
    setCharacterStream(parameterIndex, reader, length);
  }

  @Override
  public void setClob(int parameterIndex, java.io.Reader reader) throws SQLException {
    setCharacterStream(parameterIndex, reader);
  }

  @Override
  public void setClob(int parameterIndex, java.io.Reader reader, long length) throws SQLException {
    setCharacterStream(parameterIndex, reader, length);
  }

  @Override
  public void setClob(int parameterIndex, java.sql.Clob clob) throws SQLException {
    setCharacterStream(parameterIndex, clob == null ? null : clob.getCharacterStream());
  }

  @Override
  public void setNClob(int parameterIndex, java.io.Reader reader) throws SQLException {
    setCharacterStream(parameterIndex, reader);
  }

  @Override
  public void setNClob(int parameterIndex, java.io.Reader reader, long length) throws SQLException {
    setCharacterStream(parameterIndex, reader, length);
  }

  @Override
  public void setNClob(int parameterIndex, java.sql.NClob clob) throws SQLException {
    setClob(parameterIndex, clob);
  }

  @Override
  public void setAsciiStream(int parameterIndex, java.io.InputStream stream) throws SQLException {
    setString(parameterIndex, StreamParameters.ascii(stream, -1, parameterIndex));
  }

  @Override
  public void setAsciiStream(int parameterIndex, java.io.InputStream stream, int length) throws SQLException {
    setString(parameterIndex, StreamParameters.ascii(stream, length, parameterIndex));
  }

  @Override
  public void setAsciiStream(int parameterIndex, java.io.InputStream stream, long length) throws SQLException {
    setString(parameterIndex, StreamParameters.ascii(stream, length, parameterIndex));
  }

  @Override
  public void setBinaryStream(int parameterIndex, java.io.InputStream stream) throws SQLException {
    bindRead(parameterIndex, StreamParameters.bytesOrStream(stream, -1, parameterIndex));
  }

  @Override
  public void setBinaryStream(int parameterIndex, java.io.InputStream stream, int length) throws SQLException {
    bindRead(parameterIndex, StreamParameters.bytesOrStream(stream, length, parameterIndex));
  }

  @Override
  public void setBinaryStream(int parameterIndex, java.io.InputStream stream, long length) throws SQLException {
    bindRead(parameterIndex, StreamParameters.bytesOrStream(stream, length, parameterIndex));
  }

  @Override
  public void setBlob(int parameterIndex, java.io.InputStream stream) throws SQLException {
    setBinaryStream(parameterIndex, stream);
  }

  @Override
  public void setBlob(int parameterIndex, java.io.InputStream stream, long length) throws SQLException {
    setBinaryStream(parameterIndex, stream, length);
  }

  @Override
  public void setBlob(int parameterIndex, java.sql.Blob blob) throws SQLException {
    setBinaryStream(parameterIndex, blob == null ? null : blob.getBinaryStream());
  }

  @Override
  public void setDate(int parameterIndex, java.sql.Date x) throws SQLException {
    setDate(parameterIndex, x, null);
  }

  @Override
  public void setTime(int parameterIndex, java.sql.Time x) throws SQLException {
    setTime(parameterIndex, x, null);
  }

  @Override
  public void setTimestamp(int parameterIndex, java.sql.Timestamp x) throws SQLException {
    setTimestamp(parameterIndex, x, null);
  }

  @Override
  public void clearParameters() throws SQLException {
    if (!lifted) { // the lifted values are not parameters the user set
      call(() -> delegate.clearParameters());
    }
    insertBatch.clearParameters();
    streamed.clear();
    streamsRead.clear();
  }

  @Override
  public void setObject(int parameterIndex, Object x, int targetSqlType) throws SQLException {
    checkParameter(parameterIndex);
    insertBatch.unsupported(parameterIndex);
    bind(parameterIndex, JdbcConversions.toSqlType(x, targetSqlType, "parameter " + parameterIndex));
  }

  @Override
  public void setObject(int parameterIndex, Object x) throws SQLException {
    checkParameter(parameterIndex);
    insertBatch.record(parameterIndex, x);
    bind(parameterIndex, x);
  }

  @Override
  public void setObject(int parameterIndex, Object x, SQLType targetSqlType) throws SQLException {
    setObject(parameterIndex, x, vendorTypeNumber(targetSqlType));
  }

  @Override
  public void setObject(int parameterIndex, Object x, SQLType targetSqlType, int scaleOrLength) throws SQLException {
    setObject(parameterIndex, x, vendorTypeNumber(targetSqlType));
  }

  private static int vendorTypeNumber(SQLType type) throws SQLException {
    if (type == null || type.getVendorTypeNumber() == null) {
      throw SqlExceptions.of("Not supported by tablesql: the SQL type " + type
          + "; use a java.sql.JDBCType.", SqlStates.FEATURE_NOT_SUPPORTED);
    }
    return type.getVendorTypeNumber();
  }

  @Override
  public void addBatch() throws SQLException {
    if (lifted) {
      throw SqlExceptions.of("A query cannot be part of a batch: only INSERT, UPSERT, UPDATE and DELETE can.",
          SqlStates.FEATURE_NOT_SUPPORTED);
    }
    requireStreamsSet();
    bindStreamsWhole(); // a batch holds its rows' values
    call(() -> delegate.addBatch());
    insertBatch.addBatch();
    batchRows++;
  }

  @Override
  public ResultSetMetaData getMetaData() throws SQLException {
    if (ddl) {
      return null; // DDL returns no rows
    }
    ResultSetMetaData metaData = call(() -> delegate.getMetaData());
    return metaData == null ? null : new WrappedResultSetMetaData(metaData, connection);
  }

  @Override
  public void setDate(int parameterIndex, java.sql.Date x, Calendar cal) throws SQLException {
    checkParameter(parameterIndex);
    insertBatch.unsupported(parameterIndex);
    bind(parameterIndex, x == null ? null : UtcWallClock.dateOf(x, UtcWallClock.zone(cal)));
  }

  @Override
  public void setTime(int parameterIndex, java.sql.Time x, Calendar cal) throws SQLException {
    checkParameter(parameterIndex);
    insertBatch.unsupported(parameterIndex);
    bind(parameterIndex, x == null ? null : UtcWallClock.timeOf(x, UtcWallClock.zone(cal)));
  }

  @Override
  public void setTimestamp(int parameterIndex, java.sql.Timestamp x, Calendar cal) throws SQLException {
    checkParameter(parameterIndex);
    insertBatch.unsupported(parameterIndex);
    bind(parameterIndex, x == null ? null : UtcWallClock.wallClockOf(x, UtcWallClock.zone(cal)));
  }

  @Override
  public ParameterMetaData getParameterMetaData() throws SQLException {
    // a statement on a lent plan has no parameters of its own; once closed, Calcite says so
    return call(() -> !lifted || delegate.isClosed()
        ? new WrappedParameterMetaData(delegate.getParameterMetaData()) : StandIns.NO_PARAMETERS);
  }

  /** As without scaleOrLength: conversions are lossless, so there is nothing to round or cut. */
  @Override
  public void setObject(int parameterIndex, Object x, int targetSqlType, int scaleOrLength) throws SQLException {
    setObject(parameterIndex, x, targetSqlType);
  }

}
