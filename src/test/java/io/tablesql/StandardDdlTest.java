package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.models.TableEntity;
import io.tablesql.testing.QueryRuns;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.junit.jupiter.api.Test;

/**
 * The SQL standard's DDL semantics through the driver: drop behaviors, ALTER TABLE, UNIQUE
 * constraints, the raw key layout as a PRIMARY KEY as tools render it, and errors that point into
 * the text the user sent.
 */
class StandardDdlTest {
  private static String state(Throwable e) {
    return ((SQLException) e).getSQLState();
  }

  private static List<String> columns(Statement statement, String table) throws SQLException {
    List<String> names = new ArrayList<>();
    try (ResultSet resultSet = statement.executeQuery("SELECT * FROM " + table + " WHERE 1 = 0")) {
      ResultSetMetaData meta = resultSet.getMetaData();
      for (int i = 1; i <= meta.getColumnCount(); i++) {
        names.add(meta.getColumnName(i));
      }
    }
    return names;
  }

  @Test
  void restrictRefusesWhileViewsDependAndCascadeDropsThem() throws SQLException {
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE StdParts (Id INT PRIMARY KEY, Name VARCHAR(20))");
      statement.execute("CREATE INDEX StdPartsByName ON StdParts (Name)");
      statement.executeUpdate("INSERT INTO StdParts VALUES (1, 'bolt'), (2, 'nut')");
      statement.execute("CREATE VIEW StdPartNames AS SELECT Name FROM StdParts");
      statement.execute("CREATE VIEW StdShortPartNames AS SELECT p.Name FROM StdPartNames AS p "
          + "WHERE CHAR_LENGTH(p.Name) < 4");
      statement.execute("CREATE VIEW StdUnrelated AS SELECT 1 AS One FROM (VALUES (1)) AS v (x)");
      statement.execute("CREATE VIEW IF NOT EXISTS StdUnrelated AS SELECT 2 AS Two FROM (VALUES (1)) AS v (x)");
      assertThat(QueryRuns.run(connection, "SELECT * FROM StdUnrelated").rows()).containsExactly("1");

      assertThatThrownBy(() -> statement.execute("DROP TABLE StdParts RESTRICT"))
          .satisfies(e -> assertThat(state(e)).isEqualTo("2BP01"))
          .hasMessageContaining("StdPartNames").hasMessageContaining("StdShortPartNames").hasMessageContaining("CASCADE");
      assertThatThrownBy(() -> statement.execute("DROP VIEW StdPartNames RESTRICT"))
          .satisfies(e -> assertThat(state(e)).isEqualTo("2BP01"))
          .hasMessageContaining("StdShortPartNames");
      try (ResultSet resultSet = statement.executeQuery("SELECT COUNT(*) FROM StdShortPartNames")) {
        assertThat(resultSet.next()).isTrue();
        assertThat(resultSet.getInt(1)).isEqualTo(1); // nothing was dropped
      }

      statement.execute("DROP TABLE StdParts CASCADE");
      for (String gone : List.of("StdParts", "StdPartNames", "StdShortPartNames")) {
        assertThatThrownBy(() -> statement.executeQuery("SELECT * FROM " + gone))
            .as(gone).satisfies(e -> assertThat(state(e)).isEqualTo("42S02"));
      }
      try (ResultSet resultSet = statement.executeQuery("SELECT One FROM StdUnrelated")) {
        assertThat(resultSet.next()).isTrue();
      }
      // the index went with the table: its name is free again
      statement.execute("CREATE TABLE StdParts (Id INT PRIMARY KEY, Name VARCHAR(20))");
      statement.execute("CREATE INDEX StdPartsByName ON StdParts (Name)");
      statement.execute("DROP VIEW StdUnrelated RESTRICT");
      statement.execute("DROP TABLE StdParts"); // no drop behavior: as before, nothing depends on it anyway
    }
  }

  @Test
  void dropIfExistsOfANameTheServiceRefusesDoesNothing() throws SQLException {
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      statement.execute("DROP TABLE IF EXISTS t1");
      statement.execute("DROP TABLE IF EXISTS t1 CASCADE");
      statement.execute("DROP VIEW IF EXISTS t1 RESTRICT");
      assertThatThrownBy(() -> statement.execute("DROP TABLE t1"))
          .satisfies(e -> assertThat(state(e)).isEqualTo("42S02")).hasMessageContaining("t1");
    }
  }

  @Test
  void theRawKeyLayoutAsAPrimaryKeyInEveryRendering() throws SQLException {
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE StdOrders (PartitionKey VARCHAR NOT NULL, RowKey VARCHAR NOT NULL, Total DOUBLE, "
          + "PRIMARY KEY (PartitionKey, RowKey))");
      // as Hibernate-style generators write it
      statement.execute("create table StdOrdersHib (PartitionKey varchar(255) not null, RowKey varchar(255) not null, "
          + "Total float, primary key (PartitionKey, RowKey))");
      // as jOOQ renders createTable(...).primaryKey(PartitionKey, RowKey)
      DSL.using(connection, SQLDialect.DEFAULT).createTable("StdOrdersJooq")
          .column("PartitionKey", SQLDataType.VARCHAR(100).nullable(false))
          .column("RowKey", SQLDataType.VARCHAR(100).nullable(false))
          .column("Total", SQLDataType.DOUBLE)
          .constraints(DSL.primaryKey("PartitionKey", "RowKey"))
          .execute();
      for (String table : List.of("StdOrders", "StdOrdersHib", "StdOrdersJooq")) {
        statement.executeUpdate("INSERT INTO " + table + " (PartitionKey, RowKey, Total) VALUES ('east', 'o-1', 2.5)");
        TableEntity entity = TestAccount.service().getTableClient(table).getEntity("east", "o-1");
        assertThat(entity.getProperty("Total")).as(table).isEqualTo(2.5);
        try (ResultSet resultSet = statement.executeQuery("SELECT RowKey, Total FROM " + table
            + " WHERE PartitionKey = 'east'")) {
          assertThat(resultSet.next()).isTrue();
          assertThat(resultSet.getString(1)).isEqualTo("o-1");
        }
      }
      assertThatThrownBy(() -> statement.execute("CREATE TABLE StdOrdersBad (PartitionKey VARCHAR, RowKey VARCHAR, "
          + "PRIMARY KEY (RowKey, PartitionKey))"))
          .satisfies(e -> assertThat(state(e)).isEqualTo("42000")).hasMessageContaining("(PartitionKey, RowKey)");
    }
  }

  @Test
  void uniqueConstraintsDeclareUniqueIndexes() throws SQLException {
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE Stdt3 (z INTEGER UNIQUE)");
      statement.executeUpdate("INSERT INTO Stdt3 VALUES (1)");
      assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO Stdt3 VALUES (1)"))
          .satisfies(e -> assertThat(state(e)).isEqualTo("23505"));
      statement.executeUpdate("INSERT INTO Stdt3 VALUES (2)");

      statement.execute("CREATE TABLE StdSeats (Hall VARCHAR(10), Num INT, Holder VARCHAR(20), PRIMARY KEY (Hall, Num), "
          + "CONSTRAINT StdOneSeatEach UNIQUE (Holder))");
      statement.executeUpdate("INSERT INTO StdSeats VALUES ('a', 1, 'ann')");
      assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO StdSeats VALUES ('b', 7, 'ann')"))
          .satisfies(e -> assertThat(state(e)).isEqualTo("23505"));
      try (ResultSet resultSet = connection.getMetaData().getIndexInfo(null, null, "StdSeats", true, false)) {
        List<String> names = new ArrayList<>();
        while (resultSet.next()) {
          names.add(resultSet.getString("INDEX_NAME"));
        }
        assertThat(names).contains("StdOneSeatEach");
      }
      assertThatThrownBy(() -> statement.execute("CREATE TABLE StdRawUnique (PartitionKey VARCHAR, RowKey VARCHAR, "
          + "Email VARCHAR UNIQUE)")).satisfies(e -> assertThat(state(e)).isEqualTo("0A000"));
      assertThatThrownBy(() -> statement.executeQuery("SELECT * FROM StdRawUnique"))
          .satisfies(e -> assertThat(state(e)).isEqualTo("42S02")); // nothing half-made
    }
  }

  @Test
  void alterTableAddsAndDropsColumnsOfDeclaredTables() throws SQLException {
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE StdNotes (Id INT PRIMARY KEY, Body VARCHAR(20))");
      statement.executeUpdate("INSERT INTO StdNotes VALUES (1, 'first')");
      statement.execute("ALTER TABLE StdNotes ADD COLUMN Tag VARCHAR(10)");
      try (ResultSet resultSet = statement.executeQuery("SELECT Tag FROM StdNotes WHERE Id = 1")) {
        assertThat(resultSet.next()).isTrue();
        assertThat(resultSet.getString(1)).isNull();
      }
      statement.executeUpdate("INSERT INTO StdNotes (Id, Body, Tag) VALUES (2, 'second', 'red')");
      assertThatThrownBy(() -> statement.execute("ALTER TABLE StdNotes ADD Tag INT"))
          .satisfies(e -> assertThat(state(e)).isEqualTo("42S21"));
      assertThatThrownBy(() -> statement.execute("ALTER TABLE StdNotes ADD Must INT NOT NULL"))
          .satisfies(e -> assertThat(state(e)).isEqualTo("0A000"));

      statement.execute("ALTER TABLE StdNotes DROP COLUMN Tag");
      assertThat(columns(statement, "StdNotes")).containsExactly("Id", "Body");
      assertThatThrownBy(() -> statement.execute("ALTER TABLE StdNotes ADD COLUMN Tag VARCHAR(10)"))
          .satisfies(e -> assertThat(state(e)).isEqualTo("0A000")).hasMessageContaining("old values");
      assertThatThrownBy(() -> statement.execute("ALTER TABLE StdNotes DROP COLUMN Id"))
          .satisfies(e -> assertThat(state(e)).isEqualTo("2BP01"));
      assertThatThrownBy(() -> statement.execute("ALTER TABLE StdNotes DROP COLUMN Nope"))
          .satisfies(e -> assertThat(state(e)).isEqualTo("42S22"));

      statement.execute("CREATE INDEX StdNotesByBody ON StdNotes (Body)");
      assertThatThrownBy(() -> statement.execute("ALTER TABLE StdNotes DROP Body"))
          .satisfies(e -> assertThat(state(e)).isEqualTo("2BP01")).hasMessageContaining("StdNotesByBody");
      statement.execute("ALTER TABLE StdNotes DROP Body CASCADE");
      assertThat(columns(statement, "StdNotes")).containsExactly("Id");
      statement.execute("CREATE INDEX StdNotesByBody ON StdNotes (Id)"); // the name is free again

      statement.execute("ALTER TABLE StdNotes ADD COLUMN Code VARCHAR(10) UNIQUE");
      statement.executeUpdate("UPDATE StdNotes SET Code = 'x' WHERE Id = 1");
      assertThatThrownBy(() -> statement.executeUpdate("UPDATE StdNotes SET Code = 'x' WHERE Id = 2"))
          .satisfies(e -> assertThat(state(e)).isEqualTo("23505"));

      assertThatThrownBy(() -> statement.execute("ALTER TABLE NoSuchTable ADD x INT"))
          .satisfies(e -> assertThat(state(e)).isEqualTo("42S02"));
    }
  }

  @Test
  void theUsersTextInNativeSqlAndInSyntaxErrors() throws SQLException {
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      String index = "CREATE INDEX i ON t (a DESC) INCLUDE (b) LOCAL";
      assertThat(connection.nativeSQL(index)).isEqualTo(index);
      String table = "CREATE TABLE t (a INT) OVER Raw PARTITION KEY '{a}' ROW KEY 'x'";
      assertThat(connection.nativeSQL(table)).isEqualTo(table);
      assertThat(connection.nativeSQL("SELECT {fn UCASE(Name)} FROM {oj a LEFT JOIN b ON a.x = b.x}"))
          .doesNotContain("{oj");

      assertThatThrownBy(() -> statement.execute("CREATE TABLE t (a INT, b INT,\n  PRIMARY KEY ((a DESC), b))"))
          .satisfies(e -> assertThat(state(e)).isEqualTo("42000"))
          .hasMessageContaining("line 2, column 19");
      assertThatThrownBy(() -> statement.execute("CREATE TABLE t (a INT) OVER Raw PARTITION KEY {a}"))
          .satisfies(e -> assertThat(state(e)).isEqualTo("42000"))
          .hasMessageContaining("line 1, column 47");
      assertThatThrownBy(() -> statement.execute("ALTER INDEX i REPAIR"))
          .satisfies(e -> assertThat(state(e)).isEqualTo("42000"))
          .hasMessageContaining("line 1, column 15")
          .satisfies(e -> assertThat(e.getMessage()).doesNotContain("TABLESQL"));
    }
  }
}
