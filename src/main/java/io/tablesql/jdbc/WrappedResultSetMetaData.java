package io.tablesql.jdbc;

import static io.tablesql.jdbc.JdbcCalls.call;

import io.tablesql.errors.SqlExceptions;
import io.tablesql.errors.SqlStates;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;

/**
 * Calcite's result set metadata (a column named in another case than stored is labelled as stored
 * by the validator: {@code prepare.StoredCaseLabels}), with type names plain ({@link TypeNames}; a
 * declared UUID column's is UUID), and a column number out of range refused with a SQLState.
 */
final class WrappedResultSetMetaData extends ForwardingResultSetMetaData {
  private final ResultSetMetaData delegate;
  private final TableSqlConnection connection;

  WrappedResultSetMetaData(ResultSetMetaData delegate, TableSqlConnection connection) {
    this.delegate = delegate;
    this.connection = connection;
  }

  @Override
  ResultSetMetaData delegate() {
    return delegate;
  }

  /** Calcite's metadata meets a column it lacks with an IndexOutOfBoundsException: refused here instead. */
  @Override
  void checkColumn(int column) throws SQLException {
    if (column < 1 || column > delegate.getColumnCount()) {
      throw SqlExceptions.of("There is no column " + column + " in this result set: columns are numbered from 1 to "
          + delegate.getColumnCount() + ".", SqlStates.INVALID_COLUMN_INDEX);
    }
  }

  @Override
  public String getColumnTypeName(int column) throws SQLException {
    return call(() -> {
      checkColumn(column);
      String declared = connection.declaredTypeName(delegate.getTableName(column), delegate.getColumnName(column));
      return declared != null ? declared
          : TypeNames.plain(delegate.getColumnTypeName(column), delegate.getColumnType(column));
    });
  }
}
