package io.tablesql.testing;

import io.tablesql.testing.QueryRuns.Run;
import java.sql.Connection;
import java.sql.SQLException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * A {@link ConnectedTest} with an oracle besides: a connection with {@code pushdown=false},
 * whose answer every pushed-down query must give too.
 */
public abstract class OracleComparedTest extends ConnectedTest {
  protected static Connection oracle;

  @BeforeAll
  static void connectOracle() throws SQLException {
    oracle = TestAccount.connect("pushdown=false", "materializedViews=false", "directExecution=false"); // the tables themselves, read in the client
  }

  @AfterAll
  static void disconnectOracle() throws SQLException {
    oracle.close();
  }

  protected static String explain(String sql) throws SQLException {
    return QueryRuns.explain(connection, sql);
  }

  /** The query's run on the connection, after checking that the oracle gives the same rows. */
  protected static Run agreed(String sql) throws SQLException {
    return QueryRuns.agreed(connection, oracle, sql);
  }

  /** The one value of a query that answers one row of one column, as text. */
  protected static String single(String sql) throws SQLException {
    try (java.sql.Statement statement = connection.createStatement();
        java.sql.ResultSet rows = statement.executeQuery(sql)) {
      org.assertj.core.api.Assertions.assertThat(rows.next()).as(sql).isTrue();
      String value = rows.getString(1);
      org.assertj.core.api.Assertions.assertThat(rows.next()).as(sql).isFalse();
      return value;
    }
  }
}
