package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.shell.LocalEmulator;
import io.tablesql.testing.FaultyProxy;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/** A read-only connection refuses every write before sending anything, and still reads. */
class ReadOnlyTest {
  private static final String READ_ONLY = "25006";

  @Test
  void everyWriteIsRefusedWithoutARequest() throws Exception {
    TableClient table = TestAccount.newTable("ReadOnly");
    TestAccount.insert(table, List.of(new TableEntity("p", "1").addProperty("N", 1)));
    String name = table.getTableName();
    try (FaultyProxy proxy = new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port());
         Connection connection = DriverManager.getConnection("jdbc:tablesql:TableEndpoint=" + proxy.base() + "/"
             + LocalEmulator.ACCOUNT + ";AccountName=" + LocalEmulator.ACCOUNT + ";AccountKey=" + LocalEmulator.KEY);
         Statement statement = connection.createStatement()) {
      PreparedStatement fastBatch = connection.prepareStatement(
          "INSERT INTO " + name + " (PartitionKey, RowKey, N) VALUES (?, ?, ?)");
      PreparedStatement generalBatch = connection.prepareStatement(
          "UPDATE " + name + " SET N = ? WHERE PartitionKey = 'p' AND RowKey = '1'");
      assertThat(rows(statement, "SELECT N FROM " + name)).isEqualTo(1); // plans and samples the table
      connection.setReadOnly(true);
      assertThat(connection.isReadOnly()).isTrue();
      int requestsBefore = proxy.requests();

      assertRefused(() -> statement.executeUpdate(
          "INSERT INTO " + name + " (PartitionKey, RowKey, N) VALUES ('p', '2', 2)"));
      assertRefused(() -> statement.executeUpdate(
          "UPSERT INTO " + name + " (PartitionKey, RowKey, N) VALUES ('p', '1', 5)"));
      assertRefused(() -> statement.executeUpdate(
          "UPDATE " + name + " SET N = 7 WHERE PartitionKey = 'p' AND RowKey = '1'"));
      assertRefused(() -> statement.executeUpdate("DELETE FROM " + name + " WHERE PartitionKey = 'p'"));
      assertRefused(() -> statement.executeUpdate("INSERT INTO " + name + " (PartitionKey, RowKey, N) "
          + "SELECT PartitionKey, 'copy', N FROM " + name));
      assertRefused(() -> statement.execute("CREATE TABLE ReadOnlyNew" + System.nanoTime() % 1000 + " (A INTEGER)"));
      assertRefused(() -> statement.execute("DROP TABLE " + name));
      statement.addBatch("INSERT INTO " + name + " (PartitionKey, RowKey, N) VALUES ('p', '3', 3)");
      assertRefused(statement::executeBatch);
      fastBatch.setString(1, "p");
      fastBatch.setString(2, "4");
      fastBatch.setInt(3, 4);
      fastBatch.addBatch();
      assertRefused(fastBatch::executeBatch);
      generalBatch.setInt(1, 9);
      generalBatch.addBatch();
      assertRefused(generalBatch::executeBatch);
      assertThat(proxy.requests()).isEqualTo(requestsBefore);

      assertThat(rows(statement, "SELECT N FROM " + name)).isEqualTo(1); // reads still work
      connection.setReadOnly(false);
      assertThat(connection.isReadOnly()).isFalse();
      assertThat(statement.executeUpdate("UPSERT INTO " + name + " (PartitionKey, RowKey, N) VALUES ('p', '1', 5)"))
          .isEqualTo(1);
      fastBatch.close();
      generalBatch.close();
    }
    assertThat(table.getEntity("p", "1").getProperty("N")).isEqualTo(5);
  }

  @Test
  void commitOfPendingWritesIsRefusedAndKeepsThem() throws SQLException {
    TableClient table = TestAccount.newTable("ReadOnlyTx");
    String name = table.getTableName();
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      connection.setAutoCommit(false);
      statement.executeUpdate("INSERT INTO " + name + " (PartitionKey, RowKey, N) VALUES ('p', '1', 1)");
      connection.setReadOnly(true);
      assertRefused(connection::commit);
      assertRefused(() -> connection.setAutoCommit(true));
      assertThat(table.listEntities()).isEmpty();
      connection.setReadOnly(false);
      connection.commit();
    }
    assertThat(table.getEntity("p", "1").getProperty("N")).isEqualTo(1);
  }

  private static void assertRefused(ThrowingCallable write) {
    assertThatThrownBy(write).isInstanceOf(SQLException.class)
        .hasMessageContaining("read-only")
        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo(READ_ONLY));
  }

  private static int rows(Statement statement, String sql) throws SQLException {
    int rows = 0;
    try (ResultSet resultSet = statement.executeQuery(sql)) {
      while (resultSet.next()) {
        rows++;
      }
    }
    return rows;
  }
}
