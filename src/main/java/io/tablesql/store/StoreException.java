package io.tablesql.store;

import io.tablesql.SqlExceptions;
import java.sql.SQLException;

/**
 * A failure worded for the user and carrying its SQLState (at the service, or found by the driver
 * while executing: DDL rules, data that cannot be written). Unchecked
 * because it travels through Calcite's generated code; the JDBC layer turns it back into a
 * {@link SQLException}.
 */
public final class StoreException extends RuntimeException {
  private final String sqlState;

  public StoreException(String message, String sqlState, Throwable cause) {
    super(message, cause);
    this.sqlState = sqlState;
  }

  /** Carries a checked failure through generated code. */
  public static StoreException of(SQLException e) {
    return new StoreException(e.getMessage(), e.getSQLState(), null);
  }

  public String sqlState() {
    return sqlState;
  }

  public SQLException toSqlException() {
    return SqlExceptions.of(getMessage(), sqlState, this);
  }
}
