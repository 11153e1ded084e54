package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablesql.shell.LocalEmulator;
import io.tablesql.testing.OracleData;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The oracle: every query must return the same rows with pushdown as with everything evaluated
 * by Calcite in the client ({@code pushdown=false}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OracleTest {
  private String table;
  private Connection pushed;
  private Connection oracle;

  @BeforeAll
  void setUp() throws Exception {
    table = OracleData.create().getTableName();
    pushed = connectPushed();
    oracle = TestAccount.connect("pushdown=false", "planCacheSize=0"); // the plan cache is under test too
  }

  /** How many predicates the corpus holds, hand-written ones first. */
  int corpusSize() {
    return 260;
  }

  /** The connection whose answers are checked against the oracle's. */
  Connection connectPushed() throws Exception {
    return TestAccount.connect();
  }

  @AfterAll
  void tearDown() throws Exception {
    pushed.close();
    oracle.close();
  }

  @Test
  void handWrittenAndRandomQueriesAgree() throws SQLException {
    List<String> predicates = new ArrayList<>(handWritten());
    Random random = new Random(7);
    while (predicates.size() < corpusSize()) {
      predicates.add(randomPredicate(random, 0));
    }
    int pushedDown = 0;
    for (String predicate : predicates) {
      String sql = "SELECT * FROM " + table + " WHERE " + predicate;
      List<String> expected = rows(oracle, sql);
      assertThat(rows(pushed, sql)).as(sql).isEqualTo(expected);
      // as BI tools send it: prepared, without parameter markers (through the plan cache too)
      List<String> prepared = new ArrayList<>();
      try (PreparedStatement statement = pushed.prepareStatement(sql)) {
        prepared.addAll(read(statement.executeQuery()));
      }
      Collections.sort(prepared);
      assertThat(prepared).as("prepared: " + sql).isEqualTo(expected);
      String plan = rows(pushed, "EXPLAIN PLAN FOR " + sql).get(0);
      if (plan.contains("$filter") || plan.contains("keys=")) {
        pushedDown++;
      }
    }
    // The corpus must exercise pushdown, not only client-side evaluation.
    assertThat(pushedDown).isGreaterThan(predicates.size() / 2);
  }

  @Test
  void keyOrderIsTheServiceOrderWithAndWithoutPushdown() throws SQLException {
    String sql = "SELECT PartitionKey, RowKey FROM " + table
        + " WHERE PartitionKey IN ('p1', 'Q''x', 'ü-part', '日本') ORDER BY PartitionKey, RowKey";
    assertThat(ordered(pushed, sql)).isEqualTo(ordered(oracle, sql)).hasSizeGreaterThan(100);
  }

  /** ORDER BY ... LIMIT as tools write it, row for row in order, and each one run as a prepared statement too. */
  @Test
  void orderedLimitQueriesAgreeRowForRow() throws SQLException {
    String spark = "SELECT \"RowKey\", \"Name\" FROM \"" + LocalEmulator.ACCOUNT + "\".\"" + table + "\"";
    String columns = "SELECT PartitionKey, RowKey, Name, Age FROM " + table;
    List<String> queries = List.of(
        spark + " WHERE (\"PartitionKey\" IS NOT NULL) AND (\"PartitionKey\" = 'p1') ORDER BY \"RowKey\" ASC "
            + "NULLS FIRST LIMIT 5",
        columns + " WHERE PartitionKey = 'Q''x' ORDER BY RowKey LIMIT 4",
        columns + " WHERE PartitionKey = 'ü-part' AND RowKey > 'k''100' ORDER BY RowKey NULLS LAST LIMIT 6",
        columns + " WHERE PartitionKey = '日本' ORDER BY PartitionKey, RowKey LIMIT 3 OFFSET 2",
        columns + " WHERE PartitionKey = 'p2' ORDER BY RowKey, PartitionKey OFFSET 1 ROWS FETCH NEXT 4 ROWS ONLY",
        columns + " WHERE PartitionKey = 'p3' AND Age > 20 ORDER BY RowKey FETCH FIRST 3 ROWS ONLY",
        columns + " WHERE PartitionKey = 'p 7' AND RowKey LIKE 'r%' ORDER BY RowKey NULLS FIRST LIMIT 5",
        columns + " WHERE PartitionKey = 'p1' AND RowKey = 'r001' ORDER BY RowKey LIMIT 1",
        columns + " WHERE PartitionKey = 'p0' ORDER BY RowKey LIMIT 0",
        columns + " ORDER BY PartitionKey NULLS FIRST, RowKey NULLS LAST LIMIT 7",
        columns + " WHERE PartitionKey IN ('p1', '日本', 'Q''x') ORDER BY PartitionKey, RowKey LIMIT 9",
        columns + " WHERE PartitionKey IN ('p1', '日本') ORDER BY RowKey, PartitionKey LIMIT 6",
        columns + " WHERE PartitionKey = 'p2' ORDER BY RowKey DESC LIMIT 5",
        columns + " ORDER BY PartitionKey DESC, RowKey DESC LIMIT 5 OFFSET 1",
        columns + " WHERE PartitionKey = 'p1' ORDER BY Age NULLS FIRST, RowKey LIMIT 5",
        "SELECT t.RowKey, t.Age FROM (SELECT * FROM " + table + " WHERE Age > 10) t WHERE t.PartitionKey = 'p3' "
            + "ORDER BY t.RowKey LIMIT 3 OFFSET 1",
        "SELECT * FROM (SELECT PartitionKey, RowKey, Name FROM " + table + ") t WHERE PartitionKey = 'p4' "
            + "AND RowKey >= 'r' ORDER BY RowKey NULLS FIRST LIMIT 2",
        "SELECT UPPER(Name) AS \"COUNT\", RowKey FROM " + table + " WHERE PartitionKey = 'p5' ORDER BY RowKey LIMIT 4");
    for (String sql : queries) {
      List<String> expected = ordered(oracle, sql);
      assertThat(ordered(pushed, sql)).as(sql).isEqualTo(expected);
      try (PreparedStatement statement = pushed.prepareStatement(sql)) {
        assertThat(read(statement.executeQuery())).as("prepared: " + sql).isEqualTo(expected);
      }
    }
  }

  @Test
  void timestampParametersAgreeWithLiteralsWithAndWithoutPushdown() throws SQLException {
    java.util.Calendar utc = java.util.Calendar.getInstance(java.util.TimeZone.getTimeZone("UTC"));
    int matched = 0;
    for (int i = 0; i < 12; i++) {
      java.time.OffsetDateTime born = OracleData.bornOf(i);
      String wallClock = born.toLocalDateTime().toString().replace('T', ' ');
      String literal = "TIMESTAMP '" + (wallClock.length() > 23 ? wallClock.substring(0, 23) : wallClock) + "'";
      for (String op : List.of("=", "<", ">=")) {
        List<String> expected = rows(oracle, "SELECT * FROM " + table + " WHERE Born " + op + " " + literal);
        matched += expected.size();
        for (Connection connection : List.of(pushed, oracle)) {
          try (PreparedStatement statement = connection.prepareStatement(
              "SELECT * FROM " + table + " WHERE Born " + op + " ?")) {
            statement.setObject(1, born.toLocalDateTime());
            assertThat(sorted(read(statement.executeQuery()))).as(op + " LocalDateTime " + born).isEqualTo(expected);
            statement.setObject(1, born);
            assertThat(sorted(read(statement.executeQuery()))).as(op + " OffsetDateTime " + born).isEqualTo(expected);
            statement.setTimestamp(1, java.sql.Timestamp.from(born.toInstant()), utc);
            assertThat(sorted(read(statement.executeQuery()))).as(op + " Timestamp " + born).isEqualTo(expected);
          }
        }
      }
    }
    assertThat(matched).isGreaterThan(100);
  }

  private static List<String> sorted(List<String> rows) {
    Collections.sort(rows);
    return rows;
  }

  static List<String> handWritten() {
    return List.of(
        "PartitionKey = 'p1' AND RowKey = 'r001'",
        // CAST, EXTRACT, CASE and COALESCE as tools write them: evaluated in the client where the service cannot
        "PartitionKey = 'p1' AND CAST(Age AS VARCHAR(10)) = '42'",
        "CAST(Score AS INTEGER) > 50 AND PartitionKey = 'p2'",
        "PartitionKey = 'p3' AND CAST(RowKey AS VARCHAR(20)) LIKE 'k%'",
        "EXTRACT(YEAR FROM Born) = 1995",
        "PartitionKey = 'p4' AND EXTRACT(MONTH FROM Born) BETWEEN 3 AND 6",
        "CASE WHEN Age > 40 THEN 'old' WHEN Age IS NULL THEN 'unknown' ELSE 'young' END = 'unknown'",
        "PartitionKey = 'p5' AND CASE Name WHEN 'Ann' THEN 1 ELSE 0 END = 0",
        "COALESCE(Age, 0) = 0",
        "PartitionKey = 'p6' AND COALESCE(Name, 'none') <> 'none'",
        "COALESCE(Mixed, Name, 'x') = 'x' AND Active",
        "{fn UCASE(Name)} = 'ANN' AND Born >= {d '1993-01-01'} AND Born < {ts '1999-06-01 00:00:00'}",
        "PartitionKey = 'Q''x' AND RowKey = 'k''020'",
        "PartitionKey = '日本' AND RowKey > 'r'",
        "PartitionKey = 'p 7' AND RowKey LIKE 'k''%'",
        "PartitionKey = 'p1' AND RowKey LIKE 'r\\_%' ESCAPE '\\'",
        "PartitionKey = 'p1' AND RowKey LIKE 'r_0%'",
        "RowKey LIKE 'k''0!%%' ESCAPE '!'",
        "PartitionKey = 'ü-part' AND RowKey LIKE 'é%'",
        "PartitionKey = 'p2' AND RowKey BETWEEN 'k' AND 'r100'",
        "PartitionKey IN ('p0', 'p3', 'zz') AND Age > 10",
        "(PartitionKey = 'p0' AND RowKey = 'k''000') OR (PartitionKey = 'p1' AND RowKey = 'r001')",
        "(PartitionKey, RowKey) IN (('p0', 'k''000'), ('p3', 'r003'), ('nope', 'x'))",
        "PartitionKey = 'p1' AND RowKey IN ('r001', 'r009', 'r017', 'missing')",
        "PartitionKey = 'p1' AND RowKey IN ('r001', 'r009') AND Age > 30",
        "PartitionKey = 'a/b' AND RowKey = 'c#d'",
        "PartitionKey > 'p1' AND PartitionKey <= 'p3'",
        "PartitionKey LIKE 'p%'",
        "PartitionKey <> 'p0'",
        "Name = 'O''Brien'",
        "Name = 'Zoë' OR Name = '日本'",
        "Name = ''",
        "Name = 'Ann '",
        "Name = 'Ann'",
        "Name <> 'Ann'",
        "Name IS NULL",
        "Name IS NOT NULL",
        "Name LIKE 'a%'",
        "Name LIKE '%n'",
        // ILIKE ignores case, which no comparison of the service does: judged in the client
        "Name ILIKE 'a%'",
        "Name ILIKE 'ANN'",
        "PartitionKey ILIKE 'P1' AND RowKey ILIKE 'R0%'",
        "Name > 'Zoë'",
        "NOT (Name = 'bob')",
        "Age <> 10",
        "Age IS NULL OR Age < 0",
        "Age NOT IN (1, 2, 3, 40)",
        "Age BETWEEN 10 AND 20",
        "NOT (Age BETWEEN 10 AND 20)",
        "Age > 2147483647",
        "Age = 3000000000",
        "Age < 20.5",
        "Big > 0",
        "Big <> 5",
        "Big < -1000000000000",
        "Score > 50.25",
        "Score = 10.25",
        "Score <> 10.25",
        "Active",
        "NOT Active",
        "Active = false",
        "Active <> true",
        "Active IS NULL",
        "Active IS NOT NULL",
        "Born <= TIMESTAMP '1991-02-02 01:30:15.123'",
        "Born < TIMESTAMP '1991-02-02 01:30:15.123'",
        "Born = TIMESTAMP '1991-02-02 01:30:15.123'",
        "Born > TIMESTAMP '1991-02-02 01:30:15.123'",
        "Born >= TIMESTAMP '1991-02-02 01:30:15.123'",
        "Born <> TIMESTAMP '1990-01-01 00:30:15'",
        "Born BETWEEN TIMESTAMP '1993-01-01 00:00:00' AND TIMESTAMP '1996-01-01 00:00:00'",
        "Mixed = 'm3'",
        "Mixed = '3'",
        "Mixed IS NOT NULL",
        "Id = '00000000-0000-0000-0000-000000000002'",
        "Id = '00000000-0000-0000-0000-00000000000A'",
        "Id <> '00000000-0000-0000-0000-000000000002'",
        "Data = X'0107'",
        "\"Timestamp\" > TIMESTAMP '2000-01-01 00:00:00'",
        "PartitionKey = 'p1' AND (Age > 50 OR Name = 'bob') AND NOT Active",
        "Age > 1 AND Age > 2 AND Age > 3 AND Age > 4 AND Age > 5 AND Age > 6 AND Age > 7 AND Age > 8 "
            + "AND Age > 9 AND Age > 10 AND Age > 11 AND Age > 12 AND Age > 13 AND Age > 14 AND Age > 15 "
            + "AND Age > 16 AND Age > 17",
        "UPPER(Name) = 'ANN'",
        "Age + 1 = 11",
        "CHAR_LENGTH(RowKey) = 4 AND PartitionKey = 'p2'");
  }

  private static final String[] STRING_LITERALS = {"'Ann'", "'bob'", "'Zoë'", "'O''Brien'", "'日本'", "''",
      "'a''b''''c'", "'Ann '", "'zzz'", "'B'"};

  static String randomPredicate(Random random, int depth) {
    if (depth < 2 && random.nextInt(3) == 0) {
      String left = randomPredicate(random, depth + 1);
      String right = randomPredicate(random, depth + 1);
      switch (random.nextInt(3)) {
        case 0: return "(" + left + " AND " + right + ")";
        case 1: return "(" + left + " OR " + right + ")";
        default: return "NOT (" + left + ")";
      }
    }
    String[] comparisons = {"=", "<>", "<", "<=", ">", ">="};
    String op = comparisons[random.nextInt(comparisons.length)];
    switch (random.nextInt(11)) {
      case 0: return "PartitionKey " + op + " '" + OracleData.PARTITIONS[random.nextInt(OracleData.PARTITIONS.length)]
          .replace("'", "''") + "'";
      case 1: return "PartitionKey IN ('p0', 'p' || '" + random.nextInt(4) + "', '日本')";
      case 2: return "RowKey " + op + " '" + (random.nextBoolean() ? "r" : "k''") + String.format("%03d", random.nextInt(320)) + "'";
      case 3: return "RowKey LIKE '" + (random.nextBoolean() ? "r1" : "k''0") + "%'";
      case 4: return "Name " + op + " " + STRING_LITERALS[random.nextInt(STRING_LITERALS.length)];
      case 5: return "Age " + op + " " + (random.nextInt(90) - 10);
      case 6: return "Big " + op + " " + (random.nextLong() % 9_000_000_000_000_000L);
      case 7: return "Score " + op + " " + (random.nextInt(200) / 2.0 + 0.25);
      case 8: return random.nextBoolean() ? "Active" : "Active " + (random.nextBoolean() ? "=" : "<>") + " "
          + random.nextBoolean();
      case 9: {
        java.time.OffsetDateTime born = OracleData.bornOf(random.nextInt(12));
        String text = born.toLocalDateTime().toString().replace('T', ' ');
        return "Born " + op + " TIMESTAMP '" + (text.length() > 23 ? text.substring(0, 23) : text) + "'";
      }
      default: {
        String[] columns = {"Name", "Age", "Big", "Score", "Active", "Born", "Mixed", "Id", "Data"};
        return columns[random.nextInt(columns.length)] + (random.nextBoolean() ? " IS NULL" : " IS NOT NULL");
      }
    }
  }

  /** Rows as text, sorted, so that the comparison does not depend on the order rows came in. */
  static List<String> rows(Connection connection, String sql) throws SQLException {
    List<String> rows = ordered(connection, sql);
    Collections.sort(rows);
    return rows;
  }

  static List<String> ordered(Connection connection, String sql) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      return read(statement.executeQuery(sql));
    }
  }

  private static List<String> read(ResultSet resultSet) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (resultSet) {
      int columns = resultSet.getMetaData().getColumnCount();
      while (resultSet.next()) {
        StringBuilder row = new StringBuilder();
        for (int i = 1; i <= columns; i++) {
          row.append(resultSet.getString(i)).append('|');
        }
        rows.add(row.toString());
      }
    }
    return rows;
  }

}
