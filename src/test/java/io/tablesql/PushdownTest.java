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
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Each access path: what EXPLAIN shows, the rows, and exactly what it cost at the service. */
class PushdownTest {
  private static String table;
  private static Connection connection;

  @BeforeAll
  static void setUp() throws SQLException {
    TableClient client = TestAccount.newTable("Orders");
    List<TableEntity> entities = new ArrayList<>();
    for (int i = 0; i < 2500; i++) {
      entities.add(new TableEntity("big", String.format("r%05d", i)).addProperty("Amount", i % 100));
    }
    for (int p = 0; p < 5; p++) {
      for (int i = 0; i < 10; i++) {
        entities.add(new TableEntity("small" + p, "r" + i).addProperty("Amount", i).addProperty("Region", "R" + (i % 3)));
      }
    }
    TestAccount.insert(client, entities);
    table = client.getTableName();
    connection = TestAccount.connect("sampleSize=3000"); // the small partitions sort after 2500 entities
  }

  @AfterAll
  static void tearDown() throws SQLException {
    connection.close();
  }

  private record Run(List<String> rows, long requests, long entities) {
  }

  private static Run run(String sql) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      List<String> rows = new ArrayList<>();
      try (ResultSet resultSet = statement.executeQuery(sql)) {
        while (resultSet.next()) {
          rows.add(resultSet.getString(1) + "/" + resultSet.getString(2));
        }
      }
      TableSqlStatement cost = statement.unwrap(TableSqlStatement.class);
      return new Run(rows, cost.requestCount(), cost.entityCount());
    }
  }

  private static String explain(String sql) throws SQLException {
    try (Statement statement = connection.createStatement();
         ResultSet resultSet = statement.executeQuery("EXPLAIN PLAN FOR " + sql)) {
      resultSet.next();
      return resultSet.getString(1);
    }
  }

  @Test
  void pointLookupIsOneGet() throws SQLException {
    String sql = "SELECT PartitionKey, RowKey FROM " + table + " WHERE PartitionKey = 'small1' AND RowKey = 'r3'";
    assertThat(explain(sql)).contains("access=[POINT LOOKUP]", "keys=[('small1', 'r3')]");
    Run run = run(sql);
    assertThat(run.rows()).containsExactly("small1/r3");
    assertThat(run.requests()).isEqualTo(1);
    assertThat(run.entities()).isEqualTo(1);
  }

  @Test
  void missingKeyIsOneGetAndNoRow() throws SQLException {
    Run run = run("SELECT PartitionKey, RowKey FROM " + table + " WHERE PartitionKey = 'small1' AND RowKey = 'zz'");
    assertThat(run.rows()).isEmpty();
    assertThat(run.requests()).isEqualTo(1);
  }

  @Test
  void orOfFullKeysIsOneGetPerKeyNotAPartitionScan() throws SQLException {
    String sql = "SELECT PartitionKey, RowKey FROM " + table + " WHERE (PartitionKey = 'small2' AND RowKey = 'r1')"
        + " OR (PartitionKey = 'small0' AND RowKey = 'r2') OR (PartitionKey = 'small2' AND RowKey = 'r9')";
    assertThat(explain(sql)).contains("MULTI-POINT LOOKUP ON 3 KEYS");
    Run run = run(sql);
    assertThat(run.rows()).containsExactly("small0/r2", "small2/r1", "small2/r9");
    assertThat(run.requests()).isEqualTo(3);
  }

  @Test
  void longInListOfFullKeysIsStillMultiPointLookup() throws SQLException {
    StringBuilder keys = new StringBuilder();
    for (int i = 0; i < 60; i++) {
      keys.append(i == 0 ? "" : ", ").append("('big', 'r").append(String.format("%05d", i * 7)).append("')");
    }
    String sql = "SELECT PartitionKey, RowKey FROM " + table + " WHERE (PartitionKey, RowKey) IN (" + keys + ")";
    assertThat(explain(sql)).contains("MULTI-POINT LOOKUP ON 60 KEYS");
    Run run = run(sql);
    assertThat(run.rows()).hasSize(60);
    assertThat(run.requests()).isEqualTo(60);
  }

  @Test
  void inListOfRowKeysIsMultiPointLookup() throws SQLException {
    String sql = "SELECT PartitionKey, RowKey FROM " + table
        + " WHERE PartitionKey = 'small3' AND RowKey IN ('r4', 'r1', 'r1', 'nope')";
    assertThat(explain(sql)).contains("MULTI-POINT LOOKUP ON 3 KEYS");
    Run run = run(sql);
    assertThat(run.rows()).containsExactly("small3/r1", "small3/r4");
    assertThat(run.requests()).isEqualTo(3);
  }

  @Test
  void rangeScanReadsOnlyTheRange() throws SQLException {
    String sql = "SELECT PartitionKey, RowKey FROM " + table
        + " WHERE PartitionKey = 'big' AND RowKey >= 'r00100' AND RowKey < 'r02600'";
    assertThat(explain(sql)).contains("access=[RANGE SCAN]",
        "$filter=[PartitionKey eq 'big' and RowKey ge 'r00100' and RowKey lt 'r02600']");
    Run run = run(sql);
    assertThat(run.rows()).hasSize(2400);
    assertThat(run.entities()).isEqualTo(2400);
    assertThat(run.requests()).isEqualTo(3); // ⌈2400 / 1000⌉
  }

  @Test
  void likePrefixIsARange() throws SQLException {
    String sql = "SELECT PartitionKey, RowKey FROM " + table + " WHERE PartitionKey = 'big' AND RowKey LIKE 'r012%'";
    assertThat(explain(sql)).contains("RANGE SCAN", "RowKey ge 'r012' and RowKey lt 'r013'");
    Run run = run(sql);
    assertThat(run.rows()).hasSize(100);
    assertThat(run.requests()).isEqualTo(1);
    assertThat(explain("SELECT * FROM " + table + " WHERE PartitionKey = 'big' AND RowKey LIKE 'r\\_1%' ESCAPE '\\'"))
        .contains("RowKey ge 'r_1' and RowKey lt 'r_2'");
    assertThat(explain("SELECT * FROM " + table + " WHERE PartitionKey = 'big' AND RowKey LIKE 'r_1%'"))
        .contains("PARTITION SCAN").contains("$condition"); // _ matches any one character: the client decides
  }

  @Test
  void partitionScanFiltersAtTheService() throws SQLException {
    String sql = "SELECT PartitionKey, RowKey FROM " + table + " WHERE PartitionKey = 'big' AND Amount = 7";
    assertThat(explain(sql)).contains("access=[PARTITION SCAN]", "$filter=[PartitionKey eq 'big' and Amount eq 7]")
        .doesNotContain("EnumerableFilter");
    Run run = run(sql);
    assertThat(run.rows()).hasSize(25);
    assertThat(run.entities()).isEqualTo(25);
  }

  @Test
  void multiPartitionScanMergesInKeyOrder() throws SQLException {
    String sql = "SELECT PartitionKey, RowKey FROM " + table
        + " WHERE PartitionKey IN ('small4', 'small0', 'small2') AND Region = 'R1'";
    assertThat(explain(sql)).contains("MULTI-PARTITION SCAN ON 3 PARTITIONS", "$filter=[Region eq 'R1']");
    Run run = run(sql);
    assertThat(run.rows()).containsExactly("small0/r1", "small0/r4", "small0/r7", "small2/r1", "small2/r4",
        "small2/r7", "small4/r1", "small4/r4", "small4/r7");
    assertThat(run.requests()).isEqualTo(3);
    assertThat(run.entities()).isEqualTo(9);
  }

  @Test
  void tableScanStillFiltersAtTheService() throws SQLException {
    String sql = "SELECT PartitionKey, RowKey FROM " + table + " WHERE Region = 'R2' AND UPPER(RowKey) = 'R2'";
    String plan = explain(sql);
    assertThat(plan).contains("access=[TABLE SCAN]", "$filter=[Region eq 'R2']", "client=[=(UPPER(RowKey), 'R2')]");
    Run run = run(sql);
    assertThat(run.rows()).hasSize(5);
    assertThat(run.entities()).isEqualTo(15);
  }

  @Test
  void limitReadsOneSmallPage() throws SQLException {
    String sql = "SELECT PartitionKey, RowKey FROM " + table + " WHERE PartitionKey = 'big' LIMIT 10";
    assertThat(explain(sql)).contains("limit=[10]");
    Run run = run(sql);
    assertThat(run.rows()).hasSize(10).first().isEqualTo("big/r00000");
    assertThat(run.requests()).isEqualTo(1);
    assertThat(run.entities()).isEqualTo(10);
  }

  @Test
  void orderByTheKeyNeedsNoSort() throws SQLException {
    String sql = "SELECT PartitionKey, RowKey FROM " + table + " WHERE PartitionKey = 'big' ORDER BY PartitionKey, RowKey";
    assertThat(explain(sql)).doesNotContain("Sort");
    assertThat(explain(sql + " DESC")).contains("Sort");
  }

  /** What Spark sends for a top-N on one partition: the partition fixes the order, so five entities are read. */
  @Test
  void sparkTopNOnOnePartitionReadsOnlyTheRowsItReturns() throws SQLException {
    String sql = "SELECT \"RowKey\" FROM \"" + LocalEmulator.ACCOUNT + "\".\"" + table + "\" WHERE (\"PartitionKey\" "
        + "IS NOT NULL) AND (\"PartitionKey\" = 'big') ORDER BY \"RowKey\" ASC NULLS FIRST LIMIT 5";
    assertThat(explain(sql)).doesNotContain("Sort").contains("access=[PARTITION SCAN]", "limit=[5]");
    List<String> rows = new ArrayList<>();
    try (Statement statement = connection.createStatement(); ResultSet resultSet = statement.executeQuery(sql)) {
      while (resultSet.next()) {
        rows.add(resultSet.getString(1));
      }
      assertThat(statement.unwrap(TableSqlStatement.class).requestCount()).isEqualTo(1);
      assertThat(statement.unwrap(TableSqlStatement.class).entityCount()).isEqualTo(5);
    }
    assertThat(rows).containsExactly("r00000", "r00001", "r00002", "r00003", "r00004");
  }

  @Test
  void orderByRowKeyWithinAPartitionIsKeyOrder() throws SQLException {
    String columns = "SELECT PartitionKey, RowKey FROM " + table;
    String[][] cases = {
        {columns + " WHERE PartitionKey = 'big' ORDER BY RowKey LIMIT 5", "big/r00000", "5"},
        {columns + " WHERE PartitionKey = 'big' AND RowKey > 'r00100' ORDER BY RowKey NULLS LAST LIMIT 5",
            "big/r00101", "5"},
        {columns + " WHERE PartitionKey = 'big' ORDER BY RowKey, PartitionKey FETCH FIRST 5 ROWS ONLY", "big/r00000",
            "5"},
        {"SELECT * FROM (" + columns + ") t WHERE t.PartitionKey = 'big' ORDER BY t.RowKey LIMIT 5 OFFSET 3",
            "big/r00003", "8"},
        {"SELECT t.PartitionKey, t.RowKey FROM (SELECT * FROM " + table + " WHERE Amount >= 50) t "
            + "WHERE PartitionKey = 'big' ORDER BY RowKey OFFSET 2 ROWS FETCH NEXT 5 ROWS ONLY", "big/r00052", "7"},
        {columns + " ORDER BY PartitionKey NULLS FIRST, RowKey NULLS FIRST LIMIT 5", "big/r00000", "5"},
    };
    for (String[] query : cases) {
      assertThat(explain(query[0])).as(query[0]).doesNotContain("Sort");
      Run run = run(query[0]);
      assertThat(run.rows()).as(query[0]).hasSize(5).first().isEqualTo(query[1]);
      assertThat(run.requests()).as(query[0]).isEqualTo(1);
      assertThat(run.entities()).as(query[0]).isEqualTo(Long.parseLong(query[2]));
    }
  }

  /** jOOQ binds LIMIT and OFFSET as parameters: they are pushed down like literals, per execution. */
  @Test
  void limitAndOffsetParametersReadOnlyTheRowsNeeded() throws SQLException {
    String sql = "SELECT RowKey FROM " + table + " WHERE PartitionKey = 'big' ORDER BY RowKey OFFSET ? ROWS "
        + "FETCH NEXT ? ROWS ONLY";
    try (PreparedStatement statement = connection.prepareStatement("EXPLAIN PLAN FOR " + sql)) {
      statement.setInt(1, 0);
      statement.setInt(2, 1);
      try (ResultSet plan = statement.executeQuery()) {
        plan.next();
        assertThat(plan.getString(1)).doesNotContain("Sort").contains("limit=[?1 + ?0]");
      }
    }
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      long[][] cases = {{3, 5}, {0, 2}, {2490, 20}, {2498, Integer.MAX_VALUE - 2498}};
      for (long[] offsetAndFetch : cases) {
        statement.setLong(1, offsetAndFetch[0]);
        statement.setLong(2, offsetAndFetch[1]);
        List<String> rows = new ArrayList<>();
        try (ResultSet resultSet = statement.executeQuery()) {
          while (resultSet.next()) {
            rows.add(resultSet.getString(1));
          }
        }
        long expected = Math.min(offsetAndFetch[1], 2500 - offsetAndFetch[0]);
        assertThat(rows).hasSize((int) expected).first().isEqualTo(String.format("r%05d", offsetAndFetch[0]));
        TableSqlStatement cost = statement.unwrap(TableSqlStatement.class);
        assertThat(cost.entityCount()).isEqualTo(Math.min(2500, offsetAndFetch[0] + offsetAndFetch[1]));
      }
    }
  }

  @Test
  void reverseKeyOrderIsSortedInTheClientAndSaysSo() throws SQLException {
    String sql = "SELECT PartitionKey, RowKey FROM " + table + " WHERE PartitionKey = 'big' ORDER BY RowKey DESC LIMIT 3";
    assertThat(explain(sql)).contains("EnumerableSort", "order=[reverse of key order, sorted in the client]")
        .doesNotContain("limit=[");
    Run run = run(sql);
    assertThat(run.rows()).containsExactly("big/r02499", "big/r02498", "big/r02497");
    assertThat(run.entities()).isEqualTo(2500);
    // an ORDER BY the key does not reverse says nothing about it
    assertThat(explain("SELECT PartitionKey, RowKey FROM " + table + " WHERE PartitionKey = 'big' ORDER BY Amount DESC"))
        .contains("EnumerableSort").doesNotContain("order=[");
  }

  @Test
  void orderByRowKeyAcrossPartitionsIsSortedInTheClient() throws SQLException {
    String sql = "SELECT PartitionKey, RowKey FROM " + table + " WHERE PartitionKey IN ('small1', 'small2') "
        + "ORDER BY RowKey, PartitionKey LIMIT 3";
    assertThat(explain(sql)).contains("EnumerableSort").doesNotContain("limit=[");
    assertThat(run(sql).rows()).containsExactly("small1/r0", "small2/r0", "small1/r1");
  }

  @Test
  void projectionBecomesSelect() throws SQLException {
    assertThat(explain("SELECT Amount FROM " + table + " WHERE PartitionKey = 'small1'"))
        .contains("$select=[PartitionKey,RowKey,TablesqlIntent,TablesqlDeleted,Amount]");
    // counting asks for the keys and the intent's properties only: a row an uncommitted intent
    // inserted is not counted, one it deleted is
    assertThat(explain("SELECT COUNT(*) FROM " + table + " WHERE PartitionKey = 'small1'"))
        .contains("$select=[PartitionKey,RowKey,TablesqlIntent,TablesqlDeleted]");
  }

  @Test
  void filterNeverExceedsFifteenComparisons() throws SQLException {
    StringBuilder where = new StringBuilder("PartitionKey = 'big'");
    for (int i = 0; i < 20; i++) {
      where.append(" AND Amount <> ").append(i);
    }
    String plan = explain("SELECT PartitionKey, RowKey FROM " + table + " WHERE " + where);
    String filter = plan.substring(plan.indexOf("$filter=["), plan.indexOf(']', plan.indexOf("$filter=[")));
    int comparisons = filter.split(" (eq|ne|lt|le|gt|ge) ").length - 1;
    assertThat(comparisons).isLessThanOrEqualTo(15).isGreaterThan(1);
    assertThat(plan).contains("$condition"); // the rest is evaluated in the client
    assertThat(run("SELECT PartitionKey, RowKey FROM " + table + " WHERE " + where).rows()).hasSize(2000);
  }

  @Test
  void parametersArePushedDownLikeLiterals() throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(
        "SELECT PartitionKey, RowKey FROM " + table + " WHERE PartitionKey = ? AND RowKey = ?")) {
      for (int i = 0; i < 3; i++) {
        statement.setString(1, "small" + i);
        statement.setString(2, "r" + i);
        try (ResultSet resultSet = statement.executeQuery()) {
          assertThat(resultSet.next()).isTrue();
          assertThat(resultSet.getString(2)).isEqualTo("r" + i);
          assertThat(resultSet.next()).isFalse();
        }
        assertThat(statement.unwrap(TableSqlStatement.class).requestCount()).isEqualTo(1);
      }
    }
    try (PreparedStatement statement = connection.prepareStatement(
        "SELECT COUNT(*) FROM " + table + " WHERE PartitionKey = ? AND Amount >= ?")) {
      statement.setString(1, "big");
      statement.setInt(2, 90);
      try (ResultSet resultSet = statement.executeQuery()) {
        resultSet.next();
        assertThat(resultSet.getLong(1)).isEqualTo(250);
      }
      assertThat(statement.unwrap(TableSqlStatement.class).entityCount()).isEqualTo(250);
    }
    assertThat(explain("SELECT * FROM " + table + " WHERE PartitionKey = ? AND Amount >= ?"))
        .contains("$filter=[PartitionKey eq ?0 and Amount ge ?1]");
  }

  @Test
  void fetchSizeSetsThePageSize() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.setFetchSize(100);
      int rows = 0;
      try (ResultSet resultSet = statement.executeQuery(
          "SELECT RowKey FROM " + table + " WHERE PartitionKey = 'big' AND RowKey < 'r01000'")) {
        while (resultSet.next()) {
          rows++;
        }
      }
      assertThat(rows).isEqualTo(1000);
      assertThat(statement.unwrap(TableSqlStatement.class).requestCount()).isEqualTo(10);
    }
  }

  @Test
  void maxRowsStopsReading() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.setMaxRows(5);
      statement.setFetchSize(10);
      int rows = 0;
      try (ResultSet resultSet = statement.executeQuery("SELECT RowKey FROM " + table)) {
        while (resultSet.next()) {
          rows++;
        }
      }
      assertThat(rows).isEqualTo(5);
      assertThat(statement.unwrap(TableSqlStatement.class).requestCount()).isEqualTo(1);
    }
  }

  @Test
  void cancelStopsPaging() throws SQLException {
    // one chain of pages (a split scan sends each range's first page at once: SplitScanTest)
    try (Connection oneChain = TestAccount.connect("sampleSize=3000", "scanSplits=1");
         Statement statement = oneChain.createStatement()) {
      statement.setFetchSize(10);
      try (ResultSet resultSet = statement.executeQuery("SELECT RowKey FROM " + table)) {
        assertThat(resultSet.next()).isTrue();
        statement.cancel();
        assertThatThrownBy(() -> {
          while (resultSet.next()) {
            // reads until the cancel is noticed
          }
        }).isInstanceOf(SQLException.class);
      }
      assertThat(statement.unwrap(TableSqlStatement.class).requestCount()).isLessThanOrEqualTo(2);
    }
  }

  @Test
  void queryTimeoutStopsPaging() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.setFetchSize(1); // 2,550 requests: far longer than the timeout
      statement.setQueryTimeout(1);
      assertThatThrownBy(() -> {
        try (ResultSet resultSet = statement.executeQuery("SELECT RowKey FROM " + table)) {
          while (resultSet.next()) {
            // reads until the timeout
          }
        }
      }).isInstanceOf(SQLException.class)
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("HYT00"));
      assertThat(statement.unwrap(TableSqlStatement.class).requestCount()).isLessThan(2550);
    }
  }
}
