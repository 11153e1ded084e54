package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.testing.FaultyProxy.Fault;
import io.tablesql.testing.FaultyProxy;
import io.tablesql.testing.QueryRuns;
import io.tablesql.testing.TestAccount;
import io.tablesql.txn.RowMarks;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Writes that span entity groups, all or nothing through durable intents: statements and
 * transactions that commit whole or leave nothing, conflicts that undo the groups already
 * applied, and recovery by another connection of an intent whose committer could not finish.
 */
class CrossPartitionWriteTest {
  /** A short lease, so recovery runs within a test; requests time out within half of it. */
  private static final String[] SHORT_LEASE = {"intentLeaseSeconds=2", "requestTimeoutSeconds=1"};

  private static String values(int rows, int partitions, String prefix) {
    StringBuilder values = new StringBuilder();
    for (int i = 0; i < rows; i++) {
      values.append(i == 0 ? "" : ", ").append("('p").append(i % partitions).append("', '").append(prefix)
          .append(String.format("%03d", i)).append("', ").append(i).append(')');
    }
    return values.toString();
  }

  private static Map<String, Object> contents(TableClient table) {
    Map<String, Object> rows = new TreeMap<>();
    table.listEntities().forEach(e -> rows.put(e.getPartitionKey() + "/" + e.getRowKey(), e.getProperty("N")));
    return rows;
  }

  /**
   * The intents in flight or parked. Committed ones whose clearing is still to finish (another
   * test's, whose clearing a fault stopped: recovery finishes it once its lease has run out) are
   * left out: they are no one's pending write.
   */
  private static List<String> pendingWrites(Connection connection) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Statement statement = connection.createStatement();
         ResultSet result = statement.executeQuery("SELECT id, state, tables, entities, reason FROM "
             + "tablesql.pending_writes WHERE state <> 'committed'")) {
      while (result.next()) {
        rows.add(result.getString("state") + " " + result.getString("tables") + " " + result.getInt("entities"));
      }
    }
    return rows;
  }

  @Test
  void aStatementOverSeveralPartitionsCommitsWholeForTwoRequestsMore() throws SQLException {
    TableClient table = TestAccount.newTable("Span");
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      assertThat(statement.executeUpdate("INSERT INTO " + table.getTableName() + " (PartitionKey, RowKey, N) VALUES "
          + values(100, 5, "r"))).isEqualTo(100);
      // five entity group transactions, the intent's header, and its deletion
      assertThat(statement.unwrap(io.tablesql.TableSqlStatement.class).requestCount()).isEqualTo(7);
      assertThat(pendingWrites(connection)).isEmpty();
    }
    assertThat(contents(table)).hasSize(100);
  }

  @Test
  void aStatementRefusedInOnePartitionLeavesNothingInTheOthers() throws SQLException {
    TableClient table = TestAccount.newTable("SpanDup", new TableEntity("p2", "r042").addProperty("N", -1));
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO " + table.getTableName()
          + " (PartitionKey, RowKey, N) VALUES " + values(100, 5, "r")))
          .isInstanceOfSatisfying(SQLException.class, e -> {
            assertThat(e.getSQLState()).isEqualTo("23505");
            assertThat(e.getMessage()).contains("r042", "nothing of it was written");
          });
      assertThat(pendingWrites(connection)).isEmpty();
    }
    assertThat(contents(table)).containsExactly(Map.entry("p2/r042", -1));
  }

  @Test
  void aSparkSizedTransactionCommitsThroughOneIntent() throws SQLException {
    TableClient table = TestAccount.newTable("Bulk");
    try (Connection connection = TestAccount.connect();
         PreparedStatement insert = connection.prepareStatement("INSERT INTO " + table.getTableName()
             + " (PartitionKey, RowKey, N) VALUES (?, ?, ?)")) {
      connection.setAutoCommit(false); // as Spark's default write does, one transaction per task
      for (int i = 0; i < 400; i++) {
        insert.setString(1, "p" + i % 2);
        insert.setString(2, String.format("r%03d", i));
        insert.setInt(3, i);
        insert.addBatch();
      }
      insert.executeBatch();
      connection.commit();
      assertThat(pendingWrites(connection)).isEmpty();
    }
    assertThat(contents(table)).hasSize(400);
  }

  @Test
  void aConflictUndoesEveryGroupAlreadyApplied() throws SQLException {
    TableClient table = TestAccount.newTable("Undo");
    List<TableEntity> seed = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      seed.add(new TableEntity("a", "r" + i).addProperty("N", i).addProperty("Name", "a" + i));
      seed.add(new TableEntity("b", "r" + i).addProperty("N", 10 + i).addProperty("Name", "b" + i));
      seed.add(new TableEntity("c", "r" + i).addProperty("N", 20 + i).addProperty("Name", "c" + i));
    }
    TestAccount.insert(table, seed);
    Map<String, Object> before = contents(table);
    String name = table.getTableName();
    try (Connection connection = TestAccount.connect(); Connection other = TestAccount.connect()) {
      connection.setAutoCommit(false);
      try (Statement statement = connection.createStatement()) {
        statement.executeUpdate("UPDATE " + name + " SET N = N + 100, Name = NULL WHERE PartitionKey = 'a'");
        statement.executeUpdate("DELETE FROM " + name + " WHERE PartitionKey = 'b'");
        statement.executeUpdate("UPDATE " + name + " SET N = N + 100 WHERE PartitionKey = 'c'");
        statement.executeUpdate("INSERT INTO " + name + " (PartitionKey, RowKey, N) VALUES ('d', 'r0', 0)");
      }
      try (Statement statement = other.createStatement()) { // changes a row the transaction read
        statement.executeUpdate("UPDATE " + name + " SET N = -1 WHERE PartitionKey = 'c' AND RowKey = 'r2'");
      }
      assertThatThrownBy(connection::commit).isInstanceOfSatisfying(SQLException.class, e -> {
        assertThat(e.getSQLState()).isEqualTo("40001");
        assertThat(e.getMessage()).contains("nothing of it was written");
      });
      assertThat(pendingWrites(connection)).isEmpty();
    }
    before.put("c/r2", -1);
    assertThat(contents(table)).isEqualTo(before);
    assertThat(table.getEntity("a", "r1").getProperty("Name")).isEqualTo("a1"); // put back whole
  }

  @Test
  void aTransactionRefusesMoreThanAnIntentHoldsBeforeSendingAnything() throws SQLException {
    TableClient table = TestAccount.newTable("Huge");
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      connection.setAutoCommit(false);
      assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO " + table.getTableName()
          + " (PartitionKey, RowKey, N) SELECT 'p' || CAST(MOD(n, 50) AS VARCHAR), 'r' || CAST(n AS VARCHAR), n "
          + "FROM (SELECT a.x * 1000 + b.x AS n FROM " + range(101) + " AS a(x), " + range(1000) + " AS b(x))"))
          .isInstanceOfSatisfying(SQLException.class, e -> {
            assertThat(e.getSQLState()).isEqualTo("54000");
            assertThat(e.getMessage()).contains("100000");
          });
      connection.rollback();
    }
    assertThat(contents(table)).isEmpty();
  }

  private static String range(int n) {
    return "(VALUES " + java.util.stream.IntStream.range(0, n).mapToObj(i -> "(" + i + ")")
        .collect(Collectors.joining(", ")) + ")";
  }

  @Test
  void strictAtomicityStillRefusesATransactionSpanningPartitions() throws SQLException {
    TableClient table = TestAccount.newTable("StrictTx");
    try (Connection connection = TestAccount.connect("strictAtomicity=true");
         Statement statement = connection.createStatement()) {
      connection.setAutoCommit(false);
      statement.executeUpdate("INSERT INTO " + table.getTableName() + " (PartitionKey, RowKey) VALUES ('a', '1')");
      assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO " + table.getTableName()
          + " (PartitionKey, RowKey) VALUES ('b', '1')"))
          .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("25000"));
      connection.commit();
    }
    assertThat(contents(table)).containsOnlyKeys("a/1");
  }

  /** Waits (up to 20 s) until the intents listed satisfy {@code done}, recovery running meanwhile. */
  private static void awaitPendingWrites(Connection connection, java.util.function.Predicate<List<String>> done)
      throws Exception {
    long deadline = System.nanoTime() + 20_000_000_000L;
    while (!done.test(pendingWrites(connection)) && System.nanoTime() < deadline) {
      Thread.sleep(200);
    }
  }

  /**
   * Inserts 40 rows over p0 to p3 of a table whose p3/r003 is taken: p3's group is refused, and
   * the rows cannot be read back, so the committer cannot undo the groups applied and leaves
   * that to recovery (08007).
   */
  private static void insertLeavingTheUndoToRecovery(String name, String concurrency) throws Exception {
    try (FaultyProxy proxy = new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port());
         Connection committer = FaultTest.connectThrough(proxy, "intentLeaseSeconds=2", "requestTimeoutSeconds=1",
             "maxRetries=0", concurrency); Statement statement = committer.createStatement()) {
      proxy.inject(Fault.BUSY, r -> r.method().equals("GET") && !r.isQuery() && r.path().contains(name + "("),
          Integer.MAX_VALUE);
      assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO " + name + " (PartitionKey, RowKey, N) VALUES "
          + values(40, 4, "r"))).isInstanceOfSatisfying(SQLException.class,
              e -> assertThat(e.getSQLState()).isEqualTo("08007"));
    }
  }

  @Test
  void anIntentItsCommitterCouldNotSettleIsUndoneByAnotherConnection() throws Exception {
    TableClient table = TestAccount.newTable("Recover", new TableEntity("p3", "r003").addProperty("N", -1));
    String name = table.getTableName();
    insertLeavingTheUndoToRecovery(name, "maxConcurrency=8");
    try (Connection observer = TestAccount.connect()) {
      assertThat(pendingWrites(observer)).containsExactly("undoing " + name + " 40");
    }
    try (Connection recoverer = TestAccount.connect(SHORT_LEASE); Connection second = TestAccount.connect(SHORT_LEASE)) {
      awaitPendingWrites(recoverer, List::isEmpty);
      assertThat(pendingWrites(second)).isEmpty();
    }
    assertThat(contents(table)).containsExactly(Map.entry("p3/r003", -1));
  }

  @Test
  void aRowChangedBeforeRecoveryParksTheIntentUntilItIsDeleted() throws Exception {
    TableClient table = TestAccount.newTable("Parked", new TableEntity("p3", "r003").addProperty("N", -1));
    String name = table.getTableName();
    insertLeavingTheUndoToRecovery(name, "maxConcurrency=1"); // one group at a time: p0, p1, p2 applied
    // another writer changes a row the intent wrote, before recovery undoes it
    table.updateEntity(new TableEntity("p0", "r000").addProperty("N", 999));
    try (Connection recoverer = TestAccount.connect(SHORT_LEASE); Statement statement = recoverer.createStatement()) {
      awaitPendingWrites(recoverer, listed -> listed.contains("parked " + name + " 40"));
      assertThat(pendingWrites(recoverer)).containsExactly("parked " + name + " 40");
      assertThat(QueryRuns.run(recoverer, "SELECT reason FROM tablesql.pending_writes").rows().get(0))
          .contains("r000").contains("changed after this write applied");
      // the rest is undone; the changed row stays as the other writer left it
      assertThat(contents(table)).containsExactly(Map.entry("p0/r000", 999), Map.entry("p3/r003", -1));
      assertThatThrownBy(() -> statement.executeUpdate("UPDATE tablesql.pending_writes SET reason = 'seen'"))
          .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("0A000"));
      assertThat(statement.executeUpdate("DELETE FROM tablesql.pending_writes WHERE state = 'parked'")).isEqualTo(1);
      assertThat(pendingWrites(recoverer)).isEmpty();
    }
  }

  @Test
  void anIntentWhoseRecordingLostItsAnswerWritesNothingAndIsRemovedByRecovery() throws Exception {
    TableClient table = TestAccount.newTable("LostIntent", new TableEntity("p1", "r001").addProperty("N", -1));
    String name = table.getTableName();
    try (FaultyProxy proxy = new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port())) {
      try (Connection committer = FaultTest.connectThrough(proxy, SHORT_LEASE);
           Statement statement = committer.createStatement()) {
        // the intent is written, but its answer never comes: the statement cannot go on
        proxy.inject(Fault.LOSE_ANSWER, r -> r.method().equals("POST") && r.path().contains("TablesqlIntents"), 1);
        assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO " + name + " (PartitionKey, RowKey, N) VALUES "
            + values(40, 4, "r"))).isInstanceOfSatisfying(SQLException.class, e -> {
              assertThat(e.getMessage()).contains("nothing of it was written");
              assertThat(e.getSQLState()).isEqualTo("40001"); // a retry is safe, and the application is told so
            });
      }
    }
    assertThat(contents(table)).containsExactly(Map.entry("p1/r001", -1));
    try (Connection recoverer = TestAccount.connect(SHORT_LEASE)) {
      awaitPendingWrites(recoverer, List::isEmpty);
      assertThat(pendingWrites(recoverer)).isEmpty();
    }
    assertThat(contents(table)).containsExactly(Map.entry("p1/r001", -1));
  }

  @Test
  void anIntentWhoseGroupsAllAppliedIsFinishedByRecovery() throws Exception {
    TableClient table = TestAccount.newTable("Finish");
    String name = table.getTableName();
    try (FaultyProxy proxy = new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port())) {
      try (Connection committer = FaultTest.connectThrough(proxy, "intentLeaseSeconds=2", "requestTimeoutSeconds=1",
          "maxRetries=0"); Statement statement = committer.createStatement()) {
        // every group is applied but one answer is lost, and nothing can be read back to tell
        proxy.inject(Fault.LOSE_ANSWER, r -> r.isBatch(), 1);
        proxy.inject(Fault.BUSY, r -> r.method().equals("GET") && !r.isQuery() && r.path().contains(name + "("),
            Integer.MAX_VALUE);
        assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO " + name + " (PartitionKey, RowKey, N) VALUES "
            + values(40, 4, "r"))).isInstanceOfSatisfying(SQLException.class,
                e -> assertThat(e.getSQLState()).isEqualTo("08007"));
      }
    }
    try (Connection recoverer = TestAccount.connect(SHORT_LEASE)) {
      awaitPendingWrites(recoverer, List::isEmpty);
      assertThat(pendingWrites(recoverer)).isEmpty();
    }
    assertThat(contents(table)).hasSize(40);
  }

  @Test
  void anUpdateOfTheKeysMovesTheRowToAnotherPartition() throws SQLException {
    TableClient table = TestAccount.newTable("Move", new TableEntity("a", "r1").addProperty("N", 1),
        new TableEntity("a", "r2").addProperty("N", 2), new TableEntity("c", "r3").addProperty("N", 3));
    String name = table.getTableName();
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      assertThat(statement.executeUpdate("UPDATE " + name + " SET PartitionKey = 'b' WHERE RowKey = 'r1'")).isEqualTo(1);
      assertThat(statement.executeUpdate("UPDATE " + name + " SET RowKey = 'r9', N = 9 WHERE RowKey = 'r2'")).isEqualTo(1);
      assertThatThrownBy(() -> statement.executeUpdate("UPDATE " + name + " SET PartitionKey = 'c', RowKey = 'r3' "
          + "WHERE RowKey = 'r9'")).isInstanceOfSatisfying(SQLException.class,
              e -> assertThat(e.getSQLState()).isEqualTo("23505"));
    }
    assertThat(contents(table)).containsExactly(Map.entry("a/r9", 9), Map.entry("b/r1", 1), Map.entry("c/r3", 3));
  }

  @Test
  void anUpdateOfADeclaredTablesPartitionColumnsMovesTheRowAndItsIndexEntries() throws SQLException {
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE MovedEmp (Department VARCHAR, EmployeeId INT, Email VARCHAR, "
          + "PRIMARY KEY ((Department), EmployeeId))");
      statement.execute("CREATE UNIQUE INDEX MovedEmpEmail ON MovedEmp (Email)");
      statement.executeUpdate("INSERT INTO MovedEmp VALUES ('Sales', 1, 'ann@x'), ('Sales', 2, 'bob@x')");
      assertThat(statement.executeUpdate("UPDATE MovedEmp SET Department = 'Support' WHERE EmployeeId = 1"))
          .isEqualTo(1);
      List<String> rows = new ArrayList<>();
      try (ResultSet result = statement.executeQuery("SELECT Department, EmployeeId FROM MovedEmp WHERE Email = 'ann@x'")) {
        while (result.next()) {
          rows.add(result.getString(1) + "/" + result.getInt(2));
        }
      }
      assertThat(rows).containsExactly("Support/1");
      assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO MovedEmp VALUES ('Ops', 3, 'ann@x')"))
          .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("23505"));
      statement.execute("DROP TABLE MovedEmp");
    }
  }

  @Test
  void aUniqueValuePassedToARowOfAnotherPartitionCommitsInOneTransaction() throws SQLException {
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE PassedEmail (Department VARCHAR, EmployeeId INT, Email VARCHAR, "
          + "PRIMARY KEY ((Department), EmployeeId))");
      statement.execute("CREATE UNIQUE INDEX PassedEmailEmail ON PassedEmail (Email)");
      statement.executeUpdate("INSERT INTO PassedEmail VALUES ('Sales', 1, 'ann@x'), ('Ops', 2, 'bob@x')");
      connection.setAutoCommit(false);
      statement.executeUpdate("UPDATE PassedEmail SET Email = 'ann@old' WHERE Department = 'Sales' AND EmployeeId = 1");
      statement.executeUpdate("UPDATE PassedEmail SET Email = 'ann@x' WHERE Department = 'Ops' AND EmployeeId = 2");
      connection.commit(); // the Ops group waits until the Sales group has released the value
      connection.setAutoCommit(true);
      assertThat(QueryRuns.run(connection, "SELECT Department FROM PassedEmail WHERE Email = 'ann@x'").rows())
          .containsExactly("Ops");
      assertThat(QueryRuns.verify(connection, "PassedEmailEmail")).contains(" 0 stale entries removed")
          .doesNotContain("left");
      // a swap across partitions: each group waits for the other, then both are refused
      connection.setAutoCommit(false);
      statement.executeUpdate("UPDATE PassedEmail SET Email = 'ann@x' WHERE Department = 'Sales' AND EmployeeId = 1");
      statement.executeUpdate("UPDATE PassedEmail SET Email = 'ann@old' WHERE Department = 'Ops' AND EmployeeId = 2");
      assertThatThrownBy(connection::commit).isInstanceOfSatisfying(SQLException.class,
          e -> assertThat(e.getSQLState()).isEqualTo("23505"));
      connection.setAutoCommit(true);
      assertThat(QueryRuns.run(connection, "SELECT Department, Email FROM PassedEmail ORDER BY EmployeeId").rows())
          .containsExactly("Sales|ann@old", "Ops|ann@x");
      statement.execute("DROP TABLE PassedEmail");
    }
  }

  @Test
  void aRefusedMoveLeavesEveryIndexAsItWas() throws SQLException {
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE RefusedMove (Department VARCHAR, EmployeeId INT, Email VARCHAR, Score INT, "
          + "PRIMARY KEY ((Department), EmployeeId))");
      statement.execute("CREATE UNIQUE INDEX RefusedMoveEmail ON RefusedMove (Email)");
      statement.execute("CREATE INDEX RefusedMoveScore ON RefusedMove (Score)");
      statement.executeUpdate("INSERT INTO RefusedMove VALUES ('Sales', 1, 'ann@x', 5), ('Ops', 10, 'ola@x', 6)");
      connection.setAutoCommit(false);
      statement.executeUpdate("UPDATE RefusedMove SET Department = 'Support' WHERE EmployeeId = 1");
      statement.executeUpdate("INSERT INTO RefusedMove VALUES ('Ops', 9, 'zed@x', 7)");
      statement.executeUpdate("UPSERT INTO RefusedMove VALUES ('Ops', 11, 'ida@x', 8)");
      // another writer takes the key the transaction inserts: its group is refused at commit
      try (Connection other = TestAccount.connect(); Statement concurrent = other.createStatement()) {
        concurrent.executeUpdate("INSERT INTO RefusedMove VALUES ('Ops', 9, 'kim@x', 4)");
      }
      assertThatThrownBy(connection::commit).isInstanceOfSatisfying(SQLException.class,
          e -> assertThat(e.getSQLState()).isEqualTo("23505"));
      connection.setAutoCommit(true);
      assertThat(QueryRuns.run(connection, "SELECT Department, EmployeeId FROM RefusedMove WHERE Email = 'ann@x'")
          .rows()).containsExactly("Sales|1");
      assertThat(QueryRuns.run(connection, "SELECT EmployeeId FROM RefusedMove WHERE Score >= 7").rows()).isEmpty();
      for (String index : List.of("RefusedMoveEmail", "RefusedMoveScore")) {
        assertThat(QueryRuns.verify(connection, index)).as(index).contains(" 0 stale entries removed")
            .doesNotContain("left");
      }
      statement.execute("DROP TABLE RefusedMove");
    }
  }

  @Test
  void optimisticRetriesRunAnUpdateAgainAfterAConcurrentChange() throws Exception {
    TableClient table = TestAccount.newTable("Retry", new TableEntity("p", "r").addProperty("N", 1));
    String name = table.getTableName();
    String update = "UPDATE " + name + " SET N = N + 1 WHERE PartitionKey = 'p' AND RowKey = 'r'";
    try (FaultyProxy proxy = new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port())) {
      // another client's write lands between the statement's read and its write
      proxy.before(FaultyProxy.Request::isBatch, () -> table.updateEntity(new TableEntity("p", "r").addProperty("N", 10)), 1);
      try (Connection connection = FaultTest.connectThrough(proxy); Statement statement = connection.createStatement()) {
        assertThatThrownBy(() -> statement.executeUpdate(update)).isInstanceOfSatisfying(SQLException.class,
            e -> assertThat(e.getSQLState()).isEqualTo("40001"));
      }
      proxy.before(FaultyProxy.Request::isBatch, () -> table.updateEntity(new TableEntity("p", "r").addProperty("N", 20)), 1);
      try (Connection connection = FaultTest.connectThrough(proxy, "optimisticRetries=2");
           Statement statement = connection.createStatement()) {
        assertThat(statement.executeUpdate(update)).isEqualTo(1);
      }
    }
    assertThat(table.getEntity("p", "r").getProperty("N")).isEqualTo(21);
  }

  /**
   * A group refused with 412 (its row changed after the transaction read it) whose answer is lost:
   * the row shows another writer's values, not this intent's mark, so the group was not applied;
   * the commit fails with 40001 and the group applied is undone (it used to be reported committed,
   * the other group's write lost).
   */
  @Test
  void aRefusedGroupWhoseAnswerWasLostFailsTheCommitAndUndoesTheOthers() throws Exception {
    TableClient table = TestAccount.newTable("LostRefusal", new TableEntity("a", "r").addProperty("N", 100),
        new TableEntity("b", "r").addProperty("N", 100));
    String name = table.getTableName();
    try (FaultyProxy proxy = new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port());
         Connection connection = FaultTest.connectThrough(proxy); Statement statement = connection.createStatement()) {
      connection.setAutoCommit(false);
      statement.executeUpdate("UPDATE " + name + " SET N = N - 10 WHERE PartitionKey = 'a' AND RowKey = 'r'");
      statement.executeUpdate("UPDATE " + name + " SET N = N + 10 WHERE PartitionKey = 'b' AND RowKey = 'r'");
      table.updateEntity(new TableEntity("b", "r").addProperty("N", 500)); // after the transaction read it
      proxy.inject(Fault.LOSE_ANSWER, FaultyProxy.Request::isBatch, 2);
      assertThatThrownBy(connection::commit).isInstanceOfSatisfying(SQLException.class,
          e -> assertThat(e.getSQLState()).isEqualTo("40001"));
      assertThat(pendingWrites(connection)).isEmpty();
    }
    assertThat(contents(table)).containsExactly(Map.entry("a/r", 100), Map.entry("b/r", 500));
  }

  /**
   * The marks that tell an intent's rows are removed from a table the application reads itself
   * (here a raw one) before the commit returns: its next statement meets no row changed under it.
   */
  @Test
  void theMarksOfACommittedIntentAreCleared() throws Exception {
    TableClient table = TestAccount.newTable("Marks", new TableEntity("p1", "r001").addProperty("N", 1));
    String name = table.getTableName();
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      statement.executeUpdate("INSERT INTO " + name + " (PartitionKey, RowKey, N) VALUES ('p0', 'a', 1), ('p2', 'b', 2)");
      statement.executeUpdate("UPDATE " + name + " SET N = N + 1");
      assertThat(QueryRuns.run(connection, "SELECT * FROM " + name).rows()).hasSize(3)
          .allSatisfy(row -> assertThat(row).doesNotContain(RowMarks.MARK));
    }
    assertThat(table.listEntities()).hasSize(3)
        .allSatisfy(e -> assertThat(e.getProperties()).doesNotContainKey(RowMarks.MARK));
    assertThat(contents(table)).containsExactly(Map.entry("p0/a", 2), Map.entry("p1/r001", 2), Map.entry("p2/b", 3));
  }

  /**
   * A row an intent that never commits inserted is not there, for readers and for writers: an
   * UPDATE or DELETE of it finds nothing, and writes nothing over it (ReadCommittedTest has the
   * UPDATE of a row such an intent changed: 40001).
   */
  @Test
  void aRowOfAnIntentInFlightIsNotThereToWriteOver() throws Exception {
    TableClient table = TestAccount.newTable("InFlight", new TableEntity("p3", "r003").addProperty("N", -1));
    String name = table.getTableName();
    insertLeavingTheUndoToRecovery(name, "maxConcurrency=1"); // p0, p1, p2 applied, the undo left to recovery
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      assertThat(pendingWrites(connection)).containsExactly("undoing " + name + " 40");
      assertThat(QueryRuns.run(connection, "SELECT COUNT(*) FROM " + name).rows()).containsExactly("1");
      for (String write : List.of("UPDATE " + name + " SET N = 7 WHERE PartitionKey = 'p0' AND RowKey = 'r000'",
          "DELETE FROM " + name + " WHERE PartitionKey = 'p1' AND RowKey = 'r001'")) {
        assertThat(statement.executeUpdate(write)).isZero();
      }
      assertThat(table.listEntities().stream().count()).isGreaterThan(1); // the intent's rows, still there
    }
    try (Connection recoverer = TestAccount.connect(SHORT_LEASE); Statement statement = recoverer.createStatement()) {
      awaitPendingWrites(recoverer, List::isEmpty);
      assertThat(statement.executeUpdate("UPDATE " + name + " SET N = 7 WHERE PartitionKey = 'p3' AND RowKey = 'r003'"))
          .isEqualTo(1);
    }
    assertThat(contents(table)).containsExactly(Map.entry("p3/r003", 7));
  }
}
