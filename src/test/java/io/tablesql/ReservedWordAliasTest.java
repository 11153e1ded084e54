package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.shell.LocalEmulator;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** SQL that tools generate, with reserved words as unquoted aliases, runs. */
class ReservedWordAliasTest {
  private static String table;
  private static Connection connection;

  @BeforeAll
  static void setUp() throws SQLException {
    TableClient client = TestAccount.newTable("Aliases");
    TestAccount.insert(client, List.of(new TableEntity("p", "1").addProperty("N", 1),
        new TableEntity("p", "2").addProperty("N", 2)));
    table = client.getTableName();
    connection = TestAccount.connect();
  }

  @AfterAll
  static void tearDown() throws SQLException {
    connection.close();
  }

  private static String first(ResultSet resultSet) throws SQLException {
    try (resultSet) {
      assertThat(resultSet.next()).isTrue();
      return resultSet.getMetaData().getColumnLabel(1) + "=" + resultSet.getString(1);
    }
  }

  @Test
  void schemaCrawlersRowCountRuns() throws SQLException {
    String sql = "SELECT COUNT(*) AS COUNT FROM \"" + LocalEmulator.ACCOUNT + "\".\"" + table + "\"";
    try (Statement statement = connection.createStatement()) {
      assertThat(first(statement.executeQuery(sql))).isEqualTo("COUNT=2");
    }
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      assertThat(first(statement.executeQuery())).isEqualTo("COUNT=2");
    }
  }

  @Test
  void otherReservedWordsRunAsAliasesToo() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      assertThat(first(statement.executeQuery("SELECT MAX(N) AS max, MIN(N) AS MIN FROM " + table)))
          .isEqualTo("max=2");
      assertThat(first(statement.executeQuery("SELECT \"VALUE\".N AS VALUE FROM " + table + " AS \"VALUE\" "
          + "WHERE RowKey = '1'"))).isEqualTo("VALUE=1");
      assertThat(first(statement.executeQuery("SELECT CAST(N AS VARCHAR) AS YEAR FROM " + table
          + " WHERE RowKey = '2'"))).isEqualTo("YEAR=2");
    }
    try (PreparedStatement statement = connection.prepareStatement(
        "SELECT N AS RANK FROM " + table + " WHERE PartitionKey = ? AND RowKey = ?")) {
      statement.setString(1, "p");
      statement.setString(2, "2");
      assertThat(first(statement.executeQuery())).isEqualTo("RANK=2");
    }
  }

  @Test
  void quotedReservedWordsAreAliasesToo() throws SQLException {
    String sql = "SELECT COUNT(*) AS \"COUNT\", MAX(N) AS \"MAX\", MIN(\"N\") AS \"ORDER\" FROM \"" + table + "\"";
    try (Statement statement = connection.createStatement()) {
      assertThat(first(statement.executeQuery(sql))).isEqualTo("COUNT=2");
      assertThat(first(statement.executeQuery("SELECT \"SELECT\" FROM (SELECT RowKey AS \"SELECT\" FROM " + table
          + " WHERE PartitionKey = 'p') AS \"TABLE\" ORDER BY \"SELECT\" DESC LIMIT 1"))).isEqualTo("SELECT=2");
    }
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      assertThat(first(statement.executeQuery())).isEqualTo("COUNT=2");
    }
  }

  /** As in PostgreSQL, any word labels a column after AS (Metabase's privileges query: AS select, AS delete). */
  @Test
  void reservedWordsLabelColumnsAfterAsUnquoted() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      assertThat(first(statement.executeQuery("SELECT N AS select, N AS default FROM " + table
          + " WHERE RowKey = '2'"))).isEqualTo("select=2");
      // USER is the connection's user (the account) where an expression goes, a label after AS
      assertThat(first(statement.executeQuery("SELECT user, N AS user FROM " + table + " WHERE RowKey = '2'")))
          .endsWith("=" + LocalEmulator.ACCOUNT);
      assertThat(first(statement.executeQuery("SELECT N AS user FROM " + table + " WHERE RowKey = '2'")))
          .isEqualToIgnoringCase("user=2"); // Calcite unparses the label as its keyword
      assertThat(first(statement.executeQuery("WITH t AS (SELECT N AS delete, RowKey AS table FROM " + table
          + ") SELECT t.* FROM t ORDER BY 1 DESC"))).isEqualTo("delete=2");
    }
  }

  /** A user's column named as pg_index's int2vector columns (indkey) casts to text as any column does. */
  @Test
  void aColumnNamedAsACatalogVectorCastsToTextAsWritten() throws SQLException {
    String vectors = TestAccount.newTable("Vectors", new TableEntity("p", "1").addProperty("indkey", 7)
        .addProperty("indoption", "a b")).getTableName();
    try (Statement statement = connection.createStatement()) {
      assertThat(first(statement.executeQuery("SELECT CAST(indkey AS VARCHAR) AS k, CAST(indoption AS VARCHAR) FROM "
          + vectors))).isEqualTo("k=7");
    }
  }

  @Test
  void aRealSyntaxErrorIsStillReportedWhereItIs() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      assertThatThrownBy(() -> statement.executeQuery("SELECT N AS COUNT FORM " + table))
          .isInstanceOf(SQLException.class).hasMessageContaining("line 1")
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42000"));
    }
  }
}
