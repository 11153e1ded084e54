package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablesql.testing.FaultyProxy.Fault;
import io.tablesql.testing.FaultyProxy;
import io.tablesql.testing.KilledWriter;
import io.tablesql.testing.PendingIntents;
import io.tablesql.testing.QueryRuns;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Read committed under faults, with readers running (issue 43): transactions move amounts between
 * accounts in different partitions, stamp both rows with the transaction's tag, bump their
 * versions and insert the tag as a receipt (three entity groups through one intent). Some run in
 * writer JVMs with the driver jar alone, killed ({@code destroyForcibly}) at random moments; some
 * in this JVM through a proxy that loses every fifth batch's answer; many are refused by conflicts.
 * Meanwhile readers read the accounts through every path: point and partition lookups, table and
 * split scans, a global index by the tags being written, and the pushdown-off oracle.
 *
 * <p>Afterwards, once every intent is settled, the receipts are exactly the committed
 * transactions, and: no reader saw a tag without a receipt (no dirty read, no undone write); no
 * reader saw a row's version go back (nothing read was later undone, nothing committed was lost
 * from view); every commit that returned has its receipt; the total is conserved; and the versions
 * add up to two per receipt (no committed update lost).
 */
class ReadCommittedCrashIT {
  private static final int ACCOUNTS = 8;
  private static final int BALANCE = 1000;
  /** A short lease so that killed writers' intents are settled within the test. */
  private static final String[] SHORT_LEASE = {"intentLeaseSeconds=4", "requestTimeoutSeconds=2",
      "indexGraceSeconds=3"};

  private final Set<Long> seenTags = ConcurrentHashMap.newKeySet();
  private final Set<Long> returnedCommits = ConcurrentHashMap.newKeySet();
  private final List<String> violations = java.util.Collections.synchronizedList(new ArrayList<>());
  /** The tag each in-process writer is writing now: readers look it up by the index before it commits. */
  private final Map<Integer, Long> inFlight = new ConcurrentHashMap<>();
  private final AtomicLong reads = new AtomicLong();
  private final AtomicBoolean stop = new AtomicBoolean();

  @Test
  void noReaderSeesAWriteThatDoesNotCommit() throws Exception {
    String prefix = TestAccount.newTable("RcCrash").getTableName();
    String accounts = prefix + "Acc";
    String receipts = prefix + "Done";
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE " + accounts + " (P VARCHAR, A INT, N INT, V INT, Tag BIGINT, "
          + "PRIMARY KEY ((P), A))");
      statement.execute("CREATE INDEX " + accounts + "ByTag ON " + accounts + " (Tag)");
      statement.execute("CREATE TABLE " + receipts + " (Tag BIGINT PRIMARY KEY)");
      for (int a = 0; a < ACCOUNTS; a++) {
        statement.executeUpdate("INSERT INTO " + accounts + " VALUES ('p" + a % 4 + "', " + a + ", " + BALANCE
            + ", 0, 0)");
      }
      assertThat(QueryRuns.explain(connection, "SELECT P, A FROM " + accounts + " WHERE Tag = 1"))
          .as("the readers' lookup by tag").contains("INDEX LOOKUP");
    }
    KilledWriter writer = KilledWriter.of("TransferWriter");
    ExecutorService threads = Executors.newFixedThreadPool(5);
    List<Future<?>> runs = new ArrayList<>();
    try (FaultyProxy proxy = new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port())) {
      java.util.function.Predicate<FaultyProxy.Request> nth = FaultyProxy.everyNth(5);
      proxy.inject(Fault.LOSE_ANSWER, request -> request.isBatch() && nth.test(request), Integer.MAX_VALUE);
      for (int w = 0; w < 2; w++) {
        int id = w;
        runs.add(threads.submit(() -> {
          transfers(proxy, accounts, receipts, id);
          return null;
        }));
      }
      for (int r = 0; r < 3; r++) {
        int id = r;
        runs.add(threads.submit(() -> {
          read(accounts, id);
          return null;
        }));
      }
      Random random = new Random(43);
      for (int round = 0; round < 5; round++) {
        // then dies anywhere: in a statement, recording, applying, clearing
        writer.runAndKill(List.of(TestAccount.url(SHORT_LEASE), accounts, receipts,
            String.valueOf(1_000_000L * (round + 1)), String.valueOf(ACCOUNTS)), 1500, random, returnedCommits::add);
      }
      stop.set(true);
      for (Future<?> run : runs) {
        run.get(120, TimeUnit.SECONDS);
      }
    } finally {
      threads.shutdownNow();
    }
    PendingIntents.awaitRecovery(prefix, 40, SHORT_LEASE);
    assertOutcome(accounts, receipts);
  }

  /** Transfers of an in-process writer through the proxy that loses answers, until told to stop. */
  private void transfers(FaultyProxy proxy, String accounts, String receipts, int writer) throws SQLException {
    Random random = new Random(writer);
    try (Connection connection = FaultTest.connectThrough(proxy, SHORT_LEASE);
         PreparedStatement move = connection.prepareStatement(
             "UPDATE " + accounts + " SET N = N + ?, V = V + 1, Tag = ? WHERE P = ? AND A = ?");
         PreparedStatement receipt = connection.prepareStatement("INSERT INTO " + receipts + " VALUES (?)")) {
      connection.setAutoCommit(false);
      for (long tag = 100_000L * (writer + 1); !stop.get(); tag++) {
        inFlight.put(writer, tag);
        int from = random.nextInt(ACCOUNTS);
        int to = (from + 1 + 2 * random.nextInt(ACCOUNTS / 2 - 1)) % ACCOUNTS;
        int amount = 1 + random.nextInt(50);
        try {
          for (int[] side : new int[][] {{from, -amount}, {to, amount}}) {
            move.setInt(1, side[1]);
            move.setLong(2, tag);
            move.setString(3, "p" + side[0] % 4);
            move.setInt(4, side[0]);
            move.executeUpdate();
          }
          receipt.setLong(1, tag);
          receipt.executeUpdate();
          connection.commit();
          returnedCommits.add(tag);
        } catch (SQLException e) {
          connection.rollback();
        }
      }
    }
  }

  /** A reader: every path in turn, each row checked against what this reader saw of it before. */
  private void read(String accounts, int reader) throws SQLException {
    Random random = new Random(100 + reader);
    Map<String, Integer> versions = new HashMap<>();
    String columns = "SELECT P, A, N, V, Tag FROM " + accounts;
    try (Connection pushed = TestAccount.connect(SHORT_LEASE);
         Connection split = TestAccount.connect(concat(SHORT_LEASE, "scanSplits=4"));
         Connection oracle = TestAccount.connect(concat(SHORT_LEASE, "pushdown=false"))) {
      for (int i = 0; !stop.get(); i++) {
        int account = random.nextInt(ACCOUNTS);
        Long writing = inFlight.get(random.nextInt(2));
        String sql;
        Connection on = pushed;
        switch (i % 6) {
          case 0 -> sql = columns + " WHERE P = 'p" + account % 4 + "' AND A = " + account;
          case 1 -> sql = columns + " WHERE P = 'p" + account % 4 + "'";
          case 2 -> sql = columns;
          case 3 -> {
            sql = columns;
            on = split;
          }
          case 4 -> sql = columns + " WHERE Tag = " + (writing == null ? 0 : writing);
          default -> {
            sql = columns + " WHERE A = " + account;
            on = oracle;
          }
        }
        try (Statement statement = on.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
          while (rows.next()) {
            String key = rows.getString(1) + "/" + rows.getInt(2);
            int version = rows.getInt(4);
            long tag = rows.getLong(5);
            seenTags.add(tag);
            Integer before = versions.put(key, version);
            if (before != null && version < before) {
              violations.add("reader " + reader + " saw " + key + " at version " + version + " after " + before
                  + " (" + sql + ")");
            }
          }
          reads.incrementAndGet();
        } catch (SQLException e) {
          violations.add("reader " + reader + ": " + e.getSQLState() + " " + e.getMessage() + " (" + sql + ")");
        }
      }
    }
  }

  private static String[] concat(String[] first, String more) {
    String[] all = java.util.Arrays.copyOf(first, first.length + 1);
    all[first.length] = more;
    return all;
  }

  private void assertOutcome(String accounts, String receipts) throws SQLException {
    try (Connection connection = TestAccount.connect()) {
      Set<Long> committed = new HashSet<>();
      for (String row : QueryRuns.run(connection, "SELECT Tag FROM " + receipts).rows()) {
        committed.add(Long.parseLong(row));
      }
      System.out.printf("%d transfers committed, %d commits returned, %d reads, %d tags seen%n", committed.size(),
          returnedCommits.size(), reads.get(), seenTags.size());
      assertThat(reads.get()).as("reads made").isGreaterThan(50);
      assertThat(violations).as("reads that went wrong").isEmpty();
      Set<Long> uncommittedSeen = new HashSet<>(seenTags);
      uncommittedSeen.remove(0L);
      uncommittedSeen.removeAll(committed);
      assertThat(uncommittedSeen).as("tags read of transactions that never committed").isEmpty();
      assertThat(committed).as("every commit that returned").containsAll(returnedCommits);
      long total = 0;
      long versions = 0;
      for (String row : QueryRuns.run(connection, "SELECT N, V, Tag FROM " + accounts).rows()) {
        String[] values = row.split("\\|");
        total += Long.parseLong(values[0]);
        versions += Long.parseLong(values[1]);
        long tag = Long.parseLong(values[2]);
        assertThat(tag == 0 || committed.contains(tag)).as("row's tag %s committed", tag).isTrue();
      }
      assertThat(total).as("the total").isEqualTo((long) ACCOUNTS * BALANCE);
      assertThat(versions).as("two versions per committed transfer (%s)", committed.size())
          .isEqualTo(2L * committed.size());
      assertThat(committed.size()).as("transfers committed").isGreaterThan(10);
    }
  }
}
