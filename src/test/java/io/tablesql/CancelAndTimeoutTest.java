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
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A cancelled statement fails with 57014 and a timed-out one with HYT00 (SQLTimeoutException),
 * whichever way the query was sent; scans of one entity per request, each delayed by a proxy,
 * keep them slow enough.
 */
class CancelAndTimeoutTest {
  private static final String CANCELLED = "57014";
  private static final String TIMED_OUT = "HYT00";
  private static String table;
  private static FaultyProxy proxy;
  private static Connection connection;

  @BeforeAll
  static void setUp() throws Exception {
    TableClient client = TestAccount.newTable("Slow");
    List<TableEntity> entities = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      entities.add(new TableEntity("p" + (i % 3), String.format("r%05d", i)).addProperty("N", i));
    }
    TestAccount.insert(client, entities);
    table = client.getTableName();
    proxy = new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port());
    proxy.delay(2); // a partition, one entity per request, takes 2 s at least however fast the machine
    connection = slowConnection();
  }

  @AfterAll
  static void tearDown() throws SQLException {
    connection.close();
    proxy.close();
  }

  /** A connection reading one entity per request, each request delayed. */
  private static Connection slowConnection() throws SQLException {
    return FaultTest.connectThrough(proxy, "pageSize=1");
  }

  private static void readAll(ResultSet resultSet) throws SQLException {
    while (resultSet.next()) {
      // every row, one request each
    }
  }

  private static void assertState(Throwable error, String state) {
    assertThat(error).isInstanceOf(SQLException.class);
    assertThat(((SQLException) error).getSQLState()).isEqualTo(state);
  }

  @Test
  void cancelWhileReadingGivesQueryCanceled() throws SQLException {
    for (String sql : List.of("SELECT RowKey FROM " + table,
        "SELECT RowKey FROM " + table + " WHERE PartitionKey = 'p1'",
        "SELECT RowKey FROM " + table + " WHERE PartitionKey IN ('p0', 'p2')")) {
      try (Statement statement = connection.createStatement();
           ResultSet resultSet = statement.executeQuery(sql)) {
        assertThat(resultSet.next()).isTrue();
        statement.cancel();
        assertThatThrownBy(() -> readAll(resultSet))
            .satisfies(e -> assertState(e, CANCELLED)).isNotInstanceOf(SQLTimeoutException.class)
            .hasMessageContaining("cancel");
      }
    }
  }

  @Test
  void cancelFromAnotherThreadGivesQueryCanceled() throws Exception {
    try (PreparedStatement statement = connection.prepareStatement("SELECT RowKey FROM " + table
        + " WHERE PartitionKey = ?")) {
      statement.setString(1, "p0");
      CountDownLatch reading = new CountDownLatch(1);
      CompletableFuture<Void> reader = CompletableFuture.runAsync(() -> {
        try (ResultSet resultSet = statement.executeQuery()) {
          resultSet.next();
          reading.countDown();
          readAll(resultSet);
        } catch (SQLException e) {
          throw new java.util.concurrent.CompletionException(e);
        }
      });
      reading.await();
      statement.cancel();
      assertThatThrownBy(reader::join).cause().satisfies(e -> assertState(e, CANCELLED));
    }
  }

  @Test
  void queryTimeoutGivesTimeoutException() throws SQLException {
    for (String sql : List.of("SELECT RowKey FROM " + table,
        "SELECT RowKey FROM " + table + " WHERE PartitionKey = 'p1'",
        "SELECT RowKey FROM " + table + " WHERE PartitionKey IN ('p0', 'p2')")) {
      try (Statement statement = connection.createStatement()) {
        statement.setQueryTimeout(1);
        assertThatThrownBy(() -> {
          try (ResultSet resultSet = statement.executeQuery(sql)) {
            readAll(resultSet);
          }
        }).isInstanceOf(SQLTimeoutException.class).satisfies(e -> assertState(e, TIMED_OUT))
            .hasMessageContaining("timeout");
      }
    }
  }

  @Test
  void preparedQueryTimeoutGivesTimeoutException() throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement("SELECT RowKey FROM " + table
        + " WHERE PartitionKey = ?")) {
      statement.setQueryTimeout(1);
      statement.setString(1, "p2");
      assertThatThrownBy(() -> {
        try (ResultSet resultSet = statement.executeQuery()) {
          readAll(resultSet);
        }
      }).isInstanceOf(SQLTimeoutException.class).satisfies(e -> assertState(e, TIMED_OUT));
    }
  }

  /** Reads the first rows of {@code sql} on {@code connection}: the statement works. */
  private static void assertRuns(Connection on, String sql) throws SQLException {
    try (Statement statement = on.createStatement(); ResultSet resultSet = statement.executeQuery(sql)) {
      for (int i = 0; i < 3; i++) {
        assertThat(resultSet.next()).isTrue();
      }
    }
  }

  private static String partitionScan(String partition) {
    return "SELECT RowKey FROM " + table + " WHERE PartitionKey = '" + partition + "'";
  }

  /** Cancels {@code statement} from another thread once its result set has given a row. */
  private static Throwable cancelWhileFetching(Statement statement, String sql) throws Exception {
    CountDownLatch reading = new CountDownLatch(1);
    CompletableFuture<Void> reader = CompletableFuture.runAsync(() -> {
      try (ResultSet resultSet = statement.executeQuery(sql)) {
        resultSet.next();
        reading.countDown();
        readAll(resultSet);
      } catch (SQLException e) {
        throw new java.util.concurrent.CompletionException(e);
      }
    });
    reading.await();
    statement.cancel();
    return org.assertj.core.api.Assertions.catchThrowable(reader::join).getCause();
  }

  @Test
  void afterACancelTheSameSqlRunsAgainEverywhere() throws Exception {
    String sql = partitionScan("p1");
    try (Statement statement = connection.createStatement()) {
      assertState(cancelWhileFetching(statement, sql), CANCELLED);
      assertRuns(connection, sql); // same connection, from the plan cache
      try (ResultSet again = statement.executeQuery(sql)) { // the cancelled statement itself
        assertThat(again.next()).isTrue();
      }
    }
    assertRuns(connection, partitionScan("p2")); // the same plan with another literal
    try (Connection other = slowConnection()) {
      assertRuns(other, sql);
    }
  }

  @Test
  void cancelledAndClosedExecutionsLeaveNoThreadBehind() throws Exception {
    String sql = "SELECT RowKey FROM " + table + " WHERE PartitionKey IN ('p1', 'p2', 'p3')"; // scans run ahead
    try (Statement statement = connection.createStatement()) {
      assertState(cancelWhileFetching(statement, sql), CANCELLED); // the pools reach their working size
      int before = driverThreads();
      for (int i = 0; i < 10; i++) {
        assertState(cancelWhileFetching(statement, sql), CANCELLED);
        try (ResultSet early = statement.executeQuery(sql)) {
          assertThat(early.next()).isTrue(); // closed after one row, its scans still ahead
        }
      }
      // idle pool threads are reused, so ten more executions start no thread that stays
      assertThat(driverThreads()).isLessThanOrEqualTo(before + 8);
    }
  }

  /** Live threads the driver (and the SDK it drives) started. */
  private static int driverThreads() {
    return (int) Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
        .map(Thread::getName).filter(name -> name.startsWith("tablesql") || name.startsWith("azure-sdk")
            || name.startsWith("HttpClient")).count();
  }

  @Test
  void afterATimeoutTheSameSqlRunsAgain() throws SQLException {
    String sql = partitionScan("p0");
    try (Statement statement = connection.createStatement()) {
      statement.setQueryTimeout(1);
      assertThatThrownBy(() -> {
        try (ResultSet resultSet = statement.executeQuery(sql)) {
          readAll(resultSet);
        }
      }).isInstanceOf(SQLTimeoutException.class);
      statement.setQueryTimeout(0);
      try (ResultSet again = statement.executeQuery(sql)) {
        assertThat(again.next()).isTrue();
      }
    }
    assertRuns(connection, sql);
  }

  @Test
  void aCancelledPreparedStatementRunsAgain() throws Exception {
    try (PreparedStatement statement = connection.prepareStatement(partitionScan("p2"))) {
      CountDownLatch reading = new CountDownLatch(1);
      CompletableFuture<Void> reader = CompletableFuture.runAsync(() -> {
        try (ResultSet resultSet = statement.executeQuery()) {
          resultSet.next();
          reading.countDown();
          readAll(resultSet);
        } catch (SQLException e) {
          throw new java.util.concurrent.CompletionException(e);
        }
      });
      reading.await();
      statement.cancel();
      assertThatThrownBy(reader::join).cause().satisfies(e -> assertState(e, CANCELLED));
      try (ResultSet again = statement.executeQuery()) {
        assertThat(again.next()).isTrue();
      }
    }
    assertRuns(connection, partitionScan("p2"));
  }

  /** Reads {@code sql} in another thread and runs {@code interrupt} once rows are coming; the reader's failure. */
  private static Throwable interruptFetch(Statement statement, String sql, ThrowingRunnable interrupt) throws Exception {
    CountDownLatch reading = new CountDownLatch(1);
    CompletableFuture<Void> reader = CompletableFuture.runAsync(() -> {
      try (ResultSet resultSet = statement.executeQuery(sql)) {
        resultSet.next();
        reading.countDown();
        readAll(resultSet);
      } catch (SQLException e) {
        throw new java.util.concurrent.CompletionException(e);
      }
    });
    reading.await();
    interrupt.run();
    return org.assertj.core.api.Assertions.catchThrowable(reader::join).getCause();
  }

  interface ThrowingRunnable {
    void run() throws Exception;
  }

  @Test
  void closingTheStatementEndsAFetchInAnotherThread() throws Exception {
    Statement statement = connection.createStatement();
    assertState(interruptFetch(statement, partitionScan("p1"), statement::close), "HY010");
    assertRuns(connection, partitionScan("p1"));
  }

  @Test
  void closingTheConnectionEndsAFetchInAnotherThread() throws Exception {
    Connection own = slowConnection();
    Statement statement = own.createStatement();
    Throwable failure = interruptFetch(statement, partitionScan("p1"), own::close);
    assertThat(failure).isInstanceOf(java.sql.SQLNonTransientConnectionException.class)
        .hasMessageContaining("connection was closed");
    assertState(failure, "08003");
    assertThat(statement.isClosed()).isTrue();
  }
}
