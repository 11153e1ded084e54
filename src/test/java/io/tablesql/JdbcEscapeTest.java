package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The JDBC escape syntax (JDBC 4.3, 13.4) means what the spec says, with or without pushdown. */
class JdbcEscapeTest {
  private static String table;
  private static Connection connection;
  private static Connection oracle;

  @BeforeAll
  static void setUp() throws SQLException {
    TableClient client = TestAccount.newTable("Escapes");
    TestAccount.insert(client, List.of(
        new TableEntity("p", "1").addProperty("Name", "a_b").addProperty("N", 1)
            .addProperty("Born", OffsetDateTime.parse("2024-01-01T10:00:00Z")),
        new TableEntity("p", "2").addProperty("Name", "axb").addProperty("N", 2)
            .addProperty("Born", OffsetDateTime.parse("2024-01-02T00:00:00Z")),
        new TableEntity("p", "3").addProperty("Name", "{oj x}").addProperty("N", 3),
        new TableEntity("q", "1").addProperty("Name", "other").addProperty("N", 2)));
    table = client.getTableName();
    connection = TestAccount.connect();
    oracle = TestAccount.connect("pushdown=false", "planCacheSize=0");
  }

  @AfterAll
  static void tearDown() throws SQLException {
    connection.close();
    oracle.close();
  }

  /** PostgreSQL's E'' strings compare and concatenate as the text they spell, pushed down or not. */
  @Test
  void escapedStringLiteralsAreTheirText() throws SQLException {
    assertThat(rows("SELECT RowKey FROM " + table + " WHERE Name = E'a\\x5fb' OR Name >= E'o'")).containsExactly("1", "3", "1");
    assertThat(rows("SELECT Name || E'\\t!' FROM " + table + " WHERE PartitionKey = E'q'")).containsExactly("other\t!");
  }

  /** The rows, the same from the oracle, from a Statement and from a PreparedStatement. */
  private static List<String> rows(String sql) throws SQLException {
    List<String> rows;
    try (Statement statement = connection.createStatement()) {
      rows = read(statement.executeQuery(sql));
    }
    try (PreparedStatement statement = connection.prepareStatement(sql, ResultSet.TYPE_FORWARD_ONLY,
        ResultSet.CONCUR_READ_ONLY)) {
      assertThat(read(statement.executeQuery())).as("prepared: " + sql).isEqualTo(rows);
    }
    try (Statement statement = oracle.createStatement()) {
      assertThat(read(statement.executeQuery(sql))).as("oracle: " + sql).isEqualTo(rows);
    }
    return rows;
  }

  private static List<String> read(ResultSet resultSet) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (resultSet) {
      int columns = resultSet.getMetaData().getColumnCount();
      while (resultSet.next()) {
        StringBuilder row = new StringBuilder();
        for (int i = 1; i <= columns; i++) {
          row.append(i > 1 ? "|" : "").append(resultSet.getString(i));
        }
        rows.add(row.toString());
      }
    }
    return rows;
  }

  private static String explain(String sql) throws SQLException {
    try (Statement statement = connection.createStatement();
         ResultSet resultSet = statement.executeQuery("EXPLAIN PLAN FOR " + sql)) {
      resultSet.next();
      return resultSet.getString(1);
    }
  }

  @Test
  void scalarFunctionEscapeCallsTheFunction() throws SQLException {
    assertThat(rows("SELECT {fn UCASE(Name)}, {fn LCASE('AbC')}, {fn LENGTH(Name)} FROM " + table
        + " WHERE PartitionKey = 'p' AND RowKey = '2'")).containsExactly("AXB|abc|3");
  }

  @Test
  void dateAndTimestampEscapesAreLiteralsPushedToTheService() throws SQLException {
    String sql = "SELECT RowKey FROM " + table + " WHERE PartitionKey = 'p' AND Born >= {d '2024-01-01'} "
        + "AND Born < {ts '2024-01-02 00:00:00'}";
    assertThat(explain(sql)).contains("Born ge datetime'2024-01-01T00:00:00Z'",
        "Born lt datetime'2024-01-02T00:00:00Z'");
    assertThat(rows(sql)).containsExactly("1");
    assertThat(rows("SELECT {t '12:30:00'}, {d '2024-02-29'}, {ts '2024-01-01 10:00:00.5'} FROM " + table
        + " WHERE PartitionKey = 'q'")).containsExactly("12:30:00|2024-02-29|2024-01-01 10:00:00.5");
  }

  @Test
  void outerJoinEscapeIsTheJoin() throws SQLException {
    String sql = "SELECT a.RowKey, b.Name FROM {oj " + table + " a LEFT OUTER JOIN " + table
        + " b ON b.PartitionKey = 'q' AND a.N = b.N} WHERE a.PartitionKey = 'p' ORDER BY a.RowKey";
    assertThat(rows(sql)).containsExactly("1|null", "2|other", "3|null");
  }

  @Test
  void likeEscapeCharacterEscapeMakesWildcardsLiteral() throws SQLException {
    assertThat(rows("SELECT RowKey FROM " + table + " WHERE PartitionKey = 'p' AND Name LIKE 'a\\_b' {escape '\\'}"))
        .containsExactly("1");
    assertThat(rows("SELECT RowKey FROM " + table + " WHERE PartitionKey = 'p' AND Name LIKE 'a_b' ORDER BY RowKey"))
        .containsExactly("1", "2");
  }

  @Test
  void limitEscapeLimitsAndOffsets() throws SQLException {
    String sql = "SELECT RowKey FROM " + table + " WHERE PartitionKey = 'p' ORDER BY RowKey {limit 1 offset 1}";
    assertThat(explain(sql)).contains("limit=[2]");
    assertThat(rows(sql)).containsExactly("2");
  }

  @Test
  void bracesInLiteralsIdentifiersAndCommentsAreText() throws SQLException {
    assertThat(rows("SELECT RowKey AS \"{oj}\" FROM " + table + " /* {escape */ WHERE Name = '{oj x}' -- {limit\n"))
        .containsExactly("3");
    String sql = "SELECT * FROM {oj a LEFT JOIN b ON x = '{oj }'} WHERE y LIKE 'z!%' {escape '!'}";
    assertThat(connection.nativeSQL(sql)).isEqualTo("SELECT * FROM   a LEFT JOIN b ON x = '{oj }'  WHERE y LIKE 'z!%'  "
        + "escape '!' ");
  }
}
