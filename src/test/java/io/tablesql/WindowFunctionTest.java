package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablesql.testing.QueryRuns;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Window functions with an ORDER BY of the query's own, over a table read in key order: a Window
 * emits its rows in its own order, so the query's ORDER BY must stay (Calcite 1.41 dropped it
 * where the key order seemed to satisfy it: PlanningProgram.windowsFirst, WindowOrder).
 * Checked against rows written out by hand, since the pushdown=false oracle plans the same way.
 */
class WindowFunctionTest {
  private static String table;
  private static Connection pushed;
  private static Connection oracle;

  @BeforeAll
  static void setUp() throws SQLException {
    table = "Win" + System.nanoTime() % 1_000_000;
    pushed = TestAccount.connect();
    oracle = TestAccount.connect("pushdown=false");
    try (Statement statement = pushed.createStatement()) {
      statement.execute("CREATE TABLE " + table + " (Id INT PRIMARY KEY, G VARCHAR, V INT)");
      statement.execute("INSERT INTO " + table + " VALUES (1, 'x', 10), (2, 'y', 20), (3, NULL, 30), (4, 'x', NULL)");
    }
  }

  @AfterAll
  static void tearDown() throws SQLException {
    try (Statement statement = pushed.createStatement()) {
      statement.execute("DROP TABLE " + table);
    }
    pushed.close();
    oracle.close();
  }

  private static void assertRows(String sql, String... rows) throws SQLException {
    for (Connection on : List.of(pushed, oracle)) {
      assertThat(QueryRuns.run(on, sql.replace("<t>", table)).rows()).as(sql).containsExactly(rows);
    }
  }

  @Test
  void theQuerysOrderByIsKeptOverAWindowOfAnotherOrder() throws SQLException {
    assertRows("SELECT Id, RANK() OVER (ORDER BY V DESC) FROM <t> ORDER BY Id", "1|4", "2|3", "3|2", "4|1");
    assertRows("SELECT Id, RANK() OVER (ORDER BY V DESC) FROM <t> ORDER BY Id LIMIT 2", "1|4", "2|3");
    assertRows("SELECT Id, V, SUM(V) OVER (PARTITION BY G ORDER BY Id), LAG(V) OVER (ORDER BY Id) FROM <t> ORDER BY Id",
        "1|10|10|null", "2|20|20|10", "3|30|30|20", "4|null|10|30");
    assertRows("SELECT Id, ROW_NUMBER() OVER (PARTITION BY G ORDER BY V DESC NULLS LAST) FROM <t> ORDER BY Id DESC",
        "4|2", "3|1", "2|1", "1|1");
  }

  @Test
  void aWindowOverTheWholeTableAndNoOrderBy() throws SQLException {
    assertRows("SELECT G, COUNT(*) OVER () FROM <t> ORDER BY Id", "x|4", "y|4", "null|4", "x|4");
    assertRows("SELECT COUNT(*) FROM (SELECT Id, RANK() OVER (ORDER BY V) AS R FROM <t>) AS w WHERE R <= 2", "2");
  }
}
