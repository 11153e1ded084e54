package io.tablesql;

import static io.tablesql.testing.ResultSets.readAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.TableClient;
import io.tablesql.testing.TestAccount;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.calcite.runtime.Hook;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The direct path (driver property {@code directExecution}): a query whose plan is one table
 * access runs without generated code and without Calcite's per-execution machinery, and gives
 * exactly what Calcite's path gives: the same rows, values of the same classes, the same
 * metadata, the same errors.
 */
class DirectExecutionTest {
  private static String raw;
  private static Connection direct;
  private static Connection calcite;

  /** A query with the values bound to its parameters, in order. */
  private record Query(String sql, Object... values) {
    /** Whether its plan is one table access: a sort in the client, for one, is Calcite's. */
    boolean direct() {
      return !sql.endsWith("ORDER BY Id DESC");
    }
  }

  @BeforeAll
  static void setUp() throws SQLException {
    TableClient client = TestAccount.newTypedTable("Direct", 30);
    raw = client.getTableName();
    direct = TestAccount.connect();
    calcite = TestAccount.connect("directExecution=false");
    try (Statement statement = direct.createStatement()) {
      statement.execute("CREATE TABLE DirectTyped (Region VARCHAR, Id INT, Amount DECIMAL(10, 2), At TIMESTAMP, "
          + "Day DATE, Flag BOOLEAN, Score DOUBLE, Big BIGINT, Note VARCHAR(20), PRIMARY KEY ((Region), Id))");
    }
    try (PreparedStatement insert = direct.prepareStatement(
        "INSERT INTO DirectTyped VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      for (int i = 0; i < 20; i++) {
        insert.setString(1, i % 2 == 0 ? "east" : "west");
        insert.setInt(2, i);
        insert.setBigDecimal(3, i % 7 == 0 ? null : new BigDecimal(i + ".25"));
        insert.setTimestamp(4, Timestamp.valueOf("2026-03-0" + (1 + i % 9) + " 12:34:56.789"));
        insert.setDate(5, java.sql.Date.valueOf("2026-04-" + (10 + i)));
        insert.setObject(6, i % 3 == 0 ? null : i % 3 == 1);
        insert.setDouble(7, i * 1.5);
        insert.setLong(8, -5_000_000_000L * i);
        insert.setString(9, i % 4 == 0 ? null : "note " + i);
        insert.addBatch();
      }
      insert.executeBatch();
    }
  }

  @AfterAll
  static void tearDown() throws SQLException {
    try (Statement statement = direct.createStatement()) {
      statement.execute("DROP TABLE IF EXISTS DirectTyped");
    }
    direct.close();
    calcite.close();
  }

  private static List<Query> queries() {
    return List.of(
        new Query("SELECT * FROM " + raw + " WHERE PartitionKey = ? AND RowKey = ?", "p1", "r04"),
        new Query("SELECT \"Text\", \"Int\" AS n FROM " + raw + " WHERE PartitionKey = 'p2' AND RowKey = 'r05'"),
        new Query("SELECT \"Long\" FROM " + raw + " WHERE PartitionKey = ? AND RowKey IN ('r01', 'r04', 'r07', 'r99')", "p1"),
        new Query("SELECT RowKey, \"Double\", \"Flag\", \"When\", \"Bytes\", \"Id\" FROM " + raw
            + " WHERE PartitionKey = ? AND RowKey >= ? AND RowKey < ?", "p0", "r03", "r20"),
        new Query("SELECT * FROM " + raw + " WHERE PartitionKey = ?", "p2"),
        new Query("SELECT PartitionKey, RowKey FROM " + raw + " WHERE PartitionKey = 'p0' ORDER BY RowKey LIMIT 4"),
        new Query("SELECT * FROM " + raw),
        new Query("SELECT RowKey, PartitionKey FROM " + raw + " WHERE PartitionKey = 'p1' ORDER BY RowKey "
            + "LIMIT ? OFFSET ?", 3, 2),
        new Query("SELECT RowKey FROM " + raw + " WHERE PartitionKey = ? OFFSET 8 ROWS", "p1"),
        new Query("SELECT * FROM " + raw + " WHERE PartitionKey = ? AND RowKey = ?", "nope", "none"),
        new Query("SELECT * FROM DirectTyped WHERE Region = ? AND Id = ?", "east", 4),
        new Query("SELECT Amount, At, Day FROM DirectTyped WHERE Region = ? AND Id = ?", "west", 7),
        new Query("SELECT * FROM DirectTyped WHERE Region = ? AND Id BETWEEN ? AND ?", "east", 2, 12),
        new Query("SELECT Note FROM DirectTyped WHERE Region = 'west' AND Id IN (1, 3, 5, 21)"),
        new Query("SELECT Id, Flag, Score, Big FROM DirectTyped WHERE Region = ? ORDER BY Id DESC", "west"),
        new Query("SELECT Id, Amount FROM DirectTyped WHERE Region = ? AND Id > ? ORDER BY Id FETCH FIRST 3 ROWS ONLY",
            "east", 3),
        new Query("SELECT * FROM DirectTyped"));
  }

  /** The query prepared, bound and run; {@code counts} gets what its execution made (see {@link #counting}). */
  private static List<String> prepared(Connection on, Query query, int[] counts) throws SQLException {
    try (PreparedStatement statement = on.prepareStatement(query.sql())) {
      for (int i = 0; i < query.values().length; i++) {
        statement.setObject(i + 1, query.values()[i]);
      }
      List<String>[] read = new List[1];
      int[] made = counting(() -> {
        try (ResultSet rows = statement.executeQuery()) {
          read[0] = readAll(rows);
        }
      });
      System.arraycopy(made, 0, counts, 0, 2);
      return read[0];
    }
  }

  /** Runs the work counting Calcite's per-execution DataContexts and generated classes on this thread. */
  private static int[] counting(SqlWork work) throws SQLException {
    AtomicInteger contexts = new AtomicInteger();
    AtomicInteger generated = new AtomicInteger();
    try (Hook.Closeable a = Hook.CURRENT_TIME.addThread((java.util.function.Consumer<Object>) time -> contexts.incrementAndGet());
         Hook.Closeable b = Hook.JAVA_PLAN.addThread((java.util.function.Consumer<Object>) code -> generated.incrementAndGet())) {
      work.run();
    }
    return new int[] {contexts.get(), generated.get()};
  }

  private interface SqlWork {
    void run() throws SQLException;
  }

  @Test
  void everyQueryGivesWhatCalcitesPathGives() throws SQLException {
    for (Query query : queries()) {
      List<String> expected = prepared(calcite, query, new int[2]);
      int[] counts = new int[2];
      assertThat(prepared(direct, query, counts)).as(query.sql()).isEqualTo(expected);
      if (query.direct()) {
        assertThat(counts).as("DataContexts and generated classes of " + query.sql()).containsExactly(0, 0);
      } else {
        assertThat(counts[0]).as("DataContexts of " + query.sql()).isPositive();
      }
    }
  }

  @Test
  void calcitesPathIsTakenWhenTurnedOff() throws SQLException {
    int[] counts = new int[2];
    prepared(calcite, queries().get(0), counts);
    assertThat(counts[0]).as("DataContexts").isPositive();
  }

  @Test
  void aQueryOnOneAccessIsNeverCompiled() throws SQLException {
    // a text not prepared before: the plan cache keeps the plans of texts prepared again
    String sql = queries().get(3).sql() + " /* planned now */";
    int[] planned = counting(() -> direct.prepareStatement(sql).close());
    assertThat(planned[1]).as("generated classes").isZero();
    planned = counting(() -> calcite.prepareStatement(sql).close());
    assertThat(planned[1]).as("generated classes").isPositive();
  }

  @Test
  void adHocQueriesOnCachedPlansRunDirectly() throws SQLException {
    for (int i = 0; i < 3; i++) {
      String sql = "SELECT RowKey, \"Long\" FROM " + raw + " WHERE PartitionKey = 'p1' AND RowKey = 'r" + (10 + 3 * i) + "'";
      List<String>[] actual = new List[1];
      int[] counts = counting(() -> {
        try (Statement statement = direct.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
          actual[0] = readAll(rows);
        }
      });
      try (Statement statement = calcite.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
        assertThat(actual[0]).isEqualTo(readAll(rows));
      }
      if (i > 0) { // planned by the first: the plan cache's plan runs directly
        assertThat(counts[0]).as("DataContexts").isZero();
      }
    }
  }

  @Test
  void aPreparedStatementRunsAgainWithNewValuesAndThroughExecute() throws SQLException {
    try (PreparedStatement statement = direct.prepareStatement(
        "SELECT Id, Note FROM DirectTyped WHERE Region = ? AND Id = ?")) {
      for (int id : new int[] {1, 3, 5}) {
        statement.setString(1, "west");
        statement.setInt(2, id);
        assertThat(statement.execute()).isTrue();
        assertThat(statement.getUpdateCount()).isEqualTo(-1);
        try (ResultSet rows = statement.getResultSet()) {
          assertThat(rows.next()).isTrue();
          assertThat(rows.getInt(1)).isEqualTo(id);
          assertThat(rows.getString(2)).isEqualTo("note " + id);
          assertThat(rows.next()).isFalse();
        }
      }
    }
  }

  @Test
  void anUnboundParameterFailsAsOnCalcitesPath() throws SQLException {
    String sql = "SELECT * FROM DirectTyped WHERE Region = ? AND Id = ?";
    SQLException[] failures = new SQLException[2];
    Connection[] connections = {direct, calcite};
    for (int i = 0; i < 2; i++) {
      try (PreparedStatement statement = connections[i].prepareStatement(sql)) {
        statement.setString(1, "east");
        int side = i;
        assertThatThrownBy(statement::executeQuery).isInstanceOfSatisfying(SQLException.class, e -> failures[side] = e);
      }
    }
    assertThat(failures[0].getSQLState()).isEqualTo(failures[1].getSQLState());
    assertThat(failures[0].getMessage()).isEqualTo(failures[1].getMessage());
  }

  @Test
  void aTransactionReadsItsOwnPendingWritesDirectly() throws SQLException {
    try (Connection connection = TestAccount.connect()) {
      connection.setAutoCommit(false);
      try (Statement statement = connection.createStatement()) {
        statement.executeUpdate("INSERT INTO DirectTyped (Region, Id, Note) VALUES ('north', 1, 'pending')");
      }
      try (PreparedStatement statement = connection.prepareStatement(
          "SELECT Note FROM DirectTyped WHERE Region = ? AND Id = ?")) {
        statement.setString(1, "north");
        statement.setInt(2, 1);
        List<String>[] read = new List[1];
        int[] counts = counting(() -> {
          try (ResultSet rows = statement.executeQuery()) {
            read[0] = readAll(rows);
          }
        });
        assertThat(read[0]).last().asString().contains("pending");
        assertThat(counts[0]).isZero();
      }
      connection.rollback();
    }
  }
}
