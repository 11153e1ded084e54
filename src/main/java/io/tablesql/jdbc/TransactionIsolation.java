package io.tablesql.jdbc;

import io.tablesql.errors.SqlExceptions;
import io.tablesql.errors.SqlStates;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * The one isolation level tablesql gives: READ COMMITTED. Within a transaction, reads see the
 * transaction's own pending writes over the service's latest committed data, and nothing else's
 * uncommitted writes (they stay in their own connection until commit); but nothing read is held,
 * so a second read may see another writer's newer commit. UPDATE and DELETE are conditional on the
 * ETags they read, which prevents lost updates, not non-repeatable reads or phantoms.
 */
final class TransactionIsolation {
  static final int LEVEL = Connection.TRANSACTION_READ_COMMITTED;

  private TransactionIsolation() {
  }

  static boolean supports(int level) {
    return level == LEVEL;
  }

  /**
   * Checks a requested level: READ UNCOMMITTED is given READ COMMITTED (JDBC lets a driver give a
   * stricter level), stricter levels are refused since no stricter level exists here.
   */
  static void check(int level) throws SQLException {
    switch (level) {
      case Connection.TRANSACTION_READ_UNCOMMITTED:
      case Connection.TRANSACTION_READ_COMMITTED:
        return;
      case Connection.TRANSACTION_REPEATABLE_READ:
      case Connection.TRANSACTION_SERIALIZABLE:
        throw SqlExceptions.of("Only TRANSACTION_READ_COMMITTED is available: reads see the "
            + "latest committed data and hold nothing, so a repeated read may see another writer's commit "
            + "(UPDATE and DELETE are conditional on the ETags they read). Use TRANSACTION_READ_COMMITTED.",
            SqlStates.FEATURE_NOT_SUPPORTED);
      case Connection.TRANSACTION_NONE:
        throw SqlExceptions.of("TRANSACTION_NONE cannot be set: tablesql has transactions "
            + "(setAutoCommit(false)). Use TRANSACTION_READ_COMMITTED.", SqlStates.INVALID_ATTRIBUTE_VALUE);
      default:
        throw SqlExceptions.of(level + " is not a transaction isolation level: use one of the "
            + "Connection.TRANSACTION_* constants, here TRANSACTION_READ_COMMITTED.",
            SqlStates.INVALID_ATTRIBUTE_VALUE);
    }
  }
}
