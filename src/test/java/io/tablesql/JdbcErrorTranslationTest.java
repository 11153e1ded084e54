package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablesql.testing.TestAccount;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLClientInfoException;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLSyntaxErrorException;
import java.sql.Statement;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Every JDBC method fails with a SQLState and the subclass it implies, not with Calcite's exception. */
class JdbcErrorTranslationTest {
  private static Connection connection;
  private static String table;

  @BeforeAll
  static void setUp() throws SQLException {
    table = TestAccount.newTable("Translation").getTableName();
    connection = TestAccount.connect();
    try (Statement statement = connection.createStatement()) {
      statement.executeUpdate("INSERT INTO " + table + " (PartitionKey, RowKey, Name) VALUES ('p', 'r', 'abc')");
    }
  }

  @AfterAll
  static void tearDown() throws SQLException {
    connection.close();
  }

  private static void read(Statement statement, String sql) throws SQLException {
    try (ResultSet rows = statement.executeQuery(sql)) {
      while (rows.next()) {
        rows.getObject(1);
      }
    }
  }

  private static void assertFails(ThrowingCallable call, String sqlState, Class<?> type, String... messageParts) {
    assertThatThrownBy(call).isInstanceOf(type).hasMessageContainingAll(messageParts.length == 0 ? new String[] {""}
        : messageParts).satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo(sqlState));
  }

  @Test
  void resultSetGettersAndFindColumn() throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery("SELECT PartitionKey, Name FROM " + table)) {
      assertThat(rs.next()).isTrue();
      assertFails(() -> rs.findColumn("NoSuch"), "42S22", SQLSyntaxErrorException.class, "NoSuch");
      assertFails(() -> rs.getString("NoSuch"), "42S22", SQLSyntaxErrorException.class, "NoSuch");
      assertFails(() -> rs.getLong("NoSuch"), "42S22", SQLSyntaxErrorException.class, "NoSuch");
      assertFails(() -> rs.getInt(9), "07009", SQLException.class, "9");
      assertFails(() -> rs.getInt("Name"), "22018", SQLDataException.class, "cannot be read");
      assertFails(() -> rs.getTimestamp("Name"), "22018", SQLDataException.class, "Name");
      assertFails(() -> rs.updateString(2, "x"), "0A000", SQLFeatureNotSupportedException.class,
          "ResultSet.updateString");
      assertFails(() -> rs.getMetaData().getColumnName(9), "07009", SQLException.class, "9");
      rs.close();
      assertFails(() -> rs.getString(1), "HY010", SQLException.class, "closed");
      assertFails(rs::getMetaData, "HY010", SQLException.class, "closed");
    }
  }

  @Test
  void statementRefusalsSayWhat() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      assertFails(() -> statement.setEscapeProcessing(false), "0A000", SQLFeatureNotSupportedException.class,
          "Statement.setEscapeProcessing");
      assertFails(() -> statement.setCursorName("c"), "0A000", SQLFeatureNotSupportedException.class,
          "Statement.setCursorName");
      assertFails(() -> statement.setPoolable(false), "0A000", SQLFeatureNotSupportedException.class,
          "Statement.setPoolable");
      try (ResultSet keys = statement.getGeneratedKeys()) {
        assertThat(keys.next()).isFalse();
      }
    }
  }

  /** A statement Calcite's planner asserts it cannot handle is 0A000 naming that, and the connection goes on. */
  @Test
  void whatThePlannerCannotRunIsAnSqlExceptionNotAnAssertionError() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      assertFails(() -> statement.executeQuery("SELECT * FROM string_to_array('a,b', ',')"), "0A000",
          SQLFeatureNotSupportedException.class, "Not supported by tablesql: Calcite's planner cannot run this statement");
      assertFails(() -> connection.prepareStatement("SELECT * FROM string_to_array('a,b', ',')"), "0A000",
          SQLFeatureNotSupportedException.class, "STRING_TO_ARRAY");
      // text that is no number, converted to one at run time: 22018, not HY000
      assertFails(() -> read(statement, "SELECT CAST('a' AS INTEGER)"), "22018", SQLDataException.class,
          "not a number");
      assertFails(() -> read(statement, "SELECT ARRAY[1] = '{a}'"), "22018", SQLDataException.class, "not a number");
      // text that is no boolean: Calcite's generated code meets it initialising its constants (an Error)
      assertFails(() -> read(statement, "SELECT CAST('x' AS BOOLEAN)"), "22018", SQLDataException.class,
          "Invalid character for cast: x");
      // PostgreSQL's spellings of a boolean's text, compared with a boolean
      try (ResultSet rows = statement.executeQuery("SELECT TRUE = 't', FALSE = 'off', TRUE = 'no'")) {
        assertThat(rows.next()).isTrue();
        assertThat(List.of(rows.getBoolean(1), rows.getBoolean(2), rows.getBoolean(3))).containsExactly(true, true, false);
      }
      // text that is no date or time (an Error initialising generated code's constants): 22007, not HY000
      assertFails(() -> read(statement, "SELECT CAST('hello' AS TIMESTAMP)"), "22007", SQLDataException.class,
          "'hello' is not a date or time");
      // the commonest way to meet it: an INSERT without a column list gives an Azure table's Timestamp a value
      assertFails(() -> statement.executeUpdate("INSERT INTO " + table + " VALUES ('p', 'r', 'text')"), "22007",
          SQLDataException.class, "third column is its Timestamp: name the columns");
      // a function Calcite validates but cannot run: 0A000, not HY000
      assertFails(() -> read(statement, "SELECT PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY CHAR_LENGTH(Name)) FROM " + table), "0A000",
          SQLFeatureNotSupportedException.class, "no way to run this statement");
      // as PostgreSQL's, a name that is no relation is no regclass
      assertFails(() -> read(statement, "SELECT 'NoSuchTable'::regclass"), "42S02", SQLException.class,
          "Relation \"NoSuchTable\" does not exist");
      try (ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM " + table)) {
        assertThat(rows.next()).isTrue();
      }
    }
  }

  @Test
  void batchFailureIsABatchUpdateExceptionWithTheCountsBeforeIt() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.addBatch("INSERT INTO " + table + " (PartitionKey, RowKey) VALUES ('b', '1')");
      statement.addBatch("INSERT INTO NoSuchTable (PartitionKey, RowKey) VALUES ('b', '2')");
      statement.addBatch("INSERT INTO " + table + " (PartitionKey, RowKey) VALUES ('b', '3')");
      assertThatThrownBy(statement::executeBatch).isInstanceOf(BatchUpdateException.class)
          .hasMessageContaining("NoSuchTable")
          .satisfies(e -> assertThat(((BatchUpdateException) e).getSQLState()).isEqualTo("42S02"))
          .satisfies(e -> assertThat(((BatchUpdateException) e).getUpdateCounts()).containsExactly(1));
      try (ResultSet rs = statement.executeQuery("SELECT RowKey FROM " + table + " WHERE PartitionKey = 'b'")) {
        assertThat(rs.next()).isTrue(); // the statement before the failing one was applied
        assertThat(rs.getString(1)).isEqualTo("1");
        assertThat(rs.next()).isFalse();
      }
    }
  }

  @Test
  void preparedStatementSettersMetadataAndSqlText() throws SQLException {
    for (String sql : new String[] {"SELECT * FROM " + table + " WHERE PartitionKey = ?",
        "SELECT * FROM " + table + " WHERE PartitionKey = 'p'"}) { // the second runs on a cached plan
      PreparedStatement prepared = connection.prepareStatement(sql);
      assertFails(() -> prepared.setString(5, "x"), "07009", SQLException.class, "5");
      assertFails(() -> prepared.executeQuery("SELECT * FROM " + table), "42809", SQLSyntaxErrorException.class,
          "PreparedStatement");
      assertFails(() -> prepared.executeUpdate("DELETE FROM " + table), "42809", SQLSyntaxErrorException.class);
      assertFails(() -> prepared.execute("SELECT 1"), "42809", SQLSyntaxErrorException.class);
      assertFails(() -> prepared.addBatch("SELECT 1"), "42809", SQLSyntaxErrorException.class);
      assertFails(() -> prepared.executeUpdate("DELETE FROM " + table, Statement.NO_GENERATED_KEYS), "42809",
          SQLSyntaxErrorException.class);
      prepared.close();
      assertFails(prepared::getMetaData, "HY010", SQLException.class, "closed");
    }
    try (Statement statement = connection.createStatement();
        ResultSet rs = statement.executeQuery("SELECT COUNT(*) FROM " + table)) {
      assertThat(rs.next()).isTrue(); // the DELETE given as text ran nowhere
      assertThat(rs.getLong(1)).isPositive();
    }
  }

  @Test
  void connectionRefusals() throws SQLException {
    assertFails(connection::setSavepoint, "25P01", SQLException.class, "setAutoCommit(false)");
    assertFails(connection::createClob, "0A000", SQLFeatureNotSupportedException.class, "Connection.createClob");
    assertFails(() -> connection.setSchema("NoSuchSchema"), "3F000", SQLException.class, "NoSuchSchema");
    assertFails(() -> connection.setClientInfo("a", "b"), "0A000", SQLClientInfoException.class);
    try (Statement statement = connection.createStatement()) { // the schema is unchanged
      assertThat(statement.executeQuery("SELECT * FROM " + table).next()).isTrue();
    }
  }

  @Test
  void metadataResultsAndClosedConnection() throws SQLException {
    Connection closing = TestAccount.connect();
    DatabaseMetaData metaData = closing.getMetaData();
    try (ResultSet tables = metaData.getTables(null, null, table, null)) {
      assertThat(tables.next()).isTrue();
      assertFails(() -> tables.getString("NoSuch"), "42S22", SQLSyntaxErrorException.class, "NoSuch");
    }
    closing.close();
    assertFails(() -> metaData.getTables(null, null, null, null), "08003", SQLNonTransientConnectionException.class);
    assertFails(closing::getSchema, "08003", SQLNonTransientConnectionException.class);
    assertFails(closing::createStatement, "08003", SQLNonTransientConnectionException.class);
  }
}
