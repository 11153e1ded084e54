package io.tablesql.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.prepare.StatementText;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/**
 * A statement's text is parsed once per prepare, or once per execution of a Statement: Calcite
 * plans the driver's tree. Counted in the JVM, where nothing else parses while a test runs.
 */
class ParseOnceTest {
  /** The planner's warm-up (once per JVM, on a thread of its own) parses too: counted before, not during. */
  private static void awaitWarmup() {
    try {
      io.tablesql.prepare.PlannerWarmup.awaitFinished();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  private static int parses() {
    return (int) StatementText.parses();
  }

  private interface Work {
    void run() throws SQLException;
  }

  private static int parsesOf(Work work) throws SQLException {
    awaitWarmup();
    int before = parses();
    work.run();
    return parses() - before;
  }

  @Test
  void writesAndDdlAreParsedOnce() throws SQLException {
    TableClient table = TestAccount.newTable("ParseOnce");
    String name = table.getTableName();
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      assertThat(parsesOf(() -> statement.executeUpdate("INSERT INTO " + name
          + " (PartitionKey, RowKey, N) VALUES ('p', 'r0', 0)"))).isEqualTo(1);
      assertThat(parsesOf(() -> statement.execute("UPDATE " + name + " SET N = 1 WHERE PartitionKey = 'p'")))
          .isEqualTo(1);
      assertThat(parsesOf(() -> {
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + name
            + " (PartitionKey, RowKey, N) VALUES (?, ?, ?)")) {
          for (int i = 1; i <= 3; i++) {
            insert.setString(1, "p");
            insert.setString(2, "r" + i);
            insert.setInt(3, i);
            insert.addBatch();
          }
          insert.executeBatch();
          insert.setString(1, "p");
          insert.setString(2, "r4");
          insert.setInt(3, 4);
          insert.executeUpdate();
        }
      })).isEqualTo(1);
      assertThat(parsesOf(() -> {
        statement.addBatch("DELETE FROM " + name + " WHERE PartitionKey = 'p' AND RowKey = 'r4'");
        statement.addBatch("INSERT INTO " + name + " (PartitionKey, RowKey, N) VALUES ('p', 'r5', 5)");
        statement.executeBatch();
      })).isEqualTo(2);
      String declared = "ParseOnceDeclared" + name;
      assertThat(parsesOf(() -> statement.execute("CREATE TABLE " + declared + " (id INT PRIMARY KEY, v VARCHAR(10))")))
          .isEqualTo(1);
      assertThat(parsesOf(() -> {
        try (PreparedStatement drop = connection.prepareStatement("DROP TABLE " + declared)) {
          drop.execute();
        }
      })).isEqualTo(2); // and the VALUES 0 that answers a prepared DDL statement's metadata
      try (ResultSet count = statement.executeQuery("SELECT COUNT(*) FROM " + name)) {
        assertThat(count.next()).isTrue();
        assertThat(count.getInt(1)).isEqualTo(5);
      }
    }
  }

  @Test
  void queriesOfAShapeSeenBeforeAreNotParsed() throws SQLException {
    TableClient table = TestAccount.newTable("ParseShape");
    table.createEntity(new TableEntity("p", "r1").addProperty("N", 1));
    table.createEntity(new TableEntity("p", "r2").addProperty("N", 2));
    String name = table.getTableName();
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      // the first of a shape: its text, then the parameterized text the plan cache plans
      assertThat(parsesOf(() -> readN(statement, "SELECT N FROM " + name + " WHERE RowKey = 'r1'", 1))).isEqualTo(2);
      assertThat(parsesOf(() -> readN(statement, "SELECT N FROM " + name + " WHERE RowKey = 'r2'", 2))).isZero();
      assertThat(parsesOf(() -> { // as BI tools send it: prepared each time with its literals
        try (PreparedStatement query = connection.prepareStatement("SELECT N FROM " + name + " WHERE RowKey = 'r1'");
            ResultSet rows = query.executeQuery()) {
          assertThat(rows.next()).isTrue();
          assertThat(rows.getInt(1)).isEqualTo(1);
        }
      })).isZero();
      String union = "SELECT N FROM " + name + " WHERE RowKey = 'r1' UNION ALL SELECT N FROM " + name
          + " WHERE RowKey = 'r9'";
      assertThat(parsesOf(() -> readN(statement, union, 1))).isEqualTo(1); // not lifted: planned as written
      assertThat(parsesOf(() -> {
        try (PreparedStatement query = connection.prepareStatement("SELECT N FROM " + name + " WHERE RowKey = ?")) {
          query.setString(1, "r2");
          try (ResultSet rows = query.executeQuery()) {
            assertThat(rows.next()).isTrue();
          }
        }
      })).isEqualTo(1);
    }
  }

  @Test
  void aSyntaxErrorIsFoundByTheOneParseAndPlacedInTheUsersText() throws SQLException {
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      awaitWarmup();
      int before = parses();
      assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO t (a)\n VALUES (1,)"))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("line 2, column 12")
          .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("42000");
      assertThat(parses() - before).isEqualTo(1);
      assertThatThrownBy(() -> connection.prepareStatement("CREATE TABLE t (a INT PRIMARY KEY ((a))"))
          .isInstanceOf(SQLException.class)
          .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("42000");
    }
  }

  private static void readN(Statement statement, String sql, int expected) throws SQLException {
    try (ResultSet rows = statement.executeQuery(sql)) {
      assertThat(rows.next()).isTrue();
      assertThat(rows.getInt(1)).isEqualTo(expected);
    }
  }
}
