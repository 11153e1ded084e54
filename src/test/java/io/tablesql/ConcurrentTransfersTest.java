package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.testing.FaultyProxy;
import io.tablesql.testing.FaultyProxy.Fault;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Transactions that move amounts between accounts in different partitions, concurrently, while
 * some answers of the service are lost on the way: whatever each commit reports, the total is
 * conserved once every intent is settled, and every transfer whose commit returned is in it. A
 * write reported committed that never took effect, or a half-applied transfer, changes the total.
 * Lost answers of undos are among them: an intent whose undo was applied unseen, with transfers
 * built on the row since, is settled, not parked (its row no longer carries its mark).
 */
class ConcurrentTransfersTest {
  private static final int ACCOUNTS = 8;
  private static final int BALANCE = 1000;
  /**
   * A lease short enough for recovery to run within the test, with requests that do not time out
   * on a loaded machine: the faults are lost answers, not requests still on their way.
   */
  private static final String[] SHORT_LEASE = {"intentLeaseSeconds=6", "requestTimeoutSeconds=3"};

  @Test
  void theTotalIsConservedUnderLostAnswers() throws Exception {
    List<TableEntity> accounts = new ArrayList<>();
    for (int i = 0; i < ACCOUNTS; i++) {
      accounts.add(new TableEntity("p" + i % 4, "a" + i).addProperty("N", BALANCE));
    }
    TableClient table = TestAccount.newTable("Transfers", accounts.toArray(TableEntity[]::new));
    String name = table.getTableName();
    AtomicInteger committed = new AtomicInteger();
    AtomicInteger failed = new AtomicInteger();
    try (FaultyProxy proxy = new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port())) {
      // every fifth entity group transaction is applied (or refused) but its answer lost
      java.util.function.Predicate<FaultyProxy.Request> nth = FaultyProxy.everyNth(5);
      proxy.inject(Fault.LOSE_ANSWER, request -> request.isBatch() && nth.test(request), Integer.MAX_VALUE);
      ExecutorService threads = Executors.newFixedThreadPool(4);
      List<Future<?>> runs = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int seed = t;
        runs.add(threads.submit(() -> {
          transfer(proxy, name, new Random(seed), committed, failed);
          return null;
        }));
      }
      for (Future<?> run : runs) {
        run.get();
      }
      threads.shutdown();
    }
    try (Connection recoverer = TestAccount.connect(SHORT_LEASE); Statement statement = recoverer.createStatement()) {
      long deadline = System.nanoTime() + 40_000_000_000L;
      while (pending(statement, name) > 0 && System.nanoTime() < deadline) {
        Thread.sleep(200);
      }
      assertThat(pending(statement, name)).as("intents left: %s", describePending(statement)).isZero();
    }
    int total = table.listEntities().stream().mapToInt(e -> (Integer) e.getProperty("N")).sum();
    assertThat(total).as("total after %s commits, %s failures", committed.get(), failed.get())
        .isEqualTo(ACCOUNTS * BALANCE);
    assertThat(committed.get()).isGreaterThan(0);
  }

  private static void transfer(FaultyProxy proxy, String name, Random random, AtomicInteger committed,
      AtomicInteger failed) throws SQLException {
    try (Connection connection = FaultTest.connectThrough(proxy, SHORT_LEASE);
         Statement statement = connection.createStatement()) {
      connection.setAutoCommit(false);
      for (int i = 0; i < 12; i++) {
        int from = random.nextInt(ACCOUNTS);
        int to = (from + 1 + 2 * random.nextInt(ACCOUNTS / 2 - 1)) % ACCOUNTS; // another partition
        int amount = 1 + random.nextInt(50);
        try {
          statement.executeUpdate("UPDATE " + name + " SET N = N - " + amount + " WHERE PartitionKey = 'p"
              + from % 4 + "' AND RowKey = 'a" + from + "'");
          statement.executeUpdate("UPDATE " + name + " SET N = N + " + amount + " WHERE PartitionKey = 'p"
              + to % 4 + "' AND RowKey = 'a" + to + "'");
          connection.commit();
          committed.incrementAndGet();
        } catch (SQLException e) {
          failed.incrementAndGet();
          connection.rollback();
        }
      }
    }
  }

  static List<String> describePending(Statement statement) throws SQLException {
    List<String> intents = new ArrayList<>();
    try (ResultSet rows = statement.executeQuery("SELECT state, reason FROM tablesql.pending_writes")) {
      while (rows.next()) {
        intents.add(rows.getString(1) + ": " + rows.getString(2));
      }
    }
    return intents;
  }

  /** Intents left on this test's table (another test's, recovered once its lease has run out, do not count). */
  static int pending(Statement statement, String table) throws SQLException {
    try (ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM tablesql.pending_writes WHERE tables LIKE '%"
        + table + "%'")) {
      rows.next();
      return rows.getInt(1);
    }
  }
}
