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
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A cancelled statement fails with 57014 and a timed-out one with HYT00 (SQLTimeoutException),
 * whichever way the query was sent; scans of one entity per request keep them slow enough.
 */
class CancelAndTimeoutTest {
  private static final String CANCELLED = "57014";
  private static final String TIMED_OUT = "HYT00";
  private static String table;
  private static Connection connection;

  @BeforeAll
  static void setUp() throws SQLException {
    TableClient client = TestAccount.newTable("Slow");
    List<TableEntity> entities = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      entities.add(new TableEntity("p" + (i % 3), String.format("r%05d", i)).addProperty("N", i));
    }
    TestAccount.insert(client, entities);
    table = client.getTableName();
    connection = TestAccount.connect("pageSize=1");
  }

  @AfterAll
  static void tearDown() throws SQLException {
    connection.close();
  }

  private static void readAll(ResultSet resultSet) throws SQLException {
    while (resultSet.next()) {
      // every row, one request each
    }
  }

  private static void assertState(Throwable error, String state) {
    assertThat(error).isInstanceOf(SQLException.class);
    assertThat(((SQLException) error).getSQLState()).isEqualTo(state);
  }

  @Test
  void cancelWhileReadingGivesQueryCanceled() throws SQLException {
    for (String sql : List.of("SELECT RowKey FROM " + table,
        "SELECT RowKey FROM " + table + " WHERE PartitionKey = 'p1'",
        "SELECT RowKey FROM " + table + " WHERE PartitionKey IN ('p0', 'p2')")) {
      try (Statement statement = connection.createStatement();
           ResultSet resultSet = statement.executeQuery(sql)) {
        assertThat(resultSet.next()).isTrue();
        statement.cancel();
        assertThatThrownBy(() -> readAll(resultSet))
            .satisfies(e -> assertState(e, CANCELLED)).isNotInstanceOf(SQLTimeoutException.class)
            .hasMessageContaining("cancel");
      }
    }
  }

  @Test
  void cancelFromAnotherThreadGivesQueryCanceled() throws Exception {
    try (PreparedStatement statement = connection.prepareStatement("SELECT RowKey FROM " + table
        + " WHERE PartitionKey = ?")) {
      statement.setString(1, "p0");
      CountDownLatch reading = new CountDownLatch(1);
      CompletableFuture<Void> reader = CompletableFuture.runAsync(() -> {
        try (ResultSet resultSet = statement.executeQuery()) {
          resultSet.next();
          reading.countDown();
          readAll(resultSet);
        } catch (SQLException e) {
          throw new java.util.concurrent.CompletionException(e);
        }
      });
      reading.await();
      statement.cancel();
      assertThatThrownBy(reader::join).cause().satisfies(e -> assertState(e, CANCELLED));
    }
  }

  @Test
  void queryTimeoutGivesTimeoutException() throws SQLException {
    for (String sql : List.of("SELECT RowKey FROM " + table,
        "SELECT RowKey FROM " + table + " WHERE PartitionKey = 'p1'",
        "SELECT RowKey FROM " + table + " WHERE PartitionKey IN ('p0', 'p2')")) {
      try (Statement statement = connection.createStatement()) {
        statement.setQueryTimeout(1);
        assertThatThrownBy(() -> {
          try (ResultSet resultSet = statement.executeQuery(sql)) {
            readAll(resultSet);
          }
        }).isInstanceOf(SQLTimeoutException.class).satisfies(e -> assertState(e, TIMED_OUT))
            .hasMessageContaining("timeout");
      }
    }
  }

  @Test
  void preparedQueryTimeoutGivesTimeoutException() throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement("SELECT RowKey FROM " + table
        + " WHERE PartitionKey = ?")) {
      statement.setQueryTimeout(1);
      statement.setString(1, "p2");
      assertThatThrownBy(() -> {
        try (ResultSet resultSet = statement.executeQuery()) {
          readAll(resultSet);
        }
      }).isInstanceOf(SQLTimeoutException.class).satisfies(e -> assertState(e, TIMED_OUT));
    }
  }
}
