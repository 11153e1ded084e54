package io.tablesql.jdbc;

import io.tablesql.errors.SqlExceptions;
import io.tablesql.errors.SqlStates;
import java.sql.SQLException;
import java.sql.Savepoint;

/** A savepoint of a connection's open transaction, as JDBC hands it out: numbered, or named. */
final class TableSqlSavepoint implements Savepoint {
  private final TableSqlConnection connection;
  private final int id;
  private final String name;

  TableSqlSavepoint(TableSqlConnection connection, int id, String name) {
    this.connection = connection;
    this.id = id;
    this.name = name;
  }

  /** This savepoint's number in its session, if it is one of {@code connection}'s. */
  int idFor(TableSqlConnection of) throws SQLException {
    if (of != connection) {
      throw SqlExceptions.of("The savepoint belongs to another connection.", SqlStates.INVALID_SAVEPOINT);
    }
    return id;
  }

  @Override
  public int getSavepointId() throws SQLException {
    if (name != null) {
      throw SqlExceptions.of("Savepoint '" + name + "' is named: call getSavepointName().", SqlStates.INVALID_STATE);
    }
    return id;
  }

  @Override
  public String getSavepointName() throws SQLException {
    if (name == null) {
      throw SqlExceptions.of("Savepoint " + id + " is not named: call getSavepointId().", SqlStates.INVALID_STATE);
    }
    return name;
  }

  @Override
  public String toString() {
    return name != null ? "savepoint '" + name + "'" : "savepoint " + id;
  }
}
