package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.shell.LocalEmulator;
import io.tablesql.testing.FaultyProxy;
import io.tablesql.testing.TestAccount;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.management.JMX;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.StandardMBean;
import org.junit.jupiter.api.Test;

/**
 * The per-account MXBean, read as an operator's console reads it: through the platform MBean
 * server, after a known workload. Each test talks through its own proxy, whose endpoint is a new
 * account to the driver, so its counts start at zero (a proxy that gets an earlier one's port
 * finds that one's MBean gone with its connections).
 */
class MetricsTest {
  private static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();

  @Test
  void requestsEntitiesRetriesAndThrottledAnswersAreCounted() throws Exception {
    TableClient table = TestAccount.newTable("Metered");
    TestAccount.insert(table, List.of(new TableEntity("p", "1").addProperty("N", 1),
        new TableEntity("p", "2").addProperty("N", 2), new TableEntity("p", "3").addProperty("N", 3)));
    String name = table.getTableName();
    try (FaultyProxy proxy = new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port());
         Connection connection = FaultTest.connectThrough(proxy);
         Statement statement = connection.createStatement()) {
      ObjectName objectName = objectName(proxy);
      assertThat(objectName.getKeyProperty("type")).isEqualTo("Metrics");
      assertThat(objectName.getKeyProperty("account")).isEqualTo("\"devstoreaccount1\"");
      assertThat(objectName.getKeyProperty("principal")).matches("[0-9a-f]{8}");
      TableSqlMetricsMXBean metrics = JMX.newMXBeanProxy(SERVER, objectName, TableSqlMetricsMXBean.class);
      // the table listing, the look for unfinished writes, and the catalog of declared tables where
      // another test has made one
      assertThat(metrics.getRequests()).isEqualTo(proxy.requests()).isBetween(2L, 3L);

      String point = "SELECT N FROM " + name + " WHERE PartitionKey = 'p' AND RowKey = '1'";
      FaultTest.count(statement, point); // samples the table, then reads the entity
      Map<String, Long> before = snapshot(objectName);
      proxy.failNext(2);
      assertThat(FaultTest.count(statement, point)).isEqualTo(1);
      Map<String, Long> delta = delta(objectName, before);
      assertThat(delta).containsEntry("Requests", 3L).containsEntry("Retries", 2L)
          .containsEntry("ThrottledResponses", 2L).containsEntry("EntitiesRead", 1L)
          .containsEntry("UnansweredRequests", 0L);

      before = snapshot(objectName);
      assertThat(FaultTest.count(statement, "SELECT N FROM " + name + " WHERE PartitionKey = 'p' AND N > 0"))
          .isEqualTo(3);
      delta = delta(objectName, before);
      assertThat(delta).containsEntry("Requests", 1L).containsEntry("Retries", 0L).containsEntry("EntitiesRead", 3L);
      assertThat(delta.get("BytesReceived")).isPositive();

      before = snapshot(objectName);
      assertThat(statement.executeUpdate("INSERT INTO " + name + " (PartitionKey, RowKey, N) VALUES ('p', '4', 4)"))
          .isEqualTo(1);
      delta = delta(objectName, before);
      assertThat(delta).containsEntry("EntitiesWritten", 1L).containsEntry("Requests", 1L);
      assertThat(delta.get("BytesSent")).isPositive();

      assertThat(metrics.getRequests()).isEqualTo(proxy.requests());
      assertThat(metrics.getInFlightRequests()).isZero();
      assertThat(metrics.getEndpoint()).startsWith(proxy.base());
    }
  }

  @Test
  void cacheHitsOfSchemasLookupTablesAndPlansAreCounted() throws Exception {
    TableClient table = TestAccount.newTable("Cached");
    TestAccount.insert(table, List.of(new TableEntity("p", "1").addProperty("N", 1),
        new TableEntity("p", "2").addProperty("N", 2)));
    TableClient lookup = TestAccount.newTable("Departments");
    TestAccount.insert(lookup, List.of(new TableEntity("d", "1").addProperty("Name", "Sales")));
    try (FaultyProxy proxy = new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port());
         Connection connection = FaultTest.connectThrough(proxy, "lookupTables=" + lookup.getTableName());
         Statement statement = connection.createStatement()) {
      ObjectName objectName = objectName(proxy);
      TableSqlMetricsMXBean metrics = JMX.newMXBeanProxy(SERVER, objectName, TableSqlMetricsMXBean.class);

      String byKey = "SELECT N FROM " + table.getTableName() + " WHERE PartitionKey = 'p' AND RowKey = ";
      assertThat(FaultTest.count(statement, byKey + "'1'")).isEqualTo(1);
      assertThat(metrics.getPlanCacheMisses()).isEqualTo(1);
      assertThat(metrics.getPlanCacheHits()).isZero();
      assertThat(metrics.getSchemaCacheMisses()).isEqualTo(1);
      long schemaHits = metrics.getSchemaCacheHits();
      // the same text but for a literal: planned once, so the cache hits; the table is not sampled again
      assertThat(FaultTest.count(statement, byKey + "'2'")).isEqualTo(1);
      assertThat(metrics.getPlanCacheHits()).isEqualTo(1);
      assertThat(metrics.getPlanCacheMisses()).isEqualTo(1);
      assertThat(metrics.getPlanCacheHitRatio()).isEqualTo(0.5);
      assertThat(metrics.getSchemaCacheMisses()).isEqualTo(1);
      assertThat(metrics.getSchemaCacheHits()).isGreaterThanOrEqualTo(schemaHits);

      String departments = "SELECT Name FROM " + lookup.getTableName();
      assertThat(FaultTest.count(statement, departments)).isEqualTo(1);
      assertThat(metrics.getLookupCacheMisses()).isEqualTo(1);
      assertThat(metrics.getLookupCacheHits()).isZero();
      int requests = proxy.requests();
      assertThat(FaultTest.count(statement, departments)).isEqualTo(1);
      assertThat(proxy.requests()).isEqualTo(requests);
      assertThat(metrics.getLookupCacheHits()).isEqualTo(1);
      assertThat(metrics.getLookupCacheMisses()).isEqualTo(1);
      assertThat(metrics.getLookupCacheHitRatio()).isEqualTo(0.5);
      assertThat(metrics.getSchemaCacheMisses()).isEqualTo(2); // the lookup table's shape
      assertThat(metrics.getSchemaCacheHits()).isPositive();
    }
  }

  @Test
  void connectionsWithTheSameAccountAndCredentialShareOneMBean() throws Exception {
    try (FaultyProxy proxy = new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port());
         Connection first = FaultTest.connectThrough(proxy);
         Connection second = FaultTest.connectThrough(proxy)) {
      TableSqlMetricsMXBean metrics = JMX.newMXBeanProxy(SERVER, objectName(proxy), TableSqlMetricsMXBean.class);
      // two table listings, one look for unfinished writes (once per lease in a JVM), and the
      // catalog of declared tables where another test has made one
      assertThat(metrics.getRequests()).isEqualTo(proxy.requests()).isBetween(3L, 4L);
      assertThat(objectName(proxy).toString()).doesNotContain(io.tablesql.shell.LocalEmulator.KEY);
    }
  }

  @Test
  void theMBeanLivesAsLongAsAConnectionOfItsAccountIsOpen() throws Exception {
    try (FaultyProxy proxy = new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port())) {
      Connection first = FaultTest.connectThrough(proxy);
      Connection second = FaultTest.connectThrough(proxy);
      ObjectName name = objectName(proxy);
      first.close();
      assertThat(SERVER.isRegistered(name)).isTrue();
      first.close(); // closing again releases nothing more
      assertThat(SERVER.isRegistered(name)).isTrue();
      second.close();
      assertThat(SERVER.isRegistered(name)).isFalse();
      assertThat(names(proxy)).isEmpty();

      int before = proxy.requests();
      try (Connection again = FaultTest.connectThrough(proxy)) {
        assertThat(objectName(proxy)).isEqualTo(name);
        TableSqlMetricsMXBean metrics = JMX.newMXBeanProxy(SERVER, name, TableSqlMetricsMXBean.class);
        assertThat(metrics.getRequests()).as("fresh counts").isEqualTo(proxy.requests() - before).isPositive();
      }
      assertThat(SERVER.isRegistered(name)).isFalse();
    }
  }

  @Test
  void connectionsOpenedAndClosedConcurrentlyLeaveNoMBeanBehind() throws Exception {
    try (FaultyProxy proxy = new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port())) {
      Connection held = FaultTest.connectThrough(proxy);
      ObjectName name = objectName(proxy);
      ExecutorService pool = Executors.newFixedThreadPool(6);
      try {
        List<Future<?>> runs = new ArrayList<>();
        for (int i = 0; i < 18; i++) {
          runs.add(pool.submit(() -> {
            try (Connection connection = FaultTest.connectThrough(proxy)) {
              assertThat(SERVER.isRegistered(name)).isTrue();
            }
            return null;
          }));
        }
        for (Future<?> run : runs) {
          run.get(2, TimeUnit.MINUTES);
        }
      } finally {
        pool.shutdownNow();
      }
      assertThat(SERVER.isRegistered(name)).isTrue();
      held.close();
      assertThat(names(proxy)).isEmpty();
    }
  }

  @Test
  void aConnectionThatFailsToOpenLeavesNoMBeanBehind() throws Exception {
    try (FaultyProxy proxy = new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port())) {
      String wrongKey = java.util.Base64.getEncoder().encodeToString("not the key".getBytes());
      assertThatThrownBy(() -> DriverManager.getConnection("jdbc:tablesql:TableEndpoint=" + proxy.base() + "/"
          + LocalEmulator.ACCOUNT + ";AccountName=" + LocalEmulator.ACCOUNT + ";AccountKey=" + wrongKey))
          .isInstanceOf(SQLException.class);
      assertThat(proxy.requests()).isPositive();
      assertThat(names(proxy)).isEmpty();
    }
  }

  @Test
  void aNameTakenByAnotherCopyOfTheDriverIsLeftToIt() throws Exception {
    try (FaultyProxy proxy = new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port())) {
      ObjectName name;
      try (Connection connection = FaultTest.connectThrough(proxy)) {
        name = objectName(proxy);
      }
      // the same account's MBean as another copy of the driver (another class loader) publishes it
      Object other = java.lang.reflect.Proxy.newProxyInstance(getClass().getClassLoader(),
          new Class<?>[] {TableSqlMetricsMXBean.class}, (self, method, arguments) ->
              method.getReturnType() == String.class ? "other copy"
                  : method.getReturnType() == double.class ? 0.0 : 0L);
      SERVER.registerMBean(new StandardMBean((TableSqlMetricsMXBean) other, TableSqlMetricsMXBean.class, true), name);
      try {
        try (Connection connection = FaultTest.connectThrough(proxy);
             Statement statement = connection.createStatement()) {
          assertThat(FaultTest.count(statement, "SELECT * FROM (VALUES (1))")).isEqualTo(1);
          assertThat(SERVER.getAttribute(name, "Account")).isEqualTo("other copy");
        }
        assertThat(SERVER.getAttribute(name, "Account")).as("not unregistered by this copy").isEqualTo("other copy");
      } finally {
        SERVER.unregisterMBean(name);
      }
    }
  }

  /** The MBeans whose endpoint is the proxy's. */
  private static Set<ObjectName> names(FaultyProxy proxy) throws Exception {
    return SERVER.queryNames(new ObjectName("io.tablesql:type=Metrics,*"), null).stream()
        .filter(name -> name.getKeyProperty("endpoint").startsWith("\"" + proxy.base()))
        .collect(Collectors.toSet());
  }

  /** The one MBean whose endpoint is the proxy's. */
  static ObjectName objectName(FaultyProxy proxy) throws Exception {
    Set<ObjectName> names = names(proxy);
    assertThat(names).hasSize(1);
    return names.iterator().next();
  }

  private static final List<String> COUNTS = List.of("Requests", "Retries", "ThrottledResponses",
      "UnansweredRequests", "EntitiesRead", "EntitiesWritten", "BytesSent", "BytesReceived");

  private static Map<String, Long> snapshot(ObjectName name) throws Exception {
    Map<String, Long> values = new java.util.LinkedHashMap<>();
    for (String attribute : COUNTS) {
      values.put(attribute, (Long) SERVER.getAttribute(name, attribute));
    }
    return values;
  }

  private static Map<String, Long> delta(ObjectName name, Map<String, Long> before) throws Exception {
    Map<String, Long> after = snapshot(name);
    after.replaceAll((attribute, value) -> value - before.get(attribute));
    return after;
  }
}
