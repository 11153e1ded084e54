package io.tablesql;

import io.tablesql.errors.SqlExceptions;
import io.tablesql.errors.SqlStates;
import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each SQLState the driver reports comes as the JDBC 4.0 exception class that matches it. */
class SqlExceptionsTest {
  @Test
  void classFollowsTheState() {
    Map<String, Class<? extends SQLException>> expected = Map.ofEntries(
        Map.entry(SqlStates.SYNTAX_ERROR, SQLSyntaxErrorException.class),
        Map.entry(SqlStates.TABLE_NOT_FOUND, SQLSyntaxErrorException.class),
        Map.entry(SqlStates.COLUMN_NOT_FOUND, SQLSyntaxErrorException.class),
        Map.entry(SqlStates.DATA_TYPE_MISMATCH, SQLSyntaxErrorException.class),
        Map.entry(SqlStates.INSUFFICIENT_PRIVILEGE, SQLInvalidAuthorizationSpecException.class),
        Map.entry(SqlStates.INVALID_AUTHORIZATION, SQLInvalidAuthorizationSpecException.class),
        Map.entry(SqlStates.UNIQUE_VIOLATION, SQLIntegrityConstraintViolationException.class),
        Map.entry(SqlStates.NUMERIC_OUT_OF_RANGE, SQLDataException.class),
        Map.entry(SqlStates.INVALID_CONVERSION, SQLDataException.class),
        Map.entry(SqlStates.SERIALIZATION_FAILURE, SQLTransactionRollbackException.class),
        Map.entry(SqlStates.TIMEOUT, SQLTimeoutException.class),
        Map.entry(SqlStates.FEATURE_NOT_SUPPORTED, SQLFeatureNotSupportedException.class),
        Map.entry(SqlStates.UNABLE_TO_CONNECT, SQLNonTransientConnectionException.class),
        Map.entry(SqlStates.CONNECTION_CLOSED, SQLNonTransientConnectionException.class),
        Map.entry(SqlStates.COMMUNICATION_FAILURE, SQLTransientConnectionException.class),
        Map.entry(SqlStates.TRANSACTION_RESOLUTION_UNKNOWN, SQLNonTransientConnectionException.class),
        Map.entry(SqlStates.SERVICE_BUSY, SQLTransientException.class),
        Map.entry(SqlStates.OBJECT_IN_USE, SQLTransientException.class),
        Map.entry(SqlStates.TRANSACTION_RULE, SQLNonTransientException.class),
        Map.entry(SqlStates.READ_ONLY, SQLNonTransientException.class),
        Map.entry(SqlStates.QUERY_CANCELED, SQLException.class),
        Map.entry(SqlStates.GENERAL_ERROR, SQLException.class));
    expected.forEach((state, type) -> {
      SQLException error = SqlExceptions.of("message", state);
      assertThat(error.getClass()).as(state).isEqualTo(type);
      assertThat(error.getSQLState()).isEqualTo(state);
    });
  }

  /** An outcome that may have been applied must never invite a blind retry; a user's cancel neither. */
  @Test
  void unknownOutcomeAndCancelAreNotTransient() {
    assertThat((Throwable) SqlExceptions.of("m", SqlStates.TRANSACTION_RESOLUTION_UNKNOWN)).isNotInstanceOf(SQLTransientException.class);
    assertThat((Throwable) SqlExceptions.of("m", SqlStates.QUERY_CANCELED))
        .isNotInstanceOf(SQLTransientException.class).isNotInstanceOf(SQLTimeoutException.class);
  }

  @Test
  void aPlainExceptionIsRewrappedAsItsClass() {
    SQLException plain = new SQLException("Duplicate key", SqlStates.UNIQUE_VIOLATION);
    SQLException matching = SqlExceptions.matching(plain);
    assertThat((Throwable) matching).isInstanceOf(SQLIntegrityConstraintViolationException.class).hasCause(plain)
        .hasMessage("Duplicate key");
    SQLException already = SqlExceptions.of("x", SqlStates.SYNTAX_ERROR);
    assertThat((Throwable) SqlExceptions.matching(already)).isSameAs(already);
    SQLException batch = new java.sql.BatchUpdateException("Duplicate key", SqlStates.UNIQUE_VIOLATION, new int[0]);
    assertThat((Throwable) SqlExceptions.matching(batch)).isSameAs(batch);
  }
}
