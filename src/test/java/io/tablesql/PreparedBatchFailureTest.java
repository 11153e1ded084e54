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
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.List;
import java.util.stream.Collectors;


import org.junit.jupiter.api.Test;

/**
 * A prepared batch that fails at a row, inside Calcite's execution of it or on the INSERT fast
 * path, fails as a Statement batch does: a BatchUpdateException with the row's SQLState, counts
 * for the rows before it, and those rows written.
 */
class PreparedBatchFailureTest extends ConnectedTest {
  private static TableClient table(String prefix) {
    return TestAccount.newTable(prefix, new TableEntity("seed", "0").addProperty("Name", "seed"));
  }

  private static List<String> rowKeys(TableClient table, String partition) {
    return table.listEntities().stream().filter(e -> e.getPartitionKey().equals(partition))
        .map(TableEntity::getRowKey).sorted().collect(Collectors.toList());
  }

  @Test
  void insertRowFailingInCalciteStopsTheBatchAfterTheRowsBeforeIt() throws SQLException {
    TableClient table = table("PbInsert");
    // the CAST keeps the batch off the INSERT fast path: every row runs through Calcite
    try (PreparedStatement statement = connection.prepareStatement(
        "INSERT INTO " + table.getTableName() + " (PartitionKey, RowKey, Name) VALUES (?, ?, CAST(? AS VARCHAR))")) {
      for (String rowKey : new String[] {"1", "2", "bad/key", "4"}) {
        statement.setString(1, "p");
        statement.setString(2, rowKey);
        statement.setString(3, "n" + rowKey);
        statement.addBatch();
      }
      assertThatThrownBy(statement::executeBatch).isInstanceOfSatisfying(BatchUpdateException.class, e -> {
        assertThat(e.getSQLState()).isEqualTo(SqlStates.DATA_EXCEPTION);
        assertThat(e.getMessage()).contains("row 3 of 4", "bad/key", "the rows before it were written",
            "Nothing of batch row 3 was written").doesNotContain("Nothing of this statement");
        assertThat(e.getUpdateCounts()).containsExactly(Statement.SUCCESS_NO_INFO, Statement.SUCCESS_NO_INFO);
        assertThat(e.getLargeUpdateCounts()).hasSize(2);
      });
      assertThat(rowKeys(table, "p")).containsExactly("1", "2");

      // the failed batch is gone: the statement runs a new one
      statement.setString(1, "p");
      statement.setString(2, "5");
      statement.setString(3, "n5");
      statement.addBatch();
      assertThat(statement.executeBatch()).containsExactly(1);
      assertThat(rowKeys(table, "p")).containsExactly("1", "2", "5");
    }
  }

  @Test
  void failingFirstRowWritesNothing() throws SQLException {
    TableClient table = table("PbFirst");
    try (PreparedStatement statement = connection.prepareStatement(
        "UPDATE " + table.getTableName() + " SET Name = ? WHERE PartitionKey = ? AND RowKey = ?")) {
      statement.setString(1, "x".repeat(40_000)); // over the service's 64 KiB per string
      statement.setString(2, "seed");
      statement.setString(3, "0");
      statement.addBatch();
      statement.setString(1, "fine");
      statement.addBatch();
      assertThatThrownBy(statement::executeBatch).isInstanceOfSatisfying(BatchUpdateException.class, e -> {
        assertThat(e.getSQLState()).isEqualTo(SqlStates.DATA_EXCEPTION);
        assertThat(e.getUpdateCounts()).isEmpty();
      });
    }
    assertThat(table.getEntity("seed", "0").getProperty("Name")).isEqualTo("seed");
  }

  @Test
  void updateRowsBeforeTheFailingOneAreWritten() throws SQLException {
    TableClient table = table("PbUpdate");
    try (PreparedStatement statement = connection.prepareStatement(
        "UPDATE " + table.getTableName() + " SET Name = ? WHERE PartitionKey = ? AND RowKey = ?")) {
      statement.setString(1, "changed");
      statement.setString(2, "seed");
      statement.setString(3, "0");
      statement.addBatch();
      statement.setString(1, "x".repeat(40_000));
      statement.addBatch();
      assertThatThrownBy(statement::executeBatch).isInstanceOfSatisfying(BatchUpdateException.class, e -> {
        assertThat(e.getSQLState()).isEqualTo(SqlStates.DATA_EXCEPTION);
        assertThat(e.getUpdateCounts()).containsExactly(Statement.SUCCESS_NO_INFO);
      });
    }
    assertThat(table.getEntity("seed", "0").getProperty("Name")).isEqualTo("changed");
  }

  /** A plain INSERT of parameters: the fast path, which knows each written row's count (1). */
  private static PreparedStatement fastInsert(TableClient table) throws SQLException {
    return connection.prepareStatement("INSERT INTO " + table.getTableName() + " (PartitionKey, RowKey, Name) "
        + "VALUES (?, ?, ?)");
  }

  private static void addRow(PreparedStatement statement, String partitionKey, String rowKey) throws SQLException {
    statement.setString(1, partitionKey);
    statement.setString(2, rowKey);
    statement.setString(3, "n" + rowKey);
    statement.addBatch();
  }

  @Test
  void fastInsertStopsAtARowBreakingTheServiceRules() throws SQLException {
    TableClient table = table("PbFast");
    try (PreparedStatement statement = fastInsert(table)) {
      addRow(statement, "p", "1");
      addRow(statement, "p", "2");
      addRow(statement, "bad/p", "3");
      addRow(statement, "p", "4");
      assertThatThrownBy(statement::executeBatch).isInstanceOfSatisfying(BatchUpdateException.class, e -> {
        assertThat(e.getSQLState()).isEqualTo(SqlStates.DATA_EXCEPTION);
        assertThat(e.getMessage()).contains("row 3 of 4", "bad/p", "the rows before it were written",
            "Nothing of batch row 3 was written").doesNotContain("Nothing of this statement");
        assertThat(e.getUpdateCounts()).containsExactly(1, 1);
        assertThat(e.getLargeUpdateCounts()).containsExactly(1L, 1L);
      });
      assertThat(rowKeys(table, "p")).containsExactly("1", "2");
      assertThat(rowKeys(table, "bad/p")).isEmpty();

      // nothing of the failed batch is left in Calcite's either: setObject sends this one down the general path
      statement.setString(1, "p");
      statement.setString(2, "5");
      statement.setObject(3, "n5", Types.VARCHAR);
      statement.addBatch();
      assertThat(statement.executeBatch()).containsExactly(1);
      assertThat(rowKeys(table, "p")).containsExactly("1", "2", "5");
    }
  }

  @Test
  void fastInsertFailingAtTheFirstRowWritesNothing() throws SQLException {
    TableClient table = table("PbFastFirst");
    try (PreparedStatement statement = fastInsert(table)) {
      addRow(statement, "p", "x".repeat(1025)); // a RowKey over 1 KiB
      addRow(statement, "p", "2");
      assertThatThrownBy(statement::executeBatch).isInstanceOfSatisfying(BatchUpdateException.class, e -> {
        assertThat(e.getSQLState()).isEqualTo(SqlStates.DATA_EXCEPTION);
        assertThat(e.getMessage()).contains("row 1 of 2", "nothing of the batch was written",
            "Nothing of batch row 1 was written");
        assertThat(e.getUpdateCounts()).isEmpty();
      });
    }
    assertThat(rowKeys(table, "p")).isEmpty();
  }

  @Test
  void fastInsertStopsAtARowWithoutAKey() throws SQLException {
    TableClient table = table("PbNoKey");
    try (PreparedStatement statement = fastInsert(table)) {
      addRow(statement, "p", "1");
      addRow(statement, "p", null);
      addRow(statement, "p", "3");
      assertThatThrownBy(statement::executeBatch).isInstanceOfSatisfying(BatchUpdateException.class, e -> {
        assertThat(e.getSQLState()).isEqualTo(SqlStates.DATA_EXCEPTION);
        assertThat(e.getMessage()).contains("row 2 of 3", "RowKey is NULL");
        assertThat(e.getUpdateCounts()).containsExactly(1);
      });
      assertThat(rowKeys(table, "p")).containsExactly("1");
    }
  }

  @Test
  void aSingleStatementSaysNothingOfItWasWritten() throws SQLException {
    TableClient table = table("PbSingle");
    try (PreparedStatement statement = fastInsert(table)) {
      statement.setString(1, "bad/p");
      statement.setString(2, "1");
      statement.setString(3, "n");
      assertThatThrownBy(statement::executeUpdate).isInstanceOfSatisfying(SQLException.class, e -> {
        assertThat(e instanceof BatchUpdateException).isFalse();
        assertThat(e.getSQLState()).isEqualTo(SqlStates.DATA_EXCEPTION);
        assertThat(e.getMessage()).contains("bad/p").endsWith("Nothing of this statement was written.")
            .doesNotContain("batch");
      });
    }
  }
}
