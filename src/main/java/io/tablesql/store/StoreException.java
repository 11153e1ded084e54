package io.tablesql.store;

import io.tablesql.errors.SqlExceptions;
import java.sql.SQLException;

/**
 * A failure worded for the user, with its SQLState, raised anywhere below the JDBC layer: the
 * service's refusals and unknown outcomes ({@link TableStore}, {@link OutcomeCheck}), and what
 * the driver finds itself, such as syntax errors in the DDL it reads (PRIMARY KEY forms, index
 * statements), DDL rules, rows that cannot be written, duplicate index values, a cancel or a
 * timeout. Unchecked because it travels through Calcite's generated code and DDL executor; the
 * JDBC layer turns it back into a {@link SQLException}.
 */
public class StoreException extends RuntimeException {
  private final String sqlState;

  public StoreException(String message, String sqlState, Throwable cause) {
    super(message, cause);
    this.sqlState = sqlState;
  }

  /** Carries a checked failure through generated code. */
  public static StoreException of(SQLException e) {
    return SettledConflict.in(e) ? new SettledConflict(e.getMessage())
        : new StoreException(e.getMessage(), e.getSQLState(), null);
  }

  public String sqlState() {
    return sqlState;
  }

  public SQLException toSqlException() {
    return SqlExceptions.of(getMessage(), sqlState, this);
  }
}
