package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** JDBC transactions as entity group transactions, and ETags keeping concurrent writers honest. */
class TransactionTest {
  private static TableClient table(String prefix) {
    TableClient table = TestAccount.newTable(prefix);
    TestAccount.insert(table, List.of(new TableEntity("dept", "count").addProperty("N", 0)
        .addProperty("Name", "counter")));
    return table;
  }

  private static List<String> rows(Connection connection, String sql) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Statement statement = connection.createStatement(); ResultSet resultSet = statement.executeQuery(sql)) {
      while (resultSet.next()) {
        rows.add(resultSet.getString(1) + "=" + resultSet.getString(2));
      }
    }
    return rows;
  }

  @Test
  void commitSendsOneEntityGroupAndReadsSeePendingWrites() throws SQLException {
    TableClient table = table("Tx");
    String name = table.getTableName();
    try (Connection connection = TestAccount.connect(); Connection other = TestAccount.connect()) {
      connection.setAutoCommit(false);
      try (Statement statement = connection.createStatement()) {
        statement.executeUpdate("INSERT INTO " + name + " (PartitionKey, RowKey, Name) VALUES ('dept', 'e1', 'Ann')");
        statement.executeUpdate("UPDATE " + name + " SET N = N + 1 WHERE PartitionKey = 'dept' AND RowKey = 'count'");
        statement.executeUpdate("UPDATE " + name + " SET Name = 'Anne' WHERE PartitionKey = 'dept' AND RowKey = 'e1'");
      }
      String query = "SELECT RowKey, COALESCE(Name, CAST(N AS VARCHAR)) FROM " + name + " WHERE PartitionKey = 'dept'";
      assertThat(rows(connection, query)).containsExactly("count=counter", "e1=Anne");
      assertThat(rows(connection, "SELECT RowKey, N FROM " + name + " WHERE N >= 1")).containsExactly("count=1");
      // without the keys in the select list: the driver still reads them to merge pending writes
      try (Statement statement = connection.createStatement();
           ResultSet resultSet = statement.executeQuery("SELECT COUNT(*), SUM(N) FROM " + name
               + " WHERE PartitionKey = 'dept'")) {
        assertThat(resultSet.next()).isTrue();
        assertThat(resultSet.getLong(1)).isEqualTo(2);
        assertThat(resultSet.getLong(2)).isEqualTo(1);
      }
      assertThat(rows(other, query)).containsExactly("count=counter"); // not committed yet
      connection.commit();
      assertThat(rows(other, query)).containsExactly("count=counter", "e1=Anne");
      assertThat(table.getEntity("dept", "count").getProperty("N")).isEqualTo(1);
    }
  }

  /**
   * Savepoints: the transaction's writes are held in the client until commit, so going back to one
   * drops the writes made since (reads of the transaction see that at once) and sends nothing.
   */
  @Test
  void savepointsDropTheWritesMadeSince() throws SQLException {
    TableClient table = table("TxSave");
    String name = table.getTableName();
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      assertThat(connection.getMetaData().supportsSavepoints()).isTrue();
      assertThatThrownBy(connection::setSavepoint).isInstanceOf(SQLException.class)
          .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("25P01");
      connection.setAutoCommit(false);
      statement.executeUpdate("INSERT INTO " + name + " (PartitionKey, RowKey, Name) VALUES ('dept', 'e1', 'Ann')");
      java.sql.Savepoint named = connection.setSavepoint("before Bob");
      statement.executeUpdate("INSERT INTO " + name + " (PartitionKey, RowKey, Name) VALUES ('dept', 'e2', 'Bob')");
      statement.executeUpdate("UPDATE " + name + " SET Name = 'Anne' WHERE PartitionKey = 'dept' AND RowKey = 'e1'");
      java.sql.Savepoint unnamed = connection.setSavepoint();
      statement.executeUpdate("DELETE FROM " + name + " WHERE RowKey = 'count'");
      connection.rollback(unnamed);
      assertThat(rows(connection, "SELECT RowKey, Name FROM " + name)).containsExactly("count=counter", "e1=Anne",
          "e2=Bob");
      connection.rollback(named);
      assertThat(rows(connection, "SELECT RowKey, Name FROM " + name)).containsExactly("count=counter", "e1=Ann");
      assertThatThrownBy(() -> connection.rollback(unnamed)).as("released by going back past it")
          .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("3B001");
      assertThat(named.getSavepointName()).isEqualTo("before Bob");
      assertThat(unnamed.getSavepointId()).isPositive();
      connection.releaseSavepoint(named);
      statement.executeUpdate("INSERT INTO " + name + " (PartitionKey, RowKey, Name) VALUES ('dept', 'e3', 'Cy')");
      connection.commit();
      assertThatThrownBy(() -> connection.rollback(named)).as("its transaction ended")
          .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("3B001");
    }
    assertThat(table.listEntities().stream().map(e -> e.getRowKey()).sorted().toList())
        .containsExactly("count", "e1", "e3");
  }

  /** A lookup in a transaction reads only its own keys: the transaction's other updates are not read to merge them. */
  @Test
  void aLookupInATransactionReadsOnlyItsKeys() throws SQLException {
    TableClient table = table("TxKeys");
    String name = table.getTableName();
    table.createEntity(new TableEntity("other", "count").addProperty("N", 0));
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      connection.setAutoCommit(false);
      statement.executeUpdate("UPDATE " + name + " SET N = N + 1 WHERE PartitionKey = 'dept' AND RowKey = 'count'");
      statement.executeUpdate("UPDATE " + name + " SET N = N + 1 WHERE PartitionKey = 'other' AND RowKey = 'count'");
      assertThat(statement.unwrap(TableSqlStatement.class).requestCount()).as("its own row's read").isEqualTo(1);
      assertThat(rows(connection, "SELECT PartitionKey, N FROM " + name + " WHERE PartitionKey = 'dept' AND "
          + "RowKey = 'count'")).containsExactly("dept=1");
      connection.commit();
    }
    assertThat(table.getEntity("other", "count").getProperty("N")).isEqualTo(1);
  }

  @Test
  void rollbackDiscards() throws SQLException {
    TableClient table = table("Rb");
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      connection.setAutoCommit(false);
      statement.executeUpdate("DELETE FROM " + table.getTableName() + " WHERE PartitionKey = 'dept'");
      assertThat(rows(connection, "SELECT RowKey, N FROM " + table.getTableName())).isEmpty();
      connection.rollback();
      assertThat(rows(connection, "SELECT RowKey, N FROM " + table.getTableName())).containsExactly("count=0");
    }
  }

  @Test
  void failingFifthOperationWritesNothing() throws SQLException {
    TableClient table = table("Atom");
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      connection.setAutoCommit(false);
      for (int i = 1; i <= 4; i++) {
        statement.executeUpdate("INSERT INTO " + table.getTableName() + " (PartitionKey, RowKey) VALUES ('dept', 'e" + i + "')");
      }
      // exists already at the service: only the commit can find out
      table.createEntity(new TableEntity("dept", "e5"));
      statement.executeUpdate("INSERT INTO " + table.getTableName() + " (PartitionKey, RowKey) VALUES ('dept', 'e5')");
      assertThatThrownBy(connection::commit).isInstanceOf(SQLException.class)
          .hasMessageContaining("e5").hasMessageContaining("nothing of the transaction was written")
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("23505"));
    }
    assertThat(table.listEntities().stream().map(TableEntity::getRowKey)).containsExactlyInAnyOrder("count", "e5");
  }

  @Test
  void withStrictAtomicityAStatementBreakingTheGroupRulesIsRefusedBeforeSending() throws SQLException {
    TableClient table = table("Rule");
    try (Connection connection = TestAccount.connect("strictAtomicity=true");
         Statement statement = connection.createStatement()) {
      connection.setAutoCommit(false);
      statement.executeUpdate("INSERT INTO " + table.getTableName() + " (PartitionKey, RowKey) VALUES ('dept', 'a')");
      assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO " + table.getTableName()
          + " (PartitionKey, RowKey) VALUES ('other', 'b')"))
          .hasMessageContaining("one partition").hasMessageContaining("'other'")
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("25000"));
      StringBuilder many = new StringBuilder();
      for (int i = 0; i < 100; i++) {
        many.append(i == 0 ? "" : ", ").append("('dept', 'm").append(i).append("')");
      }
      assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO " + table.getTableName()
          + " (PartitionKey, RowKey) VALUES " + many)).hasMessageContaining("at most 100");
      connection.commit(); // the transaction still holds its first insert only
    }
    assertThat(table.listEntities().stream().count()).isEqualTo(2);
  }

  @Test
  void anUpsertDeletedAgainCommitsWhetherOrNotTheEntityExisted() throws SQLException {
    TableClient table = table("UpDel");
    String name = table.getTableName();
    table.createEntity(new TableEntity("dept", "old").addProperty("Name", "Old"));
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      io.tablesql.store.AccountMetrics metrics = connection.unwrap(io.tablesql.jdbc.TableSqlConnection.class)
          .session().store().metrics();
      connection.setAutoCommit(false);
      for (String rowKey : List.of("new", "old")) {
        statement.executeUpdate("UPSERT INTO " + name + " (PartitionKey, RowKey, Name) VALUES ('dept', '" + rowKey
            + "', 'Upserted')");
        statement.executeUpdate("DELETE FROM " + name + " WHERE PartitionKey = 'dept' AND RowKey = '" + rowKey + "'");
      }
      statement.executeUpdate("INSERT INTO " + name + " (PartitionKey, RowKey, Name) VALUES ('dept', 'other', 'Ann')");
      assertThat(rows(connection, "SELECT RowKey, Name FROM " + name)).containsExactly("count=counter", "other=Ann");
      long requests = metrics.getRequests();
      connection.commit(); // a GET of each upserted entity, then the group: DELETE 'old', INSERT 'other'
      assertThat(metrics.getRequests() - requests).isEqualTo(3);
      assertThat(table.listEntities().stream().map(TableEntity::getRowKey))
          .containsExactlyInAnyOrder("count", "other");

      // an upsert, updated, then deleted: nothing to send for an entity that does not exist
      statement.executeUpdate("UPSERT INTO " + name + " (PartitionKey, RowKey, N) VALUES ('dept', 'chain', 1)");
      statement.executeUpdate("UPDATE " + name + " SET N = N + 1 WHERE PartitionKey = 'dept' AND RowKey = 'chain'");
      statement.executeUpdate("DELETE FROM " + name + " WHERE PartitionKey = 'dept' AND RowKey = 'chain'");
      requests = metrics.getRequests();
      connection.commit();
      assertThat(metrics.getRequests() - requests).as("the GET alone").isEqualTo(1);

      // an insert, updated, then deleted: nothing at all
      statement.executeUpdate("INSERT INTO " + name + " (PartitionKey, RowKey, N) VALUES ('dept', 'chain', 1)");
      statement.executeUpdate("UPDATE " + name + " SET N = N + 1 WHERE PartitionKey = 'dept' AND RowKey = 'chain'");
      statement.executeUpdate("DELETE FROM " + name + " WHERE PartitionKey = 'dept' AND RowKey = 'chain'");
      requests = metrics.getRequests();
      connection.commit();
      assertThat(metrics.getRequests() - requests).isZero();

      // an existing entity upserted, updated, then deleted: deleted
      statement.executeUpdate("UPSERT INTO " + name + " (PartitionKey, RowKey, N) VALUES ('dept', 'count', 5)");
      statement.executeUpdate("UPDATE " + name + " SET N = N + 1 WHERE PartitionKey = 'dept' AND RowKey = 'count'");
      statement.executeUpdate("DELETE FROM " + name + " WHERE PartitionKey = 'dept' AND RowKey = 'count'");
      connection.commit();
    }
    assertThat(table.listEntities().stream().map(TableEntity::getRowKey)).containsExactly("other");
  }

  @Test
  void concurrentChangeFails40001() throws SQLException {
    TableClient table = table("Etag");
    try (Connection first = TestAccount.connect(); Connection second = TestAccount.connect();
         Statement statement = first.createStatement(); Statement rival = second.createStatement()) {
      first.setAutoCommit(false);
      statement.executeUpdate("UPDATE " + table.getTableName() + " SET N = 10 WHERE PartitionKey = 'dept' AND RowKey = 'count'");
      rival.executeUpdate("UPDATE " + table.getTableName() + " SET N = 20 WHERE PartitionKey = 'dept' AND RowKey = 'count'");
      assertThatThrownBy(first::commit).isInstanceOf(SQLException.class)
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("40001"));
    }
    assertThat(table.getEntity("dept", "count").getProperty("N")).isEqualTo(20);
  }

  @Test
  void anEntityDeletedSinceItWasReadFails40001() throws SQLException {
    TableClient table = table("Vanished");
    try (Connection first = TestAccount.connect(); Statement statement = first.createStatement()) {
      first.setAutoCommit(false);
      statement.executeUpdate("UPDATE " + table.getTableName() + " SET N = 10 WHERE PartitionKey = 'dept' AND RowKey = 'count'");
      statement.executeUpdate("DELETE FROM " + table.getTableName() + " WHERE PartitionKey = 'dept' AND RowKey = 'count'");
      table.deleteEntity("dept", "count");
      assertThatThrownBy(first::commit).isInstanceOf(SQLException.class)
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("40001"));
    }
  }

  @Test
  void concurrentCountersLoseNoUpdate() throws Exception {
    TableClient table = table("Counter");
    String sql = "UPDATE " + table.getTableName() + " SET N = N + 1 WHERE PartitionKey = ? AND RowKey = ?";
    ExecutorService threads = Executors.newFixedThreadPool(4);
    List<Future<Integer>> successes = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      successes.add(threads.submit(() -> {
        int done = 0;
        try (Connection connection = TestAccount.connect(); PreparedStatement statement = connection.prepareStatement(sql)) {
          statement.setString(1, "dept");
          statement.setString(2, "count");
          for (int i = 0; i < 10; i++) {
            for (int attempt = 0; attempt < 50; attempt++) {
              try {
                statement.executeUpdate();
                done++;
                break;
              } catch (SQLException e) {
                if (!"40001".equals(e.getSQLState())) {
                  throw e;
                }
              }
            }
          }
        }
        return done;
      }));
    }
    int total = 0;
    for (Future<Integer> success : successes) {
      total += success.get();
    }
    threads.shutdown();
    assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    assertThat(total).isEqualTo(40);
    assertThat(table.getEntity("dept", "count").getProperty("N")).isEqualTo(total);
  }
}
