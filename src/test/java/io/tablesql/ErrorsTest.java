package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Bad SQL gets a SQLState and a message naming the problem, and the connection stays usable. */
class ErrorsTest {
  private static Connection connection;
  private static String table;

  @BeforeAll
  static void setUp() throws SQLException {
    table = TestAccount.newTable("Errors").getTableName();
    connection = TestAccount.connect();
  }

  @AfterAll
  static void tearDown() throws SQLException {
    connection.close();
  }

  private static void assertFails(String sql, String sqlState, String... messageParts) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      assertThatThrownBy(() -> statement.executeQuery(sql))
          .isInstanceOf(SQLException.class)
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo(sqlState))
          .hasMessageContainingAll(messageParts)
          .hasMessageNotContaining("Error while executing SQL");
    }
    try (Statement statement = connection.createStatement(); ResultSet resultSet =
        statement.executeQuery("SELECT COUNT(*) FROM " + table)) {
      assertThat(resultSet.next()).isTrue(); // still usable
    }
  }

  @Test
  void syntaxError() throws SQLException {
    assertFails("SELEC * FROM " + table, "42000", "syntax", "line 1, column 1");
    assertFails("SELECT * FROM " + table + " WHERE", "42000", "syntax", "line 1");
  }

  @Test
  void unknownTable() throws SQLException {
    assertFails("SELECT * FROM NoSuchTable", "42S02", "NoSuchTable");
  }

  @Test
  void unknownColumn() throws SQLException {
    assertFails("SELECT NoSuchColumn FROM " + table, "42S22", "NoSuchColumn");
  }

  @Test
  void typeError() throws SQLException {
    assertFails("SELECT * FROM " + table + " WHERE \"Timestamp\" = TRUE", "42804", "Cannot apply", "line 1");
  }

  @Test
  void unsupportedStatementIsRefused() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      assertThatThrownBy(() -> statement.executeUpdate("MERGE INTO " + table + " t USING (VALUES ('a', 'b')) "
          + "AS s(p, r) ON t.PartitionKey = s.p WHEN NOT MATCHED THEN INSERT (PartitionKey, RowKey) VALUES (s.p, s.r)"))
          .isInstanceOf(SQLException.class)
          .hasMessageContaining("MERGE")
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("0A000"));
    }
  }
}
