package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.testing.QueryRuns;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Keyset paging: a row-value comparison over a table's key ({@code (PartitionKey, RowKey) > (?, ?)},
 * {@code (a, b, c) > (?, ?, ?)} over a declared key) reads the key range after the given key, range
 * by range in key order, and agrees with the oracle ({@code pushdown=false}).
 */
class KeysetPagingTest {
  private static String raw;
  private static Connection connection;
  private static Connection oracle;

  @BeforeAll
  static void load() throws SQLException {
    TableClient table = TestAccount.newTable("Keyset");
    List<TableEntity> entities = new ArrayList<>();
    for (int p = 0; p < 5; p++) {
      for (int r = 0; r < 20; r++) {
        entities.add(new TableEntity("p" + p, String.format("r%02d", r)).addProperty("N", p * 100 + r));
      }
    }
    TestAccount.insert(table, entities);
    raw = table.getTableName();
    connection = TestAccount.connect();
    oracle = TestAccount.connect("pushdown=false");
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE KsAsc (a VARCHAR(5), b INT, c INT, v INT, PRIMARY KEY ((a), b, c))");
      statement.execute("CREATE TABLE KsDesc (a VARCHAR(5), b INT, c INT, v INT, PRIMARY KEY ((a), b DESC, c))");
      statement.execute("CREATE TABLE KsWide (a VARCHAR(5), b INT, c INT, v INT, PRIMARY KEY ((a, b), c))");
      for (String name : List.of("KsAsc", "KsDesc", "KsWide")) {
        StringBuilder values = new StringBuilder();
        int v = 0;
        for (String a : List.of("x", "y", "z")) {
          for (int b = 1; b <= 4; b++) {
            for (int c = 1; c <= 3; c++) {
              values.append(v == 0 ? "" : ", ").append("('").append(a).append("', ").append(b).append(", ")
                  .append(c).append(", ").append(v++).append(")");
            }
          }
        }
        statement.executeUpdate("INSERT INTO " + name + " VALUES " + values);
      }
    }
  }

  @AfterAll
  static void close() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("DROP TABLE KsAsc");
      statement.execute("DROP TABLE KsDesc");
      statement.execute("DROP TABLE KsWide");
    }
    connection.close();
    oracle.close();
  }

  @Test
  void explainShowsTheRangesAfterTheKey() throws SQLException {
    String plan = QueryRuns.explain(connection,
        "SELECT N FROM " + raw + " WHERE (PartitionKey, RowKey) > ('p2', 'r07')");
    assertThat(plan).contains("access=[RANGE SCAN]",
        "(PartitionKey eq 'p2' and RowKey gt 'r07') then (PartitionKey gt 'p2')");
    String declared = QueryRuns.explain(connection, "SELECT v FROM KsAsc WHERE (a, b, c) > ('y', 2, 2)");
    assertThat(declared).contains("access=[RANGE SCAN]", " then ");
  }

  @Test
  void pagesThroughARawTableByItsKeys() throws SQLException {
    List<String> all = QueryRuns.run(connection, "SELECT PartitionKey, RowKey FROM " + raw).rows();
    assertThat(all).hasSize(100);
    List<String> paged = new ArrayList<>();
    String sql = "SELECT PartitionKey, RowKey FROM " + raw + " WHERE (PartitionKey, RowKey) > (?, ?) LIMIT 7";
    try (PreparedStatement page = connection.prepareStatement(sql)) {
      String partition = "";
      String row = "";
      while (true) {
        page.setString(1, partition);
        page.setString(2, row);
        int read = 0;
        try (ResultSet rows = page.executeQuery()) {
          while (rows.next()) {
            partition = rows.getString(1);
            row = rows.getString(2);
            paged.add(partition + "|" + row);
            read++;
          }
        }
        TableSqlStatement cost = page.unwrap(TableSqlStatement.class);
        // the rest of the partition, then the partitions after it: never the keys before the page
        assertThat(cost.entityCount()).as("entities read for a page after %s|%s", partition, row).isLessThanOrEqualTo(7);
        assertThat(cost.requestCount()).isLessThanOrEqualTo(2);
        if (read < 7) {
          break;
        }
      }
    }
    assertThat(paged).containsExactlyElementsOf(all);
  }

  @Test
  void pagesThroughADeclaredKeyWithoutRereadingIt() throws SQLException {
    List<String> all = QueryRuns.run(connection, "SELECT a, b, c FROM KsAsc").rows();
    assertThat(all).hasSize(36);
    List<String> paged = new ArrayList<>();
    String sql = "SELECT a, b, c FROM KsAsc WHERE (a, b, c) > (?, ?, ?) ORDER BY a, b, c LIMIT 5";
    assertThat(QueryRuns.explain(connection, sql.replace("?", "'x'"))).doesNotContain("client=");
    try (PreparedStatement page = connection.prepareStatement(sql)) {
      Object[] last = {"", Integer.MIN_VALUE, Integer.MIN_VALUE};
      int read;
      do {
        read = 0;
        for (int i = 0; i < 3; i++) {
          page.setObject(i + 1, last[i]);
        }
        try (ResultSet rows = page.executeQuery()) {
          while (rows.next()) {
            last = new Object[] {rows.getString(1), rows.getInt(2), rows.getInt(3)};
            paged.add(last[0] + "|" + last[1] + "|" + last[2]);
            read++;
          }
        }
        assertThat(page.unwrap(TableSqlStatement.class).entityCount()).isLessThanOrEqualTo(5);
      } while (read == 5);
    }
    assertThat(paged).containsExactlyElementsOf(all);
  }

  @Test
  void everyComparisonAgreesWithTheOracleOnRawKeys() throws SQLException {
    List<String[]> keys = List.of(new String[] {"p2", "r07"}, new String[] {"p0", "r00"}, new String[] {"p4", "r19"},
        new String[] {"p2", "zz"}, new String[] {"p2", ""}, new String[] {"a", "r05"}, new String[] {"q", "r05"});
    for (String op : List.of(">", ">=", "<", "<=")) {
      for (String[] key : keys) {
        QueryRuns.agreed(connection, oracle, "SELECT PartitionKey, RowKey, N FROM " + raw
            + " WHERE (PartitionKey, RowKey) " + op + " ('" + key[0] + "', '" + key[1] + "') ORDER BY PartitionKey, RowKey");
        QueryRuns.agreed(connection, oracle, "SELECT N FROM " + raw
            + " WHERE ('" + key[0] + "', '" + key[1] + "') " + op + " (PartitionKey, RowKey) AND N > 150");
      }
    }
  }

  @Test
  void everyComparisonAgreesWithTheOracleOnDeclaredKeys() throws SQLException {
    List<String> rows = List.of("('y', 2, 2)", "('x', 1, 1)", "('z', 4, 3)", "('y', 9, 9)", "('y', 0, 0)", "('w', 2, 2)",
        "('zz', 2, 2)", "('y', 2, 5)");
    for (String table : List.of("KsAsc", "KsDesc", "KsWide")) {
      for (String op : List.of(">", ">=", "<", "<=")) {
        for (String row : rows) {
          QueryRuns.agreed(connection, oracle, "SELECT a, b, c, v FROM " + table + " WHERE (a, b, c) " + op + " " + row);
          String pair = row.substring(0, row.lastIndexOf(',')) + ")";
          QueryRuns.agreed(connection, oracle, "SELECT a, b, c, v FROM " + table + " WHERE (a, b) " + op + " " + pair);
        }
      }
    }
  }

  @Test
  void aTableMappedOverKeysAgreesWithTheOracle() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE KsMapped (p VARCHAR(5) NOT NULL, r INT NOT NULL, N INT) OVER " + raw
          + " PARTITION KEY '{p:2}' ROW KEY 'r{r:2}'"); // fixed widths: ranges of the keys keep the columns' order
    }
    try {
      assertThat(QueryRuns.explain(connection, "SELECT N FROM KsMapped WHERE (p, r) > ('p2', 7)"))
          .contains("access=[RANGE SCAN]", " then ");
      for (String op : List.of(">", ">=", "<", "<=")) {
        for (String row : List.of("('p2', 7)", "('p0', 0)", "('p4', 19)", "('p2', 99)", "('a', 5)", "('q', 5)")) {
          QueryRuns.agreed(connection, oracle, "SELECT p, r, N FROM KsMapped WHERE (p, r) " + op + " " + row
              + " ORDER BY p, r");
        }
      }
    } finally {
      try (Statement statement = connection.createStatement()) {
        statement.execute("DROP TABLE KsMapped");
      }
    }
  }

  @Test
  void parametersAndNullsAgreeWithTheOracle() throws SQLException {
    String sql = "SELECT a, b, c FROM KsDesc WHERE (a, b, c) >= (?, ?, ?) ORDER BY a, b DESC, c";
    Object[][] bindings = {{"y", 2, 2}, {"y", null, 2}, {"y", 2, null}, {null, 2, 2}, {"x", 4, 1}};
    for (Object[] values : bindings) {
      assertThat(rows(connection, sql, values)).as(java.util.Arrays.toString(values))
          .containsExactlyElementsOf(rows(oracle, sql, values));
    }
    String rawSql = "SELECT PartitionKey, RowKey FROM " + raw + " WHERE (PartitionKey, RowKey) > (?, ?)";
    Object[][] rawBindings = {{"p3", null}, {null, "r01"}, {"p3", "r18"}};
    for (Object[] values : rawBindings) {
      assertThat(rows(connection, rawSql, values)).as(java.util.Arrays.toString(values))
          .containsExactlyInAnyOrderElementsOf(rows(oracle, rawSql, values));
    }
  }

  private static List<String> rows(Connection on, String sql, Object... values) throws SQLException {
    try (PreparedStatement statement = on.prepareStatement(sql)) {
      for (int i = 0; i < values.length; i++) {
        statement.setObject(i + 1, values[i]);
      }
      try (ResultSet resultSet = statement.executeQuery()) {
        return QueryRuns.rows(resultSet);
      }
    }
  }
}
