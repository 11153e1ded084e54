package io.tablesql.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.prepare.LiftTemplates;
import io.tablesql.prepare.LiteralLifter;
import io.tablesql.prepare.PlanCache;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Ad-hoc statements that differ only in literals are planned once and still answer right. */
class PlanCacheTest {
  @Test
  void literalsAreLiftedAndThePlanReused() throws SQLException {
    TableClient table = TestAccount.newTable("Plans");
    List<TableEntity> entities = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      entities.add(new TableEntity("p" + (i % 2), "r" + i).addProperty("N", i));
    }
    TestAccount.insert(table, entities);
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      PlanCache cache = connection.unwrap(TableSqlConnection.class).planCache();
      for (int i = 0; i < 20; i++) {
        try (ResultSet resultSet = statement.executeQuery("SELECT N FROM " + table.getTableName()
            + " WHERE PartitionKey = 'p" + (i % 2) + "' AND RowKey = 'r" + i + "'")) {
          assertThat(resultSet.next()).isTrue();
          assertThat(resultSet.getInt(1)).isEqualTo(i);
          assertThat(resultSet.next()).isFalse();
        }
      }
      assertThat(cache.plansMade()).isEqualTo(1);
      // two open result sets of one shape never share a plan
      try (Statement other = connection.createStatement();
           ResultSet first = statement.executeQuery("SELECT N FROM " + table.getTableName() + " WHERE N >= 10");
           ResultSet second = other.executeQuery("SELECT N FROM " + table.getTableName() + " WHERE N >= 15")) {
        assertThat(first.next()).isTrue();
        int secondRows = 0;
        while (second.next()) {
          secondRows++;
        }
        int firstRows = 1;
        while (first.next()) {
          firstRows++;
        }
        assertThat(secondRows).isEqualTo(5);
        assertThat(firstRows).isEqualTo(10);
      }
      // a value that does not fit its parameter runs as written
      try (ResultSet resultSet = statement.executeQuery("SELECT N FROM " + table.getTableName()
          + " WHERE N > 3000000000")) {
        assertThat(resultSet.next()).isFalse();
      }
    }
  }

  @Test
  void theCacheKeepsAtMostPlanCacheSizeTexts() throws SQLException {
    TableClient table = TestAccount.newTable("PlanBound");
    TestAccount.insert(table, List.of(new TableEntity("p", "r").addProperty("N", 1)));
    try (Connection connection = TestAccount.connect("planCacheSize=3");
         Statement statement = connection.createStatement()) {
      PlanCache cache = connection.unwrap(TableSqlConnection.class).planCache();
      String[] shapes = {"N", "RowKey", "PartitionKey", "N, RowKey", "N + 1", "N * 2", "RowKey, N"};
      for (String columns : shapes) {
        try (ResultSet resultSet = statement.executeQuery("SELECT " + columns + " FROM " + table.getTableName()
            + " WHERE PartitionKey = 'p'")) {
          assertThat(resultSet.next()).isTrue();
        }
      }
      assertThat(cache.plansMade()).isEqualTo(shapes.length);
      assertThat(cache.plannedTexts()).isLessThanOrEqualTo(3);
    }
  }

  @Test
  void onlyComparedLiteralsAreLifted() {
    LiteralLifter.Lifted lifted = LiteralLifter.lift("SELECT 'x' AS k, N FROM T WHERE PartitionKey = 'a''b' AND "
        + "RowKey LIKE 'r%' AND N IN (1, 2) AND UPPER(Name) = 'Z' ORDER BY 1 LIMIT 10");
    assertThat(lifted).isNotNull();
    assertThat(lifted.values()).containsExactly("a'b", new java.math.BigDecimal(1), new java.math.BigDecimal(2), "Z");
    assertThat(lifted.sql()).contains("'x'", "LIKE 'r%'", "FETCH NEXT 10 ROWS ONLY").doesNotContain("'a''b'");
    assertThat(LiteralLifter.lift("SELECT * FROM T").values()).isEmpty(); // cached as written
    assertThat(LiteralLifter.lift("INSERT INTO T (a) VALUES ('x')")).isNull();
    assertThat(LiteralLifter.lift("SELECT * FROM T WHERE (a, b) IN (('x', 'y'), ('z', 'w'))").values())
        .isEmpty(); // Calcite cannot type ROW(?, ?)
  }

  @Test
  void templatesLiftExactlyAsTheParser() {
    String[][] shapes = {
        {"SELECT N FROM T WHERE PartitionKey = 'a' AND RowKey = 'b'", "SELECT N FROM T WHERE PartitionKey = 'x''y' "
            + "AND RowKey = 'é -- /*'", "SELECT N FROM T WHERE PartitionKey = '' AND RowKey = ''''"},
        {"SELECT N FROM T WHERE Name LIKE 'x' AND PartitionKey = 'x'",
            "SELECT N FROM T WHERE Name LIKE 'y%' AND PartitionKey = 'z'",
            "SELECT N FROM T WHERE Name LIKE 'x' AND PartitionKey = 'z'"},
        {"SELECT N FROM T WHERE N > 5 AND M <= 5.25 AND K BETWEEN 1 AND 10",
            "SELECT N FROM T WHERE N > 70000 AND M <= 0.5 AND K BETWEEN 3 AND 4"},
        {"SELECT N FROM T WHERE N > -5", "SELECT N FROM T WHERE N > -6"},
        {"SELECT N FROM T WHERE N > 1e3", "SELECT N FROM T WHERE N > 2e3"},
        {"SELECT N FROM T WHERE Flag = TRUE", "SELECT N FROM T WHERE Flag = false"},
        {"SELECT N FROM T -- it's\nWHERE PartitionKey = 'a' /* 'b' */", "SELECT N FROM T -- it's\nWHERE "
            + "PartitionKey = 'c' /* 'b' */"},
        {"SELECT \"it's\" FROM T WHERE PartitionKey = 'a'", "SELECT \"it's\" FROM T WHERE PartitionKey = 'b'"},
        {"SELECT N\r\nFROM T\tWHERE\r\n PartitionKey = 'a'\n AND RowKey = 'b'",
            "SELECT N\r\nFROM T\tWHERE\r\n PartitionKey = 'c'\n AND RowKey = 'd'"},
        {"SELECT N FROM T WHERE PartitionKey = 'a'\n''", "SELECT N FROM T WHERE PartitionKey = 'c'\n''",
            "SELECT N FROM T WHERE PartitionKey = 'c'\n'd'"},
        {"SELECT N FROM T WHERE D > DATE '2020-01-01'", "SELECT N FROM T WHERE D > DATE '2021-01-01'"},
        {"SELECT N FROM T WHERE N IN (1, 2, 3)", "SELECT N FROM T WHERE N IN (4, 5, 6)"},
        {"SELECT 'x' AS k FROM T WHERE N = 1", "SELECT 'y' AS k FROM T WHERE N = 2"},
        {"SELECT N FROM T WHERE PartitionKey = 'a", "SELECT N FROM T WHERE PartitionKey = 'b"},
        {"INSERT INTO T (a) VALUES ('x')", "INSERT INTO T (a) VALUES ('y')"},
    };
    LiftTemplates templates = new LiftTemplates(100);
    for (String[] shape : shapes) {
      for (String sql : shape) {
        LiteralLifter.Lifted expected = LiteralLifter.lift(sql);
        LiteralLifter.Lifted actual = templates.lift(sql);
        if (expected == null) {
          assertThat(actual).as(sql).isNull();
        } else {
          assertThat(actual.sql()).as(sql).isEqualTo(expected.sql());
          assertThat(actual.values()).as(sql).isEqualTo(expected.values());
        }
      }
    }
    // the common case is served by a template, not by parsing
    int before = templates.hits();
    templates.lift("SELECT N FROM T WHERE PartitionKey = 'p9' AND RowKey = 'r9'");
    assertThat(templates.hits()).isEqualTo(before + 1);
  }

  @Test
  void preparedQueriesWithoutParametersRunOnThePlanOfTheirShape() throws SQLException {
    String name = tenRows("PlansPrepared");
    try (Connection connection = TestAccount.connect()) {
      PlanCache cache = connection.unwrap(TableSqlConnection.class).planCache();
      for (int i = 0; i < 10; i++) {
        try (PreparedStatement statement = connection.prepareStatement(
            "SELECT N FROM " + name + " WHERE PartitionKey = 'p' AND RowKey = 'r" + i + "'")) {
          assertThat(statement.getParameterMetaData().getParameterCount()).isZero();
          assertThat(statement.getMetaData().getColumnName(1)).isEqualTo("N");
          for (int run = 0; run < 2; run++) {
            statement.clearParameters(); // it has none: the lifted literal stays
            try (ResultSet resultSet = statement.executeQuery()) {
              assertThat(resultSet.next()).isTrue();
              assertThat(resultSet.getInt(1)).isEqualTo(i);
              assertThat(resultSet.next()).isFalse();
            }
          }
        }
      }
      assertThat(cache.plansMade()).isEqualTo(1);

      // two open statements of one shape never share a plan
      try (PreparedStatement low = connection.prepareStatement("SELECT N FROM " + name + " WHERE N < 3");
           PreparedStatement high = connection.prepareStatement("SELECT N FROM " + name + " WHERE N >= 8")) {
        assertThat(count(high.executeQuery())).isEqualTo(2);
        assertThat(count(low.executeQuery())).isEqualTo(3);
        assertThat(count(high.executeQuery())).isEqualTo(2);
        assertThatThrownBy(() -> low.setInt(1, 5)).isInstanceOf(SQLException.class)
            .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("07009");
        assertThatThrownBy(low::addBatch).isInstanceOf(SQLException.class);
        low.close();
        assertThat(low.isClosed()).isTrue();
        // a closed statement reaches nothing, least of all the plan it gave back
        assertThatThrownBy(low::executeQuery).isInstanceOf(SQLException.class).hasMessageContaining("closed");
      }
      // a text with parameter markers is prepared as written and takes parameters
      try (PreparedStatement statement = connection.prepareStatement("SELECT N FROM " + name + " WHERE N > ?")) {
        assertThat(statement.getParameterMetaData().getParameterCount()).isEqualTo(1);
        statement.setInt(1, 6);
        assertThat(count(statement.executeQuery())).isEqualTo(3);
      }
    }
  }

  /** One of Connection's prepareStatement overloads. */
  private interface Overload {
    PreparedStatement prepare() throws SQLException;
  }

  @Test
  void statementsPreparedForEachExecutionArePlannedOncePerConnection() throws Exception {
    String name = tenRows("PlansKept");
    String query = "SELECT N FROM " + name + " WHERE N >= ?";
    try (Connection connection = TestAccount.connect()) {
      PlanCache cache = connection.unwrap(TableSqlConnection.class).planCache();
      // as Spring's JdbcTemplate does: prepare, bind, run, close, for every execution
      for (int i = 0; i < 10; i++) {
        try (PreparedStatement statement = connection.prepareStatement(query)) {
          assertThat(statement.getParameterMetaData().getParameterCount()).isEqualTo(1);
          statement.setInt(1, i);
          assertThat(count(statement.executeQuery())).isEqualTo(10 - i);
        }
      }
      assertThat(cache.plansMade()).isEqualTo(1);
      // the other overloads with the default cursor share the plan, as tools call them
      List<Overload> overloads = List.of(
          () -> connection.prepareStatement(query, ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY),
          () -> connection.prepareStatement(query, ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY,
              connection.getHoldability()),
          () -> connection.prepareStatement(query, Statement.RETURN_GENERATED_KEYS),
          () -> connection.prepareStatement(query, new int[] {1}),
          () -> connection.prepareStatement(query, new String[] {"N"}));
      for (Overload overload : overloads) {
        try (PreparedStatement statement = overload.prepare()) {
          statement.setInt(1, 5);
          assertThat(count(statement.executeQuery())).isEqualTo(5);
        }
      }
      assertThat(cache.plansMade()).as("every overload on the one plan").isEqualTo(1);

      // what one use set does not reach the next: parameters, max rows, the batch
      try (PreparedStatement statement = connection.prepareStatement(query)) {
        statement.setMaxRows(2);
        statement.setInt(1, 0);
        assertThat(count(statement.executeQuery())).isEqualTo(2);
      }
      try (PreparedStatement statement = connection.prepareStatement(query)) {
        assertThatThrownBy(statement::executeQuery).isInstanceOf(SQLException.class); // its parameter is unset
        statement.setInt(1, 0);
        assertThat(count(statement.executeQuery())).isEqualTo(10);
        // two open statements of one text never share a plan
        try (PreparedStatement other = connection.prepareStatement(query)) {
          other.setInt(1, 8);
          ResultSet high = other.executeQuery();
          statement.setInt(1, 5);
          assertThat(count(statement.executeQuery())).isEqualTo(5);
          assertThat(count(high)).isEqualTo(2);
        }
      }
      assertThat(cache.plansMade()).isEqualTo(2);

      String insert = "INSERT INTO " + name + " (PartitionKey, RowKey, N) VALUES (?, ?, ?)";
      try (PreparedStatement statement = connection.prepareStatement(insert)) {
        statement.setString(1, "q");
        statement.setString(2, "never");
        statement.setInt(3, -1);
        statement.addBatch(); // closed before it runs: the batch is discarded
      }
      for (int batch = 0; batch < 3; batch++) {
        try (PreparedStatement statement = connection.prepareStatement(insert)) {
          for (int i = 0; i < 5; i++) {
            statement.setString(1, "q");
            statement.setString(2, "b" + batch + "_" + i);
            statement.setInt(3, 100 + i);
            statement.addBatch();
          }
          assertThat(statement.executeBatch()).containsExactly(1, 1, 1, 1, 1);
        }
      }
      try (PreparedStatement statement = connection.prepareStatement(insert)) {
        statement.setString(1, "q");
        statement.setString(2, "single");
        statement.setInt(3, 7);
        assertThat(statement.executeUpdate()).isEqualTo(1);
      }
      assertThat(cache.plansMade()).isEqualTo(3);

      // a text kept before is neither lifted nor parsed again: its kind is known from its plan
      String update = "UPDATE " + name + " SET N = N + 1 WHERE PartitionKey = ? AND RowKey = ?";
      for (String sql : List.of(query, update, update)) {
        connection.prepareStatement(sql).close();
      }
      io.tablesql.prepare.PlannerWarmup.awaitFinished(); // it parses too, on a thread of its own
      long parsesBefore = io.tablesql.prepare.StatementText.parses();
      for (String sql : List.of(query, update)) {
        connection.prepareStatement(sql).close();
      }
      assertThat(io.tablesql.prepare.StatementText.parses()).isEqualTo(parsesBefore);
      assertThat(cache.plansMade()).isEqualTo(4);
      try (Statement statement = connection.createStatement()) {
        assertThat(count(statement.executeQuery("SELECT RowKey FROM " + name + " WHERE PartitionKey = 'q'")))
            .isEqualTo(16);
      }

      // a table changed by DDL is planned again: the kept plans are forgotten
      try (Statement statement = connection.createStatement()) {
        statement.execute("DROP TABLE " + name);
        statement.execute("CREATE TABLE " + name + " (PartitionKey VARCHAR, RowKey VARCHAR, N VARCHAR)");
      }
      try (PreparedStatement statement = connection.prepareStatement(insert)) {
        statement.setString(1, "p");
        statement.setString(2, "r");
        statement.setString(3, "text now");
        assertThat(statement.executeUpdate()).isEqualTo(1);
      }
      try (PreparedStatement statement = connection.prepareStatement(query)) {
        assertThat(statement.getParameterMetaData().getParameterType(1)).isEqualTo(java.sql.Types.VARCHAR);
        statement.setString(1, "a");
        assertThat(count(statement.executeQuery())).isEqualTo(1);
      }
      assertThat(cache.plansMade()).isEqualTo(7); // with the UPDATE and the ad-hoc count above
    }
  }

  @Test
  void statementsAreKeptPlannedOnlyWithThePlanCache() throws SQLException {
    TableClient table = TestAccount.newTable("PlansOff");
    TestAccount.insert(table, List.of(new TableEntity("p", "r").addProperty("N", 1)));
    try (Connection connection = TestAccount.connect("planCacheSize=0")) {
      PlanCache cache = connection.unwrap(TableSqlConnection.class).planCache();
      for (int i = 0; i < 3; i++) {
        try (PreparedStatement statement = connection.prepareStatement(
            "SELECT N FROM " + table.getTableName() + " WHERE N = ?")) {
          statement.setInt(1, 1);
          assertThat(count(statement.executeQuery())).isEqualTo(1);
        }
      }
      assertThat(cache.plansMade()).isZero();
      assertThat(cache.plannedTexts()).isZero();
    }
  }

  /** A new table of ten entities in partition p: RowKeys r0 to r9, N 0 to 9. */
  private static String tenRows(String prefix) {
    TableClient table = TestAccount.newTable(prefix);
    List<TableEntity> entities = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      entities.add(new TableEntity("p", "r" + i).addProperty("N", i));
    }
    TestAccount.insert(table, entities);
    return table.getTableName();
  }

  private static int count(ResultSet resultSet) throws SQLException {
    int rows = 0;
    try (resultSet) {
      while (resultSet.next()) {
        rows++;
      }
    }
    return rows;
  }
}
