package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.testing.QueryRuns;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Joins in the client, checked against the oracle, and lookup tables served from the cache. */
class JoinTest {
  private static String employees;
  private static String departments;
  private static Connection pushed;
  private static Connection oracle;

  @BeforeAll
  static void setUp() throws SQLException {
    TableClient employeeTable = TestAccount.newTable("Emp");
    List<TableEntity> people = new ArrayList<>();
    String[] depts = {"Sales", "Marketing", "Engineering", "Legal"};
    for (int i = 0; i < 40; i++) {
      TableEntity person = new TableEntity(depts[i % 3], String.format("e%03d", i)).addProperty("Age", 20 + i)
          .addProperty("Manager", String.format("e%03d", i / 4));
      if (i % 7 != 0) {
        person.addProperty("Dept", depts[i % 4]); // Legal has no department entity; some have no Dept
      }
      people.add(person);
    }
    TestAccount.insert(employeeTable, people);
    TableClient departmentTable = TestAccount.newTable("Dept");
    TestAccount.insert(departmentTable, List.of(
        new TableEntity("Department", "Sales").addProperty("Floor", 1),
        new TableEntity("Department", "Marketing").addProperty("Floor", 2),
        new TableEntity("Department", "Engineering").addProperty("Floor", 3),
        new TableEntity("Department", "Research").addProperty("Floor", 4)));
    employees = employeeTable.getTableName();
    departments = departmentTable.getTableName();
    pushed = TestAccount.connect();
    oracle = TestAccount.connect("pushdown=false", "planCacheSize=0"); // the plan cache is under test too
  }

  @AfterAll
  static void tearDown() throws SQLException {
    pushed.close();
    oracle.close();
  }

  @Test
  void everyKindOfJoinAgreesWithTheOracle() throws SQLException {
    String e = employees;
    String d = departments;
    List<String> queries = List.of(
        "SELECT e.RowKey, d.\"Floor\" FROM " + e + " e JOIN " + d + " d ON d.RowKey = e.Dept",
        "SELECT e.RowKey, d.\"Floor\" FROM " + e + " e JOIN " + d + " d ON d.PartitionKey = 'Department' "
            + "AND d.RowKey = e.Dept WHERE e.PartitionKey = 'Sales'",
        "SELECT e.RowKey, d.RowKey FROM " + e + " e LEFT JOIN " + d + " d ON d.RowKey = e.Dept",
        "SELECT e.RowKey, d.RowKey FROM " + e + " e RIGHT JOIN " + d + " d ON d.RowKey = e.Dept AND e.Age > 40",
        "SELECT e.RowKey, d.RowKey FROM " + e + " e FULL JOIN " + d + " d ON d.RowKey = e.Dept",
        "SELECT e.RowKey FROM " + e + " e WHERE EXISTS (SELECT 1 FROM " + d + " d WHERE d.RowKey = e.Dept "
            + "AND d.\"Floor\" > 1)",
        "SELECT e.RowKey FROM " + e + " e WHERE e.Dept IN (SELECT RowKey FROM " + d + " WHERE \"Floor\" < 3)",
        "SELECT e.RowKey FROM " + e + " e WHERE NOT EXISTS (SELECT 1 FROM " + d + " d WHERE d.RowKey = e.Dept)",
        "SELECT e.RowKey FROM " + e + " e WHERE e.Dept NOT IN (SELECT RowKey FROM " + d + ")",
        "SELECT a.RowKey, b.RowKey FROM " + e + " a JOIN " + e + " b ON b.RowKey = a.Manager "
            + "AND b.PartitionKey = a.PartitionKey",
        "SELECT a.RowKey, b.Age FROM " + e + " a LEFT JOIN " + e + " b ON b.RowKey = a.Manager WHERE a.Age < 30",
        "SELECT d.RowKey, COUNT(e.RowKey) FROM " + d + " d LEFT JOIN " + e + " e ON e.Dept = d.RowKey "
            + "GROUP BY d.RowKey");
    for (String sql : queries) {
      assertThat(OracleTest.rows(pushed, sql)).as(sql).isEqualTo(OracleTest.rows(oracle, sql)).isNotEmpty();
    }
  }

  @Test
  void cachedLookupTableIsReadOnce() throws SQLException {
    String sql = "SELECT e.RowKey, d.\"Floor\" FROM " + employees + " e JOIN " + departments
        + " d ON d.PartitionKey = 'Department' AND d.RowKey = e.Dept WHERE e.PartitionKey = 'Sales'";
    try (Connection connection = TestAccount.connect("lookupTables=" + departments);
         Statement statement = connection.createStatement()) {
      try (ResultSet plan = statement.executeQuery("EXPLAIN PLAN FOR " + sql)) {
        plan.next();
        assertThat(plan.getString(1)).contains("access=[CACHED PARTITION SCAN]");
      }
      List<String> first = OracleTest.rows(connection, sql);
      assertThat(first).isEqualTo(OracleTest.rows(oracle, sql)).isNotEmpty();
      assertThat(requests(statement, sql)).isEqualTo(1); // the Employees partition; Departments from the cache
      try (Connection another = TestAccount.connect("lookupTables=" + departments);
           Statement other = another.createStatement()) {
        assertThat(requests(other, sql)).isEqualTo(1); // shared by connections with the same settings
        other.executeUpdate("UPDATE " + departments + " SET \"Floor\" = 9 WHERE PartitionKey = 'Department' "
            + "AND RowKey = 'Sales'");
      }
      assertThat(requests(statement, sql)).isEqualTo(2); // the write refreshed the cache
      assertThat(OracleTest.rows(connection, sql)).isEqualTo(OracleTest.rows(oracle, sql)).anyMatch(row -> row.endsWith("|9|"));
      connection.unwrap(LookupTables.class).refreshLookupTables();
      assertThat(requests(statement, sql)).isEqualTo(2);
    }
  }

  /** An UPDATE or DELETE writes on condition of ETags, so its plan reads the target itself, not the cache. */
  @Test
  void writesToALookupTableReadItFresh() throws SQLException {
    TableClient codes = TestAccount.newTable("Codes", new TableEntity("c", "1").addProperty("Label", "one"),
        new TableEntity("c", "2").addProperty("Label", "two"));
    String table = codes.getTableName();
    try (Connection connection = TestAccount.connect("lookupTables=" + table);
         Statement statement = connection.createStatement()) {
      assertThat(OracleTest.rows(connection, "SELECT Label FROM " + table + " ORDER BY RowKey")).hasSize(2);
      codes.upsertEntity(new TableEntity("c", "1").addProperty("Label", "uno")); // the cache's ETag is stale now
      try (ResultSet plan = statement.executeQuery("EXPLAIN PLAN FOR UPDATE " + table + " SET Label = 'x' WHERE RowKey = '1'")) {
        plan.next();
        assertThat(plan.getString(1)).doesNotContain("CACHED");
      }
      try (ResultSet plan = statement.executeQuery("EXPLAIN PLAN FOR SELECT Label FROM " + table)) {
        plan.next();
        assertThat(plan.getString(1)).contains("CACHED");
      }
      assertThat(statement.executeUpdate("UPDATE " + table + " SET Label = 'eins' WHERE RowKey = '1'")).isEqualTo(1);
      assertThat(OracleTest.rows(connection, "SELECT Label FROM " + table)).hasSize(2); // cached, and planned last
      codes.upsertEntity(new TableEntity("c", "1").addProperty("Label", "one")); // stale again
      try (PreparedStatement update = connection.prepareStatement("UPDATE " + table + " SET Label = ? WHERE RowKey = '1'")) {
        update.setString(1, "eins");
        assertThat(update.executeUpdate()).isEqualTo(1);
      }
      assertThat(statement.executeUpdate("DELETE FROM " + table + " WHERE RowKey = '2'")).isEqualTo(1);
      assertThat(OracleTest.rows(connection, "SELECT Label FROM " + table)).containsExactly("eins|");
    }
  }

  @Test
  void lookupTableLargerThanTheCacheIsReadWithAWarning() throws SQLException {
    String sql = "SELECT RowKey FROM " + departments;
    try (Connection connection = TestAccount.connect("lookupTables=" + departments, "lookupCacheMaxEntities=2");
         Statement statement = connection.createStatement()) {
      int rows = 0;
      try (ResultSet resultSet = statement.executeQuery(sql)) {
        while (resultSet.next()) {
          rows++;
        }
      }
      assertThat(rows).isEqualTo(4);
      SQLWarning warning = statement.getWarnings();
      assertThat((Object) warning).isNotNull();
      assertThat(warning.getMessage()).contains("lookupCacheMaxEntities");
    }
  }

  @Test
  void lookupJoinFetchesExactlyTheDistinctKeys() throws SQLException {
    TableClient keyed = TestAccount.newTable("Keyed");
    List<TableEntity> products = new ArrayList<>();
    for (int i = 0; i < 150; i++) {
      products.add(new TableEntity("cat" + (i % 3), "sku" + i).addProperty("Price", i));
    }
    TestAccount.insert(keyed, products);
    TableClient orders = TestAccount.newTable("Lines");
    List<TableEntity> lines = new ArrayList<>();
    String[][] refs = {{"cat0", "sku0"}, {"cat1", "sku1"}, {"cat0", "sku0"}, {"cat2", "sku5"}, {"cat1", "sku7"},
        {"cat2", "sku8"}, {"cat0", "sku9"}, {"cat1", "sku10"}, {"cat0", "missing"}, {"cat1", "sku1"}};
    for (int i = 0; i < refs.length; i++) {
      lines.add(new TableEntity("order", "line" + i).addProperty("Cat", refs[i][0]).addProperty("Sku", refs[i][1]));
    }
    lines.add(new TableEntity("order", "line-null").addProperty("Cat", "cat0")); // no Sku: a NULL key
    TestAccount.insert(orders, lines);
    String join = " FROM " + orders.getTableName() + " o %s JOIN " + keyed.getTableName()
        + " p ON p.PartitionKey = o.Cat AND p.RowKey = o.Sku";
    // sampleSize=100: the keyed table is known to be larger than the sample, the order lines are not
    try (Connection connection = TestAccount.connect("sampleSize=100"); Statement statement = connection.createStatement()) {
      String inner = "SELECT o.RowKey, p.Price" + String.format(join, "");
      try (ResultSet plan = statement.executeQuery("EXPLAIN PLAN FOR " + inner)) {
        plan.next();
        assertThat(plan.getString(1)).contains("LookupJoin", "MULTI-POINT LOOKUP");
      }
      assertThat(OracleTest.rows(connection, inner)).isEqualTo(OracleTest.rows(oracle, inner)).hasSize(9);
      // one scan of the order lines, then one GET per distinct non-NULL key (8, one of them missing)
      assertThat(requests(statement, inner)).isEqualTo(1 + 8);
      String left = "SELECT o.RowKey, p.Price" + String.format(join, "LEFT");
      assertThat(OracleTest.rows(connection, left)).isEqualTo(OracleTest.rows(oracle, left)).hasSize(11);
    }
    // the same join when the keyed table is small: read whole, no lookups
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement();
         ResultSet plan = statement.executeQuery("EXPLAIN PLAN FOR SELECT o.RowKey, p.Price"
             + String.format(join, ""))) {
      plan.next();
      assertThat(plan.getString(1)).doesNotContain("LookupJoin");
    }
  }

  @Test
  void lookupJoinOnPartitionKeyScansExactlyThosePartitions() throws SQLException {
    TableClient items = TestAccount.newTable("Items");
    List<TableEntity> entities = new ArrayList<>();
    for (int p = 0; p < 30; p++) {
      for (int r = 0; r < 5; r++) {
        entities.add(new TableEntity("bin" + p, "item" + r).addProperty("Weight", p * 10 + r));
      }
    }
    TestAccount.insert(items, entities);
    TableClient picks = TestAccount.newTable("Picks");
    TestAccount.insert(picks, List.of(new TableEntity("pick", "1").addProperty("Bin", "bin3"),
        new TableEntity("pick", "2").addProperty("Bin", "bin7"), new TableEntity("pick", "3").addProperty("Bin", "bin3"),
        new TableEntity("pick", "4").addProperty("Bin", "nobin")));
    String sql = "SELECT p.RowKey, i.RowKey, i.Weight FROM " + picks.getTableName() + " p JOIN " + items.getTableName()
        + " i ON i.PartitionKey = p.Bin";
    try (Connection connection = TestAccount.connect("sampleSize=100"); Statement statement = connection.createStatement()) {
      try (ResultSet plan = statement.executeQuery("EXPLAIN PLAN FOR " + sql)) {
        plan.next();
        assertThat(plan.getString(1)).contains("LookupJoin", "MULTI-PARTITION SCAN");
      }
      assertThat(OracleTest.rows(connection, sql)).isEqualTo(OracleTest.rows(oracle, sql)).hasSize(15);
      // one scan of the picks, then one scan per distinct partition (bin3, bin7, nobin)
      assertThat(requests(statement, sql)).isEqualTo(1 + 3);
    }
  }

  private static long requests(Statement statement, String sql) throws SQLException {
    try (ResultSet resultSet = statement.executeQuery(sql)) {
      while (resultSet.next()) {
        // read every row
      }
    }
    return statement.unwrap(TableSqlStatement.class).requestCount();
  }

  /**
   * A lookup join whose condition reads three fields of each left row, and which the right
   * side's scan cannot take whole: its generated code captured 300 values, more than a JVM
   * method takes, and failed to compile (batches are smaller where a condition reads more).
   */
  @Test
  void aLookupConditionOfManyLeftFieldsCompiles() throws SQLException {
    try (Connection lookups = TestAccount.connect("lookupTables=JtDim"); Statement statement = lookups.createStatement()) {
      statement.execute("CREATE TABLE JtDim (Dept VARCHAR(5) PRIMARY KEY, Boss VARCHAR(5), Size INT)");
      statement.execute("CREATE TABLE JtFact (Dept VARCHAR(5), Id INT, Amt INT, Tag VARCHAR(5), PRIMARY KEY ((Dept), Id))");
      statement.execute("INSERT INTO JtDim VALUES ('a', 'x', 3), ('b', NULL, 7), ('c', 'y', NULL), ('d', 'x', 1)");
      StringBuilder insert = new StringBuilder("INSERT INTO JtFact VALUES ");
      java.util.Random random = new java.util.Random(9);
      for (int i = 0; i < 30; i++) {
        insert.append(i == 0 ? "" : ",").append("('").append("abcq".charAt(random.nextInt(4))).append("',").append(i)
            .append(",").append(random.nextInt(50)).append(",'").append(random.nextBoolean() ? "a" : "t2").append("')");
      }
      statement.execute(insert.toString());
      for (String query : List.of("SELECT f.Dept, f.Amt, d.Size FROM JtFact f RIGHT JOIN JtDim d ON f.Dept = d.Dept "
          + "WHERE (d.Dept = f.Tag OR (f.Id < 5 AND d.Dept > 'a'))",
          "SELECT COUNT(f.Id), SUM(f.Amt) FROM JtFact f FULL JOIN JtDim d ON f.Dept = d.Dept "
          + "WHERE (d.Dept = f.Tag OR (f.Amt > d.Size AND f.Amt = 36))")) {
        assertThat(QueryRuns.run(lookups, query).rows()).as(query)
            .containsExactlyInAnyOrderElementsOf(QueryRuns.run(oracle, query).rows());
      }
      statement.execute("DROP TABLE JtDim");
      statement.execute("DROP TABLE JtFact");
    }
  }
}
