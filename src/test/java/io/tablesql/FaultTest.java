package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.shell.LocalEmulator;
import io.tablesql.testing.FaultyProxy.Fault;
import io.tablesql.testing.FaultyProxy.Request;
import io.tablesql.testing.FaultyProxy;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The service's failures and rules, played by a real proxy on loopback: each fault is retried,
 * resumed or reported truthfully, and no answer is wrong.
 */
class FaultTest {
  private static FaultyProxy proxy;

  @BeforeAll
  static void startProxy() throws Exception {
    proxy = new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port());
  }

  @AfterAll
  static void stopProxy() {
    proxy.close();
  }

  static Connection connectThrough(FaultyProxy proxy, String... properties) throws SQLException {
    StringBuilder url = new StringBuilder("jdbc:tablesql:TableEndpoint=" + proxy.base() + "/" + LocalEmulator.ACCOUNT
        + ";AccountName=" + LocalEmulator.ACCOUNT + ";AccountKey=" + LocalEmulator.KEY);
    return DriverManager.getConnection(TestAccount.withProperties(url, properties));
  }

  @Test
  void throttledRequestsAreRetriedAndCounted() throws Exception {
    TableClient table = TestAccount.newTable("Faults");
    TestAccount.insert(table, List.of(new TableEntity("p", "1").addProperty("N", 1)));
    try (Connection connection = connectThrough(proxy);
         Statement statement = connection.createStatement()) {
      String sql = "SELECT N FROM " + table.getTableName() + " WHERE PartitionKey = 'p' AND RowKey = '1'";
      count(statement, sql); // plans and samples the table
      proxy.failNext(2);
      assertThat(count(statement, sql)).isEqualTo(1);
      assertThat(statement.unwrap(TableSqlStatement.class).requestCount()).isEqualTo(3); // 2 failed + 1
      proxy.failNext(10);
      assertThatThrownBy(() -> count(statement, sql)).isInstanceOf(SQLException.class)
          .hasMessageContaining("ServerBusy").hasMessageContaining(proxy.base())
          .hasMessageNotContaining(LocalEmulator.KEY);
      proxy.failNext(0);
      assertThat(count(statement, sql)).isEqualTo(1); // the connection still works
    } finally {
      proxy.clearFaults();
    }
  }

  @Test
  void aRequestNeverAnsweredTimesOutAndIsRetried() throws Exception {
    TableClient table = TestAccount.newTable("Silent");
    TestAccount.insert(table, List.of(new TableEntity("p", "1").addProperty("N", 1)));
    try (Connection connection = connectThrough(proxy, "requestTimeoutSeconds=1");
         Statement statement = connection.createStatement()) {
      String sql = "SELECT N FROM " + table.getTableName() + " WHERE PartitionKey = 'p' AND RowKey = '1'";
      count(statement, sql);
      int faults = proxy.faults();
      proxy.inject(Fault.HANG, request -> true, 1);
      assertThat(count(statement, sql)).isEqualTo(1);
      assertThat(proxy.faults()).isEqualTo(faults + 1);
      assertThat(statement.unwrap(TableSqlStatement.class).requestCount()).isEqualTo(2);
    } finally {
      proxy.clearFaults();
    }
  }

  @Test
  void pagesEndedEarlyDownToZeroEntitiesAreFollowed() throws Exception {
    TableClient table = TestAccount.newTable("EarlyPages");
    List<TableEntity> entities = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      entities.add(new TableEntity("p" + (i % 3), String.format("r%03d", i)).addProperty("N", i));
    }
    TestAccount.insert(table, entities);
    String name = table.getTableName();
    try (Connection connection = connectThrough(proxy); Statement statement = connection.createStatement()) {
      proxy.endPagesEarly(7, true);
      assertThat(count(statement, "SELECT N FROM " + name)).isEqualTo(60);
      // 9 pages of at most 7 entities, each after an empty one
      assertThat(statement.unwrap(TableSqlStatement.class).requestCount()).isGreaterThanOrEqualTo(18);
      assertThat(count(statement, "SELECT N FROM " + name + " WHERE PartitionKey = 'p1' AND N > 10")).isEqualTo(16);
      assertThat(count(statement, "SELECT N FROM " + name + " WHERE PartitionKey IN ('p0', 'p2')")).isEqualTo(40);
      assertThat(count(statement, "SELECT N FROM " + name + " WHERE PartitionKey = 'p1' LIMIT 9")).isEqualTo(9);
    } finally {
      proxy.endPagesEarly(Integer.MAX_VALUE, false);
    }
  }

  @Test
  void aResetMidScanIsResumed() throws Exception {
    TableClient table = TestAccount.newTable("Resets");
    List<TableEntity> entities = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      entities.add(new TableEntity("p", String.format("r%03d", i)).addProperty("N", i));
    }
    TestAccount.insert(table, entities);
    try (Connection connection = connectThrough(proxy, "pageSize=10");
         Statement statement = connection.createStatement()) {
      String sql = "SELECT N FROM " + table.getTableName();
      assertThat(count(statement, sql)).isEqualTo(30);
      int faults = proxy.faults();
      proxy.inject(Fault.RESET, Request::isQuery, 1);
      assertThat(count(statement, sql)).isEqualTo(30);
      assertThat(proxy.faults()).isEqualTo(faults + 1);
    } finally {
      proxy.clearFaults();
    }
  }

  @Test
  void aWriteWhoseAnswerWasLostIsReportedAsItHappened() throws Exception {
    TableClient table = TestAccount.newTable("LostAnswers");
    TestAccount.insert(table, List.of(new TableEntity("p", "counter").addProperty("N", 1)));
    String name = table.getTableName();
    try (Connection connection = connectThrough(proxy); Statement statement = connection.createStatement()) {
      count(statement, "SELECT N FROM " + name); // plans and samples the table
      // applied, its answer lost, the retry refused with 409: the insert happened
      proxy.inject(Fault.LOSE_ANSWER, Request::isBatch, 1);
      assertThat(statement.executeUpdate("INSERT INTO " + name + " (PartitionKey, RowKey, N) VALUES ('p', 'new', 7)"))
          .isEqualTo(1);
      // an increment applied once, though its retry failed with 412
      proxy.inject(Fault.LOSE_ANSWER, Request::isBatch, 1);
      assertThat(statement.executeUpdate("UPDATE " + name + " SET N = N + 1 WHERE PartitionKey = 'p' AND RowKey = "
          + "'counter'")).isEqualTo(1);
      // in a transaction: commit
      connection.setAutoCommit(false);
      statement.executeUpdate("DELETE FROM " + name + " WHERE PartitionKey = 'p' AND RowKey = 'new'");
      statement.executeUpdate("UPDATE " + name + " SET N = N + 1 WHERE PartitionKey = 'p' AND RowKey = 'counter'");
      proxy.inject(Fault.LOSE_ANSWER, Request::isBatch, 1);
      connection.commit();
      connection.setAutoCommit(true);
      assertThat(proxy.faults()).isGreaterThanOrEqualTo(3);
      proxy.clearFaults();
      try (ResultSet rows = statement.executeQuery("SELECT RowKey, N FROM " + name)) {
        assertThat(rows.next()).isTrue();
        assertThat(rows.getString(1) + "=" + rows.getInt(2)).isEqualTo("counter=3");
        assertThat(rows.next()).isFalse();
      }
    } finally {
      proxy.clearFaults();
    }
  }

  @Test
  void aWriteWhoseOutcomeCannotBeKnownSaysSo() throws Exception {
    TableClient table = TestAccount.newTable("Unknowable");
    TestAccount.insert(table, List.of(new TableEntity("p", "1").addProperty("N", 1)));
    String name = table.getTableName();
    try (Connection connection = connectThrough(proxy, "maxRetries=1"); Statement statement = connection.createStatement()) {
      count(statement, "SELECT N FROM " + name);
      proxy.inject(Fault.LOSE_ANSWER, Request::isBatch, 1);
      proxy.inject(Fault.BUSY, request -> true, 100); // the retry and every read back fail
      assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO " + name + " (PartitionKey, RowKey, N) "
          + "VALUES ('p', '2', 2)"))
          .isInstanceOf(SQLException.class)
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08007"))
          .hasMessageContaining("may or may not have been made")
          .hasMessageNotContaining("Nothing of this entity group was written");
      proxy.clearFaults();
      assertThat(count(statement, "SELECT N FROM " + name)).isEqualTo(2); // it was in fact written
    } finally {
      proxy.clearFaults();
    }
  }

  @Test
  void aTableNameStillBeingDeletedIsWaitedForThenReported() throws Exception {
    try (Connection connection = connectThrough(proxy, "tableDeleteWaitSeconds=2");
         Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE Recreated (PartitionKey VARCHAR, RowKey VARCHAR, N INTEGER)");
      statement.execute("DROP TABLE Recreated");
      // Azure answers 409 TableBeingDeleted for a while after a drop; that is not "exists already"
      proxy.inject(Fault.TABLE_BEING_DELETED, Request::isTableCreation, 2);
      statement.execute("CREATE TABLE IF NOT EXISTS Recreated (PartitionKey VARCHAR, RowKey VARCHAR, N INTEGER)");
      assertThat(proxy.faults()).isGreaterThanOrEqualTo(2);
      statement.executeUpdate("INSERT INTO Recreated (PartitionKey, RowKey, N) VALUES ('p', '1', 1)");
      assertThat(count(statement, "SELECT N FROM Recreated")).isEqualTo(1);
      statement.execute("DROP TABLE Recreated");
      proxy.inject(Fault.TABLE_BEING_DELETED, Request::isTableCreation, 1000);
      assertThatThrownBy(() -> statement.execute("CREATE TABLE IF NOT EXISTS Recreated (PartitionKey VARCHAR, RowKey VARCHAR, N INTEGER)"))
          .isInstanceOf(SQLException.class)
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("55006"))
          .hasMessageContaining("still deleting").hasMessageContaining("waited 2 s");
    } finally {
      proxy.clearFaults();
    }
  }

  static int count(Statement statement, String sql) throws SQLException {
    int rows = 0;
    try (ResultSet resultSet = statement.executeQuery(sql)) {
      while (resultSet.next()) {
        rows++;
      }
    }
    return rows;
  }
}
