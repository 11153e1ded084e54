package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Wide rows under concurrent transactions across partitions with answers lost on the way: each
 * transfer changes a column of the row's first entity and one of its second together (M and N,
 * with M + N = 0 in every row), so a reader that ever sees a row whose entities are of different
 * writes sees M + N other than 0, and a lost or half-applied write changes the total.
 */
class WideRowFaultTest {
  private static final int ACCOUNTS = 8;
  private static final String[] SHORT_LEASE = {"intentLeaseSeconds=6", "requestTimeoutSeconds=3"};

  @Test
  void rowsStayWholeAndTheTotalIsConservedUnderLostAnswers() throws Exception {
    String filler = IntStream.range(0, 260).mapToObj(i -> "f" + i + " INT").collect(Collectors.joining(", "));
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE WrTransfers (Grp VARCHAR(4), Id INT, M INT, " + filler
          + ", N INT, PRIMARY KEY ((Grp), Id))");
      for (int i = 0; i < ACCOUNTS; i++) {
        statement.execute("INSERT INTO WrTransfers (Grp, Id, M, N, f0, f259) VALUES ('p" + i % 4 + "', " + i
            + ", 0, 0, " + i + ", " + i + ")");
      }
    }
    AtomicInteger committed = new AtomicInteger();
    AtomicBoolean stop = new AtomicBoolean();
    List<String> torn = new ArrayList<>();
    try (FaultyProxy proxy = new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port())) {
      java.util.function.Predicate<FaultyProxy.Request> nth = FaultyProxy.everyNth(5);
      proxy.inject(Fault.LOSE_ANSWER, request -> request.isBatch() && nth.test(request), Integer.MAX_VALUE);
      ExecutorService threads = Executors.newFixedThreadPool(4);
      List<Future<?>> writers = new ArrayList<>();
      for (int t = 0; t < 3; t++) {
        int seed = t;
        writers.add(threads.submit(() -> {
          transfer(proxy, new Random(seed), committed);
          return null;
        }));
      }
      Future<?> reader = threads.submit(() -> {
        read(stop, torn);
        return null;
      });
      for (Future<?> writer : writers) {
        writer.get();
      }
      stop.set(true);
      reader.get();
      threads.shutdown();
    }
    assertThat(torn).as("rows read with their entities of different writes").isEmpty();
    try (Connection recoverer = TestAccount.connect(SHORT_LEASE); Statement statement = recoverer.createStatement()) {
      long deadline = System.nanoTime() + 40_000_000_000L;
      while (ConcurrentTransfersTest.pending(statement, "WrTransfers") > 0 && System.nanoTime() < deadline) {
        Thread.sleep(200);
      }
      assertThat(ConcurrentTransfersTest.pending(statement, "WrTransfers"))
          .as("intents left: %s", ConcurrentTransfersTest.describePending(statement)).isZero();
      try (ResultSet rows = statement.executeQuery("SELECT SUM(M), SUM(N), COUNT(*), SUM(f0 - f259) FROM WrTransfers")) {
        rows.next();
        assertThat(rows.getLong(1)).isZero();
        assertThat(rows.getLong(2)).isZero();
        assertThat(rows.getInt(3)).isEqualTo(ACCOUNTS);
        assertThat(rows.getLong(4)).isZero();
      }
      assertThat(TestAccount.service().getTableClient("WrTransfers").listEntities().stream().count())
          .as("two entities per row, no other").isEqualTo(2 * ACCOUNTS);
      statement.execute("DROP TABLE WrTransfers");
    }
    assertThat(committed.get()).isGreaterThan(0);
  }

  private static void transfer(FaultyProxy proxy, Random random, AtomicInteger committed) throws SQLException {
    try (Connection connection = FaultTest.connectThrough(proxy, SHORT_LEASE);
         Statement statement = connection.createStatement()) {
      connection.setAutoCommit(false);
      for (int i = 0; i < 10; i++) {
        int from = random.nextInt(ACCOUNTS);
        int to = (from + 1 + 2 * random.nextInt(ACCOUNTS / 2 - 1)) % ACCOUNTS; // another partition
        int amount = 1 + random.nextInt(50);
        try {
          statement.executeUpdate("UPDATE WrTransfers SET M = M - " + amount + ", N = N + " + amount
              + " WHERE Grp = 'p" + from % 4 + "' AND Id = " + from);
          statement.executeUpdate("UPDATE WrTransfers SET M = M + " + amount + ", N = N - " + amount
              + " WHERE Grp = 'p" + to % 4 + "' AND Id = " + to);
          connection.commit();
          committed.incrementAndGet();
        } catch (SQLException e) {
          connection.rollback();
        }
      }
    }
  }

  /** Reads every row again and again, by scans and by keys, noting any whose M and N are of different writes. */
  private static void read(AtomicBoolean stop, List<String> torn) throws SQLException {
    try (Connection connection = TestAccount.connect(SHORT_LEASE); Statement statement = connection.createStatement()) {
      int id = 0;
      while (!stop.get()) {
        for (String sql : List.of("SELECT Grp, Id, M, N FROM WrTransfers",
            "SELECT Grp, Id, M, N FROM WrTransfers WHERE Grp = 'p" + id % 4 + "' AND Id = " + id)) {
          try (ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next()) {
              if (rows.getInt(3) + rows.getInt(4) != 0) {
                torn.add(rows.getString(1) + "/" + rows.getInt(2) + ": M " + rows.getInt(3) + ", N " + rows.getInt(4));
              }
            }
          } catch (SQLException e) {
            if (!"40001".equals(e.getSQLState())) {
              throw e;
            }
          }
        }
        id = (id + 1) % ACCOUNTS;
      }
    }
  }
}
