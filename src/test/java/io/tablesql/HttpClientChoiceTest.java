package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import org.junit.jupiter.api.Test;

/**
 * httpClient=netty: the same statements through the SDK's Netty transport, which the test class
 * path carries as an application would (the driver jar's refusal is in DriverJarIT).
 */
class HttpClientChoiceTest {
  @Test
  void readsWritesAndTransactionsGoThroughNetty() throws Exception {
    // a typed entity first: a column that only a parameter names would be declared a String
    String table = TestAccount.newTable("Netty", new TableEntity("p0", "seed").addProperty("N", 0)).getTableName();
    try (Connection connection = TestAccount.connect("httpClient=netty");
         Statement statement = connection.createStatement()) {
      try (PreparedStatement insert = connection.prepareStatement(
          "INSERT INTO " + table + " (PartitionKey, RowKey, N) VALUES (?, ?, ?)")) {
        for (int i = 0; i < 250; i++) {
          insert.setString(1, "p" + (i % 3));
          insert.setString(2, String.format("r%03d", i));
          insert.setInt(3, i);
          insert.addBatch();
        }
        assertThat(insert.executeBatch()).hasSize(250);
      }
      connection.setAutoCommit(false);
      statement.executeUpdate("UPDATE " + table + " SET N = N + 1000 WHERE PartitionKey = 'p1' AND RowKey < 'r010'");
      connection.commit();
      connection.setAutoCommit(true);
      try (PreparedStatement point = connection.prepareStatement(
          "SELECT N FROM " + table + " WHERE PartitionKey = ? AND RowKey = ?")) {
        point.setString(1, "p1");
        point.setString(2, "r004");
        try (ResultSet rs = point.executeQuery()) {
          assertThat(rs.next()).isTrue();
          assertThat(rs.getInt(1)).isEqualTo(1004);
        }
      }
      try (ResultSet rs = statement.executeQuery("SELECT COUNT(*), SUM(N) FROM " + table)) {
        rs.next();
        assertThat(rs.getLong(1)).isEqualTo(251);
        assertThat(rs.getLong(2)).isEqualTo(249 * 250 / 2 + 3 * 1000);
      }
      assertThat(Thread.getAllStackTraces().keySet()).anyMatch(thread -> thread.getName().startsWith("reactor-http-"));
    }
  }

  @Test
  void aResponseNotInTimeIsACommunicationFailure() throws Exception {
    String table = TestAccount.newTable("NettySlow").getTableName();
    try (FaultyProxy proxy = new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port());
         Connection connection = DriverManager.getConnection("jdbc:tablesql:TableEndpoint=" + proxy.base() + "/"
             + LocalEmulator.ACCOUNT + ";AccountName=" + LocalEmulator.ACCOUNT + ";AccountKey=" + LocalEmulator.KEY
             + ";httpClient=netty;requestTimeoutSeconds=1;maxRetries=0");
         Statement statement = connection.createStatement()) {
      proxy.delay(2500);
      assertThatThrownBy(() -> statement.executeQuery("SELECT * FROM " + table))
          .isInstanceOfSatisfying(SQLException.class, e -> {
            assertThat(e.getSQLState()).isEqualTo("08S01");
            assertThat(e.getMessage()).contains("did not answer in time").doesNotContain(LocalEmulator.KEY);
          });
    }
  }

  @Test
  void anUnknownClientIsRefusedByName() {
    assertThatThrownBy(() -> TestAccount.connect("httpClient=okhttp"))
        .isInstanceOfSatisfying(SQLException.class, e -> {
          assertThat(e.getSQLState()).startsWith("08");
          assertThat(e.getMessage()).contains("httpClient").contains("jdk").contains("netty");
        });
  }
}
