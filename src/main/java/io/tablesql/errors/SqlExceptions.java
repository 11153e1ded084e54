package io.tablesql.errors;

import java.sql.BatchUpdateException;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLInvalidAuthorizationSpecException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLNonTransientException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransactionRollbackException;
import java.sql.SQLTransientConnectionException;
import java.sql.SQLTransientException;

/**
 * The one place that decides which {@link SQLException} subclass an error is, from its SQLState
 * (JDBC 4.0 section 8.5), so every JDBC method reports a failure the same way and frameworks that
 * translate by class (Spring's {@code SQLExceptionSubclassTranslator}) or retry loops that test
 * {@link SQLTransientException} read it right.
 */
public final class SqlExceptions {
  private SqlExceptions() {
  }

  public static SQLException of(String message, String sqlState) {
    return of(message, sqlState, null);
  }

  public static SQLException of(String message, String sqlState, Throwable cause) {
    String state = sqlState == null ? SqlStates.GENERAL_ERROR : sqlState;
    switch (state) {
      // Transient: the same statement may succeed later, without changing anything.
      case SqlStates.COMMUNICATION_FAILURE:
        return new SQLTransientConnectionException(message, state, cause);
      case SqlStates.SERIALIZATION_FAILURE:
        return new SQLTransactionRollbackException(message, state, cause);
      case SqlStates.TIMEOUT:
        return new SQLTimeoutException(message, state, cause);
      case SqlStates.SERVICE_BUSY:
      case SqlStates.OBJECT_IN_USE:
        return new SQLTransientException(message, state, cause);
      // Not a condition a retry should undo: the user asked to stop (and it is no timeout).
      case SqlStates.QUERY_CANCELED:
        return new SQLException(message, state, cause);
      // The write may have been applied: a blind retry could apply it twice, so never transient.
      case SqlStates.TRANSACTION_RESOLUTION_UNKNOWN:
        return new SQLNonTransientConnectionException(message, state, cause);
      // Valid credentials that do not grant the operation: a permission problem, not bad SQL.
      case SqlStates.INSUFFICIENT_PRIVILEGE:
        return new SQLInvalidAuthorizationSpecException(message, state, cause);
      default:
        return ofClass(message, state, cause);
    }
  }

  /**
   * {@code error} itself when its class already matches its SQLState, or when it is a
   * {@link BatchUpdateException} (whose update counts executeBatch must report); otherwise it
   * rewrapped as the matching class.
   */
  public static SQLException matching(SQLException error) {
    if (error instanceof BatchUpdateException) {
      return error;
    }
    SQLException expected = of(error.getMessage(), error.getSQLState(), error);
    return expected.getClass() == error.getClass() ? error : expected;
  }

  private static SQLException ofClass(String message, String state, Throwable cause) {
    String stateClass = state.length() < 2 ? "" : state.substring(0, 2);
    switch (stateClass) {
      case "08":
        return new SQLNonTransientConnectionException(message, state, cause);
      case "0A":
        return new SQLFeatureNotSupportedException(message, state, cause);
      case "22":
        return new SQLDataException(message, state, cause);
      case "23":
        return new SQLIntegrityConstraintViolationException(message, state, cause);
      case "25":
        return new SQLNonTransientException(message, state, cause);
      case "28":
        return new SQLInvalidAuthorizationSpecException(message, state, cause);
      case "42":
        return new SQLSyntaxErrorException(message, state, cause);
      default:
        return new SQLException(message, state, cause);
    }
  }
}
