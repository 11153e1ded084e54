package io.tablesql.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablesql.TableSqlStatement;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** Runs queries for tests: their rows as text, the requests and entities they cost, their plans, the oracle's answer. */
public final class QueryRuns {
  /** A query's rows (columns joined by '|', NULL as "null") and what it cost at the service. */
  public record Run(List<String> rows, long requests, long entities) {
  }

  private QueryRuns() {
  }

  public static Run run(Connection on, String sql) throws SQLException {
    try (Statement statement = on.createStatement()) {
      List<String> rows;
      try (ResultSet resultSet = statement.executeQuery(sql)) {
        rows = rows(resultSet);
      }
      TableSqlStatement cost = statement.unwrap(TableSqlStatement.class);
      return new Run(rows, cost.requestCount(), cost.entityCount());
    }
  }

  /** The rows of a result set, each its columns as text joined by '|' (NULL as "null"). */
  public static List<String> rows(ResultSet resultSet) throws SQLException {
    List<String> rows = new ArrayList<>();
    int columns = resultSet.getMetaData().getColumnCount();
    while (resultSet.next()) {
      StringBuilder row = new StringBuilder();
      for (int i = 1; i <= columns; i++) {
        row.append(i == 1 ? "" : "|").append(resultSet.getString(i));
      }
      rows.add(row.toString());
    }
    return rows;
  }

  public static String explain(Connection on, String sql) throws SQLException {
    try (Statement statement = on.createStatement();
         ResultSet resultSet = statement.executeQuery("EXPLAIN PLAN FOR " + sql)) {
      resultSet.next();
      return resultSet.getString(1);
    }
  }

  /**
   * Runs a query with pushdown and on the oracle (a connection with {@code pushdown=false}),
   * checks both give the same rows (in the same order under ORDER BY), and returns the pushed-down run.
   */
  public static Run agreed(Connection pushed, Connection oracle, String sql) throws SQLException {
    Run run = run(pushed, sql);
    Run plain = run(oracle, sql);
    if (sql.contains("ORDER BY")) {
      assertThat(run.rows()).as(sql).containsExactlyElementsOf(plain.rows());
    } else {
      assertThat(run.rows()).as(sql).containsExactlyInAnyOrderElementsOf(plain.rows());
    }
    return run;
  }

  /** Runs {@code ALTER INDEX index VERIFY}; its summary, the last warning it gave. */
  public static String verify(Connection on, String index) throws SQLException {
    try (Statement statement = on.createStatement()) {
      statement.execute("ALTER INDEX " + index + " VERIFY");
      String summary = null;
      for (java.sql.SQLWarning w = statement.getWarnings(); w != null; w = w.getNextWarning()) {
        summary = w.getMessage();
      }
      return summary;
    }
  }
}
