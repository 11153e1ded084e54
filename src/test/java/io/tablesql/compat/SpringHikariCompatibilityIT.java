package io.tablesql.compat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Spring's JdbcTemplate and TransactionTemplate over a HikariCP pool, HikariCP and the driver jar
 * together in a class loader of their own (as on an application's class path), the pool set up
 * by {@code dataSourceClassName} or by {@code jdbcUrl}.
 */
class SpringHikariCompatibilityIT {
  private static final AtomicInteger TABLE_NUMBER = new AtomicInteger();
  private static IsolatedDriverJar application;
  private static Wire wire;

  /** The two ways to configure the pool that the README documents. */
  enum PoolConfiguration {
    DATA_SOURCE_CLASS_NAME {
      @Override
      Properties properties(Wire wire) {
        Properties properties = new Properties();
        properties.setProperty("dataSourceClassName", "io.tablesql.TableSqlDataSource");
        properties.setProperty("dataSource.connectionString", wire.connectionString());
        properties.setProperty("dataSource.maxConcurrency", "4");
        return properties;
      }
    },
    JDBC_URL {
      @Override
      Properties properties(Wire wire) {
        Properties properties = new Properties();
        properties.setProperty("jdbcUrl", wire.url("maxConcurrency=4"));
        return properties;
      }
    };

    abstract Properties properties(Wire wire);
  }

  @BeforeAll
  static void setUp() throws Exception {
    application = IsolatedDriverJar.load(HikariConfig.class, LoggerFactory.class);
    wire = Wire.open();
  }

  @AfterAll
  static void tearDown() throws Exception {
    wire.close();
    application.close();
  }

  @ParameterizedTest
  @EnumSource(PoolConfiguration.class)
  void jdbcTemplateWritesAndReadsWithOneRequestForAKeyLookup(PoolConfiguration configuration) throws Exception {
    try (HikariPool pool = HikariPool.start(application, configuration.properties(wire))) {
      JdbcTemplate template = new JdbcTemplate(pool.dataSource());
      String table = newTable(template);
      assertThat(template.update("INSERT INTO " + table + " (PartitionKey, RowKey, Name, Age) VALUES (?, ?, ?, ?)",
          "Sales", "empid_1", "Ann", 34)).isEqualTo(1);
      template.update("INSERT INTO " + table + " (PartitionKey, RowKey, Name, Age) VALUES (?, ?, ?, ?)",
          "Sales", "empid_2", "Bob", 41);

      Wire.Window window = wire.watch();
      String name = template.queryForObject("SELECT Name FROM " + table + " WHERE PartitionKey = ? AND RowKey = ?",
          String.class, "Sales", "empid_2");
      assertThat(name).isEqualTo("Bob");
      assertThat(window.requestsTo(table)).singleElement().asString()
          .startsWith("/devstoreaccount1/" + table + "(PartitionKey='Sales',RowKey='empid_2')");
      assertThat(window.entities()).isEqualTo(1);

      assertThat(template.update("UPDATE " + table + " SET Age = Age + 1 WHERE PartitionKey = ? AND RowKey = ?",
          "Sales", "empid_1")).isEqualTo(1);
      assertThat(template.queryForList("SELECT RowKey, Age FROM " + table + " WHERE PartitionKey = ? ORDER BY RowKey",
          "Sales")).extracting(row -> row.get("RowKey") + ":" + row.get("Age"))
          .containsExactly("empid_1:35", "empid_2:41");
    }
  }

  @ParameterizedTest
  @EnumSource(PoolConfiguration.class)
  void batchUpdateIsSentAsOneEntityGroupTransactionPerPartitionAndHundredRows(PoolConfiguration configuration)
      throws Exception {
    try (HikariPool pool = HikariPool.start(application, configuration.properties(wire))) {
      JdbcTemplate template = new JdbcTemplate(pool.dataSource());
      String table = newTable(template);
      List<Object[]> rows = new ArrayList<>();
      for (int i = 0; i < 150; i++) {
        rows.add(new Object[] {i < 120 ? "a" : "b", String.format("%03d", i), i});
      }
      Wire.Window window = wire.watch();
      int[] counts = template.batchUpdate("INSERT INTO " + table + " (PartitionKey, RowKey, Age) VALUES (?, ?, ?)", rows);
      assertThat(counts).hasSize(150).containsOnly(1);
      assertThat(window.batches()).isEqualTo(3); // a: 100 + 20, b: 30
      assertThat(template.queryForObject("SELECT COUNT(*) FROM " + table, Long.class)).isEqualTo(150L);
    }
  }

  @ParameterizedTest
  @EnumSource(PoolConfiguration.class)
  void transactionTemplateCommitsAllOrNothingAndRollsBack(PoolConfiguration configuration)
      throws Exception {
    try (HikariPool pool = HikariPool.start(application, configuration.properties(wire))) {
      JdbcTemplate template = new JdbcTemplate(pool.dataSource());
      TransactionTemplate transactions = new TransactionTemplate(new DataSourceTransactionManager(pool.dataSource()));
      String table = newTable(template);
      String insert = "INSERT INTO " + table + " (PartitionKey, RowKey, Age) VALUES (?, ?, ?)";

      Wire.Window committed = wire.watch();
      transactions.executeWithoutResult(status -> {
        template.update(insert, "p", "1", 1);
        template.update(insert, "p", "2", 2);
        assertThat(template.queryForObject("SELECT COUNT(*) FROM " + table, Long.class))
            .as("the transaction reads its own pending writes").isEqualTo(2L);
      });
      assertThat(committed.batches()).isEqualTo(1);

      Wire.Window rolledBack = wire.watch();
      assertThatThrownBy(() -> transactions.executeWithoutResult(status -> {
        template.update(insert, "p", "3", 3);
        throw new IllegalStateException("business rule broken");
      })).hasMessage("business rule broken");
      assertThat(rolledBack.batches()).isZero();

      // two partitions: committed together through an intent
      transactions.executeWithoutResult(status -> {
        template.update(insert, "p", "4", 4);
        template.update(insert, "q", "5", 5);
      });
      // a duplicate key in one partition: nothing of the transaction stays in the other
      assertThatThrownBy(() -> transactions.executeWithoutResult(status -> {
        template.update(insert, "r", "6", 6);
        template.update(insert, "p", "1", 1);
      })).isInstanceOf(org.springframework.transaction.TransactionSystemException.class) // found at commit
          .cause().isInstanceOf(SQLException.class)
          .extracting(cause -> ((SQLException) cause).getSQLState()).isEqualTo("23505");

      assertThat(template.queryForList("SELECT PartitionKey || RowKey FROM " + table + " ORDER BY 1", String.class))
          .containsExactly("p1", "p2", "p4", "q5");
    }
  }

  private static String newTable(JdbcTemplate template) {
    String table = "Spring" + TABLE_NUMBER.incrementAndGet();
    template.execute("CREATE TABLE " + table + " (PartitionKey VARCHAR, RowKey VARCHAR, Name VARCHAR, Age INTEGER)");
    return table;
  }

  /** A HikariDataSource of the isolated class loader, seen through the JDK's interfaces. */
  private record HikariPool(DataSource dataSource) implements AutoCloseable {
    static HikariPool start(IsolatedDriverJar application, Properties properties) {
      properties.setProperty("maximumPoolSize", "2");
      Class<?> configClass = application.loadClass("com.zaxxer.hikari.HikariConfig");
      Object config = IsolatedDriverJar.construct(configClass, new Class<?>[] {Properties.class}, properties);
      Class<?> dataSourceClass = application.loadClass("com.zaxxer.hikari.HikariDataSource");
      return new HikariPool((DataSource) IsolatedDriverJar.construct(dataSourceClass, new Class<?>[] {configClass}, config));
    }

    @Override
    public void close() throws Exception {
      ((AutoCloseable) dataSource).close();
    }
  }
}
