package io.tablesql;

import static io.tablesql.testing.ResultSets.readAll;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.prepare.UnplannedQuery;
import io.tablesql.testing.FirstLookup;
import io.tablesql.testing.TestAccount;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Queries run without the planner (driver property {@code unplannedLookups}) give exactly what
 * the planned statement gives: the same rows, values of the same classes, the same metadata, the
 * same errors; what the unplanned path does not take is planned as before; and a fresh process
 * whose first statement is a lookup by key runs it unplanned by default.
 */
class UnplannedQueryTest {
  private static String raw;
  /** A table with properties named like a function (User) and like the system's Timestamp but for case. */
  private static String named;
  private static Connection unplanned;
  private static Connection planned;

  /** A statement, and whether the unplanned path takes it. */
  private record Query(String sql, boolean taken) {
  }

  @BeforeAll
  static void setUp() throws SQLException {
    TableClient client = TestAccount.newTypedTable("Unplanned", 12);
    raw = client.getTableName();
    named = TestAccount.newTable("UnplannedNames", new TableEntity("p", "r").addProperty("User", "bob")
        .addProperty("timestamp", "late")).getTableName();
    unplanned = TestAccount.connect("unplannedLookups=always");
    planned = TestAccount.connect("unplannedLookups=never");
    try (Statement statement = unplanned.createStatement()) {
      statement.execute("CREATE TABLE UnplannedKeyed (Region VARCHAR, Code VARCHAR, Note VARCHAR(20), Amount INT, "
          + "PRIMARY KEY ((Region), Code))");
      statement.execute("INSERT INTO UnplannedKeyed VALUES ('east', 'c04', 'four', 4), ('west', 'c05', NULL, 5), "
          + "('west', 'c06', 'six', NULL)");
      statement.execute("CREATE TABLE UnplannedNumbered (Region VARCHAR, Id INT, Note VARCHAR, PRIMARY KEY ((Region), Id))");
      statement.execute("INSERT INTO UnplannedNumbered VALUES ('east', 4, 'four')");
    }
  }

  @AfterAll
  static void tearDown() throws SQLException {
    try (Statement statement = planned.createStatement()) {
      statement.execute("DROP TABLE IF EXISTS UnplannedKeyed");
      statement.execute("DROP TABLE IF EXISTS UnplannedNumbered");
    }
    unplanned.close();
    planned.close();
  }

  private static List<Query> queries() {
    String byKey = " FROM " + raw + " WHERE PartitionKey = 'p1' AND RowKey = 'r04'";
    return List.of(
        new Query("SELECT *" + byKey, true),
        new Query("SELECT \"Text\", \"Int\", \"Long\", \"Double\", \"Flag\", \"When\", \"Bytes\", \"Id\" FROM " + raw
            + " WHERE RowKey = 'r05' AND PartitionKey = 'p2'", true),
        new Query("SELECT RowKey, PartitionKey, \"Timestamp\"" + byKey, true),
        new Query("SELECT \"Long\" FROM " + raw + " WHERE PartitionKey = 'nope' AND RowKey = 'none'", true),
        new Query("SELECT * FROM UnplannedKeyed WHERE Region = 'east' AND Code = 'c04'", true),
        new Query("SELECT Note, Amount, Code FROM UnplannedKeyed WHERE Code = 'c05' AND Region = 'west'", true),
        // planned: not a lookup of one row by its whole key, or not only names and text literals
        new Query("SELECT *" + " FROM " + raw + " WHERE PartitionKey = 'p1'", false),
        new Query("SELECT \"Text\" AS t" + byKey, false),
        new Query("SELECT text" + byKey, false),
        new Query("SELECT \"Text\", \"Text\"" + byKey, false),
        new Query("SELECT RowKey, Timestamp" + byKey, false), // unquoted, a keyword: not parsed as a name
        new Query("SELECT *" + byKey + " ORDER BY RowKey", false),
        new Query("SELECT DISTINCT \"Text\"" + byKey, false),
        new Query("SELECT \"Int\" + 1" + byKey, false),
        new Query("SELECT *" + byKey + " OR RowKey = 'r07'", false),
        new Query("SELECT * FROM " + raw + " WHERE PartitionKey = 'p1' AND RowKey = 'r\u00e94'", false),
        new Query("SELECT * FROM " + raw + " WHERE 'p1' = PartitionKey AND RowKey = 'r04'", false),
        new Query("SELECT * FROM " + raw.toLowerCase(java.util.Locale.ROOT) + " WHERE PartitionKey = 'p1' "
            + "AND RowKey = 'r04'", false),
        new Query("SELECT * FROM UnplannedNumbered WHERE Region = 'east' AND Id = 4", false),
        new Query("SELECT * FROM UnplannedKeyed WHERE Region = 'east'", false),
        new Query("SELECT * FROM UnplannedKeyed WHERE Region = 'east' AND Code = 'c04' AND Amount = 4", false),
        new Query("SELECT \"Text\"" + byKey + " AND \"Text\" = 't4'", false), // the property checked in the client
        new Query("SELECT \"Text\"" + byKey + " AND \"Text\" = 'other'", false),
        new Query("SELECT \"User\" FROM NAMED WHERE PartitionKey = 'p' AND RowKey = 'r'", true),
        new Query("SELECT User FROM NAMED WHERE PartitionKey = 'p' AND RowKey = 'r'", false), // the function USER
        new Query("SELECT RowKey FROM NAMED WHERE PartitionKey = 'p' AND RowKey = 'r' AND User = 'bob'", false),
        new Query("SELECT * FROM NAMED WHERE PartitionKey = 'p' AND RowKey = 'r'", false), // Timestamp and timestamp
        // errors: each from Calcite, as when planned
        new Query("SELECT * FROM NoSuchTable WHERE PartitionKey = 'p1' AND RowKey = 'r04'", false),
        new Query("SELECT Nope" + byKey, false),
        new Query("SELECT * FROM " + raw + " WHERE PartitionKey = 'p1' AND Nope = 'r04'", false),
        new Query("SELECT *" + byKey + " AND", false));
  }

  @Test
  void theNamesReadAsFunctionsAreCalcitesOperatorsWrittenWithoutParentheses() {
    java.util.Set<String> niladic = new java.util.HashSet<>();
    for (org.apache.calcite.sql.SqlOperator operator : org.apache.calcite.sql.fun.SqlStdOperatorTable.instance()
        .getOperatorList()) {
      if (operator.getSyntax() == org.apache.calcite.sql.SqlSyntax.FUNCTION_ID
          || operator.getSyntax() == org.apache.calcite.sql.SqlSyntax.FUNCTION_ID_CONSTANT) {
        niladic.add(operator.getName());
      }
    }
    assertThat(UnplannedQuery.FUNCTION_NAMES).containsExactlyInAnyOrderElementsOf(niladic);
  }

  /** What the query gives on a connection: its rows and metadata, or its error. */
  private static List<String> run(Connection on, String written) {
    String sql = written.replace("NAMED", named);
    try (Statement statement = on.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
      return readAll(rows);
    } catch (SQLException e) {
      return List.of(e.getSQLState(), String.valueOf(e.getMessage()));
    }
  }

  @Test
  void everyQueryGivesWhatItsPlanGives() {
    for (Query query : queries()) {
      List<String> expected = run(planned, query.sql());
      long before = UnplannedQuery.RUNS.get();
      assertThat(run(unplanned, query.sql())).as(query.sql()).isEqualTo(expected);
      assertThat(UnplannedQuery.RUNS.get() - before).as("unplanned runs of " + query.sql())
          .isEqualTo(query.taken() ? 1 : 0);
    }
  }

  @Test
  void executeRunsItUnplannedToo() throws SQLException {
    String sql = queries().get(0).sql();
    try (Statement statement = unplanned.createStatement()) {
      long before = UnplannedQuery.RUNS.get();
      assertThat(statement.execute(sql)).isTrue();
      assertThat(statement.getUpdateCount()).isEqualTo(-1);
      try (ResultSet rows = statement.getResultSet()) {
        assertThat(readAll(rows)).isEqualTo(run(planned, sql));
      }
      assertThat(UnplannedQuery.RUNS.get() - before).isEqualTo(1);
    }
  }

  @Test
  void maxRowsAndCloseApplyAsToAnyResultSet() throws SQLException {
    try (Statement statement = unplanned.createStatement()) {
      statement.setMaxRows(1);
      ResultSet rows = statement.executeQuery(queries().get(0).sql());
      assertThat(rows.next()).isTrue();
      assertThat(rows.next()).isFalse();
      statement.executeQuery(queries().get(6).sql());
      assertThat(rows.isClosed()).as("closed by the next execution").isTrue();
    }
  }

  @Test
  void aProcessWhoseFirstStatementIsALookupRunsItUnplanned() throws Exception {
    assertThat(firstLookup("SELECT Note, Code FROM UnplannedKeyed WHERE Region = 'east' AND Code = 'c04'"))
        .startsWith("four c04", "1");
  }

  /**
   * A first lookup on a sampled table learns its columns from the entity it reads, not from a
   * sample of the table (a few requests, not dozens), where those types are what any sample
   * holding the entity gives: text, keys, Timestamp; other columns sample as before.
   */
  @Test
  void aFirstLookupOnASampledTableReadsTheEntityNotASample() throws Exception {
    TableClient big = TestAccount.newTable("UnplannedFirst");
    List<TableEntity> entities = new java.util.ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      entities.add(new TableEntity("p" + (i % 30), "r" + i).addProperty("Name", "n" + i).addProperty("Size", i));
    }
    TestAccount.insert(big, entities);
    String table = big.getTableName();
    List<String> text = firstLookup("SELECT Name, RowKey FROM " + table + " WHERE PartitionKey = 'p7' AND RowKey = 'r7'");
    assertThat(text.subList(0, 2)).containsExactly("n7 r7", "1");
    long requests = Long.parseLong(text.get(2));
    List<String> number = firstLookup("SELECT Size FROM " + table + " WHERE PartitionKey = 'p7' AND RowKey = 'r7'");
    assertThat(number.subList(0, 2)).containsExactly("7", "1");
    assertThat(requests).isLessThanOrEqualTo(6).isLessThan(Long.parseLong(number.get(2)) - 10);
    try (Statement statement = planned.createStatement();
         ResultSet rows = statement.executeQuery("SELECT Name, RowKey FROM " + table
             + " WHERE PartitionKey = 'p7' AND RowKey = 'r7'")) {
      assertThat(text.get(3)).isEqualTo(String.join(" ; ", io.tablesql.testing.ResultSets.metadata(rows.getMetaData())));
    }
  }

  /** The lines a fresh JVM prints after running {@code sql} as its first statement ({@link FirstLookup}). */
  private static List<String> firstLookup(String sql) throws Exception {
    Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), FirstLookup.class.getName(), TestAccount.url(), sql)
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).isZero();
    return output.lines().toList();
  }
}
