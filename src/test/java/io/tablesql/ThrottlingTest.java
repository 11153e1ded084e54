package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.testing.FaultyProxy;
import io.tablesql.testing.FaultyProxy.Fault;
import io.tablesql.testing.FaultyProxy.Request;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The service's back-off answers are honoured, and a bulk load can pace itself. The waits checked
 * here are lower bounds the driver must keep, never speed goals.
 */
class ThrottlingTest {
  @Test
  void theServicesRetryAfterIsHonoured() throws Exception {
    TableClient table = TestAccount.newTable("Patient");
    TestAccount.insert(table, List.of(new TableEntity("p", "1").addProperty("N", 1)));
    try (FaultyProxy proxy = new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port());
         Connection connection = FaultTest.connectThrough(proxy);
         Statement statement = connection.createStatement()) {
      String sql = "SELECT N FROM " + table.getTableName() + " WHERE PartitionKey = 'p' AND RowKey = '1'";
      FaultTest.count(statement, sql);
      int before = proxy.requests();
      proxy.inject(Fault.BUSY_RETRY_AFTER, request -> true, 1);
      assertThat(FaultTest.count(statement, sql)).isEqualTo(1);
      List<Request> seen = proxy.seen().subList(before, proxy.requests());
      assertThat(seen).hasSize(2);
      // Retry-After: 1 asks for a second; the driver's own back-off would start at 200 ms
      assertThat(Duration.ofNanos(seen.get(1).receivedNanos() - seen.get(0).receivedNanos()))
          .isGreaterThanOrEqualTo(Duration.ofMillis(900));
    }
  }

  @Test
  void aThrottledBulkLoadWritesEveryRowOnce() throws Exception {
    TableClient table = TestAccount.newTable("Bulk");
    TestAccount.insert(table, List.of(new TableEntity("seed", "0").addProperty("N", 0)));
    try (FaultyProxy proxy = new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port());
         Connection connection = FaultTest.connectThrough(proxy, "maxRetries=5");
         PreparedStatement insert = connection.prepareStatement("INSERT INTO " + table.getTableName()
             + " (PartitionKey, RowKey, N) VALUES (?, ?, ?)")) {
      proxy.inject(Fault.BUSY, FaultyProxy.everyNth(3), Integer.MAX_VALUE);
      for (int i = 0; i < 2000; i++) {
        insert.setString(1, "p" + (i % 20));
        insert.setString(2, String.format("r%04d", i));
        insert.setInt(3, i);
        insert.addBatch();
      }
      assertThat(insert.executeBatch()).hasSize(2000).containsOnly(1);
      assertThat(proxy.faults()).isGreaterThan(5);
      proxy.clearFaults();
      try (Statement statement = connection.createStatement();
           ResultSet rows = statement.executeQuery("SELECT COUNT(*), SUM(N), COUNT(DISTINCT RowKey) FROM "
               + table.getTableName() + " WHERE PartitionKey <> 'seed'")) {
        assertThat(rows.next()).isTrue();
        assertThat(rows.getLong(1)).isEqualTo(2000);
        assertThat(rows.getLong(2)).isEqualTo(1999L * 2000 / 2);
        assertThat(rows.getLong(3)).isEqualTo(2000);
      }
    }
  }

  @Test
  void maxRequestsPerSecondPacesTheRequests() throws Exception {
    TableClient table = TestAccount.newTable("Paced");
    TestAccount.insert(table, List.of(new TableEntity("p", "1").addProperty("N", 1)));
    try (FaultyProxy proxy = new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port());
         Connection connection = FaultTest.connectThrough(proxy, "maxRequestsPerSecond=10");
         Statement statement = connection.createStatement()) {
      String sql = "SELECT N FROM " + table.getTableName() + " WHERE PartitionKey = 'p' AND RowKey = '1'";
      FaultTest.count(statement, sql);
      int before = proxy.requests();
      for (int i = 0; i < 11; i++) {
        FaultTest.count(statement, sql);
      }
      List<Request> seen = proxy.seen().subList(before, proxy.requests());
      assertThat(seen).hasSize(11);
      // 10 intervals of at least 100 ms between 11 requests
      assertThat(Duration.ofNanos(seen.get(10).receivedNanos() - seen.get(0).receivedNanos()))
          .isGreaterThanOrEqualTo(Duration.ofMillis(950));
    }
  }
}
