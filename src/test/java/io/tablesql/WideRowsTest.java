package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.testing.OracleComparedTest;
import io.tablesql.testing.QueryRuns;
import io.tablesql.testing.TestAccount;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Tables of more columns than one entity holds: each row kept as several entities of its
 * partition, written together in one entity group transaction, read together, never seen as rows
 * of their own; a query reads only the entities holding the columns it selects.
 */
class WideRowsTest extends OracleComparedTest {
  /** Columns besides the key: with it, the 1,000 columns a wide table must hold. */
  private static final int COLUMNS = 999;
  private static final int ROWS = 12;

  @BeforeAll
  static void setUp() throws SQLException {
    String columns = IntStream.range(0, COLUMNS).mapToObj(i -> "c" + i + " INT").collect(Collectors.joining(", "));
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE WrWide (Id INT PRIMARY KEY, Name VARCHAR(20), " + columns.replace("c0 INT, ", "")
          + ")");
    }
    String names = IntStream.range(1, COLUMNS).mapToObj(i -> "c" + i).collect(Collectors.joining(", "));
    String marks = IntStream.range(1, COLUMNS).mapToObj(i -> "?").collect(Collectors.joining(", "));
    try (PreparedStatement insert = connection.prepareStatement(
        "INSERT INTO WrWide (Id, Name, " + names + ") VALUES (?, ?, " + marks + ")")) {
      for (int id = 1; id <= ROWS; id++) {
        insert.setInt(1, id);
        insert.setString(2, "row " + id);
        for (int c = 1; c < COLUMNS; c++) {
          insert.setInt(c + 2, value(id, c));
        }
        insert.executeUpdate();
      }
    }
  }

  private static int value(int id, int column) {
    return id * 10_000 + column;
  }

  private static List<TableEntity> entities(String table) {
    TableClient physical = TestAccount.service().getTableClient(table);
    return physical.listEntities().stream().toList();
  }

  @Test
  void aRowIsSeveralEntitiesOfItsPartitionNoneOverTheServicesLimits() {
    List<TableEntity> stored = entities("WrWide");
    assertThat(stored).hasSize(ROWS * 5); // 999 properties in parts of at most 240
    for (TableEntity entity : stored) {
      assertThat(entity.getProperties().keySet().stream().filter(name -> !name.startsWith("odata.")
          && !name.equals("Timestamp") && !name.equals("PartitionKey") && !name.equals("RowKey")).count())
          .isLessThanOrEqualTo(252);
    }
    assertThat(stored.stream().filter(e -> e.getRowKey().startsWith("\u00A1"))).hasSize(ROWS * 4);
  }

  @Test
  void aQueryReadsOnlyTheEntitiesHoldingTheColumnsItSelects() throws SQLException {
    QueryRuns.Run first = run("SELECT Name, c5 FROM WrWide WHERE Id = 7");
    assertThat(first.rows()).containsExactly("row 7|" + value(7, 5));
    assertThat(first.requests()).isEqualTo(1);
    QueryRuns.Run last = run("SELECT Name, c998 FROM WrWide WHERE Id = 7");
    assertThat(last.rows()).containsExactly("row 7|" + value(7, 998));
    assertThat(last.requests()).isEqualTo(2);
  }

  @Test
  void aScanReadsLaterEntitiesByOneRangeQueryPerPartition() throws SQLException {
    String columns = IntStream.range(0, 300).mapToObj(i -> "q" + i + " INT").collect(Collectors.joining(", "));
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE WrSurvey (Survey VARCHAR(20), Respondent INT, " + columns
          + ", PRIMARY KEY ((Survey), Respondent))");
      statement.execute("INSERT INTO WrSurvey (Survey, Respondent, q0, q299) VALUES ('s', 1, 1, 5), ('s', 2, 2, 4), "
          + "('s', 3, 3, 3), ('t', 1, 4, 2)");
      QueryRuns.Run scan = run("SELECT Respondent, q299 FROM WrSurvey WHERE Survey = 's' AND q299 >= 4");
      assertThat(scan.rows()).containsExactlyInAnyOrder("1|5", "2|4");
      assertThat(scan.requests()).isEqualTo(2); // the rows' entities, then their second entities
      assertThat(run("SELECT Respondent, q0 FROM WrSurvey WHERE Survey = 's' AND q0 >= 2").requests()).isEqualTo(1);
      assertThat(explain("SELECT Respondent FROM WrSurvey WHERE Survey = 's' AND q299 >= 4")).contains("client");
      agreed("SELECT Survey, Respondent, q0, q299 FROM WrSurvey WHERE q299 > 2 OR q0 = 4 ORDER BY Survey, Respondent");
      // rows far apart in a partition of many: their later entities by a range, cut short, then by their keys
      try (PreparedStatement insert = connection.prepareStatement(
          "INSERT INTO WrSurvey (Survey, Respondent, q0, q299) VALUES ('u', ?, ?, ?)")) {
        for (int r = 0; r < 300; r++) {
          insert.setInt(1, r);
          insert.setInt(2, r % 100 == 7 ? 1 : 0);
          insert.setInt(3, -r);
          insert.addBatch();
        }
        insert.executeBatch();
      }
      assertThat(run("SELECT Respondent, q299 FROM WrSurvey WHERE Survey = 'u' AND q0 = 1").rows())
          .containsExactly("7|-7", "107|-107", "207|-207");
      statement.execute("DROP TABLE WrSurvey");
    }
  }

  @Test
  void selectStarGivesEveryColumnOfEveryRowAndNoPartAsARow() throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SELECT * FROM WrWide ORDER BY Id")) {
      assertThat(rows.getMetaData().getColumnCount()).isEqualTo(COLUMNS + 1);
      int id = 0;
      while (rows.next()) {
        id++;
        assertThat(rows.getInt("Id")).isEqualTo(id);
        for (int c = 1; c < COLUMNS; c++) {
          assertThat(rows.getInt("c" + c)).as("c" + c).isEqualTo(value(id, c));
        }
      }
      assertThat(id).isEqualTo(ROWS);
    }
    assertThat(single("SELECT COUNT(*) FROM WrWide")).isEqualTo(String.valueOf(ROWS));
  }

  @Test
  void filtersOnColumnsOfEveryPartAgreeWithTheOracle() throws SQLException {
    for (String sql : List.of(
        "SELECT Id FROM WrWide WHERE c3 > " + value(6, 3) + " ORDER BY Id",
        "SELECT Id, c700 FROM WrWide WHERE c700 < " + value(4, 700) + " OR c2 = " + value(9, 2) + " ORDER BY Id",
        "SELECT SUM(c998), MAX(c300) FROM WrWide WHERE Id BETWEEN 3 AND 8",
        "SELECT Id FROM WrWide WHERE c998 = " + value(11, 998))) {
      agreed(sql);
    }
    assertThat(run("SELECT Id FROM WrWide WHERE c998 = " + value(11, 998)).rows()).containsExactly("11");
  }

  @Test
  void updatesAndDeletesChangeEveryPartTogether() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("INSERT INTO WrWide (Id, Name, c1, c500, c998) VALUES (100, 'new', 1, 500, 998)");
      assertThat(statement.executeUpdate("UPDATE WrWide SET c998 = -1, c2 = -2 WHERE Id = 100")).isEqualTo(1);
      assertThat(run("SELECT c1, c2, c500, c998, c997 FROM WrWide WHERE Id = 100").rows())
          .containsExactly("1|-2|500|-1|null");
      statement.executeUpdate("UPDATE WrWide SET c500 = NULL WHERE Id = 100"); // a replace of every part
      assertThat(run("SELECT c1, c500, c998 FROM WrWide WHERE Id = 100").rows()).containsExactly("1|null|-1");
      assertThat(statement.executeUpdate("DELETE FROM WrWide WHERE Id = 100")).isEqualTo(1);
    }
    assertThat(run("SELECT c1 FROM WrWide WHERE Id = 100").rows()).isEmpty();
    assertThat(entities("WrWide")).hasSize(ROWS * 5); // no part left behind
  }

  @Test
  void aTransactionOfWideRowsCommitsOrRollsBackWhole() throws SQLException {
    connection.setAutoCommit(false);
    try (Statement statement = connection.createStatement()) {
      statement.execute("INSERT INTO WrWide (Id, Name, c998) VALUES (200, 'a', 1), (201, 'b', 2)");
      statement.execute("UPDATE WrWide SET c998 = c998 + 10 WHERE Id IN (200, 201)");
      connection.rollback();
      assertThat(run("SELECT Id FROM WrWide WHERE Id >= 200").rows()).isEmpty();
      statement.execute("INSERT INTO WrWide (Id, Name, c998) VALUES (200, 'a', 1), (201, 'b', 2)");
      statement.execute("UPDATE WrWide SET c998 = c998 + 10 WHERE Id IN (200, 201)");
      connection.commit();
    } finally {
      connection.setAutoCommit(true);
    }
    assertThat(run("SELECT Id, Name, c998 FROM WrWide WHERE Id >= 200 ORDER BY Id").rows())
        .containsExactly("200|a|11", "201|b|12");
    try (Statement statement = connection.createStatement()) {
      statement.execute("DELETE FROM WrWide WHERE Id >= 200");
    }
    assertThat(run("SELECT Id FROM WrWide WHERE Id >= 200").rows()).isEmpty(); // waits for the commit's tidying
    assertThat(entities("WrWide")).extracting(TableEntity::getRowKey).hasSize(ROWS * 5);
  }

  @Test
  void aGlobalIndexOnALaterPartsColumnFindsItsRow() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE INDEX WrWideC900 ON WrWide (c900)");
      assertThat(run("SELECT Id, c1 FROM WrWide WHERE c900 = " + value(5, 900)).rows())
          .containsExactly("5|" + value(5, 1));
      assertThat(explain("SELECT Id FROM WrWide WHERE c900 = " + value(5, 900))).contains("WrWideC900");
      assertThatThrownBy(() -> statement.execute("CREATE INDEX WrWideLocal ON WrWide (c3) LOCAL"))
          .isInstanceOf(SQLException.class).hasMessageContaining("GLOBAL")
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("0A000"));
      statement.execute("DROP INDEX WrWideC900");
    }
  }

  @Test
  void tablesAtTheEntitysLimitOfProperties() throws SQLException {
    for (int count : new int[] {240, 241, 252, 253}) {
      String table = "WrEdge" + count;
      String columns = IntStream.range(0, count).mapToObj(i -> "v" + i + " INT").collect(Collectors.joining(", "));
      String names = IntStream.range(0, count).mapToObj(i -> "v" + i).collect(Collectors.joining(", "));
      String values = IntStream.range(0, count).mapToObj(String::valueOf).collect(Collectors.joining(", "));
      try (Statement statement = connection.createStatement()) {
        statement.execute("CREATE TABLE " + table + " (Id INT PRIMARY KEY, " + columns + ")");
        statement.execute("INSERT INTO " + table + " (Id, " + names + ") VALUES (1, " + values + ")");
        assertThat(run("SELECT * FROM " + table).rows()).containsExactly("1|" + values.replace(", ", "|"));
        assertThat(entities(table)).hasSize(count <= 240 ? 1 : 2);
        statement.execute("DROP TABLE " + table);
      }
    }
  }

  @Test
  void columnsAddedToAWideTableGoToItsFirstEntityWhileItHasRoom() throws SQLException {
    String columns = IntStream.range(0, 300).mapToObj(i -> "v" + i + " INT").collect(Collectors.joining(", "));
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE WrAlter (Id INT PRIMARY KEY, Grp VARCHAR(5), Note VARCHAR(10), " + columns + ")");
      statement.execute("INSERT INTO WrAlter (Id, Grp, v1, v299) VALUES (1, 'a', 1, 299), (2, 'a', 2, 598), "
          + "(3, 'b', 3, 1)");
      statement.execute("ALTER TABLE WrAlter ADD COLUMN Extra VARCHAR(10)");
      statement.execute("ALTER TABLE WrAlter ALTER COLUMN Note TYPE CLOB"); // 200 + 1 + 17 of the first entity's 240
      statement.execute("UPDATE WrAlter SET Extra = 'x', Note = REPEAT('n', 40000) WHERE Id = 2");
      assertThat(run("SELECT Id, Extra, CHAR_LENGTH(Note), v1, v299 FROM WrAlter ORDER BY Id").rows())
          .containsExactly("1|null|null|1|299", "2|x|40000|2|598", "3|null|null|3|1");
      assertThat(entities("WrAlter")).hasSize(6); // still two entities a row: the new values are in the first
      int added = 0;
      SQLException full = null;
      for (; added < 30 && full == null; added++) {
        try {
          statement.execute("ALTER TABLE WrAlter ADD COLUMN More" + added + " INT");
        } catch (SQLException e) {
          full = e;
        }
      }
      assertThat((Throwable) full).isNotNull().hasMessageContaining("no room left");
      assertThat(full.getSQLState()).isEqualTo("0A000");
      assertThat(added).isEqualTo(23); // 218 + 22 = 240
      for (String change : List.of("ALTER TABLE WrAlter DROP COLUMN v299", "ALTER TABLE WrAlter ADD COLUMN Beyond INT")) {
        assertThatThrownBy(() -> statement.execute(change)).as(change)
            .isInstanceOf(SQLException.class).hasMessageContaining("INSERT INTO ... SELECT")
            .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("0A000"));
      }
      statement.execute("ALTER TABLE WrAlter DROP COLUMN v1"); // in the first entity: as in any table
      assertThat(run("SELECT * FROM WrAlter WHERE Id = 1").rows().get(0)).startsWith("1|a|null|null|");
      statement.execute("CREATE MATERIALIZED VIEW WrAlterTotals AS SELECT Grp, COUNT(*) AS N, SUM(v299) AS S "
          + "FROM WrAlter GROUP BY Grp");
      statement.execute("UPDATE WrAlter SET v299 = v299 + 1 WHERE Id = 3");
      assertThat(run("SELECT Grp, N, S FROM WrAlterTotals ORDER BY Grp").rows()).containsExactly("a|2|897", "b|1|2");
      String all = IntStream.range(2, 300).mapToObj(i -> "v" + i).collect(Collectors.joining(", "));
      assertThatThrownBy(() -> statement.execute("CREATE MATERIALIZED VIEW WrAlterCopy PRIMARY KEY ((Grp), Id) AS "
          + "SELECT Grp, Id, " + all + " FROM WrAlter WHERE Grp IS NOT NULL"))
          .isInstanceOf(SQLException.class).hasMessageContaining("Copy fewer columns")
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("54000"));
      TableEntity catalog = entities("TablesqlCatalog").stream()
          .filter(e -> "WrAlter".equals(e.getProperty("Name"))).findFirst().orElseThrow();
      assertThat((String) catalog.getProperty("Definition")).contains("\"format\":14");
      statement.execute("DROP TABLE WrAlter CASCADE");
    }
  }

  @Test
  void aTableOfMoreThanAThousandColumnsIsRefused() throws SQLException {
    String columns = IntStream.range(0, 1000).mapToObj(i -> "x" + i + " INT").collect(Collectors.joining(", "));
    try (Statement statement = connection.createStatement()) {
      assertThatThrownBy(() -> statement.execute("CREATE TABLE WrTooWide (Id INT PRIMARY KEY, " + columns + ")"))
          .isInstanceOf(SQLException.class).hasMessageContaining("at most 1000")
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("54000"));
    }
    assertThat(run("SELECT COUNT(*) FROM information_schema.tables WHERE table_name = 'WrTooWide'").rows())
        .containsExactly("0");
  }

  @Test
  void aColumnNamedAsTheCatalogsPartCountIsJustAColumn() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE WrOdd (Id INT PRIMARY KEY, \"definitionParts\" INT)");
      statement.execute("INSERT INTO WrOdd VALUES (1, 2)");
    }
    assertThat(run("SELECT \"definitionParts\" FROM WrOdd").rows()).containsExactly("2");
  }

  private static QueryRuns.Run run(String sql) throws SQLException {
    return QueryRuns.run(connection, sql);
  }
}
