package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.testing.QueryRuns;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** Table names resolve to the table of exactly that name first, then to the one matching ignoring case. */
class NameResolutionTest {
  @Test
  void aNameFindsItsOwnTableBeforeOneDifferingInCase() throws SQLException {
    TableClient table = TestAccount.newTable("CaseRaw", new TableEntity("a", "1").addProperty("N", 1),
        new TableEntity("b", "2").addProperty("N", 2), new TableEntity("b", "x").addProperty("N", 3));
    String raw = table.getTableName();
    String lower = raw.toLowerCase(Locale.ROOT);
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      // a table mapped over the Azure table, under the same name in lower case: the entities with RowKey 'x'
      statement.execute("CREATE TABLE " + lower + " (p VARCHAR(5) NOT NULL, N INT) OVER " + raw
          + " PARTITION KEY '{p}' ROW KEY 'x'");
      try {
        assertThat(QueryRuns.run(connection, "SELECT N FROM " + lower).rows()).containsExactly("3");
        assertThat(QueryRuns.run(connection, "SELECT N FROM \"" + lower + "\"").rows()).containsExactly("3");
        assertThat(QueryRuns.run(connection, "SELECT N FROM " + raw).rows()).containsExactlyInAnyOrder("1", "2", "3");
        assertThatThrownBy(() -> QueryRuns.run(connection, "SELECT N FROM " + raw.toUpperCase(Locale.ROOT)))
            .isInstanceOf(SQLException.class)
            .hasMessageContaining(raw).hasMessageContaining(lower).hasMessageContaining("differ only in case")
            .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42000"));
      } finally {
        statement.execute("DROP TABLE " + lower);
      }
      // with one table of the name, any case finds it, as before
      assertThat(QueryRuns.run(connection, "SELECT N FROM " + raw.toUpperCase(Locale.ROOT)).rows()).hasSize(3);
    }
  }

  @Test
  void aQuotedNameIsCaseSensitiveForDeclaredTablesAndViews() throws SQLException {
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE NrDeclared (id INT PRIMARY KEY, v VARCHAR(10))");
      statement.execute("CREATE VIEW NrView AS SELECT id FROM NrDeclared");
      try {
        statement.executeUpdate("INSERT INTO \"NrDeclared\" VALUES (1, 'a')");
        statement.executeUpdate("INSERT INTO nrdeclared VALUES (2, 'b')"); // unquoted: any case
        assertThat(QueryRuns.run(connection, "SELECT id FROM \"NrDeclared\" ORDER BY id").rows())
            .containsExactly("1", "2");
        assertThat(QueryRuns.run(connection, "SELECT id FROM NRVIEW").rows()).hasSize(2);
        for (String sql : new String[] {"SELECT id FROM \"nrdeclared\"", "INSERT INTO \"nrdeclared\" VALUES (3, 'c')",
            "UPDATE \"NRDECLARED\" SET v = 'x'", "DELETE FROM \"nrDeclared\"", "SELECT * FROM \"nrview\"",
            "SELECT * FROM NrDeclared d JOIN \"nrdeclared\" e ON d.id = e.id"}) {
          assertThatThrownBy(() -> statement.execute(sql)).as(sql).isInstanceOf(SQLException.class)
              .hasMessageContaining("not found").hasMessageContaining("matches only in its own case")
              .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42S02"));
        }
        for (String sql : new String[] {"DROP TABLE \"nrdeclared\"", "DROP TABLE \"NRDECLARED\" CASCADE",
            "DROP VIEW \"nrview\"", "ALTER TABLE \"nrdeclared\" ADD COLUMN w INT",
            "CREATE INDEX NrIx ON \"nrdeclared\" (v)"}) {
          assertThatThrownBy(() -> statement.execute(sql)).as(sql).isInstanceOf(SQLException.class)
              .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42S02"));
        }
        try (java.sql.PreparedStatement batch = connection.prepareStatement("INSERT INTO \"nrdeclared\" VALUES (?, ?)")) {
          batch.setInt(1, 5);
          batch.setString(2, "e");
          batch.addBatch();
          batch.executeBatch();
          org.assertj.core.api.Assertions.fail("a batch into \"nrdeclared\" was written");
        } catch (SQLException e) {
          assertThat(e.getSQLState()).isEqualTo("42S02");
        }
        try (Statement batch = connection.createStatement()) {
          batch.addBatch("INSERT INTO \"nrdeclared\" VALUES (6, 'f')");
          batch.addBatch("INSERT INTO \"nrdeclared\" VALUES (7, 'g')");
          batch.executeBatch();
          org.assertj.core.api.Assertions.fail("a statement batch into \"nrdeclared\" was written");
        } catch (SQLException e) {
          assertThat(e.getSQLState()).isEqualTo("42S02");
        }
        statement.execute("DROP TABLE IF EXISTS \"nrdeclared\"");
        statement.execute("DROP VIEW IF EXISTS \"NRVIEW\"");
        assertThat(QueryRuns.run(connection, "SELECT COUNT(*) FROM NrDeclared").rows()).containsExactly("2");
        assertThat(QueryRuns.run(connection, "SELECT COUNT(*) FROM NrView").rows()).containsExactly("2");
      } finally {
        statement.execute("DROP VIEW NrView");
        statement.execute("DROP TABLE NrDeclared");
      }
    }
  }

  @Test
  void anAzureTableMatchesItsServiceNameIgnoringCaseQuotedOrNot() throws SQLException {
    TableClient table = TestAccount.newTable("CaseQuoted", new TableEntity("a", "1").addProperty("N", 1));
    String upper = table.getTableName().toUpperCase(Locale.ROOT);
    try (Connection connection = TestAccount.connect()) {
      assertThat(QueryRuns.run(connection, "SELECT N FROM \"" + upper + "\"").rows()).containsExactly("1");
    }
  }

  @Test
  void quotedNamesDifferingOnlyInCaseAreTablesOfTheirOwn() throws Exception {
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE \"NrAbC\" (id INT PRIMARY KEY, v VARCHAR(30))");
      statement.execute("CREATE TABLE \"nrabc\" (id INT PRIMARY KEY, v VARCHAR(30))");
      try {
        statement.executeUpdate("INSERT INTO \"NrAbC\" VALUES (1, 'upper')");
        statement.executeUpdate("INSERT INTO \"nrabc\" VALUES (2, 'lower')");
        assertThat(QueryRuns.run(connection, "SELECT id, v FROM \"NrAbC\"").rows()).containsExactly("1|upper");
        assertThat(QueryRuns.run(connection, "SELECT id, v FROM \"nrabc\"").rows()).containsExactly("2|lower");
        assertThat(QueryRuns.run(connection, "SELECT id FROM nrabc").rows()).containsExactly("2"); // exact first
        assertThatThrownBy(() -> QueryRuns.run(connection, "SELECT id FROM NRABC"))
            .hasMessageContaining("differ only in case")
            .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42000"));
        // quoted, the name is exact: it names no table
        assertThatThrownBy(() -> QueryRuns.run(connection, "SELECT id FROM \"NRABC\""))
            .hasMessageContaining("NRABC")
            .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42S02"));
        assertThatThrownBy(() -> statement.execute("CREATE TABLE \"nrabc\" (id INT PRIMARY KEY)"))
            .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42S01"));
        statement.execute("CREATE TABLE IF NOT EXISTS \"nrabc\" (id INT PRIMARY KEY)");
        // the first name keeps the catalog key of both, in the format earlier drivers read; the other has one of its own
        assertThat(catalogEntries("nrabc")).containsExactlyInAnyOrder("NrAbC@1", "nrabc@3");

        // dropping the first moves the other to the shared key, rows and all
        statement.execute("DROP TABLE \"NrAbC\"");
        assertThat(catalogEntries("nrabc")).containsExactly("nrabc@1");
        assertThat(QueryRuns.run(connection, "SELECT id, v FROM NRABC").rows()).containsExactly("2|lower");
        statement.execute("CREATE TABLE \"NrAbC\" (id INT PRIMARY KEY, v VARCHAR(30))");
        assertThat(QueryRuns.run(connection, "SELECT id FROM \"NrAbC\"").rows()).isEmpty();
        assertThat(catalogEntries("nrabc")).containsExactlyInAnyOrder("nrabc@1", "NrAbC@3");
      } finally {
        statement.execute("DROP TABLE IF EXISTS \"NrAbC\"");
        statement.execute("DROP TABLE IF EXISTS \"nrabc\"");
      }
      assertThat(catalogEntries("nrabc")).isEmpty();
    }
  }

  @Test
  void aQuotedDeclaredNameDifferingInCaseFromAnAzureTableGetsATableOfItsOwn() throws SQLException {
    TableClient table = TestAccount.newTable("CaseOwn", new TableEntity("a", "1").addProperty("N", 1));
    String lower = table.getTableName().toLowerCase(Locale.ROOT);
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      assertThatThrownBy(() -> statement.execute("CREATE TABLE " + lower + " (id INT PRIMARY KEY)"))
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42S01")); // unquoted: that table
      statement.execute("CREATE TABLE \"" + lower + "\" (id INT PRIMARY KEY)");
      try {
        statement.executeUpdate("INSERT INTO \"" + lower + "\" VALUES (7)");
        assertThat(QueryRuns.run(connection, "SELECT id FROM \"" + lower + "\"").rows()).containsExactly("7");
        assertThat(QueryRuns.run(connection, "SELECT N FROM " + table.getTableName()).rows()).containsExactly("1");
      } finally {
        statement.execute("DROP TABLE \"" + lower + "\"");
      }
      assertThat(QueryRuns.run(connection, "SELECT N FROM " + table.getTableName()).rows()).containsExactly("1");
    }
  }

  @Test
  void concurrentCreatesOfNamesEqualIgnoringCaseKeepOneEntryPerName() throws Exception {
    List<String> names = List.of("NrRace", "nrrace", "NRRACE", "NrRace", "nrrace", "NRRACE");
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(names.size());
    try {
      List<java.util.concurrent.Future<String>> outcomes = new java.util.ArrayList<>();
      for (String name : names) {
        outcomes.add(pool.submit(() -> {
          try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE \"" + name + "\" (id INT PRIMARY KEY)");
            return "created";
          } catch (SQLException e) {
            return e.getSQLState();
          }
        }));
      }
      List<String> results = new java.util.ArrayList<>();
      for (java.util.concurrent.Future<String> outcome : outcomes) {
        results.add(outcome.get());
      }
      assertThat(results).filteredOn("created"::equals).hasSize(3);
      assertThat(results).filteredOn(r -> !r.equals("created")).allMatch(r -> r.equals("42S01") || r.equals("40001"));
      assertThat(catalogEntries("nrrace")).extracting(e -> e.substring(0, e.indexOf('@')))
          .containsExactlyInAnyOrder("NrRace", "nrrace", "NRRACE");
    } finally {
      pool.shutdown();
      try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
        for (String name : List.of("NrRace", "nrrace", "NRRACE")) {
          statement.execute("DROP TABLE IF EXISTS \"" + name + "\"");
        }
      }
    }
    assertThat(catalogEntries("nrrace")).isEmpty();
  }

  /** The catalog's table entities whose names equal {@code lower} ignoring case, as "name@format". */
  private static List<String> catalogEntries(String lower) {
    List<String> entries = new java.util.ArrayList<>();
    for (TableEntity entity : TestAccount.service().getTableClient("TablesqlCatalog").listEntities()) {
      Object name = entity.getProperty("Name");
      if ("table".equals(entity.getPartitionKey()) && name != null && name.toString().equalsIgnoreCase(lower)) {
        entries.add(name + "@" + entity.getProperty("Format"));
      }
    }
    return entries;
  }
}
