package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.shell.LocalEmulator;
import io.tablesql.testing.FaultyProxy;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Closing a result set early stops the partition scans it started ahead. */
class EarlyCloseTest {
  @Test
  void closingStopsPrefetchedPartitionScans() throws Exception {
    TableClient table = TestAccount.newTable("EarlyClose");
    List<TableEntity> entities = new ArrayList<>();
    for (String partition : List.of("first", "held1", "held2", "held3")) {
      for (int i = 0; i < 3; i++) {
        entities.add(new TableEntity(partition, "r" + i).addProperty("N", i));
      }
    }
    TestAccount.insert(table, entities);
    String name = table.getTableName();
    try (FaultyProxy proxy = new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port());
         Connection connection = DriverManager.getConnection("jdbc:tablesql:TableEndpoint=" + proxy.base() + "/"
             + LocalEmulator.ACCOUNT + ";AccountName=" + LocalEmulator.ACCOUNT + ";AccountKey=" + LocalEmulator.KEY
             + ";maxConcurrency=4;maxRetries=3");
         Statement statement = connection.createStatement()) {
      String sql = "SELECT RowKey FROM " + name + " WHERE PartitionKey IN ('first', 'held1', 'held2', 'held3')";
      try (ResultSet all = statement.executeQuery(sql)) { // plans and samples the table
        while (all.next()) {
          // every row
        }
      }
      proxy.hold("'held"); // the scans of the three partitions after the first wait at the proxy
      int requestsAtClose;
      try (ResultSet resultSet = statement.executeQuery(sql)) {
        assertThat(resultSet.next()).isTrue();
        while (proxy.held() < 3) {
          Thread.sleep(10); // until the three scans started ahead have sent their first request
        }
        requestsAtClose = proxy.requests();
      }
      // Released, the held requests fail with 503 ServerBusy: a scan still running would retry
      // them (after 200 ms, then 400 ms, ...); a cancelled one sends nothing more.
      proxy.release();
      Thread.sleep(2000);
      assertThat(proxy.requests()).isEqualTo(requestsAtClose);
    }
  }
}
