package io.tablesql;

import io.tablesql.errors.SqlStates;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.testing.ConnectedTest;
import io.tablesql.testing.TestAccount;
import java.sql.BatchUpdateException;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;


import org.junit.jupiter.api.Test;

/** The JDBC 4.2 "large" methods, and the current result (result set or update count) of a statement. */
class JdbcLargeMethodsTest extends ConnectedTest {
  /** A table holding one seed entity, so that its columns exist. */
  private static String table(String prefix) {
    return TestAccount.newTable(prefix, new TableEntity("seed", "0").addProperty("N", 0)).getTableName();
  }

  private static long count(String table) throws SQLException {
    try (Statement statement = connection.createStatement();
         ResultSet rs = statement.executeQuery("SELECT COUNT(*) FROM " + table)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Test
  void executeLargeUpdateOverloadsCountLikeExecuteUpdate() throws SQLException {
    String table = table("LargeUpd");
    try (Statement statement = connection.createStatement()) {
      assertThat(statement.executeLargeUpdate("INSERT INTO " + table + " (PartitionKey, RowKey, N) VALUES "
          + "('p', '1', 1), ('p', '2', 2)")).isEqualTo(2L);
      assertThat(statement.getLargeUpdateCount()).isEqualTo(2L);
      assertThat(statement.getUpdateCount()).isEqualTo(2);
      assertThat(statement.executeLargeUpdate("INSERT INTO " + table + " (PartitionKey, RowKey) VALUES ('p', '3')",
          Statement.RETURN_GENERATED_KEYS)).isEqualTo(1L);
      assertThat(statement.executeLargeUpdate("INSERT INTO " + table + " (PartitionKey, RowKey) VALUES ('p', '4')",
          new int[] {1})).isEqualTo(1L);
      assertThat(statement.executeLargeUpdate("INSERT INTO " + table + " (PartitionKey, RowKey) VALUES ('p', '5')",
          new String[] {"RowKey"})).isEqualTo(1L);
      assertThat(statement.executeLargeUpdate("UPDATE " + table + " SET N = 7 WHERE PartitionKey = 'p'"))
          .isEqualTo(5L);
      assertThat(statement.executeUpdate("DELETE FROM " + table + " WHERE PartitionKey = 'p' AND RowKey = '5'"))
          .isEqualTo(1);
      assertThatThrownBy(() -> statement.executeLargeUpdate("DELETE FROM " + table, 42))
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo(SqlStates.INVALID_ATTRIBUTE_VALUE));
    }
    assertThat(count(table)).isEqualTo(5);
  }

  @Test
  void preparedExecuteLargeUpdateCountsLikeExecuteUpdate() throws SQLException {
    String table = table("LargePrep");
    try (PreparedStatement statement = connection.prepareStatement(
        "UPDATE " + table + " SET N = ? WHERE PartitionKey = 'seed'")) {
      statement.setInt(1, 5);
      assertThat(statement.executeLargeUpdate()).isEqualTo(1L);
      assertThat(statement.getLargeUpdateCount()).isEqualTo(1L);
      statement.setInt(1, 6);
      assertThat(statement.executeUpdate()).isEqualTo(1);
      assertThat(statement.getUpdateCount()).isEqualTo(1);
    }
  }

  @Test
  void executeLargeBatchGivesTheCountsOfExecuteBatch() throws SQLException {
    String table = table("LargeBat");
    try (Statement statement = connection.createStatement()) {
      statement.addBatch("INSERT INTO " + table + " (PartitionKey, RowKey) VALUES ('p', '1')");
      statement.addBatch("UPSERT INTO " + table + " (PartitionKey, RowKey) VALUES ('p', '2')");
      assertThat(statement.executeLargeBatch()).containsExactly(1L, 1L);
    }
    try (PreparedStatement statement = connection.prepareStatement(
        "INSERT INTO " + table + " (PartitionKey, RowKey) VALUES (?, ?)")) {
      for (String rowKey : new String[] {"3", "4", "5"}) {
        statement.setString(1, "p");
        statement.setString(2, rowKey);
        statement.addBatch();
      }
      assertThat(statement.executeLargeBatch()).containsExactly(1L, 1L, 1L);
    }
    assertThat(count(table)).isEqualTo(6);
  }

  @Test
  void failedLargeBatchReportsLargeCounts() throws SQLException {
    String table = table("LargeBatF");
    try (PreparedStatement statement = connection.prepareStatement(
        "INSERT INTO " + table + " (PartitionKey, RowKey) VALUES (?, ?)")) {
      for (String[] row : new String[][] {{"a", "1"}, {"seed", "0"}}) {
        statement.setString(1, row[0]);
        statement.setString(2, row[1]);
        statement.addBatch();
      }
      assertThatThrownBy(statement::executeLargeBatch).isInstanceOfSatisfying(BatchUpdateException.class, e -> {
        assertThat(e.getLargeUpdateCounts()).containsExactly(1L, Statement.EXECUTE_FAILED);
        assertThat(e.getUpdateCounts()).containsExactly(1, Statement.EXECUTE_FAILED);
        assertThat(e.getSQLState()).isEqualTo(SqlStates.UNIQUE_VIOLATION);
      });
    }
  }

  @Test
  void largeMaxRowsLimitsRowsLikeMaxRows() throws SQLException {
    String table = table("LargeMax");
    try (Statement statement = connection.createStatement()) {
      statement.executeUpdate("INSERT INTO " + table + " (PartitionKey, RowKey) VALUES ('p', '1'), ('p', '2'), "
          + "('p', '3'), ('p', '4')");
      statement.setLargeMaxRows(2);
      assertThat(statement.getLargeMaxRows()).isEqualTo(2L);
      assertThat(statement.getMaxRows()).isEqualTo(2);
      assertThat(rows(statement.executeQuery("SELECT RowKey FROM " + table + " WHERE N IS NULL"))).hasSize(2);
      statement.setMaxRows(3);
      assertThat(statement.getLargeMaxRows()).isEqualTo(3L);
      assertThat(rows(statement.executeQuery("SELECT RowKey FROM " + table))).hasSize(3);
      statement.setLargeMaxRows(0);
      assertThat(rows(statement.executeQuery("SELECT RowKey FROM " + table))).hasSize(5);
    }
  }

  @Test
  void maxRowsSetAfterPreparingLimitsRows() throws SQLException {
    String table = table("PreparedMax");
    try (Statement statement = connection.createStatement()) {
      statement.executeUpdate("INSERT INTO " + table + " (PartitionKey, RowKey, N) VALUES ('p', '1', 1), "
          + "('p', '2', 2), ('p', '3', 3), ('q', '4', 4)");
    }
    // one table access (the direct path), and plans Calcite runs (an aggregate, a sort)
    for (String sql : List.of("SELECT RowKey FROM " + table + " WHERE N >= ?",
        "SELECT N, COUNT(*) FROM " + table + " WHERE N >= ? GROUP BY N",
        "SELECT RowKey FROM " + table + " WHERE N >= ? ORDER BY N DESC")) {
      try (PreparedStatement prepared = connection.prepareStatement(sql)) {
        prepared.setInt(1, 1);
        prepared.setMaxRows(2);
        assertThat(rows(prepared.executeQuery())).as(sql).hasSize(2);
        assertThat(prepared.execute()).isTrue();
        assertThat(rows(prepared.getResultSet())).as(sql).hasSize(2);
        prepared.setLargeMaxRows(0);
        assertThat(rows(prepared.executeQuery())).as(sql).hasSize(4);
      }
    }
    try (PreparedStatement prepared = connection.prepareStatement(
        "SELECT RowKey FROM " + table + " WHERE N >= ? ORDER BY N DESC")) {
      prepared.setInt(1, 1);
      prepared.setMaxRows(1);
      assertThat(rows(prepared.executeQuery())).containsExactly("4");
    }
  }

  @Test
  void refusalsHaveASqlState() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      for (ThrowingCallable call : List.<ThrowingCallable>of(() -> statement.setLargeMaxRows(-1),
          () -> statement.setMaxRows(-1), () -> statement.setQueryTimeout(-1))) {
        assertThatThrownBy(call).satisfies(
            e -> assertThat(((SQLException) e).getSQLState()).isEqualTo(SqlStates.INVALID_ATTRIBUTE_VALUE));
      }
      assertThat(statement.getLargeMaxRows()).isZero();
      try (ResultSet keys = statement.getGeneratedKeys()) {
        assertThat(keys.next()).isFalse(); // no keys generated: empty, as JDBC wants
      }
    }
  }

  private static List<String> rows(ResultSet rs) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (rs) {
      while (rs.next()) {
        rows.add(rs.getString(1));
      }
    }
    return rows;
  }

  @Test
  void anUpdateClosesTheCurrentResultSetAndReportsItsCount() throws SQLException {
    String table = table("CurUpd");
    try (Statement statement = connection.createStatement()) {
      ResultSet query = statement.executeQuery("SELECT * FROM " + table);
      assertThat(statement.getUpdateCount()).isEqualTo(-1);
      assertThat(statement.getResultSet()).isSameAs(query);
      assertThat(statement.executeUpdate("INSERT INTO " + table + " (PartitionKey, RowKey) VALUES ('p', '1'), "
          + "('p', '2')")).isEqualTo(2);
      assertThat(query.isClosed()).isTrue();
      assertThat(statement.getResultSet()).isNull();
      assertThat(statement.getUpdateCount()).isEqualTo(2);
      assertThat(statement.getLargeUpdateCount()).isEqualTo(2L);
      assertThat(statement.getMoreResults()).isFalse();
      assertThat(statement.getUpdateCount()).isEqualTo(-1);
      assertThat(statement.getLargeUpdateCount()).isEqualTo(-1L);
    }
  }

  @Test
  void everyExecuteOverloadClosesTheCurrentResultSetAndReportsItsCount() throws SQLException {
    String table = table("CurExe");
    String[] rowKeys = {"1", "2", "3", "4"};
    try (Statement statement = connection.createStatement()) {
      for (int i = 0; i < rowKeys.length; i++) {
        ResultSet query = statement.executeQuery("SELECT * FROM " + table);
        String insert = "INSERT INTO " + table + " (PartitionKey, RowKey) VALUES ('p', '" + rowKeys[i] + "')";
        boolean hasResultSet = switch (i) {
          case 0 -> statement.execute(insert);
          case 1 -> statement.execute(insert, Statement.NO_GENERATED_KEYS);
          case 2 -> statement.execute(insert, new int[] {2});
          default -> statement.execute(insert, new String[] {"RowKey"});
        };
        assertThat(hasResultSet).isFalse();
        assertThat(query.isClosed()).isTrue();
        assertThat(statement.getResultSet()).isNull();
        assertThat(statement.getUpdateCount()).isEqualTo(1);
        assertThat(statement.getLargeUpdateCount()).isEqualTo(1L);
      }
      assertThat(statement.executeUpdate("UPDATE " + table + " SET N = 1 WHERE PartitionKey = 'p'", new int[] {1}))
          .isEqualTo(4);
      assertThat(statement.executeUpdate("UPDATE " + table + " SET N = 2 WHERE PartitionKey = 'p'",
          new String[] {"N"})).isEqualTo(4);
      assertThat(statement.getUpdateCount()).isEqualTo(4);
    }
    assertThat(count(table)).isEqualTo(5);
  }

  @Test
  void aQueryResultHasNoUpdateCountAndNoMoreResults() throws SQLException {
    String table = table("CurQry");
    try (Statement statement = connection.createStatement()) {
      statement.executeUpdate("INSERT INTO " + table + " (PartitionKey, RowKey) VALUES ('p', '1')");
      assertThat(statement.execute("SELECT * FROM " + table)).isTrue();
      ResultSet query = statement.getResultSet();
      assertThat(query).isNotNull();
      assertThat(statement.getUpdateCount()).isEqualTo(-1);
      assertThat(statement.getLargeUpdateCount()).isEqualTo(-1L);
      assertThat(statement.getMoreResults()).isFalse();
      assertThat(query.isClosed()).isTrue();
      assertThat(statement.getResultSet()).isNull();
      assertThat(statement.getUpdateCount()).isEqualTo(-1); // not the INSERT's count from before
      assertThatThrownBy(() -> statement.getMoreResults(Statement.KEEP_CURRENT_RESULT))
          .isInstanceOf(SQLFeatureNotSupportedException.class);
    }
    try (PreparedStatement prepared = connection.prepareStatement("SELECT * FROM " + table + " WHERE N = ?")) {
      prepared.setInt(1, 0);
      ResultSet first = prepared.executeQuery();
      assertThat(prepared.getResultSet()).isSameAs(first);
      assertThat(prepared.execute()).isTrue();
      assertThat(first.isClosed()).isTrue();
      assertThat(prepared.getUpdateCount()).isEqualTo(-1);
    }
  }

  @Test
  void aClosedStatementHasNoUpdateCount() throws SQLException {
    Statement statement = connection.createStatement();
    statement.close();
    assertThatThrownBy(statement::getUpdateCount)
        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo(SqlStates.INVALID_STATE));
  }

  @Test
  void aStatementBatchMayNameNewColumnsLikeASingleInsert() throws SQLException {
    TableClient client = TestAccount.newTable("BatNew");
    String table = client.getTableName();
    assertThat(count(table)).isZero(); // the connection knows the table, and no entity gives it columns
    try (Statement statement = connection.createStatement()) {
      statement.addBatch("INSERT INTO " + table + " (PartitionKey, RowKey, Colour, Size) VALUES ('p', '1', 'red', 3)");
      statement.addBatch("INSERT INTO " + table + " (PartitionKey, RowKey, Colour) VALUES ('p', '2', 'blue')");
      assertThat(statement.executeBatch()).containsExactly(1, 1);
    }
    List<String> rows = new ArrayList<>();
    try (Statement statement = connection.createStatement();
         ResultSet rs = statement.executeQuery("SELECT RowKey, Colour, Size FROM " + table + " ORDER BY RowKey")) {
      while (rs.next()) {
        rows.add(rs.getString(1) + ":" + rs.getString(2) + ":" + rs.getObject(3));
      }
    }
    assertThat(rows).containsExactly("1:red:3", "2:blue:null");
    assertThat(client.getEntity("p", "1").getProperty("Size")).isEqualTo(3);
  }
}
