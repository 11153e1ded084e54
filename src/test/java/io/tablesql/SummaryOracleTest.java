package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablesql.testing.OracleComparedTest;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Aggregates over a table with a summary view, generated from filters (on the summary's groups,
 * on other columns, with OR, NOT, IN, LIKE and NULLs), aggregate calls (those the summary keeps,
 * others, calls over the group keys) and groupings, each compared with the oracle, which reads
 * the table. Three kinds of wrong answers were found this way: a filter on another column
 * dropped, a filter dropped for an aggregate of a group key (Calcite's substitution), and one
 * side's filter taken for both in a self-join.
 */
class SummaryOracleTest extends OracleComparedTest {
  @BeforeAll
  static void setUp() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE SoStaff (Dept VARCHAR(10), Id INT, Sal INT, Name VARCHAR(10), Grp VARCHAR(5), "
          + "PRIMARY KEY ((Dept), Id))");
      statement.execute("CREATE INDEX SoStaffByName ON SoStaff (Name) LOCAL");
      Random random = new Random(7);
      StringBuilder insert = new StringBuilder("INSERT INTO SoStaff VALUES ");
      for (int i = 0; i < 60; i++) {
        insert.append(i == 0 ? "" : ",").append("('").append("ABC".charAt(random.nextInt(3))).append("',").append(i)
            .append(",").append(random.nextInt(5) == 0 ? "NULL" : String.valueOf(random.nextInt(100))).append(",")
            .append(random.nextInt(4) == 0 ? "NULL" : "'n" + random.nextInt(5) + "'").append(",")
            .append(random.nextInt(3) == 0 ? "NULL" : "'g" + random.nextInt(3) + "'").append(")");
      }
      statement.execute(insert.toString());
      statement.execute("CREATE MATERIALIZED VIEW SoStaffTotals AS SELECT Dept, Grp, COUNT(*) AS N, SUM(Sal) AS S, "
          + "COUNT(Sal) AS CS FROM SoStaff GROUP BY Dept, Grp");
    }
  }

  @AfterAll
  static void tearDown() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("DROP TABLE SoStaff CASCADE");
    }
  }

  @Test
  void everyAggregateAgreesWithTheTable() throws SQLException {
    String[] filters = {"Dept = 'A'", "Dept IN ('A', 'C')", "Dept > 'A'", "Grp = 'g1'", "Grp IS NOT NULL",
        "Sal > 50", "Dept = 'B' AND Grp = 'g0'", "Dept = 'A' OR Grp = 'g2'", "NOT (Dept = 'A')", "Grp LIKE 'g%'",
        "Dept = 'Z'"};
    String[] calls = {"COUNT(*)", "SUM(Sal)", "COUNT(*), SUM(Sal)", "AVG(Sal)", "MIN(Dept)", "COUNT(DISTINCT Grp)"};
    String[] groupings = {"", "Dept", "Grp", "Dept, Grp"};
    List<String> answeredFromTheSummary = new ArrayList<>();
    for (String filter : filters) {
      for (String call : calls) {
        for (String grouping : groupings) {
          String query = "SELECT " + (grouping.isEmpty() ? "" : grouping + ", ") + call + " FROM SoStaff WHERE "
              + filter + (grouping.isEmpty() ? "" : " GROUP BY " + grouping);
          agreed(query);
          if (explain(query).contains("SoStaffTotals")) {
            answeredFromTheSummary.add(query);
          }
        }
      }
    }
    assertThat(answeredFromTheSummary).hasSizeGreaterThan(80) // the summary does answer what it can
        .contains("SELECT Dept, COUNT(*) FROM SoStaff WHERE Dept = 'A' GROUP BY Dept")
        .doesNotContain("SELECT Dept, Grp, MIN(Dept) FROM SoStaff WHERE Grp IS NOT NULL GROUP BY Dept, Grp");
  }

  @Test
  void joinsAndSubqueriesAgreeWithTheTable() throws SQLException {
    for (String query : List.of("SELECT COUNT(*) FROM SoStaff a, SoStaff b WHERE a.Dept = 'A' AND b.Dept = 'B'",
        "SELECT COUNT(*) FROM SoStaff a, SoStaff b WHERE a.Dept = 'A' AND b.Dept = 'A'",
        "SELECT a.Dept, COUNT(*) FROM SoStaff a JOIN SoStaff b ON a.Grp = b.Grp GROUP BY a.Dept",
        "SELECT Dept, N FROM (SELECT Dept, COUNT(*) AS N FROM SoStaff WHERE Grp = 'g1' GROUP BY Dept) WHERE N > 1",
        "SELECT COUNT(*) FROM SoStaff WHERE Dept IN (SELECT Dept FROM SoStaff WHERE Grp = 'g2')",
        "SELECT Dept, COUNT(*) FROM SoStaff WHERE Dept = 'A' GROUP BY Dept UNION ALL "
            + "SELECT Dept, COUNT(*) FROM SoStaff WHERE Dept = 'B' GROUP BY Dept",
        "SELECT Dept, COUNT(*) FROM SoStaff GROUP BY Dept HAVING COUNT(*) > 15")) {
      agreed(query);
    }
  }
}
