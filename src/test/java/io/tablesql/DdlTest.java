package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.models.TableEntity;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DdlTest {
  @Test
  void createdColumnsTypeEmptyTablesAndEveryConnectionSeesThem() throws SQLException {
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE Inventory (PartitionKey VARCHAR, RowKey VARCHAR, Sku VARCHAR, Qty INTEGER, "
          + "Price DOUBLE, Updated TIMESTAMP, Serial BIGINT)");
      statement.execute("CREATE TABLE IF NOT EXISTS Inventory (X INTEGER)"); // no-op
      try (ResultSet resultSet = statement.executeQuery("SELECT * FROM Inventory")) {
        assertThat(resultSet.next()).isFalse();
      }
    }
    try (Connection other = TestAccount.connect(); Statement statement = other.createStatement();
         ResultSet resultSet = statement.executeQuery("SELECT * FROM Inventory WHERE 1 = 0")) {
      ResultSetMetaData meta = resultSet.getMetaData();
      List<String> columns = new ArrayList<>();
      for (int i = 1; i <= meta.getColumnCount(); i++) {
        columns.add(meta.getColumnName(i) + ":" + meta.getColumnType(i));
      }
      assertThat(columns).containsExactly("PartitionKey:" + Types.VARCHAR, "RowKey:" + Types.VARCHAR,
          "Timestamp:" + Types.TIMESTAMP, "Sku:" + Types.VARCHAR, "Qty:" + Types.INTEGER, "Price:" + Types.DOUBLE,
          "Updated:" + Types.TIMESTAMP, "Serial:" + Types.BIGINT);
      statement.executeUpdate("INSERT INTO Inventory (PartitionKey, RowKey, Sku, Qty, Serial) VALUES "
          + "('w1', 'a', 'A-1', 5, 7)");
    }
    TableEntity written = TestAccount.service().getTableClient("Inventory").getEntity("w1", "a");
    assertThat(written.getProperty("Qty")).isEqualTo(5);
    assertThat(written.getProperty("Serial")).isEqualTo(7L); // declared BIGINT: written as Int64
  }

  @Test
  void declaredTypesWinOverSampledOnes() throws SQLException {
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE Declared (Code VARCHAR)");
      TestAccount.service().getTableClient("Declared").createEntity(new TableEntity("p", "r").addProperty("Code", 42));
      try (java.sql.PreparedStatement prepared = connection.prepareStatement("SELECT Code FROM Declared")) {
        assertThat(prepared.getMetaData().getColumnType(1)).isEqualTo(Types.VARCHAR);
      }
      // an Int32 is not a string: another writer broke the declared type, which is said, not hidden as NULL
      assertThatThrownBy(() -> statement.executeQuery("SELECT Code FROM Declared").next())
          .isInstanceOfSatisfying(SQLException.class, e -> {
            assertThat(e.getSQLState()).isEqualTo("22018");
            assertThat(e.getMessage()).contains("RowKey 'r'", "property Code holds the Edm.Int32 42");
          });
    }
  }

  @Test
  void dropTableDeletesItWithAllItsEntities() throws SQLException {
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE Doomed (PartitionKey VARCHAR, RowKey VARCHAR, N INTEGER)");
      statement.executeUpdate("INSERT INTO Doomed (PartitionKey, RowKey, N) VALUES ('p', '1', 1), ('p', '2', 2)");
      statement.execute("DROP TABLE Doomed");
      assertThatThrownBy(() -> statement.executeQuery("SELECT * FROM Doomed"))
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42S02"));
      statement.execute("DROP TABLE IF EXISTS Doomed");
      assertThatThrownBy(() -> statement.execute("DROP TABLE Doomed"))
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42S02"));
      statement.execute("CREATE TABLE Doomed (PartitionKey VARCHAR, RowKey VARCHAR, Other VARCHAR)"); // old ones forgotten
      try (ResultSet resultSet = statement.executeQuery("SELECT * FROM Doomed")) {
        assertThat(resultSet.getMetaData().getColumnCount()).isEqualTo(4);
      }
    }
  }

  /** An Azure table made with its own PartitionKey and RowKey takes the service's names only (declared tables take any). */
  @Test
  void invalidNamesAreRefusedWithTheRule() throws SQLException {
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      for (String name : List.of("ab", "\"1abc\"", "\"has_underscore\"", "tables")) {
        assertThatThrownBy(() -> statement.execute("CREATE TABLE " + name + " (PartitionKey VARCHAR, RowKey VARCHAR)"))
            .hasMessageContaining("3 to 63 letters and digits");
      }
      statement.execute("CREATE TABLE Valid123 (PartitionKey VARCHAR, RowKey VARCHAR, N INTEGER)");
      assertThatThrownBy(() -> statement.execute("CREATE TABLE Valid123 (PartitionKey VARCHAR, RowKey VARCHAR)"))
          .hasMessageContaining("exists already");
    }
  }

  /** Each kind of naming failure has its SQLState, names the object and says what to write instead. */
  @Test
  void namingFailuresSayWhatToWriteInstead() throws SQLException {
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE DdlNamed (Id INT PRIMARY KEY, Name VARCHAR(10))");
      try {
        assertThatThrownBy(() -> statement.execute("CREATE TABLE DdlNamed (Id INT PRIMARY KEY)"))
            .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("42S01"))
            .hasMessageContaining("Table DdlNamed exists already. Use CREATE TABLE IF NOT EXISTS");
        assertThatThrownBy(() -> statement.execute("DROP INDEX DdlNoSuchIndex"))
            .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("42S02"))
            .hasMessageContaining("Index DdlNoSuchIndex does not exist. Use DROP INDEX IF EXISTS");
        assertThatThrownBy(() -> statement.execute("CREATE INDEX DdlNamedAge ON DdlNamed (Age)"))
            .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("42S22"))
            .hasMessageContaining("Column Age is not a column of DdlNamed.");
        // each way of creating a table refuses the names of tablesql's own tables alike
        for (String create : List.of("CREATE TABLE TablesqlIntents (Id INT PRIMARY KEY)",
            "CREATE TABLE TablesqlCatalog (PartitionKey VARCHAR, RowKey VARCHAR)",
            "CREATE TABLE TablesqlIntents (Id INT)")) {
          assertThatThrownBy(() -> statement.execute(create))
              .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("42000"))
              .hasMessageContaining("is reserved for tablesql's catalog: choose another name");
        }
      } finally {
        statement.execute("DROP TABLE DdlNamed");
      }
    }
  }
}
