package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.intent.Intent;
import io.tablesql.testing.FaultyProxy;
import io.tablesql.testing.TestAccount;
import io.tablesql.txn.RowMarks;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Readers see committed data only (docs/architecture/intents.md, "Readers see committed data only"): while a
 * transaction over two partitions has applied its groups but not passed its commit point (the
 * write of its intent's header), every read path of another connection sees the rows as they
 * were; after the commit point, as written; and a transaction that is undone is never seen.
 */
class ReadCommittedTest {
  private FaultyProxy proxy;

  @BeforeEach
  void startProxy() throws Exception {
    proxy = new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port());
  }

  @AfterEach
  void stopProxy() {
    proxy.close();
  }

  /** The first change of an intent's header after its groups: the commit point, or the decision to undo. */
  private static final Predicate<FaultyProxy.Request> HEADER_CHANGE = request -> !request.method().equals("GET")
      && !request.method().equals("DELETE") && request.path().contains(Intent.TABLE + "(");

  private static List<String> rows(Connection connection, String sql) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery(sql)) {
      while (result.next()) {
        StringBuilder row = new StringBuilder();
        for (int c = 1; c <= result.getMetaData().getColumnCount(); c++) {
          row.append(c == 1 ? "" : " ").append(result.getString(c));
        }
        rows.add(row.toString());
      }
    }
    return rows;
  }

  /** What a reader sees of the two accounts through every path: each query's rows, joined. */
  private static List<String> everyPath(Connection reader, String table) throws SQLException {
    List<String> seen = new ArrayList<>();
    seen.add("point " + rows(reader, "SELECT N FROM " + table + " WHERE PartitionKey = 'p1' AND RowKey = 'a'"));
    seen.add("points " + rows(reader, "SELECT RowKey, N FROM " + table + " WHERE (PartitionKey = 'p1' AND RowKey = 'a')"
        + " OR (PartitionKey = 'p2' AND RowKey = 'b') ORDER BY RowKey"));
    seen.add("partition " + rows(reader, "SELECT RowKey, N FROM " + table + " WHERE PartitionKey = 'p2'"));
    seen.add("filtered " + rows(reader, "SELECT RowKey FROM " + table + " WHERE N = 100 ORDER BY RowKey"));
    seen.add("sum " + rows(reader, "SELECT SUM(N) FROM " + table));
    seen.add("join " + rows(reader, "SELECT x.RowKey, y.RowKey FROM " + table + " x JOIN " + table
        + " y ON x.N = y.N AND x.RowKey < y.RowKey"));
    return seen;
  }

  private static List<String> before() {
    return List.of("point [100]", "points [a 100, b 100]", "partition [b 100]", "filtered [a, b]", "sum [200]",
        "join [a b]");
  }

  /** What a check running at the commit point saw (or the failure it met). */
  private interface Look {
    List<String> see() throws Exception;
  }

  /**
   * Runs {@code look} once, just before the writer's intent header first changes after its groups
   * (its commit point, or the decision to undo); the result holds what it saw, asserted free of failures.
   */
  private java.util.function.Supplier<List<String>> atTheCommitPoint(Look look) {
    return beforeTheFirst(HEADER_CHANGE, look);
  }

  /** Runs {@code look} once, just before the first request {@code which} takes; the result as {@link #atTheCommitPoint}'s. */
  private java.util.function.Supplier<List<String>> beforeTheFirst(Predicate<FaultyProxy.Request> which, Look look) {
    AtomicReference<List<String>> seen = new AtomicReference<>();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    proxy.before(which, () -> {
      try {
        seen.set(look.see());
      } catch (Throwable e) {
        failure.set(e);
      }
    }, 1);
    return () -> {
      assertThat(failure.get()).isNull();
      return seen.get();
    };
  }

  /** What a write on {@code connection} comes to: "written", or its SQLSTATE. */
  private static String outcome(Connection connection, String sql) {
    try (Statement statement = connection.createStatement()) {
      statement.executeUpdate(sql);
      return "written";
    } catch (SQLException e) {
      return e.getSQLState();
    }
  }

  /** Runs two statements in one transaction of {@code writer}, to be committed by the caller. */
  private static void twoStatements(Connection writer, String first, String second) throws SQLException {
    writer.setAutoCommit(false);
    try (Statement statement = writer.createStatement()) {
      statement.executeUpdate(first);
      statement.executeUpdate(second);
    }
  }

  private static final String TAKE_FROM_A = "UPDATE %s SET N = N - 10 WHERE PartitionKey = 'p1' AND RowKey = 'a'";
  private static final String GIVE_TO_B = "UPDATE %s SET N = N + 10 WHERE PartitionKey = 'p2' AND RowKey = 'b'";

  /** Two accounts, a and b, of 100 each, in two partitions of a new raw table. */
  private static TableClient twoAccounts(String prefix) {
    return TestAccount.newTable(prefix, new TableEntity("p1", "a").addProperty("N", 100),
        new TableEntity("p2", "b").addProperty("N", 100));
  }

  /**
   * Runs {@code first} and {@code second} (formats of the table's name) as one transaction over the
   * two partitions: every path of a reader, and of the pushdown-off oracle, sees the accounts as
   * before at the commit point, and {@code after} once committed. Returns the table.
   */
  private TableClient readAsBeforeThenAsWritten(String prefix, String first, String second, List<String> after)
      throws Exception {
    TableClient table = twoAccounts(prefix);
    String name = table.getTableName();
    try (Connection writer = FaultTest.connectThrough(proxy); Connection reader = TestAccount.connect();
         Connection oracle = TestAccount.connect("pushdown=false")) {
      var during = atTheCommitPoint(() -> List.of(everyPath(reader, name).toString(),
          everyPath(oracle, name).toString()));
      twoStatements(writer, first.formatted(name), second.formatted(name));
      writer.commit();
      // both groups were applied when the readers looked: each row carried the intent's mark
      assertThat(during.get()).containsExactly(before().toString(), before().toString());
      assertThat(everyPath(reader, name)).isEqualTo(after);
      assertThat(everyPath(oracle, name)).isEqualTo(after);
    }
    return table;
  }

  /**
   * Runs {@code first} and {@code second} as one transaction whose second group is refused (b
   * changes after it was read), so that the first is undone: never seen, during the undo or after.
   */
  private void neverSeenWhenUndone(String prefix, String first, String second) throws Exception {
    TableClient table = twoAccounts(prefix);
    String name = table.getTableName();
    try (Connection writer = FaultTest.connectThrough(proxy); Connection reader = TestAccount.connect()) {
      var duringUndo = atTheCommitPoint(() -> everyPath(reader, name));
      twoStatements(writer, first.formatted(name), second.formatted(name));
      table.updateEntity(new TableEntity("p2", "b").addProperty("N", 100));
      assertThatThrownBy(writer::commit).isInstanceOfSatisfying(SQLException.class,
          e -> assertThat(e.getSQLState()).isEqualTo("40001"));
      assertThat(duringUndo.get()).isEqualTo(before());
      assertThat(everyPath(reader, name)).isEqualTo(before());
    }
  }

  @Test
  void aTransactionAppliedButNotCommittedIsReadAsBeforeOnEveryPathThenAsWritten() throws Exception {
    TableClient table = readAsBeforeThenAsWritten("ReadCommitted", TAKE_FROM_A, GIVE_TO_B, List.of("point [90]",
        "points [a 90, b 110]", "partition [b 110]", "filtered []", "sum [200]", "join []"));
    // a raw table is the application's: no mark is left on it once the commit has returned
    table.listEntities().forEach(entity -> assertThat(entity.getProperties()).doesNotContainKey(RowMarks.MARK));
  }

  /** A row read as it was before keeps that version's Timestamp (its write's ETag names it), not the uncommitted write's. */
  @Test
  void aRowReadAsBeforeHasItsCommittedTimestamp() throws Exception {
    String name = twoAccounts("RcStamp").getTableName();
    String stamp = "SELECT \"Timestamp\" FROM " + name + " WHERE PartitionKey = 'p1' AND RowKey = 'a'";
    try (Connection writer = FaultTest.connectThrough(proxy); Connection reader = TestAccount.connect()) {
      List<String> committed = rows(reader, stamp);
      var during = atTheCommitPoint(() -> rows(reader, stamp));
      Thread.sleep(20); // the write's Timestamp differs from the committed one
      twoStatements(writer, TAKE_FROM_A.formatted(name), GIVE_TO_B.formatted(name));
      writer.commit();
      assertThat(during.get()).isEqualTo(committed);
      assertThat(rows(reader, stamp)).isNotEqualTo(committed);
    }
  }

  @Test
  void aTransactionThatIsUndoneIsNeverSeen() throws Exception {
    neverSeenWhenUndone("ReadUndone", TAKE_FROM_A, GIVE_TO_B);
  }

  /** A write started at the commit point: its outcome, and whether it had ended when the commit went on. */
  private record Waiting(java.util.concurrent.CompletableFuture<String> outcome, AtomicReference<Boolean> endedEarly) {
    String get() throws Exception {
      return outcome.get(60, java.util.concurrent.TimeUnit.SECONDS);
    }
  }

  /** Starts {@code write} at the commit point, and lets the commit go on half a second later. */
  private Waiting startedAtTheCommitPoint(java.util.function.Supplier<String> write) {
    return startedAtTheCommitPoint(write, 500);
  }

  /** Starts {@code write} at the commit point, and lets the commit go on {@code millis} later. */
  private Waiting startedAtTheCommitPoint(java.util.function.Supplier<String> write, long millis) {
    java.util.concurrent.CompletableFuture<String> outcome = new java.util.concurrent.CompletableFuture<>();
    AtomicReference<Boolean> endedEarly = new AtomicReference<>();
    proxy.before(HEADER_CHANGE, () -> {
      java.util.concurrent.CompletableFuture.supplyAsync(write).whenComplete((done, failure) -> {
        if (failure != null) {
          outcome.completeExceptionally(failure);
        } else {
          outcome.complete(done);
        }
      });
      try {
        Thread.sleep(millis); // the write reads the rows as before, and waits
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      endedEarly.set(outcome.isDone());
    }, 1);
    return new Waiting(outcome, endedEarly);
  }

  /**
   * A write of rows another transaction is writing waits until it has committed, then goes on
   * with the rows as committed (as PostgreSQL's writers wait for a row's lock): nothing is lost,
   * and the application sees no error.
   */
  @Test
  void aWriteOfRowsAnotherTransactionIsWritingWaitsForItsCommitThenGoesOn() throws Exception {
    TableClient table = twoAccounts("WriteUncommitted");
    String name = table.getTableName();
    try (Connection writer = FaultTest.connectThrough(proxy); Connection other = TestAccount.connect()) {
      Waiting waiting = startedAtTheCommitPoint(() -> outcome(other, "UPDATE " + name + " SET N = N + 1 WHERE N >= 90"));
      twoStatements(writer, TAKE_FROM_A.formatted(name), GIVE_TO_B.formatted(name));
      writer.commit();
      assertThat(waiting.get()).isEqualTo("written");
      assertThat(waiting.endedEarly().get()).isFalse(); // it waited for the commit point
      assertThat(rows(other, "SELECT RowKey, N FROM " + name + " ORDER BY RowKey")).containsExactly("a 91", "b 111");
    }
  }

  /** A write waiting for another's commit stops at its query timeout (HYT00), and writes nothing. */
  @Test
  void aWaitingWriteStopsAtItsQueryTimeout() throws Exception {
    TableClient table = twoAccounts("WriteUncommittedTimeout");
    String name = table.getTableName();
    try (Connection writer = FaultTest.connectThrough(proxy); Connection other = TestAccount.connect()) {
      Waiting waiting = startedAtTheCommitPoint(() -> {
        try (Statement statement = other.createStatement()) {
          statement.setQueryTimeout(1);
          statement.executeUpdate("UPDATE " + name + " SET N = N + 1 WHERE RowKey = 'a'");
          return "written";
        } catch (SQLException e) {
          return e.getSQLState();
        }
      }, 4000);
      twoStatements(writer, TAKE_FROM_A.formatted(name), GIVE_TO_B.formatted(name));
      writer.commit();
      assertThat(waiting.get()).isEqualTo("HYT00");
      assertThat(waiting.endedEarly().get()).isTrue(); // it stopped before the commit went on
      assertThat(rows(other, "SELECT RowKey, N FROM " + name + " ORDER BY RowKey")).containsExactly("a 90", "b 110");
    }
  }

  /**
   * In a transaction too, a write that waited for another goes on once that has ended, on the
   * row as committed (PostgreSQL's READ COMMITTED): the statement runs again, and the
   * transaction's earlier writes are kept.
   */
  @Test
  void aTransactionsWriteThatWaitedGoesOnWithTheRowAsCommitted() throws Exception {
    TableClient table = twoAccounts("WriteUncommittedInTransaction");
    String name = table.getTableName();
    try (Connection writer = FaultTest.connectThrough(proxy); Connection other = TestAccount.connect()) {
      other.setAutoCommit(false);
      assertThat(outcome(other, "UPDATE " + name + " SET N = N + 5 WHERE PartitionKey = 'p2' AND RowKey = 'b'"))
          .isEqualTo("written"); // read before the transfer: its commit fails below (b changed)
      Waiting waiting = startedAtTheCommitPoint(() -> outcome(other, "UPDATE " + name + " SET N = N + 1 WHERE RowKey = 'a'"));
      twoStatements(writer, TAKE_FROM_A.formatted(name), GIVE_TO_B.formatted(name));
      writer.commit();
      assertThat(waiting.get()).isEqualTo("written");
      assertThat(waiting.endedEarly().get()).isFalse();
      assertThat(rows(other, "SELECT RowKey, N FROM " + name + " ORDER BY RowKey")).as("its own writes")
          .containsExactly("a 91", "b 105");
      assertThatThrownBy(other::commit).isInstanceOfSatisfying(SQLException.class,
          e -> assertThat(e.getSQLState()).isEqualTo("40001"));
      other.rollback();
      assertThat(outcome(other, "UPDATE " + name + " SET N = N + 1 WHERE RowKey = 'a'")).isEqualTo("written");
      other.commit();
      assertThat(rows(other, "SELECT RowKey, N FROM " + name + " ORDER BY RowKey")).containsExactly("a 91", "b 110");
    }
  }

  /**
   * An INSERT of a key that a transaction in flight inserts waits until that transaction has
   * ended: committed, the key is taken (23505, not 40001); as before, a second INSERT is 23505.
   */
  @Test
  void anInsertOfAKeyAnUncommittedTransactionInsertsWaitsThenFindsItTaken() throws Exception {
    TableClient table = TestAccount.newTable("InsertUncommitted", new TableEntity("p1", "a").addProperty("N", 100));
    String name = table.getTableName();
    try (Connection writer = FaultTest.connectThrough(proxy); Connection other = TestAccount.connect()) {
      String insertB = "INSERT INTO " + name + " (PartitionKey, RowKey, N) VALUES ('p2', 'b', 1)";
      Waiting insert = startedAtTheCommitPoint(() -> outcome(other, insertB));
      twoStatements(writer, TAKE_FROM_A.formatted(name),
          "INSERT INTO " + name + " (PartitionKey, RowKey, N) VALUES ('p2', 'b', 10)");
      writer.commit();
      assertThat(insert.get()).isEqualTo("23505"); // the committed row holds the key
      assertThat(insert.endedEarly().get()).isFalse(); // it waited for the commit
      assertThat(outcome(other, insertB)).isEqualTo("23505");
      assertThat(rows(other, "SELECT RowKey, N FROM " + name + " WHERE PartitionKey = 'p2'")).containsExactly("b 10");
    }
  }

  @Test
  void aDeclaredTableWithAnIndexIsReadAsCommittedThroughTheIndex() throws Exception {
    String name = "RcDeclared" + System.nanoTime() % 1_000_000;
    try (Connection setup = TestAccount.connect(); Statement ddl = setup.createStatement()) {
      // a covering global index: a lookup through it by a row's old value finds the row as committed
      ddl.execute("CREATE TABLE " + name + " (Id INTEGER, Region VARCHAR, Owner VARCHAR, N INTEGER, PRIMARY KEY ((Id)))");
      ddl.execute("CREATE INDEX " + name + "Owner ON " + name + " (Owner) INCLUDE (N) GLOBAL");
      ddl.executeUpdate("INSERT INTO " + name + " VALUES (1, 'x', 'ann', 100), (2, 'y', 'bob', 100)");
    }
    try (Connection writer = FaultTest.connectThrough(proxy); Connection reader = TestAccount.connect();
         Statement ddl = reader.createStatement()) {
      var during = atTheCommitPoint(() -> List.of(
          "owner " + rows(reader, "SELECT Id, N FROM " + name + " WHERE Owner = 'ann'"),
          "old owner " + rows(reader, "SELECT Id, N FROM " + name + " WHERE Owner = 'bob'"),
          "new owner " + rows(reader, "SELECT Id, N FROM " + name + " WHERE Owner = 'cid'"),
          "key " + rows(reader, "SELECT Owner, N FROM " + name + " WHERE Id = 2"),
          "all " + rows(reader, "SELECT Id, Owner, N FROM " + name + " ORDER BY Id")));
      twoStatements(writer, "UPDATE " + name + " SET N = 50 WHERE Id = 1",
          "UPDATE " + name + " SET Owner = 'cid', N = 150 WHERE Id = 2");
      writer.commit();
      assertThat(during.get()).containsExactly("owner [1 100]", "old owner [2 100]", "new owner []",
          "key [bob 100]", "all [1 ann 100, 2 bob 100]");
      assertThat(rows(reader, "SELECT Id, N FROM " + name + " WHERE Owner = 'bob'")).isEmpty();
      assertThat(rows(reader, "SELECT Id, N FROM " + name + " WHERE Owner = 'cid'")).containsExactly("2 150");
      assertThat(rows(reader, "SELECT Id, Owner, N FROM " + name + " ORDER BY Id"))
          .containsExactly("1 ann 50", "2 cid 150");
      ddl.execute("DROP TABLE " + name);
    }
  }

  @Test
  void aCoveringLocalIndexIsReadAsCommitted() throws Exception {
    String name = "RcLocal" + System.nanoTime() % 1_000_000;
    try (Connection setup = TestAccount.connect(); Statement ddl = setup.createStatement()) {
      ddl.execute("CREATE TABLE " + name + " (Grp VARCHAR, Id INTEGER, Region VARCHAR, N INTEGER, "
          + "PRIMARY KEY ((Grp), Id))");
      ddl.execute("CREATE INDEX " + name + "Region ON " + name + " (Region) INCLUDE (N) LOCAL");
      ddl.executeUpdate("INSERT INTO " + name + " VALUES ('g1', 1, 'x', 100), ('g2', 2, 'y', 100)");
    }
    java.util.function.BinaryOperator<String> byRegion = (group, region) -> "SELECT Id, N FROM " + name
        + " WHERE Grp = '" + group + "' AND Region = '" + region + "'";
    try (Connection writer = FaultTest.connectThrough(proxy); Connection reader = TestAccount.connect()) {
      assertThat(rows(reader, "EXPLAIN PLAN FOR " + byRegion.apply("g2", "y")))
          .singleElement().asString().contains("INDEX LOOKUP " + name + "Region");
      var during = atTheCommitPoint(() -> List.of(
          rows(reader, byRegion.apply("g2", "y")).toString(),
          rows(reader, byRegion.apply("g1", "z")).toString(),
          rows(reader, byRegion.apply("g1", "x")).toString()));
      twoStatements(writer, "UPDATE " + name + " SET Region = 'z' WHERE Grp = 'g1' AND Id = 1",
          "UPDATE " + name + " SET N = 150 WHERE Grp = 'g2' AND Id = 2");
      writer.commit();
      // the entries the intent wrote carry its mark, and the one it replaced is kept until its
      // commit point: their rows are read as committed, so the old value finds the row meanwhile
      assertThat(during.get()).containsExactly("[2 100]", "[]", "[1 100]");
      assertThat(rows(reader, byRegion.apply("g2", "y"))).containsExactly("2 150");
      assertThat(rows(reader, byRegion.apply("g1", "z"))).containsExactly("1 100");
      assertThat(rows(reader, byRegion.apply("g1", "x"))).isEmpty();
      try (Statement ddl = reader.createStatement()) {
        ddl.execute("DROP TABLE " + name);
      }
    }
  }

  private static final String DELETE_A = "DELETE FROM %s WHERE PartitionKey = 'p1' AND RowKey = 'a'";

  /** A delete of a transaction in flight is a tombstone until its commit point: readers see the row until then. */
  @Test
  void aDeleteNotCommittedIsReadAsBeforeOnEveryPathThenAsDeleted() throws Exception {
    TableClient table = readAsBeforeThenAsWritten("ReadDelete", DELETE_A, GIVE_TO_B, List.of("point []",
        "points [b 110]", "partition [b 110]", "filtered []", "sum [110]", "join []"));
    // the application's table holds neither the tombstone nor a mark once the commit has returned
    List<TableEntity> left = new ArrayList<>();
    table.listEntities().forEach(left::add);
    assertThat(left).singleElement().satisfies(entity -> {
      assertThat(entity.getRowKey()).isEqualTo("b");
      assertThat(entity.getProperties()).doesNotContainKeys(RowMarks.MARK, RowMarks.DELETED);
    });
  }

  @Test
  void aDeleteThatIsUndoneIsNeverSeen() throws Exception {
    neverSeenWhenUndone("DeleteUndone", DELETE_A, GIVE_TO_B);
  }

  /**
   * A tombstone left behind a commit (its removal failed; recovery would remove it) is a deleted
   * row: readers do not see it, and an INSERT or an UPSERT of its key writes the row.
   */
  @Test
  void aTombstoneLeftBehindACommitIsADeletedRow() throws Exception {
    TableClient table = TestAccount.newTable("TombstoneLeft", new TableEntity("p1", "a").addProperty("N", 100),
        new TableEntity("p1", "c").addProperty("N", 100), new TableEntity("p2", "b").addProperty("N", 100));
    String name = table.getTableName();
    String id;
    try (Connection writer = FaultTest.connectThrough(proxy, "maxRetries=0"); Connection other = TestAccount.connect()) {
      // from the commit point on, the tombstones' removal (in a group, then one by one) and the intent's fail
      proxy.before(HEADER_CHANGE, () -> proxy.inject(FaultyProxy.Fault.BUSY, request -> request.isBatch()
          || request.method().equals("DELETE") && request.path().contains(name), 1000), 1);
      writer.setAutoCommit(false);
      try (Statement statement = writer.createStatement()) {
        statement.executeUpdate("DELETE FROM " + name + " WHERE PartitionKey = 'p1'");
        statement.executeUpdate(GIVE_TO_B.formatted(name));
      }
      writer.commit();
      proxy.clearFaults();
      assertThat(table.getEntity("p1", "a").getProperties()).containsKeys(RowMarks.MARK, RowMarks.DELETED);
      // the clearing failed: the intent is kept, committed, for recovery to clear what is left
      id = (String) table.getEntity("p1", "a").getProperty(RowMarks.MARK);
      rows(writer, "SELECT COUNT(*) FROM " + name); // after the work behind the commit
      assertThat(TestAccount.service().getTableClient(Intent.TABLE).getEntity(id, "header").getProperty("state"))
          .isEqualTo("committed");
      assertThat(rows(other, "SELECT RowKey, N FROM " + name + " ORDER BY RowKey")).containsExactly("b 110");
      assertThat(rows(other, "SELECT COUNT(*) FROM " + name + " WHERE PartitionKey = 'p1'")).containsExactly("0");
      assertThat(outcome(other, "INSERT INTO " + name + " (PartitionKey, RowKey, N) VALUES ('p1', 'a', 7)"))
          .isEqualTo("written");
      assertThat(outcome(other, "UPSERT INTO " + name + " (PartitionKey, RowKey, N) VALUES ('p1', 'c', 8)"))
          .isEqualTo("written");
      assertThat(rows(other, "SELECT RowKey, N FROM " + name + " ORDER BY RowKey"))
          .containsExactly("a 7", "b 110", "c 8");
      assertThat(table.getEntity("p1", "a").getProperties()).doesNotContainKeys(RowMarks.MARK, RowMarks.DELETED);
    }
    // what recovery does with it once its lease has run out (IntentCrashIT): here, so that no other
    // test's recovery meets it through that test's proxy
    TableClient intents = TestAccount.service().getTableClient(Intent.TABLE);
    intents.listEntities(new com.azure.data.tables.models.ListEntitiesOptions()
        .setFilter("PartitionKey eq '" + id + "'"), null, null).forEach(intents::deleteEntity);
  }

  @Test
  void aDeclaredTableDeleteIsReadAsBeforeThroughKeysAndIndexesThenAsDeleted() throws Exception {
    String name = "RcDelete" + System.nanoTime() % 1_000_000;
    try (Connection setup = TestAccount.connect(); Statement ddl = setup.createStatement()) {
      ddl.execute("CREATE TABLE " + name + " (Id INTEGER, Owner VARCHAR, N INTEGER, PRIMARY KEY ((Id)))");
      ddl.execute("CREATE INDEX " + name + "Owner ON " + name + " (Owner) GLOBAL");
      ddl.executeUpdate("INSERT INTO " + name + " VALUES (1, 'ann', 100), (2, 'bob', 100)");
    }
    try (Connection writer = FaultTest.connectThrough(proxy); Connection reader = TestAccount.connect();
         Statement ddl = reader.createStatement()) {
      var during = atTheCommitPoint(() -> List.of(
          "owner " + rows(reader, "SELECT Id, N FROM " + name + " WHERE Owner = 'ann'"),
          "key " + rows(reader, "SELECT Owner, N FROM " + name + " WHERE Id = 1"),
          "all " + rows(reader, "SELECT Id, Owner, N FROM " + name + " ORDER BY Id")));
      writer.setAutoCommit(false);
      try (Statement statement = writer.createStatement()) {
        statement.executeUpdate("DELETE FROM " + name + " WHERE Id IN (1, 2)");
      }
      writer.commit();
      assertThat(during.get()).containsExactly("owner [1 100]", "key [ann 100]", "all [1 ann 100, 2 bob 100]");
      assertThat(rows(reader, "SELECT Id, N FROM " + name + " WHERE Owner = 'ann'")).isEmpty();
      assertThat(rows(reader, "SELECT Owner, N FROM " + name + " WHERE Id = 1")).isEmpty();
      assertThat(rows(reader, "SELECT Id FROM " + name)).isEmpty();
      ddl.executeUpdate("INSERT INTO " + name + " VALUES (1, 'cid', 5)");
      assertThat(rows(reader, "SELECT Id, N FROM " + name + " WHERE Owner = 'cid'")).containsExactly("1 5");
      ddl.execute("DROP TABLE " + name);
    }
  }

  /** A LOCAL index that covers nothing: a lookup by a row's old value finds it until the commit point, not after. */
  @Test
  void aLocalIndexFindsARowByItsOldValueUntilTheCommitPoint() throws Exception {
    String name = "RcLocalOld" + System.nanoTime() % 1_000_000;
    try (Connection setup = TestAccount.connect(); Statement ddl = setup.createStatement()) {
      ddl.execute("CREATE TABLE " + name + " (Grp VARCHAR, Id INTEGER, Region VARCHAR, N INTEGER, "
          + "PRIMARY KEY ((Grp), Id))");
      ddl.execute("CREATE INDEX " + name + "Region ON " + name + " (Region) LOCAL");
      ddl.executeUpdate("INSERT INTO " + name + " VALUES ('g1', 1, 'x', 100), ('g2', 2, 'y', 100)");
    }
    String byOldRegion = "SELECT Id, Region FROM " + name + " WHERE Grp = 'g1' AND Region = 'x'";
    try (Connection writer = FaultTest.connectThrough(proxy); Connection reader = TestAccount.connect()) {
      assertThat(rows(reader, "EXPLAIN PLAN FOR " + byOldRegion)).singleElement().asString()
          .contains("INDEX LOOKUP " + name + "Region");
      var during = atTheCommitPoint(() -> rows(reader, byOldRegion));
      twoStatements(writer, "UPDATE " + name + " SET Region = 'z' WHERE Grp = 'g1' AND Id = 1",
          "DELETE FROM " + name + " WHERE Grp = 'g2' AND Id = 2");
      writer.commit();
      assertThat(during.get()).containsExactly("1 x");
      assertThat(rows(reader, byOldRegion)).isEmpty();
      assertThat(rows(reader, "SELECT Id, Region FROM " + name + " WHERE Grp = 'g1' AND Region = 'z'"))
          .containsExactly("1 z");
      assertThat(rows(reader, "SELECT Id FROM " + name + " WHERE Grp = 'g2' AND Region = 'y'")).isEmpty();
      try (Statement ddl = reader.createStatement()) {
        ddl.execute("DROP TABLE " + name);
      }
    }
  }

  /**
   * An INSERT that meets a settled intent's tombstone (a deleted row whose removal is under way)
   * writes its row, also when the removal lands between its refusal (409) and its look at the key:
   * the key is free, not a duplicate.
   */
  @Test
  void anInsertOverATombstoneRemovedMeanwhileIsWritten() throws Exception {
    TableClient table = TestAccount.newTable("RcGoneTombstone", new TableEntity("p1", "a")
        .addProperty(RowMarks.MARK, "a-settled-intent").addProperty(RowMarks.DELETED, true));
    String name = table.getTableName();
    try (Connection writer = FaultTest.connectThrough(proxy)) {
      proxy.before(request -> request.method().equals("GET") && request.path().contains(name + "(")
          && request.path().contains("RowKey"),
          () -> table.deleteEntity("p1", "a"), 1);
      assertThat(outcome(writer, "INSERT INTO " + name + " (PartitionKey, RowKey, N) VALUES ('p1', 'a', 7)"))
          .isEqualTo("written");
      assertThat(rows(writer, "SELECT RowKey, N FROM " + name)).containsExactly("a 7");
    } finally {
      proxy.clearFaults();
    }
  }

  /**
   * ALTER INDEX ... VERIFY leaves the entries of rows an intent in flight is writing: an old entry
   * is the committed row's (an undo would put its value back), so a lookup by the old value still
   * finds the row while the intent has not committed, however long past indexGraceSeconds.
   */
  @Test
  void verifyLeavesTheEntriesOfRowsAnIntentInFlightWrites() throws Exception {
    String name = "RcVerify" + System.nanoTime() % 1_000_000;
    try (Connection setup = TestAccount.connect(); Statement ddl = setup.createStatement()) {
      ddl.execute("CREATE TABLE " + name + " (Grp VARCHAR, Id INTEGER, Region VARCHAR, PRIMARY KEY ((Grp), Id))");
      ddl.execute("CREATE INDEX " + name + "Region ON " + name + " (Region)");
      ddl.executeUpdate("INSERT INTO " + name + " VALUES ('g1', 1, 'x'), ('g2', 2, 'y')");
    }
    String byOldRegion = "SELECT Id FROM " + name + " WHERE Region = 'x'";
    try (Connection writer = FaultTest.connectThrough(proxy); Connection reader = TestAccount.connect();
        Connection verifier = TestAccount.connect("indexGraceSeconds=0")) {
      var during = atTheCommitPoint(() -> {
        try (Statement statement = verifier.createStatement()) {
          statement.execute("ALTER INDEX " + name + "Region VERIFY");
          return List.of(statement.getWarnings().getMessage(), "old " + rows(reader, byOldRegion));
        }
      });
      twoStatements(writer, "UPDATE " + name + " SET Region = 'z' WHERE Grp = 'g1' AND Id = 1",
          "UPDATE " + name + " SET Region = 'w' WHERE Grp = 'g2' AND Id = 2");
      writer.commit();
      assertThat(during.get().get(0)).contains("0 stale entries removed");
      assertThat(during.get().get(1)).isEqualTo("old [1]");
      assertThat(rows(reader, byOldRegion)).isEmpty();
      assertThat(rows(reader, "SELECT Id FROM " + name + " WHERE Region = 'z'")).containsExactly("1");
    }
  }

  /**
   * A UNIQUE global index keeps a row's old value until the commit point: a lookup by it finds
   * the row as committed, another transaction that wants the value is told to retry (40001)
   * rather than given a value the row may yet get back; once committed the value is free and the
   * kept entry gone. (A value passed between two rows of one transaction, which
   * CrossPartitionWriteTest covers, names the row taking it from that row's group on.)
   */
  @Test
  void aUniqueIndexFindsARowByItsOldValueUntilTheCommitPoint() throws Exception {
    String name = "RcUnique" + System.nanoTime() % 1_000_000;
    try (Connection setup = TestAccount.connect(); Statement ddl = setup.createStatement()) {
      ddl.execute("CREATE TABLE " + name + " (Grp VARCHAR, Id INTEGER, Email VARCHAR, N INTEGER, "
          + "PRIMARY KEY ((Grp), Id))");
      ddl.execute("CREATE UNIQUE INDEX " + name + "Email ON " + name + " (Email)");
      ddl.executeUpdate("INSERT INTO " + name + " VALUES ('g1', 1, 'a@x', 0), ('g2', 2, 'b@x', 0)");
    }
    String byOld = "SELECT Id, Email FROM " + name + " WHERE Email = 'a@x'";
    try (Connection writer = FaultTest.connectThrough(proxy); Connection reader = TestAccount.connect()) {
      assertThat(rows(reader, "EXPLAIN PLAN FOR " + byOld)).singleElement().asString()
          .contains("INDEX LOOKUP " + name + "Email");
      assertThat(seenAtTheCommitPoint(writer, reader, byOld, "SELECT Id FROM " + name + " WHERE Email = 'c@x'",
          "INSERT INTO " + name + " VALUES ('g3', 3, 'a@x', 0)",
          "UPDATE " + name + " SET Email = 'c@x' WHERE Grp = 'g1' AND Id = 1",
          "UPDATE " + name + " SET N = 1 WHERE Grp = 'g2' AND Id = 2"))
          .containsExactly("old [1 a@x]", "new []", "taken 40001");
      assertThat(rows(reader, byOld)).isEmpty();
      assertThat(rows(reader, "SELECT Id FROM " + name + " WHERE Email = 'c@x'")).containsExactly("1");
      assertThat(outcome(reader, "INSERT INTO " + name + " VALUES ('g3', 3, 'a@x', 0)")).as("a@x is free")
          .isEqualTo("written");
      assertThat(outcome(reader, "INSERT INTO " + name + " VALUES ('g4', 4, 'c@x', 0)")).isEqualTo("23505");
      rows(writer, "SELECT COUNT(*) FROM " + name); // after the writer's clearing behind its commit
      try (Statement statement = reader.createStatement()) {
        statement.execute("ALTER INDEX " + name + "Email VERIFY");
        StringBuilder warnings = new StringBuilder();
        for (java.sql.SQLWarning w = statement.getWarnings(); w != null; w = w.getNextWarning()) {
          warnings.append(w.getMessage()).append('\n');
        }
        assertThat(warnings).as("no entry left behind").contains("3 entries checked, 0 stale entries removed.");
        statement.execute("DROP TABLE " + name);
      }
    }
  }

  /**
   * An application's own index entities, adopted as a LOCAL index of a table mapped over its data:
   * while a transaction over two partitions that changes a row's email is in flight, a lookup by
   * the old email finds the row as committed, and another row cannot take that email (it may come
   * back); after the commit the new email finds it, and no entity of the application's keeps a
   * property of tablesql's: every copy is its row's exact copy again.
   */
  @Test
  void anAdoptedIndexFindsARowByItsOldValueUntilTheCommitPointAndKeepsNoMark() throws Exception {
    TableEntity ann = new TableEntity("Sales", "empid_000101").addProperty("EmployeeId", "000101")
        .addProperty("Email", "ann@x").addProperty("N", 1);
    TableEntity bob = new TableEntity("Finance", "empid_000102").addProperty("EmployeeId", "000102")
        .addProperty("Email", "bob@x").addProperty("N", 1);
    TableClient raw = TestAccount.newTable("RcAdopted", ann, bob, copy(ann), copy(bob));
    String name = mappedWithAdoptedEmails(raw, "RcAdopted");
    String byOld = "SELECT EmployeeId, Email FROM " + name + " WHERE Dept = 'Sales' AND Email = 'ann@x'";
    try (Connection writer = FaultTest.connectThrough(proxy); Connection reader = TestAccount.connect()) {
      assertThat(rows(reader, "EXPLAIN PLAN FOR " + byOld)).singleElement().asString()
          .contains("INDEX LOOKUP " + name + "Email");
      assertThat(seenAtTheCommitPoint(writer, reader, byOld,
          "SELECT EmployeeId FROM " + name + " WHERE Dept = 'Sales' AND Email = 'ann@y'",
          "INSERT INTO " + name + " VALUES ('Sales', 103, 'ann@x', 1)",
          "UPDATE " + name + " SET Email = 'ann@y' WHERE Dept = 'Sales' AND EmployeeId = 101",
          "UPDATE " + name + " SET N = 2 WHERE Dept = 'Finance' AND EmployeeId = 102"))
          .containsExactly("old [101 ann@x]", "new []", "taken 40001");
      assertThat(rows(reader, byOld)).isEmpty();
      assertThat(rows(reader, "SELECT EmployeeId FROM " + name + " WHERE Dept = 'Sales' AND Email = 'ann@y'"))
          .containsExactly("101");
      assertThat(entities(raw)).containsExactlyInAnyOrder(
          "Finance/email_bob@x {Email=bob@x, EmployeeId=000102, N=2}",
          "Finance/empid_000102 {Email=bob@x, EmployeeId=000102, N=2}",
          "Sales/email_ann@y {Email=ann@y, EmployeeId=000101, N=1}",
          "Sales/empid_000101 {Email=ann@y, EmployeeId=000101, N=1}");

      // undone (bob changed behind the transaction's back): the copies are as they were, unmarked
      twoStatements(writer, "UPDATE " + name + " SET Email = 'ann@z' WHERE Dept = 'Sales' AND EmployeeId = 101",
          "UPDATE " + name + " SET N = 3 WHERE Dept = 'Finance' AND EmployeeId = 102");
      raw.updateEntity(new TableEntity("Finance", "empid_000102").addProperty("N", 5));
      assertThatThrownBy(writer::commit).isInstanceOfSatisfying(SQLException.class,
          e -> assertThat(e.getSQLState() + " " + e.getMessage()).startsWith("40001"));
      assertThat(entities(raw)).containsExactlyInAnyOrder(
          "Finance/email_bob@x {Email=bob@x, EmployeeId=000102, N=2}",
          "Finance/empid_000102 {Email=bob@x, EmployeeId=000102, N=5}",
          "Sales/email_ann@y {Email=ann@y, EmployeeId=000101, N=1}",
          "Sales/empid_000101 {Email=ann@y, EmployeeId=000101, N=1}");
      try (Statement ddl = reader.createStatement()) {
        ddl.execute("DROP TABLE " + name);
      }
    }
  }

  /**
   * Two writers that both find an adopted value free cannot both take it: the copy is inserted
   * where none was read (it was an unconditional replace, so the later writer overwrote the
   * earlier one's copy and both rows kept the value, one of them unfound by it).
   */
  @Test
  void twoWritersCannotBothTakeAnAdoptedValue() throws Exception {
    TableEntity ann = new TableEntity("Sales", "empid_000101").addProperty("EmployeeId", "000101")
        .addProperty("Email", "ann@x").addProperty("N", 1);
    TableClient raw = TestAccount.newTable("RcTaken", ann, copy(ann));
    String name = mappedWithAdoptedEmails(raw, "RcTaken");
    try (Connection writer = FaultTest.connectThrough(proxy); Connection other = TestAccount.connect()) {
      // after the writer found the value free, just before its row and copy are sent, another takes it
      var taken = beforeTheFirst(FaultyProxy.Request::isBatch,
          () -> List.of(outcome(other, "INSERT INTO " + name + " VALUES ('Sales', 104, 'cat@x', 1)")));
      try (Statement statement = writer.createStatement()) {
        assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO " + name + " VALUES ('Sales', 103, 'cat@x', 1)"))
            .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("23505"))
            .hasMessageContaining("RowKey 'empid_000104'");
      }
      assertThat(taken.get()).containsExactly("written");
      assertThat(rows(other, "SELECT EmployeeId FROM " + name + " WHERE Dept = 'Sales' AND Email = 'cat@x'"))
          .containsExactly("104");
      assertThat(entities(raw)).containsExactlyInAnyOrder(
          "Sales/email_ann@x {Email=ann@x, EmployeeId=000101, N=1}",
          "Sales/empid_000101 {Email=ann@x, EmployeeId=000101, N=1}",
          "Sales/email_cat@x {Email=cat@x, EmployeeId=000104, N=1}",
          "Sales/empid_000104 {Email=cat@x, EmployeeId=000104, N=1}");
      try (Statement ddl = other.createStatement()) {
        ddl.execute("DROP TABLE " + name);
      }
    }
  }

  /**
   * A table mapped over the application's employees in {@code raw} (RowKey {@code empid_000101},
   * the id also a property) with their copies by e-mail adopted as a LOCAL index; its name.
   */
  private static String mappedWithAdoptedEmails(TableClient raw, String prefix) throws SQLException {
    String name = prefix + System.nanoTime() % 1_000_000;
    try (Connection setup = TestAccount.connect(); Statement ddl = setup.createStatement()) {
      ddl.execute("CREATE TABLE " + name + " (Dept VARCHAR, EmployeeId INT, Email VARCHAR, N INT) OVER "
          + raw.getTableName() + " PARTITION KEY '{Dept}' ROW KEY 'empid_{EmployeeId:6}' KEY PROPERTIES (EmployeeId)");
      ddl.execute("CREATE INDEX " + name + "Email ON " + name + " (Email) LOCAL ROW KEY 'email_{Email}'");
    }
    return name;
  }

  /** Each entity of an Azure table with every property it holds but its keys and Timestamp. */
  private static List<String> entities(TableClient raw) {
    List<String> entities = new ArrayList<>();
    raw.listEntities().forEach(e -> {
      java.util.Map<String, Object> properties = new java.util.TreeMap<>(e.getProperties());
      properties.keySet().removeIf(property -> List.of("PartitionKey", "RowKey", "Timestamp").contains(property)
          || property.startsWith("odata.") || property.contains("@odata."));
      entities.add(e.getPartitionKey() + "/" + e.getRowKey() + " " + properties);
    });
    return entities;
  }

  /** The application's copy of an employee under its email, in its partition. */
  private static TableEntity copy(TableEntity employee) {
    TableEntity copy = new TableEntity(employee.getPartitionKey(), "email_" + employee.getProperty("Email"));
    employee.getProperties().forEach((property, value) -> {
      if (!property.equals("PartitionKey") && !property.equals("RowKey")) {
        copy.addProperty(property, value);
      }
    });
    return copy;
  }

  /**
   * Commits {@code first; second} on {@code writer}; returns what {@code reader} saw at the commit
   * point: the rows {@code byOld} and {@code byNew} find, and what the INSERT {@code takeOld} came to.
   */
  private List<String> seenAtTheCommitPoint(Connection writer, Connection reader, String byOld, String byNew,
      String takeOld, String first, String second) throws Exception {
    var during = atTheCommitPoint(() -> List.of("old " + rows(reader, byOld), "new " + rows(reader, byNew),
        "taken " + outcome(reader, takeOld)));
    twoStatements(writer, first, second);
    writer.commit();
    return during.get();
  }

  /**
   * A transaction that passed a UNIQUE value from one row to another is undone: while its groups
   * are undone the value stays held (the second row's undo keeps its entry as the intent's
   * tombstone, which the first row's undo takes back), so another transaction cannot take it in
   * between and leave the undo unable to finish; no tombstone is left behind.
   */
  @Test
  void aUniqueValueAnUndoneTransactionPassedIsNeverFreeDuringTheUndo() throws Exception {
    String name = emails("RcUndoPass", "g2");
    try (Connection setup = TestAccount.connect(); Statement statement = setup.createStatement()) {
      statement.executeUpdate("INSERT INTO " + name + " VALUES ('g3', 3, 'z@x')");
    }
    java.util.concurrent.atomic.AtomicInteger undoBatches = new java.util.concurrent.atomic.AtomicInteger(-1);
    // between the undo's two groups: the first read once its first group is written
    var taken = beforeTheFirst(request -> {
      if (HEADER_CHANGE.test(request)) {
        undoBatches.compareAndSet(-1, 0);
      }
      if (request.isBatch() && undoBatches.get() >= 0) {
        undoBatches.incrementAndGet();
      }
      return undoBatches.get() == 1 && request.method().equals("GET");
    }, () -> {
      try (Connection other = TestAccount.connect()) {
        return List.of(outcome(other, "INSERT INTO " + name + " VALUES ('g4', 4, 'a@x')"));
      }
    });
    try (Connection writer = FaultTest.connectThrough(proxy, "maxConcurrency=1");
         Connection other = TestAccount.connect(); Statement statement = writer.createStatement()) {
      writer.setAutoCommit(false);
      statement.executeUpdate("UPDATE " + name + " SET Email = 'c@x' WHERE Grp = 'g1' AND Id = 1");
      statement.executeUpdate("UPDATE " + name + " SET Email = 'a@x' WHERE Grp = 'g2' AND Id = 2");
      statement.executeUpdate("UPDATE " + name + " SET Email = 'y@x' WHERE Grp = 'g3' AND Id = 3");
      assertThat(outcome(other, "UPDATE " + name + " SET Email = 'w@x' WHERE Grp = 'g3' AND Id = 3"))
          .as("changes a row the transaction read").isEqualTo("written");
      assertThatThrownBy(writer::commit).isInstanceOfSatisfying(SQLException.class,
          e -> assertThat(e.getSQLState() + " " + e.getMessage()).startsWith("40001"));
      assertThat(taken.get()).as("a@x during the undo: held for the row it goes back to").containsExactly("40001");
      assertThat(rows(other, "SELECT Grp, Id, Email FROM " + name + " ORDER BY Id"))
          .containsExactly("g1 1 a@x", "g2 2 b@x", "g3 3 w@x");
      assertThat(rows(other, "SELECT Id FROM " + name + " WHERE Email = 'a@x'")).containsExactly("1");
      assertThat(outcome(other, "INSERT INTO " + name + " VALUES ('g4', 4, 'a@x')")).isEqualTo("23505");
      assertThat(outcome(other, "INSERT INTO " + name + " VALUES ('g4', 4, 'c@x')")).isEqualTo("written");
      try (Statement verify = other.createStatement()) {
        verify.execute("ALTER INDEX " + name + "Email VERIFY");
        assertThat(verify.getWarnings().getMessage()).as("no entry left behind")
            .contains("4 rows indexed, 4 entries checked, 0 stale entries removed");
        verify.execute("DROP TABLE " + name);
      }
    }
  }

  /**
   * A transaction over two partitions of the application's own table: its commit clears the
   * marks before it returns, from the ETags the groups' answers gave (the rows are not read
   * again), and a property the writer's shape does not know stays on its row.
   */
  @Test
  void aCommitClearsTheApplicationsRowsWithoutReadingThemAgain() throws Exception {
    TableClient table = twoAccounts("RcClearing");
    String name = table.getTableName();
    try (Connection writer = FaultTest.connectThrough(proxy)) {
      assertThat(rows(writer, "SELECT SUM(N) FROM " + name)).containsExactly("200"); // its shape: N
      table.updateEntity(new TableEntity("p2", "b").addProperty("Rare", "kept"),
          com.azure.data.tables.models.TableEntityUpdateMode.MERGE);
      twoStatements(writer, TAKE_FROM_A.formatted(name), GIVE_TO_B.formatted(name));
      int before = proxy.seen().size();
      writer.commit();
      List<FaultyProxy.Request> commit = new ArrayList<>(proxy.seen().subList(before, proxy.seen().size()));
      assertThat(commit).filteredOn(r -> r.method().equals("GET") && r.path().contains(name + "(")).isEmpty();
      assertThat(entities(table)).containsExactlyInAnyOrder("p1/a {N=90}", "p2/b {N=110, Rare=kept}");
    }
  }

  /** A declared table with a UNIQUE index on Email: row ('g1', 1, 'a@x') and row ({@code secondGroup}, 2, 'b@x'). */
  private static String emails(String prefix, String secondGroup) throws SQLException {
    String name = prefix + System.nanoTime() % 1_000_000;
    try (Connection setup = TestAccount.connect(); Statement ddl = setup.createStatement()) {
      ddl.execute("CREATE TABLE " + name + " (Grp VARCHAR, Id INTEGER, Email VARCHAR, PRIMARY KEY ((Grp), Id))");
      ddl.execute("CREATE UNIQUE INDEX " + name + "Email ON " + name + " (Email)");
      ddl.executeUpdate("INSERT INTO " + name + " VALUES ('g1', 1, 'a@x'), ('" + secondGroup + "', 2, 'b@x')");
    }
    return name;
  }

  /**
   * A UNIQUE value one transaction passes from one row to another has one entry, naming the row
   * taking it, while the transaction is in flight: a lookup by that value still finds the row
   * holding it as committed (the transaction's rows before), and the taker once it has committed.
   */
  @Test
  void aUniqueValuePassedBetweenRowsOfOneIntentIsFoundAtItsCommittedRow() throws Exception {
    String name = emails("RcPassed", "g2");
    String byPassed = "SELECT Id, Email FROM " + name + " WHERE Email = 'a@x'";
    try (Connection writer = FaultTest.connectThrough(proxy); Connection reader = TestAccount.connect()) {
      var during = atTheCommitPoint(() -> List.of("passed " + rows(reader, byPassed),
          "freed " + rows(reader, "SELECT Id FROM " + name + " WHERE Email = 'b@x'")));
      twoStatements(writer, "UPDATE " + name + " SET Email = 'c@x' WHERE Grp = 'g1' AND Id = 1",
          "UPDATE " + name + " SET Email = 'a@x' WHERE Grp = 'g2' AND Id = 2");
      writer.commit();
      assertThat(during.get()).containsExactly("passed [1 a@x]", "freed [2]");
      assertThat(rows(reader, byPassed)).containsExactly("2 a@x");
      assertThat(rows(reader, "SELECT Id FROM " + name + " WHERE Email = 'b@x'")).isEmpty();
    }
  }

  /**
   * A UNIQUE value passed between two rows of one partition (one entity group transaction, no
   * intent): its entry names the row taking it before the group is written. A lookup by the value
   * in between finds the row that holds it, not nothing; then the row taking it.
   */
  @Test
  void aUniqueValuePassedWithinOneGroupIsFoundAtItsHolderUntilTheGroupIsWritten() throws Exception {
    String name = emails("RcWithin", "g1");
    String byPassed = "SELECT Id, Email FROM " + name + " WHERE Email = 'a@x'";
    try (Connection writer = FaultTest.connectThrough(proxy); Connection reader = TestAccount.connect()) {
      var during = beforeTheFirst(FaultyProxy.Request::isBatch, () -> rows(reader, byPassed));
      twoStatements(writer, "UPDATE " + name + " SET Email = 'c@x' WHERE Grp = 'g1' AND Id = 1",
          "UPDATE " + name + " SET Email = 'a@x' WHERE Grp = 'g1' AND Id = 2");
      writer.commit();
      assertThat(during.get()).containsExactly("1 a@x");
      assertThat(rows(reader, byPassed)).containsExactly("2 a@x");
      // as a writer that died after taking the entry over leaves it (its group never written): the
      // entry names row 2, which does not hold the value, and row 1 still does
      TableClient base = TestAccount.service().getTableClient(name);
      for (TableEntity row : base.listEntities()) { // the key columns are in the keys: the rows by their values
        Object email = row.getProperty("Email");
        if ("c@x".equals(email) || "a@x".equals(email)) {
          base.updateEntity(new TableEntity(row.getPartitionKey(), row.getRowKey())
              .addProperty("Email", "c@x".equals(email) ? "a@x" : "z@x"));
        }
      }
      assertThat(rows(reader, byPassed)).containsExactly("1 a@x");
    }
    try (Connection verifier = TestAccount.connect("indexGraceSeconds=0", "sampleSize=779");
         Statement statement = verifier.createStatement()) {
      Thread.sleep(1100);
      statement.execute("ALTER INDEX " + name + "Email VERIFY");
      assertThat(rows(verifier, byPassed)).containsExactly("1 a@x");
    }
  }

  /**
   * A writer that stopped before its commit point leaves its rows marked: another writer that
   * meets a mark of its intent once the lease has run out settles it, as recovery would (here:
   * every group was applied, so it commits), and its statement's retry goes on.
   */
  @Test
  void aWriterSettlesTheExpiredIntentOfAStoppedWriterItMeets() throws Exception {
    TableClient table = twoAccounts("ExpiredIntent");
    String name = table.getTableName();
    try (Connection writer = FaultTest.connectThrough(proxy, "maxRetries=0", "intentLeaseSeconds=2",
        "requestTimeoutSeconds=1")) {
      // the commit point's write is refused: the intent stays applying, every group applied
      proxy.inject(FaultyProxy.Fault.BUSY, HEADER_CHANGE, 1);
      twoStatements(writer, TAKE_FROM_A.formatted(name), GIVE_TO_B.formatted(name));
      assertThatThrownBy(writer::commit).isInstanceOfSatisfying(SQLException.class,
          e -> assertThat(e.getSQLState()).isEqualTo("08007"));
    }
    Thread.sleep(3_500); // past the lease, as the service's clock (whole seconds) tells
    try (Connection other = TestAccount.connect("intentLeaseSeconds=2", "requestTimeoutSeconds=1")) {
      String update = "UPDATE " + name + " SET N = N + 1 WHERE PartitionKey = 'p1' AND RowKey = 'a'";
      String first = outcome(other, update);
      assertThat(first).isIn("40001", "written");
      if (first.equals("40001")) {
        assertThat(outcome(other, update)).isEqualTo("written");
      }
      assertThat(rows(other, "SELECT RowKey, N FROM " + name + " ORDER BY RowKey")).containsExactly("a 91", "b 110");
    }
  }

  /**
   * An upsert of keys only (in merge mode, a write of nothing) of a row an intent in flight wrote
   * leaves the intent's mark, so an undo still puts the row back; after a delete's commit it
   * writes the row again over the tombstone.
   */
  @Test
  void anUpsertOfKeysOnlyLeavesAnIntentsMarkAndRevivesADeletedRow() throws Exception {
    TableClient table = twoAccounts("KeysOnlyUpsert");
    String name = table.getTableName();
    String keysOnly = "UPSERT INTO " + name + " (PartitionKey, RowKey) VALUES ('p1', 'a')";
    try (Connection writer = FaultTest.connectThrough(proxy); Connection other = TestAccount.connect()) {
      var upsert = atTheCommitPoint(() -> List.of(outcome(other, keysOnly)));
      twoStatements(writer, TAKE_FROM_A.formatted(name), GIVE_TO_B.formatted(name));
      table.updateEntity(new TableEntity("p2", "b").addProperty("N", 100)); // b's group is refused, a's undone
      assertThatThrownBy(writer::commit).isInstanceOfSatisfying(SQLException.class,
          e -> assertThat(e.getSQLState()).isEqualTo("40001"));
      assertThat(upsert.get()).containsExactly("written");
      assertThat(rows(other, "SELECT RowKey, N FROM " + name + " ORDER BY RowKey")).containsExactly("a 100", "b 100");
      try (Statement statement = writer.createStatement()) {
        writer.setAutoCommit(true);
        statement.executeUpdate("DELETE FROM " + name + " WHERE N = 100"); // over both partitions: tombstones
      }
      assertThat(outcome(other, keysOnly)).isEqualTo("written");
      assertThat(rows(other, "SELECT RowKey, N FROM " + name + " ORDER BY RowKey")).containsExactly("a null");
    }
  }
}
