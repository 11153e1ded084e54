package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablesql.testing.OracleComparedTest;
import io.tablesql.testing.QueryRuns;
import io.tablesql.testing.QueryRuns.Run;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Materialized views that copy: the guide's inter-partition secondary index that duplicates the
 * entity, and a denormalized copy keyed for another query, kept by tablesql. After every write
 * path each view holds exactly what its query gives over the base table.
 */
class MaterializedViewTest extends OracleComparedTest {
  private static final String BY_EMAIL = "SELECT Email, Name, Dept, Id FROM MvStaff";
  private static final String RICH = "SELECT Name, Dept, Id, Salary FROM MvStaff WHERE Salary > 1000 AND Name IS NOT "
      + "NULL";
  private static final String PAYROLL = "SELECT Dept, COUNT(*) AS N, COUNT(Name) AS Named, SUM(Salary) AS Payroll "
      + "FROM MvStaff GROUP BY Dept";

  @BeforeAll
  static void setUp() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE MvStaff (Dept VARCHAR(20), Id INT, Email VARCHAR(100) NOT NULL, "
          + "Name VARCHAR(50), Salary DECIMAL(10,2), PRIMARY KEY ((Dept), Id))");
      statement.execute("CREATE UNIQUE INDEX MvStaffEmail ON MvStaff (Email)");
      statement.execute("INSERT INTO MvStaff VALUES ('Sales', 1, 'ann@x.com', 'Ann', 900), "
          + "('Sales', 2, 'bob@x.com', 'Bob', 1500), ('Finance', 3, 'cy@x.com', NULL, 2500), "
          + "('Finance', 4, 'dee@x.com', 'Dee', 3000)");
      statement.execute("CREATE MATERIALIZED VIEW MvStaffByEmail PRIMARY KEY ((Email)) AS " + BY_EMAIL);
      statement.execute("CREATE MATERIALIZED VIEW MvStaffRich PRIMARY KEY ((Name), Dept, Id) AS " + RICH);
      statement.execute("CREATE MATERIALIZED VIEW MvStaffPayroll PRIMARY KEY ((Dept)) AS " + PAYROLL);
    }
  }

  private static List<String> rows(Connection on, String sql) throws SQLException {
    return QueryRuns.run(on, sql).rows();
  }

  /** Each view holds what its query gives over the table, read through the pushdown-free oracle. */
  private static void assertViewsAgree() throws SQLException {
    assertThat(rows(connection, "SELECT Email, Name, Dept, Id FROM MvStaffByEmail"))
        .containsExactlyInAnyOrderElementsOf(rows(oracle, BY_EMAIL));
    assertThat(rows(connection, "SELECT Name, Dept, Id, Salary FROM MvStaffRich"))
        .containsExactlyInAnyOrderElementsOf(rows(oracle, RICH));
    assertThat(rows(connection, "SELECT Dept, N, Named, Payroll FROM MvStaffPayroll"))
        .containsExactlyInAnyOrderElementsOf(rows(oracle, PAYROLL));
  }

  @Test
  void countsAndSumsOfAGroupAreOneRequestOnTheSummary() throws SQLException {
    String count = "SELECT COUNT(*) FROM MvStaff WHERE Dept = 'Finance'";
    assertThat(explain(count)).contains("MvStaffPayroll");
    Run run = agreed(count);
    assertThat(run.requests()).isEqualTo(1);
    String sums = "SELECT Dept, SUM(Salary), COUNT(*) FROM MvStaff GROUP BY Dept";
    assertThat(explain(sums)).contains("MvStaffPayroll");
    agreed(sums);
    agreed("SELECT SUM(Salary) FROM MvStaff WHERE Dept = 'Nowhere'");
    agreed("SELECT COUNT(*) FROM MvStaff WHERE Dept = 'Nowhere'");
  }

  /**
   * A filter a summary cannot apply (on a column it does not group by) keeps the query on the
   * table: pushed into the table's scan, it used to be invisible to Calcite's rules, which then
   * answered the aggregate from the summary without it.
   */
  @Test
  void aFilterASummaryCannotApplyIsNeverDropped() throws SQLException {
    for (String query : List.of("SELECT Dept, COUNT(*) FROM MvStaff WHERE Salary > 1000 GROUP BY Dept",
        "SELECT Dept, SUM(Salary) FROM MvStaff WHERE Name IS NOT NULL GROUP BY Dept",
        "SELECT COUNT(*) FROM MvStaff WHERE Id > 2", "SELECT COUNT(*), SUM(Salary) FROM MvStaff WHERE Email < 'c'")) {
      assertThat(explain(query)).as(query).doesNotContain("MvStaffPayroll");
      agreed(query); // the same rows as the oracle, which reads the table
    }
  }

  /**
   * A filter on the summary's own groups, pushed into the table's scan, is still answered from
   * the summary, filtered the same way: the scan tells Calcite's rules the WHERE it applies.
   */
  @Test
  void aFilterOnTheGroupsIsAnsweredFromTheSummary() throws SQLException {
    for (String query : List.of("SELECT COUNT(*), SUM(Salary) FROM MvStaff WHERE Dept = 'Sales'",
        "SELECT Dept, COUNT(*) FROM MvStaff WHERE Dept IN ('Sales', 'Finance', 'Nowhere') GROUP BY Dept",
        "SELECT Dept, SUM(Salary) FROM MvStaff WHERE Dept > 'G' GROUP BY Dept",
        "SELECT COUNT(*), SUM(Salary) FROM MvStaff WHERE Dept = 'Nowhere'")) {
      assertThat(explain(query)).as(query).contains("MvStaffPayroll");
      agreed(query);
    }
    // a filter on the groups and on another column: the summary cannot apply the second
    String mixed = "SELECT Dept, COUNT(*) FROM MvStaff WHERE Dept = 'Sales' AND Salary > 1000 GROUP BY Dept";
    assertThat(explain(mixed)).doesNotContain("MvStaffPayroll");
    agreed(mixed);
    String limited = "SELECT COUNT(*) FROM (SELECT * FROM MvStaff WHERE Dept = 'Sales' LIMIT 1)";
    assertThat(explain(limited)).doesNotContain("MvStaffPayroll");
    agreed(limited);
  }

  /**
   * A transaction reads its own writes: a view holds them only once it commits, so a query of a
   * table the transaction wrote is answered from the table, and a statement prepared earlier to
   * read the view instead is refused rather than answer without them.
   */
  @Test
  void aTransactionsOwnWritesAreNeverReadThroughAView() throws SQLException {
    String count = "SELECT COUNT(*), SUM(Salary) FROM MvStaff WHERE Dept = 'Txn'";
    try (PreparedStatement earlier = connection.prepareStatement("SELECT Dept, COUNT(*) FROM MvStaff GROUP BY Dept")) {
      assertThat(explain("SELECT Dept, COUNT(*) FROM MvStaff GROUP BY Dept")).contains("MvStaffPayroll");
      connection.setAutoCommit(false);
      try (Statement statement = connection.createStatement()) {
        statement.execute("INSERT INTO MvStaff VALUES ('Txn', 900, 'txn@x.com', 'T', 10)");
        assertThat(rows(connection, count)).containsExactly("1|10.00"); // planned on the table, in the transaction
        assertThat(rows(connection, "SELECT Dept, COUNT(*) FROM MvStaff WHERE Dept = 'Txn' GROUP BY Dept"))
            .containsExactly("Txn|1");
        assertThatThrownBy(() -> earlier.executeQuery().next())
            .hasMessageContaining("this transaction has written since")
            .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("0A000"));
        try (PreparedStatement again = connection.prepareStatement("SELECT Dept, COUNT(*) FROM MvStaff GROUP BY Dept")) {
          assertThat(QueryRuns.rows(again.executeQuery())).contains("Txn|1"); // prepared again: on the table
        }
        connection.commit();
      } finally {
        connection.setAutoCommit(true);
      }
      assertThat(QueryRuns.rows(earlier.executeQuery())).contains("Txn|1"); // after the commit the view holds it
      assertThat(rows(connection, count)).containsExactly("1|10.00");
    } finally {
      try (Statement statement = connection.createStatement()) {
        statement.execute("DELETE FROM MvStaff WHERE Dept = 'Txn'");
      }
    }
  }

  /** A summary as people write one, with no PRIMARY KEY: its GROUP BY columns are its key. A copy still needs one. */
  @Test
  void aSummaryWithoutAPrimaryKeyIsKeyedByItsGroups() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE MvTeam (Dept VARCHAR(20), Id INT, Salary DECIMAL(10,2), PRIMARY KEY ((Dept), Id))");
      statement.execute("INSERT INTO MvTeam VALUES ('Sales', 1, 900), ('Sales', 2, 1500), ('Finance', 3, 2500)");
      statement.execute("CREATE MATERIALIZED VIEW MvTeamTotals AS SELECT Dept, COUNT(*) AS N, SUM(Salary) AS Total "
          + "FROM MvTeam GROUP BY Dept");
      statement.execute("INSERT INTO MvTeam VALUES ('Finance', 4, 3000)");
      assertThat(rows(connection, "SELECT Dept, N, Total FROM MvTeamTotals ORDER BY Dept"))
          .containsExactly("Finance|2|5500.00", "Sales|2|2400.00");
      assertThat(QueryRuns.explain(connection, "SELECT N FROM MvTeamTotals WHERE Dept = 'Sales'"))
          .contains("POINT LOOKUP");
      assertThatThrownBy(() -> statement.execute("CREATE MATERIALIZED VIEW MvTeamCopy AS SELECT Dept, Id FROM MvTeam"))
          .hasMessageContaining("needs a key: write PRIMARY KEY")
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("0A000"));
      statement.execute("DROP TABLE MvTeam");
    }
  }

  /** Runs the tasks at once, each on a thread of its own, and waits for all; a task's failure fails the test. */
  private static void together(List<java.util.concurrent.Callable<Object>> tasks) throws Exception {
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(tasks.size());
    try {
      for (java.util.concurrent.Future<Object> task : pool.invokeAll(tasks)) {
        task.get();
      }
    } finally {
      pool.shutdown();
    }
  }

  @Test
  void concurrentWritersOfOneGroupLoseNoCount() throws Exception {
    List<java.util.concurrent.Callable<Object>> writers = new java.util.ArrayList<>();
    for (int w = 0; w < 4; w++) {
      int writer = w;
      writers.add(() -> {
        try (Connection own = io.tablesql.testing.TestAccount.connect();
             PreparedStatement insert = own.prepareStatement("INSERT INTO MvStaff VALUES ('Conc', ?, ?, 'C', 10)")) {
          for (int i = 0; i < 8; i++) {
            insert.setInt(1, 1000 + writer * 100 + i);
            insert.setString(2, "c" + writer + "-" + i + "@x.com");
            insert.executeUpdate();
          }
        }
        return null;
      });
    }
    together(writers);
    assertThat(rows(connection, "SELECT N, Payroll FROM MvStaffPayroll WHERE Dept = 'Conc'"))
        .containsExactly("32|320.00");
    try (Statement statement = connection.createStatement()) {
      statement.execute("DELETE FROM MvStaff WHERE Dept = 'Conc'");
    }
    assertThat(rows(connection, "SELECT N FROM MvStaffPayroll WHERE Dept = 'Conc'")).isEmpty();
    assertViewsAgree();
  }

  @Test
  void theViewsHoldTheirQuerysRowsAndReadByTheirKey() throws SQLException {
    assertViewsAgree();
    Run lookup = QueryRuns.run(connection, "SELECT Name, Dept FROM MvStaffByEmail WHERE Email = 'bob@x.com'");
    assertThat(lookup.rows()).containsExactly("Bob|Sales");
    assertThat(lookup.requests()).isEqualTo(1);
    assertThat(explain("SELECT Name FROM MvStaffByEmail WHERE Email = 'bob@x.com'")).contains("POINT LOOKUP");
  }

  /**
   * Writers with a catalog cache of their own keep writing while the summary is verified (its
   * totals summed up from a scan while writes wait): no row is counted twice or lost. The
   * writers learn of the verification from their table's catalog entry, read once each write's
   * intent is recorded. (The narrowest race, an intent recorded just as the scan begins, is too
   * short on a table this small for the test to pin it down.)
   */
  @Test
  void writersDuringASummaryVerifyLoseAndDoubleNoCount() throws Exception {
    List<java.util.concurrent.Callable<Object>> writers = new java.util.ArrayList<>();
    for (int w = 0; w < 2; w++) {
      int writer = w;
      writers.add(() -> {
        // a catalog cache of their own (its key includes sampleSize), as in another JVM, which
        // never shows the summary being verified: only the handshake does
        try (Connection own = io.tablesql.testing.TestAccount.connect("sampleSize=999");
             PreparedStatement insert = own.prepareStatement("INSERT INTO MvStaff VALUES ('Verify', ?, ?, 'V', 5)");
             PreparedStatement raise = own.prepareStatement("UPDATE MvStaff SET Salary = Salary + 1 "
                 + "WHERE Dept = 'Verify' AND Id = ?")) {
          for (int i = 0; i < 12; i++) {
            insert.setInt(1, 2000 + writer * 100 + i);
            insert.setString(2, "v" + writer + "-" + i + "@x.com");
            insert.executeUpdate();
            raise.setInt(1, 2000 + writer * 100 + i / 2);
            raise.executeUpdate();
          }
        }
        return null;
      });
    }
    writers.add(() -> {
      try (Statement verify = connection.createStatement()) {
        for (int i = 0; i < 3; i++) {
          verify.execute("ALTER MATERIALIZED VIEW MvStaffPayroll VERIFY");
        }
      }
      return null;
    });
    together(writers);
    assertThat(rows(connection, "SELECT N, Payroll FROM MvStaffPayroll WHERE Dept = 'Verify'"))
        .containsExactly("24|144.00"); // 24 rows of 5, and 24 raises of 1
    assertViewsAgree();
    try (Statement statement = connection.createStatement()) {
      statement.execute("DELETE FROM MvStaff WHERE Dept = 'Verify'");
    }
  }

  /**
   * A query's AVG(x) is answered from a summary that keeps SUM(x) and COUNT(x): Calcite reduces
   * the AVG to them and rolls them up.
   */
  @Test
  void anAverageIsAnsweredFromASummaryOfItsSumAndCount() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE MvPay (Dept VARCHAR(20), Id INT, Salary DECIMAL(10,2), PRIMARY KEY ((Dept), Id))");
      try {
        statement.execute("INSERT INTO MvPay VALUES ('Sales', 1, 900), ('Sales', 2, 1500), ('Finance', 3, NULL), "
            + "('Finance', 4, 3000)");
        statement.execute("CREATE MATERIALIZED VIEW MvPayTotals PRIMARY KEY ((Dept)) AS SELECT Dept, "
            + "COUNT(Salary) AS Paid, SUM(Salary) AS Payroll FROM MvPay GROUP BY Dept");
        String one = "SELECT AVG(Salary) FROM MvPay WHERE Dept = 'Finance'";
        assertThat(explain(one)).contains("MvPayTotals").contains("POINT LOOKUP");
        assertThat(agreed(one).rows()).containsExactly("3000.00"); // the NULL salary is not counted
        String all = "SELECT Dept, AVG(Salary) FROM MvPay GROUP BY Dept";
        assertThat(explain(all)).contains("MvPayTotals");
        assertThat(agreed(all).rows()).containsExactlyInAnyOrder("Finance|3000.00", "Sales|1200.00");
      } finally {
        statement.execute("DROP TABLE MvPay CASCADE");
      }
    }
  }

  /**
   * A summary as people write one, with an AVG: kept as its sum and count, read as their
   * quotient exactly as a query's AVG computes it (truncated to the column's scale; an average of
   * integers an integer), through every write.
   */
  @Test
  void aSummaryKeepsAnAverageAsItsQueryComputesIt() throws SQLException {
    String query = "SELECT Dept, COUNT(*) AS N, SUM(Salary) AS Total, AVG(Salary) AS Mean, AVG(Age) AS MeanAge "
        + "FROM MvAvg GROUP BY Dept";
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE MvAvg (Dept VARCHAR(20), Id INT, Salary DECIMAL(10,2), Age INT, "
          + "PRIMARY KEY ((Dept), Id))");
      try {
        statement.execute("INSERT INTO MvAvg VALUES ('Sales', 1, 1.00, 20), ('Sales', 2, 2.00, 21), "
            + "('Sales', 3, 2.00, 25), ('Finance', 4, NULL, NULL)");
        statement.execute("CREATE MATERIALIZED VIEW MvAvgByDept AS " + query);
        String view = "SELECT Dept, N, Total, Mean, MeanAge FROM MvAvgByDept";
        assertThat(rows(connection, view)).containsExactlyInAnyOrder("Sales|3|5.00|1.66|22", "Finance|1|null|null|null")
            .containsExactlyInAnyOrderElementsOf(rows(oracle, query));
        statement.execute("INSERT INTO MvAvg VALUES ('Finance', 5, -7.55, 40), ('Finance', 6, 1.00, 41)");
        statement.execute("UPDATE MvAvg SET Salary = Salary + 0.01, Age = Age - 1 WHERE Dept = 'Sales' AND Id = 1");
        statement.execute("DELETE FROM MvAvg WHERE Dept = 'Sales' AND Id = 3");
        assertThat(rows(connection, view)).containsExactlyInAnyOrder("Sales|2|3.01|1.50|20",
            "Finance|3|-6.55|-3.27|40").containsExactlyInAnyOrderElementsOf(rows(oracle, query));
        agreed("SELECT Dept, AVG(Salary), AVG(Age) FROM MvAvg GROUP BY Dept");
        assertThat(rows(connection, "SELECT Mean FROM MvAvgByDept WHERE Dept = 'Finance'")).containsExactly("-3.27");
      } finally {
        statement.execute("DROP TABLE MvAvg CASCADE");
      }
    }
  }

  /**
   * A summary grouped by nullable columns, written as people write it (no key clause, no WHERE
   * ... IS NOT NULL): the NULLs are a group of their own, as GROUP BY makes them, kept through
   * every write, ordered and compared as SQL does (NULLs last ascending), and a query of the
   * table's groups is answered from it.
   */
  @Test
  void aSummaryKeepsTheGroupOfNulls() throws SQLException {
    String query = "SELECT Dept, Region, COUNT(*) AS N, SUM(Salary) AS Total, AVG(Salary) AS Mean FROM MvNul "
        + "GROUP BY Dept, Region";
    String view = "SELECT Dept, Region, N, Total, Mean FROM MvNulTotals";
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE MvNul (Id INT PRIMARY KEY, Dept VARCHAR(20), Region VARCHAR(10), "
          + "Salary DECIMAL(10,2), Hired DATE)");
      try {
        statement.execute("INSERT INTO MvNul VALUES (1, 'Sales', 'N', 900, DATE '2020-01-01'), "
            + "(2, NULL, 'N', 1500, NULL), (3, NULL, NULL, 2500, NULL), (4, 'Sales', NULL, NULL, DATE '2021-05-05'), "
            + "(5, '', 'S', 10, DATE '2020-01-01')");
        statement.execute("CREATE MATERIALIZED VIEW MvNulTotals AS " + query);
        String byDate = "SELECT Hired, COUNT(*) AS N FROM MvNul GROUP BY Hired";
        statement.execute("CREATE MATERIALIZED VIEW MvNulHired AS " + byDate);
        assertThat(rows(connection, "SELECT Hired, N FROM MvNulHired")).contains("null|2")
            .containsExactlyInAnyOrderElementsOf(rows(oracle, byDate));
        assertThat(rows(connection, view)).containsExactlyInAnyOrder("Sales|N|1|900.00|900.00",
            "null|N|1|1500.00|1500.00", "null|null|1|2500.00|2500.00", "Sales|null|1|null|null", "|S|1|10.00|10.00")
            .containsExactlyInAnyOrderElementsOf(rows(oracle, query));
        statement.execute("INSERT INTO MvNul VALUES (6, NULL, NULL, 100), (7, NULL, 'S', 1)");
        statement.execute("UPDATE MvNul SET Dept = NULL WHERE Id = 1");
        statement.execute("UPDATE MvNul SET Dept = 'Ops', Region = 'N' WHERE Id = 3");
        statement.execute("DELETE FROM MvNul WHERE Id = 7");
        assertThat(rows(connection, view)).containsExactlyInAnyOrderElementsOf(rows(oracle, query))
            .contains("null|N|2|2400.00|1200.00", "null|null|1|100.00|100.00");
        for (String sql : List.of(view + " ORDER BY Dept, Region", view + " ORDER BY Dept DESC, Region DESC",
            view + " ORDER BY Dept NULLS FIRST, Region NULLS FIRST", view + " ORDER BY Dept DESC NULLS LAST, Region",
            view + " WHERE Dept > 'A'", view + " WHERE Dept >= '' AND Region < 'T'", view + " WHERE Dept IS NULL",
            view + " WHERE Dept = 'Sales'", view + " WHERE Dept IS NULL AND Region IS NULL",
            view + " WHERE (Dept, Region) > ('Sales', 'A')", view + " WHERE (Dept, Region) >= ('', 'S')")) {
          List<String> expected = rows(oracle, sql.replace(view, "SELECT * FROM (" + query + ")"));
          if (sql.contains("ORDER BY")) {
            assertThat(rows(connection, sql)).as(sql).containsExactlyElementsOf(expected);
          } else {
            assertThat(rows(connection, sql)).as(sql).containsExactlyInAnyOrderElementsOf(expected);
          }
        }
        // the keys' order is SQL's default placement of NULLs; the other placement is sorted in the client
        assertThat(explain(view + " ORDER BY Dept, Region")).doesNotContain("Sort");
        assertThat(explain(view + " ORDER BY Dept DESC, Region DESC")).contains("reverse of key order");
        assertThat(explain(view + " ORDER BY Dept NULLS FIRST, Region NULLS FIRST")).contains("Sort");
        String groups = "SELECT Dept, Region, COUNT(*) FROM MvNul GROUP BY Dept, Region";
        assertThat(explain(groups)).contains("MvNulTotals");
        agreed(groups);
        statement.execute("ALTER MATERIALIZED VIEW MvNulTotals VERIFY");
        assertThat(rows(connection, view)).containsExactlyInAnyOrderElementsOf(rows(oracle, query));
        statement.execute("DELETE FROM MvNul WHERE Dept IS NULL");
        assertThat(rows(connection, view)).containsExactlyInAnyOrderElementsOf(rows(oracle, query))
            .noneMatch(row -> row.startsWith("null|"));
        assertThatThrownBy(() -> statement.execute("CREATE MATERIALIZED VIEW MvNulCopy PRIMARY KEY ((Dept), Id) AS "
            + "SELECT Dept, Id FROM MvNul"))
            .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("0A000"))
            .hasMessageContaining("IS NOT NULL");
      } finally {
        statement.execute("DROP TABLE MvNul CASCADE");
      }
    }
  }

  /**
   * A SUM of INT values is a BIGINT (as in PostgreSQL): past 2^31 the table's plan once wrapped
   * around where the summary gave the true total. Both now give it, typed BIGINT.
   */
  @Test
  void aSumOfIntegersIsABigintOnTheTableAndFromASummary() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE MvBig (Dept VARCHAR(20), Id INT, Units INT, Small SMALLINT, "
          + "PRIMARY KEY ((Dept), Id))");
      try {
        statement.execute("INSERT INTO MvBig VALUES ('a', 1, 2000000000, 30000), ('a', 2, 2000000000, 30000), "
            + "('b', 3, -5, NULL)");
        String sum = "SELECT Dept, SUM(Units), SUM(Small) FROM MvBig GROUP BY Dept";
        try (ResultSet rows = statement.executeQuery(sum)) {
          assertThat(rows.getMetaData().getColumnType(2)).isEqualTo(java.sql.Types.BIGINT);
          assertThat(rows.getMetaData().getColumnType(3)).isEqualTo(java.sql.Types.BIGINT);
        }
        assertThat(agreed(sum).rows()).containsExactlyInAnyOrder("a|4000000000|60000", "b|-5|null");
        statement.execute("CREATE MATERIALIZED VIEW MvBigTotals PRIMARY KEY ((Dept)) AS SELECT Dept, "
            + "COUNT(*) AS N, SUM(Units) AS Total FROM MvBig GROUP BY Dept");
        String one = "SELECT SUM(Units) FROM MvBig WHERE Dept = 'a'";
        assertThat(explain(one)).contains("MvBigTotals");
        assertThat(agreed(one).rows()).containsExactly("4000000000");
        assertThat(agreed("SELECT AVG(Units) FROM MvBig WHERE Dept = 'a'").rows()).containsExactly("2000000000");
      } finally {
        statement.execute("DROP TABLE MvBig CASCADE");
      }
    }
  }

  @Test
  void aQueryOfTheTableIsAnsweredFromAViewThatHoldsItsAnswer() throws SQLException {
    String byEmail = "SELECT Name, Dept FROM MvStaff WHERE Email = 'bob@x.com'";
    assertThat(explain(byEmail)).contains("MvStaffByEmail").contains("POINT LOOKUP");
    Run run = agreed(byEmail);
    assertThat(run.rows()).containsExactly("Bob|Sales");
    assertThat(run.requests()).isEqualTo(1); // the UNIQUE index would take 2: its entry, then the row
    String rich = "SELECT Id FROM MvStaff WHERE Salary > 1000 AND Name IS NOT NULL AND Name = 'Dee'";
    assertThat(explain(rich)).contains("MvStaffRich");
    assertThat(agreed(rich).requests()).isEqualTo(1);
    try (Connection plain = io.tablesql.testing.TestAccount.connect("materializedViews=false")) {
      assertThat(QueryRuns.explain(plain, byEmail)).doesNotContain("MvStaffByEmail");
      assertThat(QueryRuns.run(plain, byEmail).rows()).containsExactly("Bob|Sales");
    }
  }

  @Test
  void metadataListsTheViewAsAMaterializedView() throws SQLException {
    try (java.sql.ResultSet tables = connection.getMetaData().getTables(null, null, "MvStaffByEmail", null)) {
      assertThat(tables.next()).isTrue();
      assertThat(tables.getString("TABLE_TYPE")).isEqualTo("MATERIALIZED VIEW");
    }
  }

  @Test
  void aViewOfATableMappedOverExistingDataIsKeptByWritesThroughTheMapping() throws SQLException {
    com.azure.data.tables.TableClient raw = io.tablesql.testing.TestAccount.newTable("MvOrders");
    io.tablesql.testing.TestAccount.insert(raw, List.of(
        new com.azure.data.tables.models.TableEntity("cust1", "order_001").addProperty("Amount", 10)
            .addProperty("Status", "open"),
        new com.azure.data.tables.models.TableEntity("cust2", "order_002").addProperty("Amount", 25)
            .addProperty("Status", "shipped")));
    String byStatus = "SELECT Status, Customer, OrderNo, Amount FROM MvOrders WHERE Status IS NOT NULL";
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE MvOrders (Customer VARCHAR, OrderNo INT, Amount INT, Status VARCHAR) OVER "
          + raw.getTableName() + " PARTITION KEY '{Customer}' ROW KEY 'order_{OrderNo:3}'");
      statement.execute("CREATE MATERIALIZED VIEW MvOrdersByStatus PRIMARY KEY ((Status), Customer, OrderNo) AS "
          + byStatus);
      statement.execute("INSERT INTO MvOrders VALUES ('cust1', 3, 40, 'open')");
      statement.execute("UPDATE MvOrders SET Status = 'shipped' WHERE Customer = 'cust1' AND OrderNo = 1");
      assertThat(rows(connection, "SELECT Customer, OrderNo FROM MvOrdersByStatus WHERE Status = 'shipped'"))
          .containsExactlyInAnyOrder("cust1|1", "cust2|2");
      assertThat(rows(connection, "SELECT Status, Customer, OrderNo, Amount FROM MvOrdersByStatus"))
          .containsExactlyInAnyOrderElementsOf(rows(oracle, byStatus));
      assertThat(raw.getEntity("cust1", "order_003").getProperty("Amount")).isEqualTo(40); // the application's layout
    }
  }

  @Test
  void everyWritePathKeepsTheViews() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("INSERT INTO MvStaff VALUES ('Sales', 10, 'eve@x.com', 'Eve', 5000)");
      assertViewsAgree();
      statement.execute("UPDATE MvStaff SET Salary = 500 WHERE Id = 10"); // leaves the condition
      assertViewsAgree();
      statement.execute("UPDATE MvStaff SET Email = 'eve2@x.com', Salary = 7000 WHERE Id = 10"); // a new view key
      assertViewsAgree();
      statement.execute("UPDATE MvStaff SET Dept = 'Finance' WHERE Id = 10"); // a move to another partition
      assertViewsAgree();
      statement.execute("UPSERT INTO MvStaff (Dept, Id, Email, Name, Salary) VALUES ('Finance', 10, 'eve3@x.com', "
          + "'Eve', 7100)");
      assertViewsAgree();
      statement.execute("INSERT INTO MvStaff SELECT 'Ops', Id + 100, 'ops' || Email, Name, Salary FROM MvStaff "
          + "WHERE Dept = 'Sales'");
      assertViewsAgree();
      statement.execute("DELETE FROM MvStaff WHERE Dept = 'Ops'");
      assertViewsAgree();
    }
    connection.setAutoCommit(false);
    try (Statement statement = connection.createStatement()) {
      statement.execute("INSERT INTO MvStaff VALUES ('Hr', 20, 'fay@x.com', 'Fay', 1200)");
      statement.execute("UPDATE MvStaff SET Salary = 1300 WHERE Dept = 'Finance' AND Id = 10");
      connection.commit();
    } finally {
      connection.setAutoCommit(true);
    }
    assertViewsAgree();
    try (PreparedStatement insert = connection.prepareStatement("INSERT INTO MvStaff VALUES (?, ?, ?, ?, ?)")) {
      for (int i = 0; i < 5; i++) {
        insert.setString(1, i % 2 == 0 ? "Sales" : "Hr");
        insert.setInt(2, 30 + i);
        insert.setString(3, "b" + i + "@x.com");
        insert.setString(4, "B" + i);
        insert.setBigDecimal(5, new java.math.BigDecimal(800 + 200 * i));
        insert.addBatch();
      }
      insert.executeBatch();
    }
    assertViewsAgree();
  }

  @Test
  void randomWritesKeepTheViewsExact() throws SQLException {
    Random random = new Random(25);
    String[] depts = {"Sales", "Finance", "Hr"};
    try (Statement statement = connection.createStatement()) {
      for (int step = 0; step < 40; step++) {
        int id = 50 + random.nextInt(8);
        String dept = depts[random.nextInt(depts.length)];
        String sql = switch (random.nextInt(5)) {
          case 0 -> "INSERT INTO MvStaff VALUES ('" + dept + "', " + id + ", 'r" + random.nextInt(12) + "@x.com', "
              + (random.nextBoolean() ? "'R" + random.nextInt(3) + "'" : "NULL") + ", " + random.nextInt(2000) + ")";
          case 1 -> "UPDATE MvStaff SET Salary = " + random.nextInt(2000) + " WHERE Id = " + id;
          case 2 -> "UPDATE MvStaff SET Email = 'r" + random.nextInt(12) + "@x.com' WHERE Id = " + id;
          case 3 -> "UPDATE MvStaff SET Dept = '" + dept + "' WHERE Id = " + id;
          default -> "DELETE FROM MvStaff WHERE Id = " + id;
        };
        try {
          statement.execute(sql);
        } catch (SQLException e) {
          assertThat(e.getSQLState()).as(sql + ": " + e.getMessage()).isIn("23505");
        }
        assertViewsAgree();
      }
    }
    try (Connection plain = io.tablesql.testing.TestAccount.connect("materializedViews=false")) {
      for (String query : List.of("SELECT Name, Dept, Id FROM MvStaff WHERE Email = 'r3@x.com'",
          "SELECT Email FROM MvStaff WHERE Email IN ('r1@x.com', 'r5@x.com', 'bob@x.com')",
          "SELECT Id, Salary FROM MvStaff WHERE Salary > 1000 AND Name IS NOT NULL AND Name = 'R1'",
          "SELECT Id FROM MvStaff WHERE Salary > 1500 AND Name IS NOT NULL AND Name >= 'R'",
          "SELECT COUNT(*) FROM MvStaff WHERE Email > 'r'",
          "SELECT COUNT(*), SUM(Salary), COUNT(Name) FROM MvStaff WHERE Dept = 'Hr'",
          "SELECT SUM(Salary) FROM MvStaff WHERE Dept IN ('Hr', 'Sales')",
          "SELECT Dept, SUM(Salary), COUNT(Name) FROM MvStaff GROUP BY Dept",
          "SELECT COUNT(*) FROM MvStaff WHERE Dept = 'Nowhere'",
          "SELECT d.Dept, (SELECT COUNT(*) FROM MvStaff s WHERE s.Dept = d.Dept) FROM MvStaff d")) {
        assertThat(rows(connection, query)).as(query).containsExactlyInAnyOrderElementsOf(rows(plain, query));
      }
    }
  }

  @Test
  void theViewIsReadOnlyAndItsQueryIsChecked() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      assertThatThrownBy(() -> statement.execute("DELETE FROM MvStaffByEmail"))
          .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("42809"))
          .hasMessageContaining("write MvStaff instead");
      assertThatThrownBy(() -> statement.execute("CREATE MATERIALIZED VIEW MvBad PRIMARY KEY ((Name)) AS "
          + "SELECT Name, Dept FROM MvStaff WHERE Name IS NOT NULL"))
          .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("0A000"))
          .hasMessageContaining("must identify the rows");
      assertThatThrownBy(() -> statement.execute("CREATE MATERIALIZED VIEW MvBad PRIMARY KEY ((Name), Dept, Id) AS "
          + "SELECT Name, Dept, Id FROM MvStaff"))
          .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("0A000"))
          .hasMessageContaining("IS NOT NULL");
      assertThatThrownBy(() -> statement.execute("CREATE MATERIALIZED VIEW MvBad PRIMARY KEY ((Dept)) AS "
          + "SELECT Dept, MAX(Salary) AS M FROM MvStaff GROUP BY Dept"))
          .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("0A000"))
          .hasMessageContaining("MIN and MAX");
      assertThatThrownBy(() -> statement.execute("CREATE MATERIALIZED VIEW MvBad PRIMARY KEY ((Dept)) AS "
          + "SELECT Dept, Id, COUNT(*) AS N FROM MvStaff GROUP BY Dept, Id"))
          .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("0A000"))
          .hasMessageContaining("exactly the GROUP BY columns");
      assertThatThrownBy(() -> statement.execute("CREATE MATERIALIZED VIEW MvBad PRIMARY KEY ((Dept), Id) AS "
          + "SELECT Dept, Id FROM MvStaff WHERE UPPER(Name) = 'ANN'"))
          .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("0A000"))
          .hasMessageContaining("UPPER");
    }
  }

  @Test
  void aViewAnotherConnectionDroppedIsNoLongerKept() throws Exception {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE MvGone (K INT PRIMARY KEY, V VARCHAR(10) NOT NULL)");
      statement.execute("CREATE MATERIALIZED VIEW MvGoneByV PRIMARY KEY ((V), K) AS SELECT V, K FROM MvGone");
      statement.execute("INSERT INTO MvGone VALUES (1, 'a')"); // this JVM's catalog now holds the view
      // as another JVM's DROP MATERIALIZED VIEW does it: the definition without the view, then its table
      com.azure.data.tables.TableClient catalog = io.tablesql.testing.TestAccount.service()
          .getTableClient(io.tablesql.catalog.Catalog.TABLE);
      for (com.azure.data.tables.models.TableEntity entity : catalog.listEntities()) {
        if ("MvGone".equals(entity.getProperty("Name"))) {
          com.fasterxml.jackson.databind.node.ObjectNode definition = (com.fasterxml.jackson.databind.node.ObjectNode)
              new com.fasterxml.jackson.databind.ObjectMapper().readTree((String) entity.getProperty("Definition"));
          String viewTable = definition.path("materializedViews").get(0).path("table").asText();
          definition.remove("materializedViews");
          definition.put("format", 1);
          catalog.updateEntity(entity.addProperty("Definition", definition.toString()).addProperty("Format", 1));
          io.tablesql.testing.TestAccount.service().deleteTable(viewTable);
        }
      }
      statement.execute("INSERT INTO MvGone VALUES (2, 'b')"); // succeeds: the view is found gone
      assertThat(rows(connection, "SELECT K FROM MvGone")).containsExactlyInAnyOrder("1", "2");
      statement.execute("DROP TABLE MvGone");
    }
  }

  @Test
  void verifyRepairsWhatAnotherWriterBroke() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE MvSmall (K INT PRIMARY KEY, V VARCHAR(10) NOT NULL)");
      statement.execute("INSERT INTO MvSmall VALUES (1, 'a'), (2, 'b')");
      statement.execute("CREATE MATERIALIZED VIEW MvSmallByV PRIMARY KEY ((V), K) AS SELECT V, K FROM MvSmall");
      assertThat(rows(connection, "SELECT V, K FROM MvSmallByV")).containsExactlyInAnyOrder("a|1", "b|2");
      statement.execute("ALTER MATERIALIZED VIEW MvSmallByV VERIFY");
      assertThat(statement.getWarnings().getMessage()).contains("0 entities written or removed");
      statement.execute("DROP MATERIALIZED VIEW MvSmallByV");
      statement.execute("DROP MATERIALIZED VIEW IF EXISTS MvSmallByV");
      statement.execute("ALTER TABLE MvSmall ADD COLUMN W INT");
      statement.execute("CREATE MATERIALIZED VIEW MvSmallPositive PRIMARY KEY ((K)) AS SELECT K, V FROM MvSmall "
          + "WHERE W > 0");
      assertThatThrownBy(() -> statement.execute("ALTER TABLE MvSmall DROP COLUMN W")) // read by its WHERE only
          .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("2BP01"))
          .hasMessageContaining("MvSmallPositive");
      statement.execute("ALTER TABLE MvSmall DROP COLUMN W CASCADE");
      assertThatThrownBy(() -> statement.execute("SELECT * FROM MvSmallByV")).isInstanceOf(SQLException.class);
      statement.execute("INSERT INTO MvSmall VALUES (3, 'c')"); // no view to keep: one request again
      statement.execute("DROP TABLE MvSmall");
    }
  }
}
