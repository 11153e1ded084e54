package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.testing.ConnectedTest;
import io.tablesql.testing.TestAccount;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;


import org.junit.jupiter.api.Test;

/** INSERT, UPSERT, UPDATE, DELETE and batches, checked on the entities the service holds. */
class WriteTest extends ConnectedTest {
  /** A table typed by a first entity, so that its columns exist. */
  private static TableClient table(String prefix) {
    return TestAccount.newTable(prefix, new TableEntity("seed", "0").addProperty("Name", "seed").addProperty("Age", 1)
        .addProperty("Big", 1L).addProperty("Score", 0.5).addProperty("Active", true)
        .addProperty("Born", OffsetDateTime.parse("2000-01-01T00:00:00Z")));
  }

  private static int update(String sql) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      return statement.executeUpdate(sql);
    }
  }

  @Test
  void insertWritesEdmTypesOfTheColumnsAndSkipsNulls() throws SQLException {
    TableClient table = table("Ins");
    assertThat(update("INSERT INTO " + table.getTableName() + " (PartitionKey, RowKey, Name, Age, Big, Score, Active, "
        + "Born) VALUES ('p', '1', 'Ann', 30, 40, 2, false, TIMESTAMP '2024-05-01 10:00:00.250'), "
        + "('p', '2', NULL, NULL, NULL, NULL, NULL, NULL)")).isEqualTo(2);
    TableEntity first = table.getEntity("p", "1");
    assertThat(first.getProperty("Name")).isEqualTo("Ann");
    assertThat(first.getProperty("Age")).isEqualTo(30);
    assertThat(first.getProperty("Big")).isEqualTo(40L);
    assertThat(first.getProperty("Active")).isEqualTo(false);
    assertThat(first.getProperty("Born")).isEqualTo(OffsetDateTime.parse("2024-05-01T10:00:00.250Z"));
    assertThat(((Number) first.getProperty("Score")).doubleValue()).isEqualTo(2.0);
    Map<String, Object> second = table.getEntity("p", "2").getProperties();
    assertThat(second).doesNotContainKeys("Name", "Age", "Big");
  }

  @Test
  void columnsNotInTheSchemaAreStoredWithTheTypeOfTheirValue() throws SQLException {
    TableClient table = table("NewCol");
    assertThat(update("INSERT INTO " + table.getTableName() + " (PartitionKey, RowKey, Nickname, Visits, Huge, Ratio, "
        + "Vip) VALUES ('p', 'n1', 'Al', 3, 10000000000, 0.5, TRUE)")).isEqualTo(1);
    TableEntity written = table.getEntity("p", "n1");
    assertThat(written.getProperty("Nickname")).isEqualTo("Al");
    assertThat(written.getProperty("Visits")).isEqualTo(3);
    assertThat(written.getProperty("Huge")).isEqualTo(10_000_000_000L);
    assertThat(written.getProperty("Ratio")).isEqualTo(0.5);
    assertThat(written.getProperty("Vip")).isEqualTo(true);
    try (Statement statement = connection.createStatement();
         java.sql.ResultSet rows = statement.executeQuery("SELECT Visits FROM " + table.getTableName()
             + " WHERE PartitionKey = 'p' AND RowKey = 'n1'")) {
      assertThat(rows.next()).isTrue();
      assertThat(rows.getInt(1)).isEqualTo(3);
    }
  }

  @Test
  void duplicateKeyIs23505NamingTheKey() throws SQLException {
    TableClient table = table("Dup");
    assertThatThrownBy(() -> update("INSERT INTO " + table.getTableName() + " (PartitionKey, RowKey, Name) VALUES "
        + "('seed', '0', 'again')"))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("'seed'").hasMessageContaining("'0'")
        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("23505"));
  }

  @Test
  void insertSelectCopiesRows() throws SQLException {
    TableClient source = table("Src");
    TableClient target = table("Dst");
    assertThat(update("INSERT INTO " + target.getTableName() + " (PartitionKey, RowKey, Name, Age) SELECT 'copy', "
        + "RowKey, Name, Age + 1 FROM " + source.getTableName())).isEqualTo(1);
    assertThat(target.getEntity("copy", "0").getProperty("Age")).isEqualTo(2);
  }

  @Test
  void upsertMergesByDefault() throws SQLException {
    TableClient table = table("Ups");
    assertThat(update("UPSERT INTO " + table.getTableName() + " (PartitionKey, RowKey, Name) VALUES ('seed', '0', "
        + "'merged'), ('seed', 'new', 'fresh')")).isEqualTo(2);
    TableEntity merged = table.getEntity("seed", "0");
    assertThat(merged.getProperty("Name")).isEqualTo("merged");
    assertThat(merged.getProperty("Age")).isEqualTo(1); // kept
    assertThat(table.getEntity("seed", "new").getProperty("Name")).isEqualTo("fresh");
  }

  @Test
  void upsertReplacesWithUpsertModeReplace() throws SQLException {
    TableClient table = table("Rep");
    try (Connection replacing = TestAccount.connect("upsertMode=replace");
         Statement statement = replacing.createStatement()) {
      statement.executeUpdate("UPSERT INTO " + table.getTableName() + " (PartitionKey, RowKey, Name) VALUES "
          + "('seed', '0', 'replaced')");
    }
    TableEntity replaced = table.getEntity("seed", "0");
    assertThat(replaced.getProperty("Name")).isEqualTo("replaced");
    assertThat(replaced.getProperties()).doesNotContainKey("Age");
  }

  @Test
  void updateWithKeyIsOneLookupAndOneWrite() throws SQLException {
    TableClient table = table("Upd");
    try (Statement statement = connection.createStatement()) {
      assertThat(statement.executeUpdate("UPDATE " + table.getTableName()
          + " SET Age = Age + 10, Name = 'older' WHERE PartitionKey = 'seed' AND RowKey = '0'")).isEqualTo(1);
      assertThat(statement.unwrap(TableSqlStatement.class).requestCount()).isEqualTo(2);
    }
    TableEntity updated = table.getEntity("seed", "0");
    assertThat(updated.getProperty("Age")).isEqualTo(11);
    assertThat(updated.getProperty("Big")).isEqualTo(1L);
  }

  @Test
  void setNullRemovesTheProperty() throws SQLException {
    TableClient table = table("Nul");
    table.updateEntity(table.getEntity("seed", "0").addProperty("Unsampled", "kept"));
    assertThat(update("UPDATE " + table.getTableName() + " SET Name = NULL WHERE PartitionKey = 'seed'")).isEqualTo(1);
    Map<String, Object> properties = table.getEntity("seed", "0").getProperties();
    assertThat(properties).doesNotContainKey("Name").containsEntry("Age", 1).containsEntry("Unsampled", "kept");
  }

  @Test
  void updateAndDeleteCountExactly() throws SQLException {
    TableClient table = table("Cnt");
    List<TableEntity> entities = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      entities.add(new TableEntity("p" + (i % 3), "r" + i).addProperty("Age", i));
    }
    TestAccount.insert(table, entities);
    assertThat(update("UPDATE " + table.getTableName() + " SET Name = 'teen' WHERE Age BETWEEN 13 AND 19"))
        .isEqualTo(7);
    assertThat(update("DELETE FROM " + table.getTableName() + " WHERE PartitionKey = 'p1' AND Age > 20"))
        .isEqualTo(3);
    assertThat(update("DELETE FROM " + table.getTableName() + " WHERE PartitionKey = 'nothing'")).isZero();
    long remaining = table.listEntities().stream().count();
    assertThat(remaining).isEqualTo(31 - 3);
  }

  @Test
  void invalidKeysAreRefusedBeforeSending() throws SQLException {
    TableClient table = table("Bad");
    try (Statement statement = connection.createStatement()) {
      assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO " + table.getTableName()
          + " (PartitionKey, RowKey) VALUES ('ok', 'fine'), ('p', 'a/b')"))
          .hasMessageContaining("RowKey").hasMessageContaining("/")
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22000"));
      assertThat(statement.unwrap(TableSqlStatement.class).requestCount()).isZero();
    }
    assertThat(table.listEntities().stream().count()).isEqualTo(1); // 'fine' was not written
  }

  @Test
  void preparedBatchGroupsRowsIntoEntityGroups() throws SQLException {
    TableClient table = table("Bat");
    try (PreparedStatement statement = connection.prepareStatement(
        "INSERT INTO " + table.getTableName() + " (PartitionKey, RowKey, Age) VALUES (?, ?, ?)")) {
      for (int i = 0; i < 250; i++) {
        statement.setString(1, "part" + (i % 5));
        statement.setString(2, String.format("r%04d", i));
        statement.setInt(3, i);
        statement.addBatch();
      }
      int[] counts = statement.executeBatch();
      assertThat(counts).hasSize(250).containsOnly(1);
      // 5 partitions of 50 rows: 5 entity group transactions
      assertThat(statement.unwrap(TableSqlStatement.class).requestCount()).isEqualTo(5);
    }
    assertThat(table.listEntities().stream().count()).isEqualTo(251);
  }

  @Test
  void batchValuesTakeTheTypesOfTheirColumnsOnEitherPath() throws SQLException {
    try (Statement ddl = connection.createStatement()) {
      ddl.execute("CREATE TABLE BatchTypes (PartitionKey VARCHAR, RowKey VARCHAR, Small INTEGER, Big BIGINT, Ratio DOUBLE, Note VARCHAR, Stamp TIMESTAMP)");
    }
    try (PreparedStatement fast = connection.prepareStatement(
             "INSERT INTO BatchTypes (PartitionKey, RowKey, Small, Big, Ratio, Note) VALUES (?, ?, ?, ?, ?, ?)");
         PreparedStatement general = connection.prepareStatement(
             "INSERT INTO BatchTypes (PartitionKey, RowKey, Stamp, Note) VALUES (?, ?, ?, ?)")) {
      for (int i = 0; i < 3; i++) {
        fast.setString(1, "p");
        fast.setString(2, "fast" + i);
        fast.setLong(3, i);          // a long into INTEGER: Int32
        fast.setInt(4, i);           // an int into BIGINT: Int64
        fast.setInt(5, i);           // an int into DOUBLE: Double
        fast.setNull(6, java.sql.Types.VARCHAR);
        fast.addBatch();
        general.setString(1, "p");
        general.setString(2, "general" + i);
        general.setTimestamp(3, java.sql.Timestamp.valueOf("2024-01-0" + (i + 1) + " 10:00:00"));
        general.setString(4, "n" + i);
        general.addBatch();
      }
      assertThat(fast.executeBatch()).containsExactly(1, 1, 1);
      assertThat(general.executeBatch()).containsExactly(1, 1, 1);
    }
    TableClient table = TestAccount.service().getTableClient("BatchTypes");
    TableEntity fastRow = table.getEntity("p", "fast2");
    assertThat(fastRow.getProperty("Small")).isEqualTo(2);
    assertThat(fastRow.getProperty("Big")).isEqualTo(2L);
    assertThat(((Number) fastRow.getProperty("Ratio")).doubleValue()).isEqualTo(2.0); // Azurite reads integral Doubles back as Int32
    assertThat(fastRow.getProperties()).doesNotContainKey("Note");
    TableEntity generalRow = table.getEntity("p", "general1");
    // a java.sql.Timestamp's wall clock is the UTC wall clock stored, whatever the JVM's zone
    assertThat(generalRow.getProperty("Stamp")).isEqualTo(OffsetDateTime.parse("2024-01-02T10:00:00Z"));
    assertThat(generalRow.getProperty("Note")).isEqualTo("n1");
  }

  @Test
  void failedBatchSaysWhichRowsWereWritten() throws SQLException {
    TableClient table = table("BatF");
    try (PreparedStatement statement = connection.prepareStatement(
        "INSERT INTO " + table.getTableName() + " (PartitionKey, RowKey) VALUES (?, ?)")) {
      String[][] rows = {{"a", "1"}, {"seed", "0"}, {"b", "1"}, {"seed", "9"}};
      for (String[] row : rows) {
        statement.setString(1, row[0]);
        statement.setString(2, row[1]);
        statement.addBatch();
      }
      assertThatThrownBy(statement::executeBatch).isInstanceOfSatisfying(BatchUpdateException.class, e -> {
        assertThat(e.getUpdateCounts()).containsExactly(1, Statement.EXECUTE_FAILED, 1, Statement.EXECUTE_FAILED);
        assertThat(e.getSQLState()).isEqualTo("23505");
      });
    }
    assertThat(table.listEntities().stream().count()).isEqualTo(3); // seed + a/1 + b/1
  }

  @Test
  void statementBatchMixesInsertAndUpsert() throws SQLException {
    TableClient table = table("BatS");
    try (Statement statement = connection.createStatement()) {
      statement.addBatch("INSERT INTO " + table.getTableName() + " (PartitionKey, RowKey, Name) VALUES ('x', '1', 'a')");
      statement.addBatch("UPSERT INTO " + table.getTableName() + " (PartitionKey, RowKey, Name) VALUES ('seed', '0', 'b')");
      assertThat(statement.executeBatch()).containsExactly(1, 1);
    }
    assertThat(table.getEntity("seed", "0").getProperty("Age")).isEqualTo(1);
    assertThat(table.getEntity("seed", "0").getProperty("Name")).isEqualTo("b");
  }

  @Test
  void strictAtomicityRefusesStatementsSpanningPartitions() throws SQLException {
    TableClient table = table("Strict");
    try (Connection strict = TestAccount.connect("strictAtomicity=true"); Statement statement = strict.createStatement()) {
      assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO " + table.getTableName()
          + " (PartitionKey, RowKey) VALUES ('a', '1'), ('b', '1')"))
          .hasMessageContaining("strictAtomicity")
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("25000"));
      assertThat(statement.executeUpdate("INSERT INTO " + table.getTableName()
          + " (PartitionKey, RowKey) VALUES ('a', '1'), ('a', '2')")).isEqualTo(2);
    }
  }
}
