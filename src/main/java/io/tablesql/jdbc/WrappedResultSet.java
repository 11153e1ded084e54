package io.tablesql.jdbc;

import static io.tablesql.jdbc.JdbcCalls.call;

import io.tablesql.errors.SqlExceptions;
import io.tablesql.errors.SqlStates;
import java.sql.Date;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Calendar;

/**
 * Calcite's result set, with failures met while reading more rows (a page request that
 * failed, a cancel, a timeout) reported as {@link SQLException}s with their SQLState, and
 * dates and times read as {@link UtcWallClock} defines them in whatever zone the JVM is in.
 */
final class WrappedResultSet extends ForwardingResultSet {
  private final ResultSet delegate;
  private final WrappedStatement statement;
  /** The most rows this result set gives (the statement's max rows), 0 for no limit. */
  private final long maxRows;
  private long rowsGiven;
  private Runnable onClose;
  /** The SQL type of each column (1-based) and how errors name it, read from the metadata on first need. */
  private int[] columnTypes;
  private String[] columnNames;

  WrappedResultSet(ResultSet delegate, WrappedStatement statement, long maxRows) {
    this.delegate = delegate;
    this.statement = statement;
    this.maxRows = maxRows;
  }

  @Override
  ResultSet delegate() {
    return delegate;
  }

  /** Runs once the result set is closed: a cached plan goes back to its cache. */
  WrappedResultSet onClose(Runnable action) {
    this.onClose = action;
    return this;
  }

  @Override
  public boolean next() throws SQLException {
    if (maxRows > 0 && rowsGiven >= maxRows) {
      return false;
    }
    try {
      boolean more = delegate.next();
      if (more) {
        rowsGiven++;
      }
      return more;
    } catch (SQLException | RuntimeException | AssertionError | ExceptionInInitializerError e) { // Calcite's generated code asserts too
      throw statement.readFailure(e);
    }
  }

  @Override
  public Statement getStatement() {
    return statement;
  }

  // Besides: close gives a lent plan back, the readers of dates and times and getObject follow
  // UtcWallClock, and metadata is wrapped. The rest of ResultSet forwards to Calcite's
  // (ForwardingResultSet).

  @Override
  public void close() throws SQLException {
    call(() -> delegate.close());
    if (onClose != null) {
      Runnable action = onClose;
      onClose = null;
      action.run();
    }
    statement.resultSetClosed(this);
  }

  @Override
  public java.sql.Date getDate(int columnIndex) throws SQLException {
    return getDate(columnIndex, null);
  }

  @Override
  public java.sql.Time getTime(int columnIndex) throws SQLException {
    return getTime(columnIndex, null);
  }

  @Override
  public java.sql.Timestamp getTimestamp(int columnIndex) throws SQLException {
    return getTimestamp(columnIndex, null);
  }

  @Override
  public java.sql.Date getDate(String columnLabel) throws SQLException {
    return getDate(findColumn(columnLabel), null);
  }

  @Override
  public java.sql.Time getTime(String columnLabel) throws SQLException {
    return getTime(findColumn(columnLabel), null);
  }

  @Override
  public java.sql.Timestamp getTimestamp(String columnLabel) throws SQLException {
    return getTimestamp(findColumn(columnLabel), null);
  }

  // Text and binary values as streams and large objects: over the value the row holds, or, on
  // the direct path, streamed from Blob storage for a value kept there (LongValueAccessor).

  /** Whether the rows come from the direct path, whose getters stream long values. */
  private boolean streams() {
    return delegate instanceof io.tablesql.prepare.DirectPlan.Results;
  }

  @Override
  public java.io.Reader getCharacterStream(int columnIndex) throws SQLException {
    if (streams()) {
      return call(() -> delegate.getCharacterStream(columnIndex));
    }
    String text = getString(columnIndex);
    return text == null ? null : new java.io.StringReader(text);
  }

  @Override
  public java.io.Reader getCharacterStream(String columnLabel) throws SQLException {
    return getCharacterStream(findColumn(columnLabel));
  }

  @Override
  public java.io.Reader getNCharacterStream(int columnIndex) throws SQLException {
    return getCharacterStream(columnIndex);
  }

  @Override
  public java.io.Reader getNCharacterStream(String columnLabel) throws SQLException {
    return getCharacterStream(findColumn(columnLabel));
  }

  @Override
  public java.io.InputStream getBinaryStream(int columnIndex) throws SQLException {
    if (streams()) {
      return call(() -> delegate.getBinaryStream(columnIndex));
    }
    byte[] bytes = getBytes(columnIndex);
    return bytes == null ? null : new java.io.ByteArrayInputStream(bytes);
  }

  @Override
  public java.io.InputStream getBinaryStream(String columnLabel) throws SQLException {
    return getBinaryStream(findColumn(columnLabel));
  }

  @Override
  public java.sql.Clob getClob(int columnIndex) throws SQLException {
    if (streams()) {
      return call(() -> delegate.getClob(columnIndex));
    }
    String text = getString(columnIndex);
    return text == null ? null : new javax.sql.rowset.serial.SerialClob(text.toCharArray());
  }

  @Override
  public java.sql.Clob getClob(String columnLabel) throws SQLException {
    return getClob(findColumn(columnLabel));
  }

  @Override
  public java.sql.Blob getBlob(int columnIndex) throws SQLException {
    if (streams()) {
      return call(() -> delegate.getBlob(columnIndex));
    }
    byte[] bytes = getBytes(columnIndex);
    return bytes == null ? null : new javax.sql.rowset.serial.SerialBlob(bytes);
  }

  @Override
  public java.sql.Blob getBlob(String columnLabel) throws SQLException {
    return getBlob(findColumn(columnLabel));
  }

  @Override
  public ResultSetMetaData getMetaData() throws SQLException {
    return call(() -> new WrappedResultSetMetaData(delegate.getMetaData(), statement.connection));
  }

  @Override
  public Object getObject(int columnIndex) throws SQLException {
    return call(() -> {
      switch (columnType(columnIndex)) {
        case Types.TIMESTAMP: return getTimestamp(columnIndex, null);
        case Types.DATE: return getDate(columnIndex, null);
        case Types.TIME: return getTime(columnIndex, null);
        default:
          return delegate.getObject(columnIndex);
      }
    });
  }

  @Override
  public Object getObject(String columnLabel) throws SQLException {
    return getObject(findColumn(columnLabel));
  }

  /** The date of a DATE or TIMESTAMP column at the start of that day in the calendar's zone (the JVM's without one). */
  @Override
  public java.sql.Date getDate(int columnIndex, Calendar cal) throws SQLException {
    LocalDate date = (LocalDate) call(() -> valueAs(columnIndex, Types.DATE));
    return date == null ? null : UtcWallClock.toDate(date, UtcWallClock.zone(cal));
  }

  @Override
  public java.sql.Date getDate(String columnLabel, Calendar cal) throws SQLException {
    return getDate(findColumn(columnLabel), cal);
  }

  /** The time of day of a TIME or TIMESTAMP column on 1970-01-01 in the calendar's zone (the JVM's without one). */
  @Override
  public java.sql.Time getTime(int columnIndex, Calendar cal) throws SQLException {
    LocalTime time = (LocalTime) call(() -> valueAs(columnIndex, Types.TIME));
    return time == null ? null : UtcWallClock.toTime(time, UtcWallClock.zone(cal));
  }

  @Override
  public java.sql.Time getTime(String columnLabel, Calendar cal) throws SQLException {
    return getTime(findColumn(columnLabel), cal);
  }

  /**
   * The UTC wall clock of a TIMESTAMP column read in the calendar's zone: without a calendar a
   * Timestamp that shows the wall clock in the JVM's zone, with a UTC calendar the true instant.
   */
  @Override
  public java.sql.Timestamp getTimestamp(int columnIndex, Calendar cal) throws SQLException {
    LocalDateTime wallClock = (LocalDateTime) call(() -> valueAs(columnIndex, Types.TIMESTAMP));
    return wallClock == null ? null : UtcWallClock.toTimestamp(wallClock, UtcWallClock.zone(cal));
  }

  @Override
  public java.sql.Timestamp getTimestamp(String columnLabel, Calendar cal) throws SQLException {
    return getTimestamp(findColumn(columnLabel), cal);
  }

  /** The column's value as a class of the JDBC 4.2 tables (see {@link JdbcConversions#toJavaClass}). */
  @Override
  public <T> T getObject(int columnIndex, Class<T> type) throws SQLException {
    if (type == null) {
      throw SqlExceptions.of("getObject needs the class to read column " + columnIndex + " as, such as "
          + "LocalDateTime.class.", SqlStates.INVALID_CONVERSION);
    }
    if (type == Object.class) {
      return type.cast(getObject(columnIndex));
    }
    if (type == String.class) {
      return type.cast(getString(columnIndex));
    }
    return call(() -> JdbcConversions.toJavaClass(value(columnIndex), type, describe(columnIndex)));
  }

  @Override
  public <T> T getObject(String columnLabel, Class<T> type) throws SQLException {
    return getObject(findColumn(columnLabel), type);
  }

  /**
   * The column's value as {@link JdbcConversions} takes it. Calcite holds a TIMESTAMP as the
   * milliseconds of its UTC wall clock, a DATE as days and a TIME as milliseconds of the day, and
   * its accessors give those numbers as they are through getLong.
   */
  private Object value(int column) throws SQLException {
    switch (columnType(column)) {
      case Types.TIMESTAMP: {
        long millis = delegate.getLong(column);
        return delegate.wasNull() ? null : UtcWallClock.ofMillis(millis);
      }
      case Types.DATE: {
        long days = delegate.getLong(column);
        return delegate.wasNull() ? null : UtcWallClock.ofDays(days);
      }
      case Types.TIME: {
        long millis = delegate.getLong(column);
        return delegate.wasNull() ? null : UtcWallClock.ofMillisOfDay(millis);
      }
      case Types.BINARY:
      case Types.VARBINARY:
        return delegate.getBytes(column);
      default:
        return getObject(column);
    }
  }

  private Object valueAs(int column, int sqlType) throws SQLException {
    return JdbcConversions.toSqlType(value(column), sqlType, describe(column));
  }

  private int columnType(int column) throws SQLException {
    readColumns();
    return column > 0 && column < columnTypes.length ? columnTypes[column] : Types.OTHER;
  }

  private String describe(int column) throws SQLException {
    readColumns();
    return column > 0 && column < columnNames.length ? columnNames[column] : "column " + column;
  }

  private void readColumns() throws SQLException {
    if (columnTypes == null) {
      ResultSetMetaData metaData = delegate.getMetaData();
      int count = metaData.getColumnCount();
      columnNames = new String[count + 1];
      int[] types = new int[count + 1];
      for (int i = 1; i <= count; i++) {
        types[i] = metaData.getColumnType(i);
        columnNames[i] = "column " + i + " (" + metaData.getColumnLabel(i) + ", " + metaData.getColumnTypeName(i) + ")";
      }
      columnTypes = types;
    }
  }

}
