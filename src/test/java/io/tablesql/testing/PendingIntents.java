package io.tablesql.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;

/** Waiting for the recovery of intents that killed or faulty writers left behind. */
public final class PendingIntents {
  private PendingIntents() {
  }

  /**
   * Two connections (of {@code properties}) recover at once; returns when no intent naming a table
   * whose name contains {@code table} is left, and fails if one is still there after {@code seconds}.
   */
  public static void awaitRecovery(String table, int seconds, String... properties) throws Exception {
    try (Connection first = TestAccount.connect(properties); Connection second = TestAccount.connect(properties)) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
      while (pending(first, table) > 0 && System.nanoTime() < deadline) {
        Thread.sleep(250);
      }
      assertThat(pending(second, table)).as("intents left: %s", QueryRuns.run(second,
          "SELECT state, reason, entities, entity_groups FROM tablesql.pending_writes").rows()).isZero();
    }
  }

  private static int pending(Connection connection, String table) throws SQLException {
    try (Statement statement = connection.createStatement();
         ResultSet result = statement.executeQuery("SELECT COUNT(*) FROM tablesql.pending_writes WHERE tables LIKE '%"
             + table + "%'")) {
      result.next();
      return result.getInt(1);
    }
  }
}
