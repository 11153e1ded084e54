package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.testing.KilledWriter;
import io.tablesql.testing.PendingIntents;
import io.tablesql.testing.QueryRuns;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Writers killed mid-commit: a JVM running the driver jar alone commits transactions of four
 * entity groups (through intents) until it is killed ({@code destroyForcibly}) at a random moment;
 * two connections of this JVM then recover what it left, at the same time. Afterwards every
 * transaction is all or nothing, none is lost that reported success, the counter the
 * transactions add to agrees with the rows (no step applied twice), no moved row is lost or
 * doubled, every index lookup agrees with a scan, the materialized view of the moved rows equals
 * its query with nothing for VERIFY to repair, and no intent is left.
 */
class IntentCrashIT {
  /**
   * A short lease, so recovery runs within the test, and a short grace for index entries: an
   * entry a killed writer left holds its UNIQUE value (and an undo that needs it waits) only that long.
   */
  /** The query of a materialized view of the employees, which recovery must leave equal to it. */
  private static final String BY_SCORE = "SELECT Score, Dept, Id, Email FROM <emp> WHERE Score IS NOT NULL";
  /** A summary of them: each killed writer's change is added exactly once. */
  private static final String TOTALS = "SELECT Dept, COUNT(*) AS N, SUM(Score) AS Total FROM <emp> GROUP BY Dept";

  private static final String[] SHORT_LEASE = {"intentLeaseSeconds=2", "requestTimeoutSeconds=1",
      "indexGraceSeconds=3"};

  /**
   * Run on a table whose rows are one entity each, and on one of wide rows: 250 more columns
   * before Score, so that each row is two entities and Score (indexed, covered, in both views) is
   * in the second.
   */
  @ParameterizedTest
  @ValueSource(ints = {0, 250})
  void everyTransactionOfAKilledWriterIsAllOrNothing(int moreColumns) throws Exception {
    String more = java.util.stream.IntStream.range(0, moreColumns).mapToObj(i -> "X" + i + " INT, ")
        .collect(java.util.stream.Collectors.joining());
    TableClient table = TestAccount.newTable("Crash", new TableEntity("c", "count").addProperty("N", 0),
        new TableEntity("p0", "seed").addProperty("K", -1));
    KilledWriter writer = KilledWriter.of("IntentWriter");
    String employees = table.getTableName() + "Emp";
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE " + employees + " (Dept VARCHAR, Id INT, Email VARCHAR, " + more + "Score INT, "
          + "PRIMARY KEY ((Dept), Id))");
      // covering: a killed writer must leave no entry verified with a score its row does not hold
      statement.execute("CREATE UNIQUE INDEX " + employees + "Email ON " + employees + " (Email) INCLUDE (Score)");
      statement.execute("CREATE INDEX " + employees + "Score ON " + employees + " (Score)");
      statement.executeUpdate("INSERT INTO " + employees + " (Dept, Id, Email, Score) VALUES ('d0', 0, 'e0', -1), "
          + "('d0', 1, 'e1', -1), "
          + "('d0', 2, 'e2', -1), ('d0', 3, 'e3', -1), ('d0', 4, 'e4', -1)");
      // kept through format-2 intents: a writer killed after its commit point leaves the views to recovery
      statement.execute("CREATE MATERIALIZED VIEW " + employees + "ByScore PRIMARY KEY ((Score), Dept, Id) AS "
          + BY_SCORE.replace("<emp>", employees));
      statement.execute("CREATE MATERIALIZED VIEW " + employees + "Totals PRIMARY KEY ((Dept)) AS "
          + TOTALS.replace("<emp>", employees));
    }
    Set<Integer> committed = ConcurrentHashMap.newKeySet();
    Random random = new Random(24);
    for (int round = 0; round < 6; round++) {
      // then dies anywhere: in a statement, recording, applying, deleting
      writer.runAndKill(List.of(TestAccount.url(SHORT_LEASE), table.getTableName(), String.valueOf(round * 1000)),
          800, random, k -> committed.add((int) k));
      // by two connections at once, before the next writer reads the counter
      PendingIntents.awaitRecovery(table.getTableName(), 30, SHORT_LEASE);
    }
    Map<Integer, Integer> rowsPerTransaction = new TreeMap<>();
    long rows = 0;
    for (TableEntity entity : table.listEntities()) {
      Object k = entity.getProperty("K");
      if (k instanceof Integer transaction && transaction >= 0) {
        rowsPerTransaction.merge(transaction, 1, Integer::sum);
        rows++;
      }
    }
    assertThat(rowsPerTransaction.values()).as("every transaction whole").containsOnly(30);
    assertThat(rowsPerTransaction.keySet()).containsAll(committed);
    assertThat(((Number) table.getEntity("c", "count").getProperty("N")).longValue()).isEqualTo(rows);
    assertEmployeesWholeAndIndexed(employees, rowsPerTransaction);
    assertThat(TestAccount.service().getTableClient(employees).listEntities().stream().count())
        .as("each row's entities, no other").isEqualTo(moreColumns == 0 ? 5 : 10);
  }

  /**
   * Each employee once, moved last by a transaction that is whole; its index entries found by
   * lookups that agree with scans.
   */
  private static void assertEmployeesWholeAndIndexed(String employees, Map<Integer, Integer> rowsPerTransaction)
      throws SQLException {
    try (Connection pushed = TestAccount.connect(); Connection oracle = TestAccount.connect("pushdown=false")) {
      List<String> rows = QueryRuns.run(oracle, "SELECT Id, Score FROM " + employees + " ORDER BY Id").rows();
      assertThat(rows).as("each employee once").hasSize(5);
      for (int id = 0; id < 5; id++) {
        int score = Integer.parseInt(rows.get(id).split("\\|")[1]);
        assertThat(score == -1 || rowsPerTransaction.getOrDefault(score, 0) == 30)
            .as("employee %d moved by transaction %d, which is whole", id, score).isTrue();
        assertThat(QueryRuns.explain(pushed, "SELECT Id FROM " + employees + " WHERE Email = 'e" + id + "'"))
            .contains("INDEX LOOKUP");
        assertThat(QueryRuns.run(pushed, "SELECT Id FROM " + employees + " WHERE Email = 'e" + id + "'").rows())
            .containsExactly(String.valueOf(id));
        String covered = "SELECT Id, Score FROM " + employees + " WHERE Email = 'e" + id + "'";
        assertThat(QueryRuns.explain(pushed, covered)).contains("covering");
        assertThat(QueryRuns.agreed(pushed, oracle, covered).rows()).containsExactly(rows.get(id));
        QueryRuns.agreed(pushed, oracle, "SELECT Id, Dept FROM " + employees + " WHERE Score = " + score);
      }
      QueryRuns.agreed(pushed, oracle, "SELECT Id, Dept FROM " + employees + " WHERE Score >= 0 ORDER BY Id");
      assertThat(QueryRuns.run(pushed, "SELECT Score, Dept, Id, Email FROM " + employees + "ByScore").rows())
          .as("the materialized view after recovery")
          .containsExactlyInAnyOrderElementsOf(QueryRuns.run(oracle, BY_SCORE.replace("<emp>", employees)).rows());
      assertThat(QueryRuns.run(pushed, "SELECT Dept, N, Total FROM " + employees + "Totals").rows())
          .as("the summary after recovery")
          .containsExactlyInAnyOrderElementsOf(QueryRuns.run(oracle, TOTALS.replace("<emp>", employees)).rows());
      for (String view : List.of("ByScore", "Totals")) {
        try (Statement statement = pushed.createStatement()) {
          statement.execute("ALTER MATERIALIZED VIEW " + employees + view + " VERIFY");
          assertThat(statement.getWarnings().getMessage()).as("nothing left to repair in " + view)
              .contains("0 entities written or removed");
        }
      }
    }
  }
}
