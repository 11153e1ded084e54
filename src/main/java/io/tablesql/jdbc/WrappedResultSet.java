package io.tablesql.jdbc;

import static io.tablesql.jdbc.JdbcCalls.call;

import io.tablesql.errors.SqlExceptions;
import io.tablesql.errors.SqlStates;
import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.net.URL;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.SQLXML;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Calendar;
import java.util.Map;

/**
 * Calcite's result set, with failures met while reading more rows (a page request that
 * failed, a cancel, a timeout) reported as {@link SQLException}s with their SQLState, and
 * dates and times read as {@link UtcWallClock} defines them in whatever zone the JVM is in.
 */
final class WrappedResultSet implements ResultSet {
  private final ResultSet delegate;
  private final WrappedStatement statement;
  private Runnable onClose;
  private int typeNameColumn = -1;
  private int dataTypeColumn = -1;
  /** The SQL type of each column (1-based) and how errors name it, read from the metadata on first need. */
  private int[] columnTypes;
  private String[] columnNames;

  WrappedResultSet(ResultSet delegate, WrappedStatement statement) {
    this.delegate = delegate;
    this.statement = statement;
  }

  /**
   * Shows a metadata result's TYPE_NAME column as the type alone ({@link TypeNames}), read from
   * its DATA_TYPE column where Calcite names a Java class.
   */
  WrappedResultSet withPlainTypeNames() throws SQLException {
    this.typeNameColumn = delegate.findColumn("TYPE_NAME");
    this.dataTypeColumn = delegate.findColumn("DATA_TYPE");
    return this;
  }

  private String plainType(int column, String value) throws SQLException {
    return column == typeNameColumn ? TypeNames.plain(value, delegate.getInt(dataTypeColumn)) : value;
  }

  /** Runs once the result set is closed: a cached plan goes back to its cache. */
  WrappedResultSet onClose(Runnable action) {
    this.onClose = action;
    return this;
  }

  @Override
  public boolean next() throws SQLException {
    try {
      return delegate.next();
    } catch (SQLException | RuntimeException e) {
      throw statement.readFailure(e);
    }
  }

  @Override
  public Statement getStatement() {
    return statement;
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    return call(() -> iface.isInstance(this) ? iface.cast(this) : delegate.unwrap(iface));
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) throws SQLException {
    return call(() -> iface.isInstance(this) || delegate.isWrapperFor(iface));
  }

  // The rest of ResultSet: forwards to Calcite's, except close (which gives a lent plan back), the
  // readers of dates and times and getObject (which follow UtcWallClock), getString (plain type
  // names in metadata results' TYPE_NAME), and metadata.

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
  public boolean wasNull() throws SQLException {
    return call(() -> delegate.wasNull());
  }

  @Override
  public String getString(int columnIndex) throws SQLException {
    return call(() -> plainType(columnIndex, delegate.getString(columnIndex)));
  }

  @Override
  public boolean getBoolean(int columnIndex) throws SQLException {
    return call(() -> delegate.getBoolean(columnIndex));
  }

  @Override
  public byte getByte(int columnIndex) throws SQLException {
    return call(() -> delegate.getByte(columnIndex));
  }

  @Override
  public short getShort(int columnIndex) throws SQLException {
    return call(() -> delegate.getShort(columnIndex));
  }

  @Override
  public int getInt(int columnIndex) throws SQLException {
    return call(() -> delegate.getInt(columnIndex));
  }

  @Override
  public long getLong(int columnIndex) throws SQLException {
    return call(() -> delegate.getLong(columnIndex));
  }

  @Override
  public float getFloat(int columnIndex) throws SQLException {
    return call(() -> delegate.getFloat(columnIndex));
  }

  @Override
  public double getDouble(int columnIndex) throws SQLException {
    return call(() -> delegate.getDouble(columnIndex));
  }

  @Override
  public BigDecimal getBigDecimal(int columnIndex, int scale) throws SQLException {
    return call(() -> delegate.getBigDecimal(columnIndex, scale));
  }

  @Override
  public byte[] getBytes(int columnIndex) throws SQLException {
    return call(() -> delegate.getBytes(columnIndex));
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
  public java.io.InputStream getAsciiStream(int columnIndex) throws SQLException {
    return call(() -> delegate.getAsciiStream(columnIndex));
  }

  @Override
  public java.io.InputStream getUnicodeStream(int columnIndex) throws SQLException {
    return call(() -> delegate.getUnicodeStream(columnIndex));
  }

  @Override
  public java.io.InputStream getBinaryStream(int columnIndex) throws SQLException {
    return call(() -> delegate.getBinaryStream(columnIndex));
  }

  @Override
  public String getString(String columnLabel) throws SQLException {
    return getString(findColumn(columnLabel));
  }

  @Override
  public boolean getBoolean(String columnLabel) throws SQLException {
    return call(() -> delegate.getBoolean(columnLabel));
  }

  @Override
  public byte getByte(String columnLabel) throws SQLException {
    return call(() -> delegate.getByte(columnLabel));
  }

  @Override
  public short getShort(String columnLabel) throws SQLException {
    return call(() -> delegate.getShort(columnLabel));
  }

  @Override
  public int getInt(String columnLabel) throws SQLException {
    return call(() -> delegate.getInt(columnLabel));
  }

  @Override
  public long getLong(String columnLabel) throws SQLException {
    return call(() -> delegate.getLong(columnLabel));
  }

  @Override
  public float getFloat(String columnLabel) throws SQLException {
    return call(() -> delegate.getFloat(columnLabel));
  }

  @Override
  public double getDouble(String columnLabel) throws SQLException {
    return call(() -> delegate.getDouble(columnLabel));
  }

  @Override
  public BigDecimal getBigDecimal(String columnLabel, int scale) throws SQLException {
    return call(() -> delegate.getBigDecimal(columnLabel, scale));
  }

  @Override
  public byte[] getBytes(String columnLabel) throws SQLException {
    return call(() -> delegate.getBytes(columnLabel));
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

  @Override
  public java.io.InputStream getAsciiStream(String columnLabel) throws SQLException {
    return call(() -> delegate.getAsciiStream(columnLabel));
  }

  @Override
  public java.io.InputStream getUnicodeStream(String columnLabel) throws SQLException {
    return call(() -> delegate.getUnicodeStream(columnLabel));
  }

  @Override
  public java.io.InputStream getBinaryStream(String columnLabel) throws SQLException {
    return call(() -> delegate.getBinaryStream(columnLabel));
  }

  @Override
  public SQLWarning getWarnings() throws SQLException {
    return call(() -> delegate.getWarnings());
  }

  @Override
  public void clearWarnings() throws SQLException {
    call(() -> delegate.clearWarnings());
  }

  @Override
  public String getCursorName() throws SQLException {
    return call(() -> delegate.getCursorName());
  }

  @Override
  public ResultSetMetaData getMetaData() throws SQLException {
    return call(() -> new WrappedResultSetMetaData(delegate.getMetaData()));
  }

  @Override
  public Object getObject(int columnIndex) throws SQLException {
    return call(() -> {
      switch (columnType(columnIndex)) {
        case Types.TIMESTAMP: return getTimestamp(columnIndex, null);
        case Types.DATE: return getDate(columnIndex, null);
        case Types.TIME: return getTime(columnIndex, null);
        default:
          Object value = delegate.getObject(columnIndex);
          return value instanceof String text ? plainType(columnIndex, text) : value;
      }
    });
  }

  @Override
  public Object getObject(String columnLabel) throws SQLException {
    return getObject(findColumn(columnLabel));
  }

  @Override
  public int findColumn(String columnLabel) throws SQLException {
    return call(() -> delegate.findColumn(columnLabel));
  }

  @Override
  public java.io.Reader getCharacterStream(int columnIndex) throws SQLException {
    return call(() -> delegate.getCharacterStream(columnIndex));
  }

  @Override
  public java.io.Reader getCharacterStream(String columnLabel) throws SQLException {
    return call(() -> delegate.getCharacterStream(columnLabel));
  }

  @Override
  public BigDecimal getBigDecimal(int columnIndex) throws SQLException {
    return call(() -> delegate.getBigDecimal(columnIndex));
  }

  @Override
  public BigDecimal getBigDecimal(String columnLabel) throws SQLException {
    return call(() -> delegate.getBigDecimal(columnLabel));
  }

  @Override
  public boolean isBeforeFirst() throws SQLException {
    return call(() -> delegate.isBeforeFirst());
  }

  @Override
  public boolean isAfterLast() throws SQLException {
    return call(() -> delegate.isAfterLast());
  }

  @Override
  public boolean isFirst() throws SQLException {
    return call(() -> delegate.isFirst());
  }

  @Override
  public boolean isLast() throws SQLException {
    return call(() -> delegate.isLast());
  }

  @Override
  public void beforeFirst() throws SQLException {
    call(() -> delegate.beforeFirst());
  }

  @Override
  public void afterLast() throws SQLException {
    call(() -> delegate.afterLast());
  }

  @Override
  public boolean first() throws SQLException {
    return call(() -> delegate.first());
  }

  @Override
  public boolean last() throws SQLException {
    return call(() -> delegate.last());
  }

  @Override
  public int getRow() throws SQLException {
    return call(() -> delegate.getRow());
  }

  @Override
  public boolean absolute( int row ) throws SQLException {
    return call(() -> delegate.absolute(row));
  }

  @Override
  public boolean relative( int rows ) throws SQLException {
    return call(() -> delegate.relative(rows));
  }

  @Override
  public boolean previous() throws SQLException {
    return call(() -> delegate.previous());
  }

  @Override
  public void setFetchDirection(int direction) throws SQLException {
    call(() -> delegate.setFetchDirection(direction));
  }

  @Override
  public int getFetchDirection() throws SQLException {
    return call(() -> delegate.getFetchDirection());
  }

  @Override
  public void setFetchSize(int rows) throws SQLException {
    call(() -> delegate.setFetchSize(rows));
  }

  @Override
  public int getFetchSize() throws SQLException {
    return call(() -> delegate.getFetchSize());
  }

  @Override
  public int getType() throws SQLException {
    return call(() -> delegate.getType());
  }

  @Override
  public int getConcurrency() throws SQLException {
    return call(() -> delegate.getConcurrency());
  }

  @Override
  public boolean rowUpdated() throws SQLException {
    return call(() -> delegate.rowUpdated());
  }

  @Override
  public boolean rowInserted() throws SQLException {
    return call(() -> delegate.rowInserted());
  }

  @Override
  public boolean rowDeleted() throws SQLException {
    return call(() -> delegate.rowDeleted());
  }

  @Override
  public void updateNull(int columnIndex) throws SQLException {
    call(() -> delegate.updateNull(columnIndex));
  }

  @Override
  public void updateBoolean(int columnIndex, boolean x) throws SQLException {
    call(() -> delegate.updateBoolean(columnIndex, x));
  }

  @Override
  public void updateByte(int columnIndex, byte x) throws SQLException {
    call(() -> delegate.updateByte(columnIndex, x));
  }

  @Override
  public void updateShort(int columnIndex, short x) throws SQLException {
    call(() -> delegate.updateShort(columnIndex, x));
  }

  @Override
  public void updateInt(int columnIndex, int x) throws SQLException {
    call(() -> delegate.updateInt(columnIndex, x));
  }

  @Override
  public void updateLong(int columnIndex, long x) throws SQLException {
    call(() -> delegate.updateLong(columnIndex, x));
  }

  @Override
  public void updateFloat(int columnIndex, float x) throws SQLException {
    call(() -> delegate.updateFloat(columnIndex, x));
  }

  @Override
  public void updateDouble(int columnIndex, double x) throws SQLException {
    call(() -> delegate.updateDouble(columnIndex, x));
  }

  @Override
  public void updateBigDecimal(int columnIndex, BigDecimal x) throws SQLException {
    call(() -> delegate.updateBigDecimal(columnIndex, x));
  }

  @Override
  public void updateString(int columnIndex, String x) throws SQLException {
    call(() -> delegate.updateString(columnIndex, x));
  }

  @Override
  public void updateBytes(int columnIndex, byte x[]) throws SQLException {
    call(() -> delegate.updateBytes(columnIndex, x));
  }

  @Override
  public void updateDate(int columnIndex, java.sql.Date x) throws SQLException {
    call(() -> delegate.updateDate(columnIndex, x));
  }

  @Override
  public void updateTime(int columnIndex, java.sql.Time x) throws SQLException {
    call(() -> delegate.updateTime(columnIndex, x));
  }

  @Override
  public void updateTimestamp(int columnIndex, java.sql.Timestamp x) throws SQLException {
    call(() -> delegate.updateTimestamp(columnIndex, x));
  }

  @Override
  public void updateAsciiStream(int columnIndex, java.io.InputStream x, int length) throws SQLException {
    call(() -> delegate.updateAsciiStream(columnIndex, x, length));
  }

  @Override
  public void updateBinaryStream(int columnIndex, java.io.InputStream x, int length) throws SQLException {
    call(() -> delegate.updateBinaryStream(columnIndex, x, length));
  }

  @Override
  public void updateCharacterStream(int columnIndex, java.io.Reader x, int length) throws SQLException {
    call(() -> delegate.updateCharacterStream(columnIndex, x, length));
  }

  @Override
  public void updateObject(int columnIndex, Object x, int scaleOrLength) throws SQLException {
    call(() -> delegate.updateObject(columnIndex, x, scaleOrLength));
  }

  @Override
  public void updateObject(int columnIndex, Object x) throws SQLException {
    call(() -> delegate.updateObject(columnIndex, x));
  }

  @Override
  public void updateNull(String columnLabel) throws SQLException {
    call(() -> delegate.updateNull(columnLabel));
  }

  @Override
  public void updateBoolean(String columnLabel, boolean x) throws SQLException {
    call(() -> delegate.updateBoolean(columnLabel, x));
  }

  @Override
  public void updateByte(String columnLabel, byte x) throws SQLException {
    call(() -> delegate.updateByte(columnLabel, x));
  }

  @Override
  public void updateShort(String columnLabel, short x) throws SQLException {
    call(() -> delegate.updateShort(columnLabel, x));
  }

  @Override
  public void updateInt(String columnLabel, int x) throws SQLException {
    call(() -> delegate.updateInt(columnLabel, x));
  }

  @Override
  public void updateLong(String columnLabel, long x) throws SQLException {
    call(() -> delegate.updateLong(columnLabel, x));
  }

  @Override
  public void updateFloat(String columnLabel, float x) throws SQLException {
    call(() -> delegate.updateFloat(columnLabel, x));
  }

  @Override
  public void updateDouble(String columnLabel, double x) throws SQLException {
    call(() -> delegate.updateDouble(columnLabel, x));
  }

  @Override
  public void updateBigDecimal(String columnLabel, BigDecimal x) throws SQLException {
    call(() -> delegate.updateBigDecimal(columnLabel, x));
  }

  @Override
  public void updateString(String columnLabel, String x) throws SQLException {
    call(() -> delegate.updateString(columnLabel, x));
  }

  @Override
  public void updateBytes(String columnLabel, byte x[]) throws SQLException {
    call(() -> delegate.updateBytes(columnLabel, x));
  }

  @Override
  public void updateDate(String columnLabel, java.sql.Date x) throws SQLException {
    call(() -> delegate.updateDate(columnLabel, x));
  }

  @Override
  public void updateTime(String columnLabel, java.sql.Time x) throws SQLException {
    call(() -> delegate.updateTime(columnLabel, x));
  }

  @Override
  public void updateTimestamp(String columnLabel, java.sql.Timestamp x) throws SQLException {
    call(() -> delegate.updateTimestamp(columnLabel, x));
  }

  @Override
  public void updateAsciiStream(String columnLabel, java.io.InputStream x, int length) throws SQLException {
    call(() -> delegate.updateAsciiStream(columnLabel, x, length));
  }

  @Override
  public void updateBinaryStream(String columnLabel, java.io.InputStream x, int length) throws SQLException {
    call(() -> delegate.updateBinaryStream(columnLabel, x, length));
  }

  @Override
  public void updateCharacterStream(String columnLabel, java.io.Reader reader, int length) throws SQLException {
    call(() -> delegate.updateCharacterStream(columnLabel, reader, length));
  }

  @Override
  public void updateObject(String columnLabel, Object x, int scaleOrLength) throws SQLException {
    call(() -> delegate.updateObject(columnLabel, x, scaleOrLength));
  }

  @Override
  public void updateObject(String columnLabel, Object x) throws SQLException {
    call(() -> delegate.updateObject(columnLabel, x));
  }

  @Override
  public void insertRow() throws SQLException {
    call(() -> delegate.insertRow());
  }

  @Override
  public void updateRow() throws SQLException {
    call(() -> delegate.updateRow());
  }

  @Override
  public void deleteRow() throws SQLException {
    call(() -> delegate.deleteRow());
  }

  @Override
  public void refreshRow() throws SQLException {
    call(() -> delegate.refreshRow());
  }

  @Override
  public void cancelRowUpdates() throws SQLException {
    call(() -> delegate.cancelRowUpdates());
  }

  @Override
  public void moveToInsertRow() throws SQLException {
    call(() -> delegate.moveToInsertRow());
  }

  @Override
  public void moveToCurrentRow() throws SQLException {
    call(() -> delegate.moveToCurrentRow());
  }

  @Override
  public Object getObject(int columnIndex, java.util.Map<String,Class<?>> map) throws SQLException {
    return call(() -> delegate.getObject(columnIndex, map));
  }

  @Override
  public Ref getRef(int columnIndex) throws SQLException {
    return call(() -> delegate.getRef(columnIndex));
  }

  @Override
  public Blob getBlob(int columnIndex) throws SQLException {
    return call(() -> delegate.getBlob(columnIndex));
  }

  @Override
  public Clob getClob(int columnIndex) throws SQLException {
    return call(() -> delegate.getClob(columnIndex));
  }

  @Override
  public Array getArray(int columnIndex) throws SQLException {
    return call(() -> delegate.getArray(columnIndex));
  }

  @Override
  public Object getObject(String columnLabel, java.util.Map<String,Class<?>> map) throws SQLException {
    return call(() -> delegate.getObject(columnLabel, map));
  }

  @Override
  public Ref getRef(String columnLabel) throws SQLException {
    return call(() -> delegate.getRef(columnLabel));
  }

  @Override
  public Blob getBlob(String columnLabel) throws SQLException {
    return call(() -> delegate.getBlob(columnLabel));
  }

  @Override
  public Clob getClob(String columnLabel) throws SQLException {
    return call(() -> delegate.getClob(columnLabel));
  }

  @Override
  public Array getArray(String columnLabel) throws SQLException {
    return call(() -> delegate.getArray(columnLabel));
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

  @Override
  public java.net.URL getURL(int columnIndex) throws SQLException {
    return call(() -> delegate.getURL(columnIndex));
  }

  @Override
  public java.net.URL getURL(String columnLabel) throws SQLException {
    return call(() -> delegate.getURL(columnLabel));
  }

  @Override
  public void updateRef(int columnIndex, java.sql.Ref x) throws SQLException {
    call(() -> delegate.updateRef(columnIndex, x));
  }

  @Override
  public void updateRef(String columnLabel, java.sql.Ref x) throws SQLException {
    call(() -> delegate.updateRef(columnLabel, x));
  }

  @Override
  public void updateBlob(int columnIndex, java.sql.Blob x) throws SQLException {
    call(() -> delegate.updateBlob(columnIndex, x));
  }

  @Override
  public void updateBlob(String columnLabel, java.sql.Blob x) throws SQLException {
    call(() -> delegate.updateBlob(columnLabel, x));
  }

  @Override
  public void updateClob(int columnIndex, java.sql.Clob x) throws SQLException {
    call(() -> delegate.updateClob(columnIndex, x));
  }

  @Override
  public void updateClob(String columnLabel, java.sql.Clob x) throws SQLException {
    call(() -> delegate.updateClob(columnLabel, x));
  }

  @Override
  public void updateArray(int columnIndex, java.sql.Array x) throws SQLException {
    call(() -> delegate.updateArray(columnIndex, x));
  }

  @Override
  public void updateArray(String columnLabel, java.sql.Array x) throws SQLException {
    call(() -> delegate.updateArray(columnLabel, x));
  }

  @Override
  public RowId getRowId(int columnIndex) throws SQLException {
    return call(() -> delegate.getRowId(columnIndex));
  }

  @Override
  public RowId getRowId(String columnLabel) throws SQLException {
    return call(() -> delegate.getRowId(columnLabel));
  }

  @Override
  public void updateRowId(int columnIndex, RowId x) throws SQLException {
    call(() -> delegate.updateRowId(columnIndex, x));
  }

  @Override
  public void updateRowId(String columnLabel, RowId x) throws SQLException {
    call(() -> delegate.updateRowId(columnLabel, x));
  }

  @Override
  public int getHoldability() throws SQLException {
    return call(() -> delegate.getHoldability());
  }

  @Override
  public boolean isClosed() throws SQLException {
    return call(() -> delegate.isClosed());
  }

  @Override
  public void updateNString(int columnIndex, String nString) throws SQLException {
    call(() -> delegate.updateNString(columnIndex, nString));
  }

  @Override
  public void updateNString(String columnLabel, String nString) throws SQLException {
    call(() -> delegate.updateNString(columnLabel, nString));
  }

  @Override
  public void updateNClob(int columnIndex, NClob nClob) throws SQLException {
    call(() -> delegate.updateNClob(columnIndex, nClob));
  }

  @Override
  public void updateNClob(String columnLabel, NClob nClob) throws SQLException {
    call(() -> delegate.updateNClob(columnLabel, nClob));
  }

  @Override
  public NClob getNClob(int columnIndex) throws SQLException {
    return call(() -> delegate.getNClob(columnIndex));
  }

  @Override
  public NClob getNClob(String columnLabel) throws SQLException {
    return call(() -> delegate.getNClob(columnLabel));
  }

  @Override
  public SQLXML getSQLXML(int columnIndex) throws SQLException {
    return call(() -> delegate.getSQLXML(columnIndex));
  }

  @Override
  public SQLXML getSQLXML(String columnLabel) throws SQLException {
    return call(() -> delegate.getSQLXML(columnLabel));
  }

  @Override
  public void updateSQLXML(int columnIndex, SQLXML xmlObject) throws SQLException {
    call(() -> delegate.updateSQLXML(columnIndex, xmlObject));
  }

  @Override
  public void updateSQLXML(String columnLabel, SQLXML xmlObject) throws SQLException {
    call(() -> delegate.updateSQLXML(columnLabel, xmlObject));
  }

  @Override
  public String getNString(int columnIndex) throws SQLException {
    return call(() -> delegate.getNString(columnIndex));
  }

  @Override
  public String getNString(String columnLabel) throws SQLException {
    return call(() -> delegate.getNString(columnLabel));
  }

  @Override
  public java.io.Reader getNCharacterStream(int columnIndex) throws SQLException {
    return call(() -> delegate.getNCharacterStream(columnIndex));
  }

  @Override
  public java.io.Reader getNCharacterStream(String columnLabel) throws SQLException {
    return call(() -> delegate.getNCharacterStream(columnLabel));
  }

  @Override
  public void updateNCharacterStream(int columnIndex, java.io.Reader x, long length) throws SQLException {
    call(() -> delegate.updateNCharacterStream(columnIndex, x, length));
  }

  @Override
  public void updateNCharacterStream(String columnLabel, java.io.Reader reader, long length) throws SQLException {
    call(() -> delegate.updateNCharacterStream(columnLabel, reader, length));
  }

  @Override
  public void updateAsciiStream(int columnIndex, java.io.InputStream x, long length) throws SQLException {
    call(() -> delegate.updateAsciiStream(columnIndex, x, length));
  }

  @Override
  public void updateBinaryStream(int columnIndex, java.io.InputStream x, long length) throws SQLException {
    call(() -> delegate.updateBinaryStream(columnIndex, x, length));
  }

  @Override
  public void updateCharacterStream(int columnIndex, java.io.Reader x, long length) throws SQLException {
    call(() -> delegate.updateCharacterStream(columnIndex, x, length));
  }

  @Override
  public void updateAsciiStream(String columnLabel, java.io.InputStream x, long length) throws SQLException {
    call(() -> delegate.updateAsciiStream(columnLabel, x, length));
  }

  @Override
  public void updateBinaryStream(String columnLabel, java.io.InputStream x, long length) throws SQLException {
    call(() -> delegate.updateBinaryStream(columnLabel, x, length));
  }

  @Override
  public void updateCharacterStream(String columnLabel, java.io.Reader reader, long length) throws SQLException {
    call(() -> delegate.updateCharacterStream(columnLabel, reader, length));
  }

  @Override
  public void updateBlob(int columnIndex, InputStream inputStream, long length) throws SQLException {
    call(() -> delegate.updateBlob(columnIndex, inputStream, length));
  }

  @Override
  public void updateBlob(String columnLabel, InputStream inputStream, long length) throws SQLException {
    call(() -> delegate.updateBlob(columnLabel, inputStream, length));
  }

  @Override
  public void updateClob(int columnIndex, Reader reader, long length) throws SQLException {
    call(() -> delegate.updateClob(columnIndex, reader, length));
  }

  @Override
  public void updateClob(String columnLabel, Reader reader, long length) throws SQLException {
    call(() -> delegate.updateClob(columnLabel, reader, length));
  }

  @Override
  public void updateNClob(int columnIndex, Reader reader, long length) throws SQLException {
    call(() -> delegate.updateNClob(columnIndex, reader, length));
  }

  @Override
  public void updateNClob(String columnLabel, Reader reader, long length) throws SQLException {
    call(() -> delegate.updateNClob(columnLabel, reader, length));
  }

  @Override
  public void updateNCharacterStream(int columnIndex, java.io.Reader x) throws SQLException {
    call(() -> delegate.updateNCharacterStream(columnIndex, x));
  }

  @Override
  public void updateNCharacterStream(String columnLabel, java.io.Reader reader) throws SQLException {
    call(() -> delegate.updateNCharacterStream(columnLabel, reader));
  }

  @Override
  public void updateAsciiStream(int columnIndex, java.io.InputStream x) throws SQLException {
    call(() -> delegate.updateAsciiStream(columnIndex, x));
  }

  @Override
  public void updateBinaryStream(int columnIndex, java.io.InputStream x) throws SQLException {
    call(() -> delegate.updateBinaryStream(columnIndex, x));
  }

  @Override
  public void updateCharacterStream(int columnIndex, java.io.Reader x) throws SQLException {
    call(() -> delegate.updateCharacterStream(columnIndex, x));
  }

  @Override
  public void updateAsciiStream(String columnLabel, java.io.InputStream x) throws SQLException {
    call(() -> delegate.updateAsciiStream(columnLabel, x));
  }

  @Override
  public void updateBinaryStream(String columnLabel, java.io.InputStream x) throws SQLException {
    call(() -> delegate.updateBinaryStream(columnLabel, x));
  }

  @Override
  public void updateCharacterStream(String columnLabel, java.io.Reader reader) throws SQLException {
    call(() -> delegate.updateCharacterStream(columnLabel, reader));
  }

  @Override
  public void updateBlob(int columnIndex, InputStream inputStream) throws SQLException {
    call(() -> delegate.updateBlob(columnIndex, inputStream));
  }

  @Override
  public void updateBlob(String columnLabel, InputStream inputStream) throws SQLException {
    call(() -> delegate.updateBlob(columnLabel, inputStream));
  }

  @Override
  public void updateClob(int columnIndex, Reader reader) throws SQLException {
    call(() -> delegate.updateClob(columnIndex, reader));
  }

  @Override
  public void updateClob(String columnLabel, Reader reader) throws SQLException {
    call(() -> delegate.updateClob(columnLabel, reader));
  }

  @Override
  public void updateNClob(int columnIndex, Reader reader) throws SQLException {
    call(() -> delegate.updateNClob(columnIndex, reader));
  }

  @Override
  public void updateNClob(String columnLabel, Reader reader) throws SQLException {
    call(() -> delegate.updateNClob(columnLabel, reader));
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
