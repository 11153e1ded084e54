package io.tablesql.bench;

import com.azure.core.credential.AzureNamedKeyCredential;
import com.azure.core.http.jdk.httpclient.JdkHttpClientBuilder;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.TableSqlStatement;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * Runs in a fresh JVM for the benchmark, and prints what its statement cost and the CPU time
 * the process had used when it was done, as {@code requests entities cpuMillis}:
 * <ul>
 *   <li>{@code sql <url> [query]}: connect and run one point lookup through tablesql (of the big
 *       table, sampled, or the query given);</li>
 *   <li>{@code sdk <endpoint> <account> <key>}: build an SDK client and get the same entity;</li>
 *   <li>{@code fullscan <url>}: stream every entity of the big table through tablesql.</li>
 * </ul>
 * and, for the streamed scan of a large table, {@code rows scanMillis}:
 * <ul>
 *   <li>{@code scan-sdk <endpoint> <account> <key> <table>}: read one entity (warming up), then
 *       every entity through the SDK's {@code listEntities};</li>
 *   <li>{@code scan-sql <url> <table>}: read one row (warming up: connect, sample, plan), then
 *       {@code SELECT * FROM table} through tablesql.</li>
 * </ul>
 * With {@code -Dtablesql.bench.phases} it also prints to stderr when main began, the client was
 * ready (connected) and the first row came, in ms since the process started.
 */
public final class ColdStart {
  static final String TABLE = "Big";

  private ColdStart() {
  }

  /** The SDK client as the benchmark's SDK side builds it, with the JDK's HTTP client as tablesql's. */
  static TableServiceClientBuilder sdk(String endpoint, String account, String key) {
    return new TableServiceClientBuilder().endpoint(endpoint).credential(new AzureNamedKeyCredential(account, key))
        .httpClient(new JdkHttpClientBuilder().build());
  }

  public static void main(String[] args) throws Exception {
    phase("main");
    if (args[0].equals("sdk")) {
      TableClient table = sdk(args[1], args[2], args[3]).buildClient().getTableClient(TABLE);
      phase("client");
      if (table.getEntity("p01", "r0001") == null) {
        throw new IllegalStateException("no entity");
      }
      phase("first row");
      System.out.println("1 1 " + cpuMillis());
      return;
    }
    if (args[0].equals("scan-sdk")) {
      TableClient table = sdk(args[1], args[2], args[3]).buildClient().getTableClient(args[4]);
      table.listEntities(new ListEntitiesOptions().setTop(1), null, null).iterator().next();
      long start = System.nanoTime();
      long rows = 0;
      for (TableEntity ignored : table.listEntities()) {
        rows++;
      }
      System.out.println(rows + " " + (System.nanoTime() - start) / 1_000_000);
      return;
    }
    if (args[0].equals("scan-sql")) {
      try (Connection connection = DriverManager.getConnection(args[1]); Statement statement = connection.createStatement()) {
        try (ResultSet first = statement.executeQuery("SELECT * FROM " + args[2] + " LIMIT 1")) {
          first.next();
        }
        long start = System.nanoTime();
        long rows = 0;
        try (ResultSet resultSet = statement.executeQuery("SELECT * FROM " + args[2])) {
          while (resultSet.next()) {
            rows++;
          }
        }
        System.out.println(rows + " " + (System.nanoTime() - start) / 1_000_000);
      }
      return;
    }
    String sql = args[0].equals("fullscan") ? "SELECT * FROM " + TABLE : args.length > 2 ? args[2]
        : "SELECT Name FROM " + TABLE + " WHERE PartitionKey = 'p01' AND RowKey = 'r0001'";
    long rows = 0;
    try (Connection connection = DriverManager.getConnection(args[1]); Statement statement = connection.createStatement();
         ResultSet resultSet = phase("client", statement).executeQuery(sql)) {
      while (resultSet.next()) {
        if (rows++ == 0) {
          phase("first row");
        }
      }
      TableSqlStatement cost = statement.unwrap(TableSqlStatement.class);
      // the statement's own; connecting listed the tables and planning sampled the table's shape
      System.out.println(cost.requestCount() + " " + cost.entityCount() + " " + cpuMillis());
    }
    if (rows == 0) {
      throw new IllegalStateException("no rows");
    }
  }

  /** CPU time of the whole process so far, all threads (the JIT's and the GC's too). */
  private static long cpuMillis() {
    return ProcessHandle.current().info().totalCpuDuration().map(java.time.Duration::toMillis).orElse(-1L);
  }

  private static void phase(String name) {
    if (System.getProperty("tablesql.bench.phases") != null) {
      long since = System.currentTimeMillis() - ProcessHandle.current().info().startInstant().orElseThrow().toEpochMilli();
      System.err.println("phase " + name + " " + since);
    }
  }

  private static <T> T phase(String name, T value) {
    phase(name);
    return value;
  }
}
