package io.tablesql.jdbc;

import static io.tablesql.jdbc.JdbcCalls.call;

import io.tablesql.errors.SqlExceptions;
import io.tablesql.errors.SqlStates;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;

/**
 * Calcite's result set metadata, with a column selected by an unquoted name labelled with the
 * property's stored case ({@code SELECT entitytype} shows {@code EntityType}), type names plain
 * ({@link TypeNames}), and a column number out of range refused with a SQLState.
 */
final class WrappedResultSetMetaData implements ResultSetMetaData {
  private final ResultSetMetaData delegate;

  WrappedResultSetMetaData(ResultSetMetaData delegate) {
    this.delegate = delegate;
  }

  @Override
  public String getColumnLabel(int column) throws SQLException {
    return call(() -> {
      String label = delegate.getColumnLabel(checked(column));
      String name = delegate.getColumnName(column);
      return name != null && label.equalsIgnoreCase(name) ? name : label;
    });
  }

  /** Calcite's metadata meets a column it lacks with an IndexOutOfBoundsException: refused here instead. */
  private int checked(int column) throws SQLException {
    if (column < 1 || column > delegate.getColumnCount()) {
      throw SqlExceptions.of("There is no column " + column + " in this result set: columns are numbered from 1 to "
          + delegate.getColumnCount() + ".", SqlStates.INVALID_COLUMN_INDEX);
    }
    return column;
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    return call(() -> iface.isInstance(this) ? iface.cast(this) : delegate.unwrap(iface));
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) throws SQLException {
    return call(() -> iface.isInstance(this) || delegate.isWrapperFor(iface));
  }

  // The rest of ResultSetMetaData: forwards to Calcite's, except getColumnTypeName (plain names).

  @Override
  public int getColumnCount() throws SQLException {
    return call(() -> delegate.getColumnCount());
  }

  @Override
  public boolean isAutoIncrement(int column) throws SQLException {
    return call(() -> delegate.isAutoIncrement(checked(column)));
  }

  @Override
  public boolean isCaseSensitive(int column) throws SQLException {
    return call(() -> delegate.isCaseSensitive(checked(column)));
  }

  @Override
  public boolean isSearchable(int column) throws SQLException {
    return call(() -> delegate.isSearchable(checked(column)));
  }

  @Override
  public boolean isCurrency(int column) throws SQLException {
    return call(() -> delegate.isCurrency(checked(column)));
  }

  @Override
  public int isNullable(int column) throws SQLException {
    return call(() -> delegate.isNullable(checked(column)));
  }

  @Override
  public boolean isSigned(int column) throws SQLException {
    return call(() -> delegate.isSigned(checked(column)));
  }

  @Override
  public int getColumnDisplaySize(int column) throws SQLException {
    return call(() -> delegate.getColumnDisplaySize(checked(column)));
  }

  @Override
  public String getColumnName(int column) throws SQLException {
    return call(() -> delegate.getColumnName(checked(column)));
  }

  @Override
  public String getSchemaName(int column) throws SQLException {
    return call(() -> delegate.getSchemaName(checked(column)));
  }

  @Override
  public int getPrecision(int column) throws SQLException {
    return call(() -> delegate.getPrecision(checked(column)));
  }

  @Override
  public int getScale(int column) throws SQLException {
    return call(() -> delegate.getScale(checked(column)));
  }

  @Override
  public String getTableName(int column) throws SQLException {
    return call(() -> delegate.getTableName(checked(column)));
  }

  @Override
  public String getCatalogName(int column) throws SQLException {
    return call(() -> delegate.getCatalogName(checked(column)));
  }

  @Override
  public int getColumnType(int column) throws SQLException {
    return call(() -> delegate.getColumnType(checked(column)));
  }

  @Override
  public String getColumnTypeName(int column) throws SQLException {
    return call(() -> TypeNames.plain(delegate.getColumnTypeName(checked(column)), delegate.getColumnType(column)));
  }

  @Override
  public boolean isReadOnly(int column) throws SQLException {
    return call(() -> delegate.isReadOnly(checked(column)));
  }

  @Override
  public boolean isWritable(int column) throws SQLException {
    return call(() -> delegate.isWritable(checked(column)));
  }

  @Override
  public boolean isDefinitelyWritable(int column) throws SQLException {
    return call(() -> delegate.isDefinitelyWritable(checked(column)));
  }

  @Override
  public String getColumnClassName(int column) throws SQLException {
    return call(() -> delegate.getColumnClassName(checked(column)));
  }

}
