package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablesql.testing.OracleComparedTest;
import io.tablesql.testing.QueryRuns;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Transactions that read their own writes, generated: two copies of one table (indexes of every
 * kind and a summary view each), one written and read through the driver as planned, the other
 * through the pushdown-free oracle, each in its own transaction with the same statements. After
 * every write, generated queries must answer alike on both, and so must every statement's
 * outcome and each commit's. A summary view once answered such a query without the
 * transaction's own writes.
 */
class TransactionOracleTest extends OracleComparedTest {
  private final Random random = new Random(5);

  private String pick(String... choices) {
    return choices[random.nextInt(choices.length)];
  }

  private String condition() {
    return switch (random.nextInt(7)) {
      case 0 -> "Region = " + pick("'a'", "'b'", "'c'");
      case 1 -> "Id " + pick("<", ">", "=") + " " + random.nextInt(30);
      case 2 -> "Name = " + pick("'n1'", "'n2'", "'n0'");
      case 3 -> "Sal > " + random.nextInt(100);
      case 4 -> "Email = 'e" + random.nextInt(30) + "'";
      case 5 -> "Region = 'b' AND Id > " + random.nextInt(30);
      default -> "Grp = " + pick("'g0'", "'g1'");
    };
  }

  private String row(int id) {
    return "('" + pick("a", "b", "c") + "', " + id + ", " + pick("NULL", "'n0'", "'n1'", "'n2'") + ", "
        + pick("NULL", String.valueOf(random.nextInt(100))) + ", " + pick("NULL", "'e" + id + "'") + ", "
        + pick("NULL", "'g0'", "'g1'") + ")";
  }

  /** The statement's SQLState, or null if it ran. */
  private static String outcome(Statement statement, String sql) {
    try {
      statement.execute(sql);
      return null;
    } catch (SQLException e) {
      return e.getSQLState();
    }
  }

  private static List<String> sorted(Connection on, String sql) throws SQLException {
    List<String> rows = new ArrayList<>(QueryRuns.run(on, sql).rows());
    rows.sort(null);
    return rows;
  }

  @Test
  void readsInsideTransactionsAgreeWithTheTables() throws SQLException {
    try (Statement driver = connection.createStatement(); Statement reference = oracle.createStatement()) {
      for (String table : List.of("ToA", "ToB")) {
        driver.execute("CREATE TABLE " + table + " (Region VARCHAR(5), Id INT, Name VARCHAR(5), Sal INT, "
            + "Email VARCHAR(10), Grp VARCHAR(5), PRIMARY KEY ((Region), Id))");
        driver.execute("CREATE INDEX " + table + "ByName ON " + table + " (Name) LOCAL");
        driver.execute("CREATE INDEX " + table + "BySal ON " + table + " (Sal) INCLUDE (Name)");
        driver.execute("CREATE UNIQUE INDEX " + table + "ByEmail ON " + table + " (Email)");
        driver.execute("CREATE MATERIALIZED VIEW " + table + "Totals AS SELECT Grp, COUNT(*) AS N, SUM(Sal) AS S FROM "
            + table + " GROUP BY Grp");
      }
      StringBuilder rows = new StringBuilder();
      for (int id = 0; id < 20; id++) {
        rows.append(id == 0 ? "" : ", ").append(row(id));
      }
      driver.execute("INSERT INTO ToA VALUES " + rows);
      driver.execute("INSERT INTO ToB VALUES " + rows);
      int nextId = 100;
      for (int round = 0; round < 6; round++) {
        connection.setAutoCommit(false);
        oracle.setAutoCommit(false);
        try {
          for (int step = 0; step < 5; step++) {
            String write = switch (random.nextInt(5)) {
              case 0 -> "INSERT INTO X VALUES " + row(nextId++);
              case 1 -> "UPDATE X SET Sal = " + random.nextInt(100) + ", Name = " + pick("NULL", "'n1'") + " WHERE "
                  + condition();
              case 2 -> "DELETE FROM X WHERE " + condition();
              case 3 -> "UPDATE X SET Region = '" + pick("a", "b", "c") + "' WHERE Id = " + random.nextInt(30);
              default -> "UPSERT INTO X VALUES " + row(random.nextInt(30));
            };
            assertThat(outcome(driver, write.replace(" X ", " ToA "))).as(write)
                .isEqualTo(outcome(reference, write.replace(" X ", " ToB ")));
            for (String query : List.of("SELECT COUNT(*), SUM(Sal) FROM X", "SELECT Grp, COUNT(*), SUM(Sal) FROM X GROUP BY Grp",
                "SELECT * FROM X WHERE " + condition(), "SELECT Id, Name FROM X WHERE " + condition())) {
              assertThat(sorted(connection, query.replace(" X", " ToA"))).as("after %s: %s", write, query)
                  .isEqualTo(sorted(oracle, query.replace(" X", " ToB")));
            }
          }
          if (random.nextBoolean()) {
            String committed = null;
            try {
              connection.commit();
            } catch (SQLException e) {
              committed = e.getSQLState();
            }
            String referenceCommitted = null;
            try {
              oracle.commit();
            } catch (SQLException e) {
              referenceCommitted = e.getSQLState();
            }
            assertThat(committed).isEqualTo(referenceCommitted);
          } else {
            connection.rollback();
            oracle.rollback();
          }
        } finally {
          if (!connection.getAutoCommit()) {
            connection.rollback();
          }
          if (!oracle.getAutoCommit()) {
            oracle.rollback();
          }
          connection.setAutoCommit(true);
          oracle.setAutoCommit(true);
        }
        for (String query : List.of("SELECT * FROM X", "SELECT Grp, N, S FROM XTotals",
            "SELECT Id FROM X WHERE Name = 'n1'", "SELECT Id FROM X WHERE Sal > 50")) {
          assertThat(sorted(connection, query.replace(" X", " ToA"))).as("after round %s: %s", round, query)
              .isEqualTo(sorted(connection, query.replace(" X", " ToB")));
        }
      }
      driver.execute("DROP TABLE ToA CASCADE");
      driver.execute("DROP TABLE ToB CASCADE");
    }
  }
}
