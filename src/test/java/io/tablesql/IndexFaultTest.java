package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableItem;
import io.tablesql.testing.FaultyProxy;
import io.tablesql.testing.FaultyProxy.Fault;
import io.tablesql.testing.FaultyProxy.Request;
import io.tablesql.testing.QueryRuns;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * Indexes under failures and concurrency: every step of an indexed write (reading the
 * row, adding an entry, writing the row, removing the old entry) fails or loses its answer in
 * turn, and writers race on the same rows and values; afterwards every query through an index
 * returns exactly what a full scan returns (covering global indexes answering from their verified
 * entries), and ALTER INDEX ... VERIFY leaves no stale entry.
 */
class IndexFaultTest {
  private static final int VALUES = 5;

  @Test
  void injectedFailuresNeverMakeAnIndexDisagreeWithAScan() throws Exception {
    String table = "IxFaults";
    try (Connection direct = TestAccount.connect("indexGraceSeconds=0");
        Connection oracle = TestAccount.connect("pushdown=false");
        FaultyProxy proxy = new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port())) {
      create(direct, table);
      try (Connection faulty = FaultTest.connectThrough(proxy, "maxRetries=0", "indexGraceSeconds=0")) {
        Predicate<Request> toIndexes = request -> request.path().contains("/tsi");
        Predicate<Request> everyThird = FaultyProxy.everyNth(3);
        Predicate<Request> everyFifth = FaultyProxy.everyNth(5);
        Predicate<Request> everyFourth = FaultyProxy.everyNth(4);
        proxy.inject(Fault.LOSE_ANSWER, r -> toIndexes.test(r) && !r.method().equals("GET") && everyThird.test(r),
            Integer.MAX_VALUE);
        proxy.inject(Fault.BUSY, r -> toIndexes.test(r) && everyFifth.test(r), Integer.MAX_VALUE);
        proxy.inject(Fault.LOSE_ANSWER, r -> r.isBatch() && everyFourth.test(r), Integer.MAX_VALUE);
        proxy.inject(Fault.BUSY, FaultyProxy.everyNth(17), Integer.MAX_VALUE);
        int failed = randomWrites(faulty, table, new Random(11), 150);
        assertThat(failed).isGreaterThan(10);
        assertThat(proxy.faults()).isGreaterThan(30);
      }
      assertIndexesAgreeWithScans(direct, oracle, table);
      verifyLeavesNoStaleEntry(direct, table);
    }
  }

  @Test
  void concurrentWritersOfTheSameValuesLeaveIndexesExact() throws Exception {
    String table = "IxRaces";
    try (Connection direct = TestAccount.connect("indexGraceSeconds=0");
        Connection oracle = TestAccount.connect("pushdown=false")) {
      create(direct, table);
      ExecutorService threads = Executors.newFixedThreadPool(4);
      List<Future<Integer>> done = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int seed = t;
        done.add(threads.submit(() -> {
          try (Connection writer = TestAccount.connect()) {
            return randomWrites(writer, table, new Random(100 + seed), 40);
          }
        }));
      }
      for (Future<Integer> future : done) {
        future.get();
      }
      threads.shutdown();
      assertIndexesAgreeWithScans(direct, oracle, table);
      verifyLeavesNoStaleEntry(direct, table);
      // a UNIQUE value is held by one row at most, however the races went
      assertThat(QueryRuns.run(oracle, "SELECT Code, COUNT(*) FROM " + table + " WHERE Code IS NOT NULL "
          + "GROUP BY Code HAVING COUNT(*) > 1").rows()).isEmpty();
    }
  }

  @Test
  void ofTwoConcurrentInsertsOfOneUniqueValueExactlyOneWins() throws Exception {
    String table = "IxUnique";
    try (Connection direct = TestAccount.connect();
        Connection first = TestAccount.connect();
        Connection second = TestAccount.connect()) {
      try (Statement statement = direct.createStatement()) {
        statement.execute("CREATE TABLE " + table + " (Grp VARCHAR, Id INT, Code VARCHAR, PRIMARY KEY ((Grp), Id))");
        statement.execute("CREATE UNIQUE INDEX " + table + "Code ON " + table + " (Code)");
      }
      ExecutorService threads = Executors.newFixedThreadPool(2);
      for (int round = 0; round < 10; round++) {
        String insert = "INSERT INTO " + table + " (Grp, Id, Code) VALUES ('%s', " + round + ", 'v" + round + "')";
        List<Future<String>> outcomes = new ArrayList<>();
        for (Object[] writer : new Object[][] {{first, "a"}, {second, "b"}}) {
          outcomes.add(threads.submit(() -> {
            try (Statement statement = ((Connection) writer[0]).createStatement()) {
              statement.execute(String.format(insert, writer[1]));
              return "won";
            } catch (SQLException e) {
              return e.getSQLState();
            }
          }));
        }
        List<String> results = new ArrayList<>();
        for (Future<String> outcome : outcomes) {
          results.add(outcome.get());
        }
        assertThat(results).as("round " + round).containsOnlyOnce("won");
        assertThat(results).as("round " + round).containsAnyOf("23505", "40001");
        assertThat(QueryRuns.run(direct, "SELECT COUNT(*) FROM " + table + " WHERE Code = 'v" + round + "'").rows())
            .containsExactly("1");
      }
      threads.shutdown();
    }
  }

  /**
   * A writer slower than indexGraceSeconds between marking its row's old entry unverified and
   * writing the row: a reader meanwhile finds the entry settled (past the grace period, its row
   * still holding its values) and marks it verified. The writer, once its row is written, finds
   * the entry changed since its mark and marks it unverified again: no verified entry outlives
   * its row's values, so the old value finds no row.
   */
  @Test
  void aWriterSlowerThanTheGracePeriodLeavesNoVerifiedEntryBehind() throws Exception {
    String table = "IxSlow";
    try (Connection direct = TestAccount.connect("indexGraceSeconds=0"); Statement statement = direct.createStatement()) {
      statement.execute("CREATE TABLE " + table + " (Grp VARCHAR, Id INT, Val INT, Code VARCHAR, PRIMARY KEY ((Grp), Id))");
      statement.execute("INSERT INTO " + table + " VALUES ('a', 1, 2, 'x'), ('a', 2, 5, 'y')");
      statement.execute("CREATE INDEX " + table + "Wide ON " + table + " (Val) INCLUDE (Code) GLOBAL");
      statement.execute("ALTER INDEX " + table + "Wide VERIFY"); // every entry verified
    }
    try (Connection reader = TestAccount.connect("indexGraceSeconds=1");
        Connection oracle = TestAccount.connect("pushdown=false");
        FaultyProxy proxy = new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port())) {
      String byOld = "SELECT Id, Code FROM " + table + " WHERE Val = 2";
      assertThat(QueryRuns.explain(reader, byOld)).contains("covering");
      proxy.before(Request::isBatch, () -> {
        try {
          Thread.sleep(1500); // the row's write stalls past the grace period
          assertThat(QueryRuns.run(reader, byOld).rows()).containsExactly("1|x"); // and verifies the old entry
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      }, 1);
      try (Connection writer = FaultTest.connectThrough(proxy); Statement statement = writer.createStatement()) {
        statement.execute("UPDATE " + table + " SET Val = 3 WHERE Grp = 'a' AND Id = 1");
      }
      assertThat(QueryRuns.agreed(reader, oracle, byOld).rows()).isEmpty();
      assertThat(QueryRuns.agreed(reader, oracle, "SELECT Id, Code FROM " + table + " WHERE Val = 3").rows())
          .containsExactly("1|x");
    }
  }

  /**
   * A build inserts a covering index's entries verified, from rows it read a moment before. A
   * writer that changes or deletes a row in that moment keeps the row's old entry as an
   * unverified placeholder, so the build's insert of it fails and the entry stays unverified:
   * marked and deleted instead (as once the index is ready), the build's insert would leave the
   * old value verified, and a covered lookup would find the row by a value it no longer has.
   */
  @Test
  void aRowChangedWhileTheBuildIndexesItKeepsNoVerifiedOldEntry() throws Exception {
    try (Connection direct = TestAccount.connect(); Statement statement = direct.createStatement()) {
      statement.execute("CREATE TABLE IxBuilt (Grp VARCHAR(10), Id INT, Val INT, Code VARCHAR(10), "
          + "PRIMARY KEY ((Grp), Id))");
      statement.execute("INSERT INTO IxBuilt VALUES ('a', 1, 2, 'x'), ('a', 2, 5, 'y'), ('b', 3, 7, 'z')");
    }
    try (FaultyProxy proxy = new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port());
         Connection builder = FaultTest.connectThrough(proxy, "maxConcurrency=1")) {
      // the build has read the rows and is about to insert the first entry (row 1's, Val 2)
      proxy.before(r -> r.method().equals("POST") && r.path().toLowerCase(java.util.Locale.ROOT)
          .contains("/tsiixixbuiltixbuiltval"), () -> {
            // a catalog read now (the JVM's cache of the direct endpoint predates the index, as another
            // process's would: such writers do not keep the index until it expires, README says)
            try (Connection writer = TestAccount.connect("sampleSize=1991");
                 Statement statement = writer.createStatement()) {
              statement.execute("UPDATE IxBuilt SET Val = 3, Code = 'w' WHERE Grp = 'a' AND Id = 1");
              statement.execute("DELETE FROM IxBuilt WHERE Grp = 'b' AND Id = 3");
            } catch (SQLException e) {
              throw new IllegalStateException(e);
            }
          }, 1);
      try (Statement statement = builder.createStatement()) {
        statement.execute("CREATE INDEX IxBuiltVal ON IxBuilt (Val) INCLUDE (Code) GLOBAL");
      }
    }
    // a reader that never verifies an entry itself (its grace period is an hour)
    try (Connection reader = TestAccount.connect("indexGraceSeconds=3600", "sampleSize=1992");
         Connection oracle = TestAccount.connect("pushdown=false")) {
      String lookup = "SELECT Grp, Id, Code FROM IxBuilt WHERE Val = ";
      assertThat(QueryRuns.explain(reader, lookup + 2)).contains("covering");
      assertThat(QueryRuns.agreed(reader, oracle, lookup + 2).rows()).isEmpty();
      assertThat(QueryRuns.agreed(reader, oracle, lookup + 7).rows()).isEmpty();
      assertThat(QueryRuns.agreed(reader, oracle, lookup + 3).rows()).containsExactly("a|1|w");
      QueryRuns.Run untouched = QueryRuns.agreed(reader, oracle, lookup + 5);
      assertThat(untouched.rows()).containsExactly("a|2|y");
      assertThat(untouched.requests()).isEqualTo(1); // verified by the build
    }
  }

  /**
   * {@code ALTER INDEX ... REBUILD} of a ready covering index leaves a verified entry that holds
   * its row's values as it is (a covered lookup right after is one request), and repairs the
   * others: a verified entry with a value its row does not hold, and a missing entry.
   */
  @Test
  void aRebuildKeepsTheRightVerifiedEntriesAndRepairsTheOthers() throws Exception {
    try (Connection direct = TestAccount.connect(); Statement statement = direct.createStatement()) {
      statement.execute("CREATE TABLE IxRebuilt (Grp VARCHAR(10), Id INT, Val INT, Code VARCHAR(10), "
          + "PRIMARY KEY ((Grp), Id))");
      statement.execute("INSERT INTO IxRebuilt VALUES ('a', 1, 2, 'x'), ('a', 2, 5, 'y'), ('b', 3, 7, 'z')");
      statement.execute("CREATE INDEX IxRebuiltVal ON IxRebuilt (Val) INCLUDE (Code) GLOBAL");
    }
    String letters = "ixIxRebuiltIxRebuiltVal";
    assertThat(verifiedEntries(letters)).isEqualTo(3);
    com.azure.data.tables.TableClient entriesTable = entriesTableOf(letters);
    for (TableEntity entry : entriesOf(letters)) {
      if ("y".equals(entry.getProperty("Code"))) { // damaged: verified, with a value its row does not hold
        entriesTable.updateEntity(entry.addProperty("Code", "bad"), com.azure.data.tables.models.TableEntityUpdateMode.REPLACE);
      } else if ("z".equals(entry.getProperty("Code"))) { // lost
        entriesTable.deleteEntity(entry);
      }
    }
    try (Connection direct = TestAccount.connect(); Statement statement = direct.createStatement()) {
      statement.execute("ALTER INDEX IxRebuiltVal REBUILD");
    }
    // a reader that never verifies an entry itself (its grace period is an hour)
    try (Connection reader = TestAccount.connect("indexGraceSeconds=3600", "sampleSize=1993");
         Connection oracle = TestAccount.connect("pushdown=false")) {
      String lookup = "SELECT Grp, Id, Code FROM IxRebuilt WHERE Val = ";
      assertThat(QueryRuns.explain(reader, lookup + 2)).contains("covering");
      QueryRuns.Run kept = QueryRuns.agreed(reader, oracle, lookup + 2);
      assertThat(kept.rows()).containsExactly("a|1|x");
      assertThat(kept.requests()).as("still verified").isEqualTo(1);
      assertThat(QueryRuns.agreed(reader, oracle, lookup + 5).rows()).containsExactly("a|2|y");
      assertThat(QueryRuns.agreed(reader, oracle, lookup + 7).rows()).containsExactly("b|3|z");
    }
  }

  /**
   * A lookup of two values of a global index while a row moves from one to the other: its old
   * entry finds the row as it was, its new one the row as it is; the answer holds the row once.
   */
  @Test
  void aRowWhoseIndexedValueChangesDuringALookupIsGivenOnce() throws Exception {
    String table = "IxTwice";
    try (Connection direct = TestAccount.connect(); Statement statement = direct.createStatement()) {
      statement.execute("CREATE TABLE " + table + " (Grp VARCHAR, Id INT, Val INT, PRIMARY KEY ((Grp), Id))");
      statement.execute("INSERT INTO " + table + " VALUES ('a', 1, 2)");
      statement.execute("CREATE INDEX " + table + "Val ON " + table + " (Val) GLOBAL");
    }
    String lookup = "SELECT Grp, Id FROM " + table + " WHERE Val IN (2, 3)";
    String base = "http://127.0.0.1:" + TestAccount.emulator().port();
    try (FaultyProxy writerProxy = new FaultyProxy(base); FaultyProxy readerProxy = new FaultyProxy(base);
         Connection reader = FaultTest.connectThrough(readerProxy, "maxConcurrency=1")) {
      assertThat(QueryRuns.explain(reader, lookup)).contains("INDEX LOOKUP " + table + "Val");
      CountDownLatch readerAtSecondRow = new CountDownLatch(1);
      CountDownLatch rowWritten = new CountDownLatch(1);
      AtomicInteger rowReads = new AtomicInteger();
      readerProxy.before(r -> r.method().equals("GET") && !r.isQuery() && r.path().contains("/" + table + "(")
          && rowReads.incrementAndGet() == 2, () -> {
            readerAtSecondRow.countDown();
            awaitQuietly(rowWritten);
          }, 1);
      CompletableFuture<List<String>> answer = new CompletableFuture<>();
      // the writer has added the row's new entry and is about to write the row: the lookup finds
      // both entries, reads the row for the old one, and reads it for the new one once it is written
      writerProxy.before(Request::isBatch, () -> {
        new Thread(() -> {
          try {
            answer.complete(QueryRuns.run(reader, lookup).rows());
          } catch (Exception e) {
            answer.completeExceptionally(e);
          }
        }).start();
        awaitQuietly(readerAtSecondRow);
      }, 1);
      try (Connection writer = FaultTest.connectThrough(writerProxy); Statement statement = writer.createStatement()) {
        statement.execute("UPDATE " + table + " SET Val = 3 WHERE Grp = 'a' AND Id = 1");
      }
      rowWritten.countDown();
      assertThat(rowReads.get()).isGreaterThanOrEqualTo(2);
      assertThat(answer.get(30, TimeUnit.SECONDS)).containsExactly("a|1");
    }
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      assertThat(latch.await(20, TimeUnit.SECONDS)).isTrue();
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * An UPDATE through a covering index reads the rows, not the entries: it writes on the version
   * it read, so a concurrent change of the row in between fails its commit instead of being lost.
   */
  @Test
  void anUpdateThroughACoveringIndexLosesNoConcurrentWrite() throws Exception {
    String table = "IxLost";
    try (Connection first = TestAccount.connect("indexGraceSeconds=0"); Connection second = TestAccount.connect()) {
      try (Statement statement = first.createStatement()) {
        statement.execute("CREATE TABLE " + table + " (Grp VARCHAR, Id INT, Val INT, Price INT, PRIMARY KEY ((Grp), Id))");
        statement.execute("INSERT INTO " + table + " VALUES ('a', 1, 2, 10), ('b', 2, 2, 20), ('c', 3, 7, 30)");
        statement.execute("CREATE INDEX " + table + "Val ON " + table + " (Val) INCLUDE (Price)");
        statement.execute("ALTER INDEX " + table + "Val VERIFY");
      }
      first.setAutoCommit(false);
      try (Statement statement = first.createStatement(); Statement other = second.createStatement()) {
        statement.executeUpdate("UPDATE " + table + " SET Price = Price + 1 WHERE Val = 2");
        other.executeUpdate("UPDATE " + table + " SET Price = 100 WHERE Grp = 'a' AND Id = 1");
        assertThatThrownBy(first::commit).extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("40001");
      } finally {
        first.setAutoCommit(true);
      }
      assertThat(QueryRuns.run(second, "SELECT Grp, Price FROM " + table + " ORDER BY Grp").rows())
          .containsExactly("a|100", "b|20", "c|30");
    }
  }

  private static void create(Connection connection, String table) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE " + table + " (Grp VARCHAR, Id INT, Val INT, Code VARCHAR, "
          + "PRIMARY KEY ((Grp), Id))");
      statement.execute("INSERT INTO " + table + " (Grp, Id, Val, Code) VALUES ('a', 1, 1, 'c1'), ('a', 2, 2, 'c2'), "
          + "('b', 3, 1, NULL), ('b', 4, NULL, 'c4')");
      statement.execute("CREATE INDEX " + table + "Val ON " + table + " (Val)");
      statement.execute("CREATE UNIQUE INDEX " + table + "Code ON " + table + " (Code) INCLUDE (Val)");
      statement.execute("CREATE INDEX " + table + "Local ON " + table + " (Val) INCLUDE (Code) LOCAL");
      statement.execute("CREATE INDEX " + table + "Wide ON " + table + " (Val) INCLUDE (Code) GLOBAL");
    }
  }

  /** Random inserts, updates, upserts and deletes over a few rows and values; returns how many failed. */
  private static int randomWrites(Connection connection, String table, Random random, int count) {
    int failed = 0;
    for (int i = 0; i < count; i++) {
      String group = random.nextBoolean() ? "a" : "b";
      int id = random.nextInt(12);
      String val = random.nextInt(6) == 0 ? "NULL" : String.valueOf(random.nextInt(VALUES));
      String code = random.nextInt(4) == 0 ? "NULL" : "'c" + random.nextInt(15) + "'";
      String sql = switch (random.nextInt(6)) {
        case 0 -> "INSERT INTO " + table + " (Grp, Id, Val, Code) VALUES ('" + group + "', " + id + ", " + val + ", "
            + code + ")";
        case 1 -> "UPDATE " + table + " SET Val = " + val + " WHERE Grp = '" + group + "' AND Id = " + id;
        case 2 -> "UPDATE " + table + " SET Code = " + code + ", Val = " + val + " WHERE Grp = '" + group + "'"
            + " AND Id < " + id;
        case 3 -> "UPSERT INTO " + table + " (Grp, Id, Val, Code) VALUES ('" + group + "', " + id + ", " + val + ", "
            + code + ")";
        case 4 -> "DELETE FROM " + table + " WHERE Grp = '" + group + "' AND Id = " + id;
        default -> "INSERT INTO " + table + " (Grp, Id, Val) VALUES ('" + group + "', " + (100 + i) + ", " + val + "), "
            + "('" + group + "', " + (200 + i) + ", " + val + ")";
      };
      try (Statement statement = connection.createStatement()) {
        statement.execute(sql);
      } catch (SQLException e) {
        failed++;
      }
    }
    return failed;
  }

  private static void assertIndexesAgreeWithScans(Connection pushed, Connection oracle, String table)
      throws SQLException {
    for (int value = -1; value <= VALUES; value++) {
      String sql = "SELECT Grp, Id, Val, Code FROM " + table + " WHERE Val = " + value + " ORDER BY Grp, Id";
      assertThat(QueryRuns.explain(pushed, sql)).contains("INDEX LOOKUP " + table + "Wide").contains("covering");
      QueryRuns.agreed(pushed, oracle, sql);
    }
    QueryRuns.agreed(pushed, oracle, "SELECT Grp, Id FROM " + table + " WHERE Val BETWEEN 1 AND 3 ORDER BY Grp, Id");
    for (String group : List.of("a", "b")) {
      String covered = "SELECT Id, Val, Code FROM " + table + " WHERE Grp = '" + group + "' AND Val = 2 ORDER BY Id";
      assertThat(QueryRuns.explain(pushed, covered)).contains(table + "Local").contains("covering");
      QueryRuns.agreed(pushed, oracle, covered);
    }
    QueryRuns.agreed(pushed, oracle, "SELECT COUNT(*) FROM " + table);
    for (int code = 0; code < 15; code++) {
      QueryRuns.agreed(pushed, oracle, "SELECT Grp, Id, Val FROM " + table + " WHERE Code = 'c" + code + "'");
    }
  }

  /** VERIFY removes every stale entry; then each index holds exactly one entry per row with its values. */
  private static void verifyLeavesNoStaleEntry(Connection connection, String table) throws SQLException {
    for (String index : List.of(table + "Val", table + "Code", table + "Local", table + "Wide")) {
      QueryRuns.verify(connection, index); // removes what the faults left
      assertThat(QueryRuns.verify(connection, index)).contains("0 stale entries removed").doesNotContain("left");
    }
    long rowsWithVal = Long.parseLong(QueryRuns.run(connection, "SELECT COUNT(*) FROM " + table
        + " WHERE Val IS NOT NULL").rows().get(0));
    long rowsWithCode = Long.parseLong(QueryRuns.run(connection, "SELECT COUNT(*) FROM " + table
        + " WHERE Code IS NOT NULL").rows().get(0));
    assertThat(entries("ix" + table + table + "Val")).isEqualTo(rowsWithVal);
    assertThat(entries("ix" + table + table + "Code")).isEqualTo(rowsWithCode);
    assertThat(entries("ix" + table + table + "Wide")).isEqualTo(rowsWithVal);
    // past the grace period (0 here), VERIFY leaves every covering entry verified: reads trust them all
    assertThat(verifiedEntries("ix" + table + table + "Code")).isEqualTo(rowsWithCode);
    assertThat(verifiedEntries("ix" + table + table + "Wide")).isEqualTo(rowsWithVal);
  }

  /** The entities of the Azure table holding an index's entries. */
  private static long entries(String letters) {
    return entriesOf(letters).size();
  }

  /** The entries of a covering global index marked verified. */
  private static long verifiedEntries(String letters) {
    return entriesOf(letters).stream().filter(e -> Boolean.TRUE.equals(e.getProperty("TablesqlVerified"))).count();
  }

  private static List<TableEntity> entriesOf(String letters) {
    List<TableEntity> entries = new ArrayList<>();
    entriesTableOf(letters).listEntities().forEach(entries::add);
    return entries;
  }

  private static com.azure.data.tables.TableClient entriesTableOf(String letters) {
    for (TableItem item : TestAccount.service().listTables()) {
      if (item.getName().startsWith("tsi" + letters.substring(0, Math.min(40, letters.length())) + "x")) {
        return TestAccount.service().getTableClient(item.getName());
      }
    }
    throw new AssertionError("no entries table for " + letters);
  }
}
