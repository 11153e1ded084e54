package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.tablesql.shell.LocalEmulator;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class DataSourceTest {
  @Test
  void worksDirectly() throws SQLException {
    TableSqlDataSource dataSource = new TableSqlDataSource();
    dataSource.setConnectionString(TestAccount.emulator().connectionString());
    dataSource.setPushdown(false);
    try (Connection connection = dataSource.getConnection()) {
      assertThat(connection.isValid(2)).isTrue();
      assertThat(connection.unwrap(io.tablesql.jdbc.TableSqlConnection.class).session().pushdown()).isFalse();
    }
    assertThat(dataSource.toString()).doesNotContain(LocalEmulator.KEY);
  }

  @Test
  void withoutConnectionStringSaysWhatToSet() {
    assertThatThrownBy(() -> new TableSqlDataSource().getConnection()).hasMessageContaining("setConnectionString");
  }

  @Test
  void concurrentQueriesThroughHikariCp() throws Exception {
    TableClient table = TestAccount.newTable("Pooled");
    List<TableEntity> entities = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      entities.add(new TableEntity("p" + (i % 4), "r" + i).addProperty("N", i));
    }
    TestAccount.insert(table, entities);

    HikariConfig config = new HikariConfig();
    config.setDataSourceClassName(TableSqlDataSource.class.getName());
    config.addDataSourceProperty("connectionString", TestAccount.emulator().connectionString());
    config.addDataSourceProperty("maxConcurrency", 4);
    config.setMaximumPoolSize(4);
    try (HikariDataSource pool = new HikariDataSource(config)) {
      ExecutorService threads = Executors.newFixedThreadPool(8);
      List<Future<Integer>> results = new ArrayList<>();
      for (int task = 0; task < 40; task++) {
        int key = task;
        results.add(threads.submit(() -> {
          try (Connection connection = pool.getConnection(); PreparedStatement statement = connection.prepareStatement(
              "SELECT N FROM " + table.getTableName() + " WHERE PartitionKey = ? AND RowKey = ?")) {
            statement.setString(1, "p" + (key % 4));
            statement.setString(2, "r" + key);
            try (ResultSet resultSet = statement.executeQuery()) {
              resultSet.next();
              return resultSet.getInt(1);
            }
          }
        }));
      }
      for (int task = 0; task < 40; task++) {
        assertThat(results.get(task).get()).isEqualTo(task);
      }
      threads.shutdown();
    }
  }
}
