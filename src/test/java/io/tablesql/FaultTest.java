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
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Service failures, made by a real proxy on loopback: retried, counted, and reported. */
class FaultTest {
  @Test
  void throttledRequestsAreRetriedAndCounted() throws Exception {
    TableClient table = TestAccount.newTable("Faults");
    TestAccount.insert(table, List.of(new TableEntity("p", "1").addProperty("N", 1)));
    try (FaultyProxy proxy = new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port());
         Connection connection = DriverManager.getConnection("jdbc:tablesql:TableEndpoint=" + proxy.base() + "/"
             + LocalEmulator.ACCOUNT + ";AccountName=" + LocalEmulator.ACCOUNT + ";AccountKey=" + LocalEmulator.KEY);
         Statement statement = connection.createStatement()) {
      String sql = "SELECT N FROM " + table.getTableName() + " WHERE PartitionKey = 'p' AND RowKey = '1'";
      count(statement, sql); // plans and samples the table
      proxy.failNext(2);
      assertThat(count(statement, sql)).isEqualTo(1);
      assertThat(statement.unwrap(TableSqlStatement.class).requestCount()).isEqualTo(3); // 2 failed + 1
      proxy.failNext(10);
      assertThatThrownBy(() -> count(statement, sql)).isInstanceOf(SQLException.class)
          .hasMessageContaining("ServerBusy").hasMessageContaining(proxy.base())
          .hasMessageNotContaining(LocalEmulator.KEY);
      proxy.failNext(0);
      assertThat(count(statement, sql)).isEqualTo(1); // the connection still works
    }
  }

  private static int count(Statement statement, String sql) throws SQLException {
    int rows = 0;
    try (ResultSet resultSet = statement.executeQuery(sql)) {
      while (resultSet.next()) {
        rows++;
      }
    }
    return rows;
  }
}
