package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.testing.FaultyProxy;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.StringJoiner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The entity group rules as the service counts them, through a proxy that refuses what the
 * service refuses (more than 100 operations or 4 MiB in a batch request), where Azurite would not.
 */
class EntityGroupRulesTest {
  private static FaultyProxy proxy;
  private static Connection connection;

  @BeforeAll
  static void setUp() throws Exception {
    proxy = new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port());
    connection = FaultTest.connectThrough(proxy);
  }

  @AfterAll
  static void tearDown() throws Exception {
    connection.close();
    proxy.close();
  }

  @Test
  void aTableOfManyDeclaredColumnsIsCatalogedInGroupsOfAtMost100() throws SQLException {
    StringJoiner columns = new StringJoiner(", ");
    for (int i = 0; i < 120; i++) {
      columns.add("C" + i + " INTEGER");
    }
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE Wide120 (PartitionKey VARCHAR, RowKey VARCHAR, " + columns + ")");
      try (ResultSet rows = statement.executeQuery("SELECT * FROM Wide120")) {
        assertThat(rows.getMetaData().getColumnCount()).isEqualTo(123); // keys, Timestamp, 120 declared
      }
      statement.execute("DROP TABLE Wide120");
    }
  }

  @Test
  void theFourMebibyteLimitCountsTheRequestNotTheStoredBytes() throws SQLException {
    TableClient table = declared("Blobs", "B VARBINARY");
    byte[] blob = new byte[63 * 1024]; // 50 of them: 3.1 MiB stored, 4.2 MiB as base64
    String insert = "INSERT INTO " + table.getTableName() + " (PartitionKey, RowKey, B) VALUES (?, ?, ?)";
    try (Connection strict = FaultTest.connectThrough(proxy, "strictAtomicity=true");
         PreparedStatement statement = strict.prepareStatement(insert)) {
      strict.setAutoCommit(false);
      int accepted = 0;
      try {
        for (; accepted < 50; accepted++) {
          statement.setString(1, "p");
          statement.setString(2, String.format("r%02d", accepted));
          statement.setBytes(3, blob);
          statement.executeUpdate();
        }
      } catch (SQLException e) {
        assertThat(e.getSQLState()).isEqualTo("25000");
        assertThat(e.getMessage()).contains("4 MiB", "base64");
      }
      assertThat(accepted).isBetween(40, 49);
      strict.commit(); // what was accepted fits one request
    }
    connection.setAutoCommit(false);
    try (PreparedStatement statement = connection.prepareStatement(insert)) {
      for (int i = 0; i < 50; i++) { // two groups, committed together through an intent the service accepts
        statement.setString(1, "r");
        statement.setString(2, String.format("r%02d", i));
        statement.setBytes(3, blob);
        statement.executeUpdate();
      }
      connection.commit();
    } finally {
      connection.setAutoCommit(true);
    }
    try (PreparedStatement batch = connection.prepareStatement(insert)) {
      for (int i = 0; i < 50; i++) {
        batch.setString(1, "q");
        batch.setString(2, String.format("r%02d", i));
        batch.setBytes(3, blob);
        batch.addBatch();
      }
      assertThat(batch.executeBatch()).hasSize(50).containsOnly(1); // sent as two groups
    }
    try (Statement statement = connection.createStatement();
         ResultSet rows = statement.executeQuery("SELECT PartitionKey, COUNT(*) FROM " + table.getTableName()
             + " GROUP BY PartitionKey ORDER BY PartitionKey")) {
      List<String> counts = new java.util.ArrayList<>();
      while (rows.next()) {
        counts.add(rows.getString(1) + "=" + rows.getLong(2));
      }
      assertThat(counts).hasSize(3).contains("q=50", "r=50");
    }
  }

  @Test
  void laterWritesOfOneEntityWinInAStatementAndInABatch() throws SQLException {
    TableClient table = TestAccount.newTable("LastWins");
    TestAccount.insert(table, List.of(new TableEntity("p", "x").addProperty("N", 0)));
    String name = table.getTableName();
    try (Statement statement = connection.createStatement()) {
      for (int i = 1; i <= 30; i++) {
        statement.addBatch("UPSERT INTO " + name + " (PartitionKey, RowKey, N) VALUES ('p', 'x', " + i + ")");
      }
      statement.executeBatch();
      assertThat(n(statement, name)).isEqualTo(30);
      statement.executeUpdate("UPSERT INTO " + name + " (PartitionKey, RowKey, N) VALUES ('p', 'x', 41), "
          + "('p', 'x', 42), ('p', 'x', 43)");
      assertThat(n(statement, name)).isEqualTo(43);
    }
  }

  @Test
  void anUpdateIsCheckedAgainstTheEntityItLeavesBehind() throws SQLException {
    StringJoiner columns = new StringJoiner(", ");
    TableEntity entity = new TableEntity("p", "1");
    for (int i = 0; i < 255; i++) {
      columns.add("C" + i + " INTEGER");
      if (i < 250) {
        entity.addProperty("C" + i, i);
      }
    }
    TableClient table = declared("Crowded", columns.toString());
    try (Statement statement = connection.createStatement()) {
      TestAccount.insert(table, List.of(entity));
      assertThatThrownBy(() -> statement.executeUpdate("UPDATE " + table.getTableName()
          + " SET C250 = 1, C251 = 1, C252 = 1 WHERE PartitionKey = 'p' AND RowKey = '1'"))
          .isInstanceOf(SQLException.class)
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22000"))
          .hasMessageContaining("253 properties");
      assertThat(statement.executeUpdate("UPDATE " + table.getTableName()
          + " SET C250 = 1, C251 = 1 WHERE PartitionKey = 'p' AND RowKey = '1'")).isEqualTo(1);
    }
  }

  @Test
  void anUpsertTheServiceRefusesForItsMergedSizeSaysWhy() throws SQLException {
    TableClient table = TestAccount.newTable("Merged");
    TestAccount.insert(table, List.of(new TableEntity("p", "1").addProperty("N", 0)));
    try (Statement statement = connection.createStatement()) {
      statement.executeQuery("SELECT N FROM " + table.getTableName()).close();
      proxy.inject(FaultyProxy.Fault.TOO_MANY_PROPERTIES, FaultyProxy.Request::isBatch, 1);
      assertThatThrownBy(() -> statement.executeUpdate("UPSERT INTO " + table.getTableName()
          + " (PartitionKey, RowKey, N) VALUES ('p', '1', 1)"))
          .isInstanceOf(SQLException.class)
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22000"))
          .hasMessageContaining("TooManyProperties").hasMessageContaining("252 properties");
    } finally {
      proxy.clearFaults();
    }
  }

  /**
   * An INSERT that gives Timestamp (as Spark's copy of a table does, reading it and writing every
   * column) writes the row; the service sets its Timestamp, and a warning says so once.
   */
  @Test
  void anInsertGivingTimestampLeavesItToTheServiceAndSaysSo() throws SQLException {
    TableClient table = TestAccount.newTable("Stamped");
    TestAccount.insert(table, List.of(new TableEntity("p", "0").addProperty("N", 0)));
    String name = table.getTableName();
    try (Statement statement = connection.createStatement()) {
      assertThat(statement.executeUpdate("INSERT INTO " + name + " (PartitionKey, RowKey, \"Timestamp\", N) VALUES "
          + "('p', '1', TIMESTAMP '2020-01-01 00:00:00', 1), ('p', '2', TIMESTAMP '2020-01-01 00:00:00', 2)"))
          .isEqualTo(2);
      java.sql.SQLWarning warning = statement.getWarnings();
      assertThat(warning.getMessage()).contains("Timestamp values given were not written");
      // asked again (as sqlline does after each statement), the same warning, once: tools tell them by identity
      assertThat((Object) statement.getWarnings()).isSameAs(warning);
      assertThat((Object) warning.getNextWarning()).isNull();
    }
    try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + name
        + " (PartitionKey, RowKey, \"Timestamp\", N) VALUES (?, ?, ?, ?)")) {
      for (int i = 3; i < 5; i++) {
        insert.setString(1, "p");
        insert.setString(2, String.valueOf(i));
        insert.setTimestamp(3, java.sql.Timestamp.valueOf("2020-01-01 00:00:00"));
        insert.setInt(4, i);
        insert.addBatch();
      }
      assertThat(insert.executeBatch()).containsExactly(1, 1);
      assertThat(insert.getWarnings().getMessage()).contains("Timestamp values given were not written");
    }
    assertThat(table.listEntities()).hasSize(5)
        .allSatisfy(e -> assertThat(e.getTimestamp().getYear()).isGreaterThan(2020));
  }

  /** A new table created through the driver, so that its declared columns are in the catalog. */
  private static TableClient declared(String prefix, String columns) throws SQLException {
    String name = prefix + Long.toString(System.nanoTime(), 36).replaceAll("[^a-z0-9]", "");
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE " + name + " (PartitionKey VARCHAR, RowKey VARCHAR, " + columns + ")");
    }
    return TestAccount.service().getTableClient(name);
  }

  private static int n(Statement statement, String table) throws SQLException {
    try (ResultSet rows = statement.executeQuery("SELECT N FROM " + table + " WHERE PartitionKey = 'p' AND RowKey = 'x'")) {
      assertThat(rows.next()).isTrue();
      return rows.getInt(1);
    }
  }
}
