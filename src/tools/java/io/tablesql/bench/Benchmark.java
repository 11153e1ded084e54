package io.tablesql.bench;

import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpPipelineNextSyncPolicy;
import com.azure.core.http.HttpPipelinePosition;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.jdk.httpclient.JdkHttpClientBuilder;
import com.azure.core.http.netty.NettyAsyncHttpClientBuilder;
import com.azure.core.http.policy.HttpPipelinePolicy;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import io.tablesql.TableSqlStatement;
import io.tablesql.shell.LocalEmulator;
import io.tablesql.testing.FaultyProxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import reactor.core.publisher.Mono;

/**
 * tablesql against the raw Azure SDK used as an expert would, side by side in one run on a local
 * Azurite: {@code mvn -B -q package -DskipTests exec:exec@benchmark}. Prints a markdown table of medians,
 * ratios and the requests and entities each side cost. The SDK runs on both of its transports:
 * Netty (its default) and the JDK's HttpClient (which tablesql uses); tablesql is compared with
 * the faster of the two in each case.
 *
 * <p>System properties: {@code tablesql.bench.cases} (comma-separated parts of case names) runs
 * only those cases, and the cold starts only if one of them is a part of "cold start" ({@code cold}
 * runs the cold starts alone); {@code tablesql.bench.coldRuns} (5) measured runs of each cold start;
 * {@code tablesql.bench.coldOptions} (space-separated) more JVM options for every cold-start
 * process of both sides, e.g. {@code -XX:TieredStopAtLevel=1}; {@code tablesql.bench.profile} ({@code netty}, {@code jdk}
 * or {@code sql}) runs only that side of each case, three times as often, for a profiler
 * ({@code -XX:StartFlightRecording}); {@code tablesql.bench.sqlOptions} adds driver properties to tablesql's
 * connections, e.g. {@code httpClient=netty} (with {@code cases} leaving out the cold starts, which run the
 * driver jar: it has no Netty); {@code tablesql.bench.hugeScan} (a number of entities, e.g. 1000000; off by
 * default, loading takes minutes) adds a scan of that many entities streamed in a 64 MiB heap
 * ({@code tablesql.bench.hugeHeap}, 64m, sets another), in rows per second (with
 * {@code tablesql.bench.latencyMs=0}, every run after a side's first reads from the proxy's memory:
 * Azurite takes 0.5-1 s for a page of a million-entity table);
 * {@code tablesql.bench.latencyMs} puts a proxy that delays every request by that many milliseconds
 * between both sides and the emulator, which answers a read made before (with no write since) from
 * memory, so that concurrent reads are served concurrently, as by the service
 * ({@code tablesql.bench.forwardAll} forwards every request to the emulator, which serves one at a time).
 */
public final class Benchmark {
  private static final int PARTITIONS = 50;
  private static final int PER_PARTITION = 1000;
  private static final String BIG = ColdStart.TABLE;
  private static final String LOOKUP = "Regions";
  /** The large table of the streamed-scan case ({@code tablesql.bench.hugeScan}). */
  private static final String HUGE = "Huge";

  /** The SDK's sides: Netty first (its default transport), then the JDK's HttpClient. */
  private final List<Sdk> sdks;
  /** For loading and set-up: the first SDK side's client. */
  private final TableServiceClient service;
  private final List<String> cases = Arrays.stream(System.getProperty("tablesql.bench.cases", "").split(","))
      .map(String::trim).filter(c -> !c.isEmpty()).toList();
  private final String profile = System.getProperty("tablesql.bench.profile", "");
  private final String url;
  private final String endpoint;
  private final List<String> rows = new ArrayList<>();
  private final ExecutorService pool = Executors.newFixedThreadPool(8);

  private Benchmark(LocalEmulator emulator, String endpoint) {
    this.sdks = List.of(
        Sdk.of("Netty", sdkBuilder(endpoint), new NettyAsyncHttpClientBuilder().build(), emulator.blobEndpoint()),
        Sdk.of("JDK", sdkBuilder(endpoint), new JdkHttpClientBuilder().build(), emulator.blobEndpoint()));
    this.service = sdks.get(0).service();
    this.endpoint = endpoint;
    String options = System.getProperty("tablesql.bench.sqlOptions", "");
    this.url = (endpoint.equals(emulator.tableEndpoint())
        ? "jdbc:tablesql:" + emulator.connectionString() + ";lookupTables=" + LOOKUP
        : "jdbc:tablesql:TableEndpoint=" + endpoint + ";BlobEndpoint=" + emulator.blobEndpoint() + ";AccountName="
            + LocalEmulator.ACCOUNT + ";AccountKey=" + LocalEmulator.KEY + ";lookupTables=" + LOOKUP) + (options.isEmpty() ? "" : ";" + options);
  }

  private static TableServiceClientBuilder sdkBuilder(String endpoint) {
    return ColdStart.sdk(endpoint, LocalEmulator.ACCOUNT, LocalEmulator.KEY);
  }

  /** One SDK side: a client on one transport, counting its own requests. */
  private record Sdk(String transport, TableServiceClient service, TableClient big, AtomicLong requests,
      com.azure.storage.blob.BlobContainerClient blobs) {
    static Sdk of(String transport, TableServiceClientBuilder builder, com.azure.core.http.HttpClient http,
        String blobEndpoint) {
      AtomicLong requests = new AtomicLong();
      TableServiceClient service = builder.httpClient(http).addPolicy(new Counting(requests)).buildClient();
      com.azure.storage.blob.BlobContainerClient blobs = new com.azure.storage.blob.BlobServiceClientBuilder()
          .endpoint(blobEndpoint).httpClient(http).addPolicy(new Counting(requests))
          .credential(new com.azure.storage.common.StorageSharedKeyCredential(LocalEmulator.ACCOUNT, LocalEmulator.KEY))
          .buildClient().getBlobContainerClient("bench-values-" + transport.toLowerCase(Locale.ROOT));
      return new Sdk(transport, service, service.getTableClient(BIG), requests, blobs);
    }

    long[] cost(long before, long entities, long rowCount) {
      return new long[] {requests.get() - before, entities, rowCount};
    }
  }

  /** A case's SDK side, run on the given transport. */
  private interface SdkRun {
    long[] run(Sdk sdk) throws Exception;
  }

  public static void main(String[] args) throws Exception {
    Path home = Path.of(System.getProperty("tablesql.home", ".")).toAbsolutePath();
    // tablesql.bench.latencyMs: both sides reach Azurite through a proxy that delays every
    // request, as a distant service would (loopback answers in well under a millisecond)
    long latency = Long.getLong("tablesql.bench.latencyMs", -1);
    try (LocalEmulator emulator = LocalEmulator.start(home);
         FaultyProxy proxy = latency < 0 ? null : new FaultyProxy(
             emulator.tableEndpoint().substring(0, emulator.tableEndpoint().lastIndexOf('/')))) {
      String endpoint = emulator.tableEndpoint();
      if (proxy != null) {
        endpoint = proxy.base() + "/" + LocalEmulator.ACCOUNT;
        System.out.printf(Locale.ROOT, "Every request delayed by %d ms through a proxy%n", latency);
      }
      Benchmark benchmark = new Benchmark(emulator, endpoint);
      benchmark.load();
      if (proxy != null) {
        proxy.delay(latency); // after loading
        if (!Boolean.getBoolean("tablesql.bench.forwardAll")) {
          // the emulator serves one request at a time; the service serves a table's partitions at once
          proxy.answerRepeatedReadsFromMemory();
        }
      }
      benchmark.run();
      benchmark.pool.shutdown();
    }
    System.exit(0);
  }

  private static String partition(int p) {
    return String.format("p%02d", p);
  }

  private static String row(int r) {
    return String.format("r%04d", r);
  }

  private void load() {
    long start = System.nanoTime();
    fill(service.createTable(BIG), PARTITIONS, PER_PARTITION, Benchmark::partition, Benchmark::row);
    TableClient lookup = service.createTable(LOOKUP);
    for (int i = 0; i < 10; i++) {
      lookup.createEntity(new TableEntity("Region", "R" + i).addProperty("Label", "Region " + i));
    }
    System.out.printf(Locale.ROOT, "Loaded %d entities in %d partitions and a %d-entity lookup table in %.1f s%n%n",
        PARTITIONS * PER_PARTITION, PARTITIONS, 10, (System.nanoTime() - start) / 1e9);
  }

  /**
   * Requests tablesql's connections of this JVM have sent to the account (its metrics MXBean):
   * what a commit costs, which is no statement's.
   */
  private static long accountRequests() throws Exception {
    javax.management.MBeanServer beans = java.lang.management.ManagementFactory.getPlatformMBeanServer();
    if (accountMetrics == null) { // looked up once: a timed run pays only for reading the attribute
      accountMetrics = beans.queryNames(new javax.management.ObjectName("io.tablesql:type=Metrics,*"), null)
          .iterator().next();
    }
    return (Long) beans.getAttribute(accountMetrics, "Requests");
  }

  private static javax.management.ObjectName accountMetrics;

  private static long[] sqlCost(Statement statement, long rowCount) throws Exception {
    TableSqlStatement cost = statement.unwrap(TableSqlStatement.class);
    return new long[] {cost.requestCount(), cost.entityCount(), rowCount};
  }

  private static long count(ResultSet resultSet) throws Exception {
    long n = 0;
    while (resultSet.next()) {
      n++;
    }
    resultSet.close();
    return n;
  }

  private void run() throws Exception {
    rows.add("| case | SDK Netty median | SDK JDK median | tablesql median | ratio to the faster SDK | ratio to Netty "
        + "/ JDK | SDK requests / entities | tablesql requests / entities |");
    rows.add("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    try (Connection connection = DriverManager.getConnection(url)) {
      int[] next = {0};
      // Point lookup through a reused PreparedStatement. The first case also warms up the JIT for
      // both sides: with 300 warm-up runs both were still being compiled while measured.
      try (PreparedStatement point = connection.prepareStatement(
          "SELECT Name FROM " + BIG + " WHERE PartitionKey = ? AND RowKey = ?")) {
        compare("point lookup, reused PreparedStatement", 2000, 600, sdk -> {
          long before = sdk.requests().get();
          int i = next[0]++;
          TableEntity entity = sdk.big().getEntity(partition(i % PARTITIONS), row(i % PER_PARTITION));
          return sdk.cost(before, 1, entity == null ? 0 : 1);
        }, () -> {
          int i = next[0]++;
          point.setString(1, partition(i % PARTITIONS));
          point.setString(2, row(i % PER_PARTITION));
          return sqlCost(point, count(point.executeQuery()));
        });
      }
      largeValue(connection);
      wideRow(connection);
      serverLookup(next);
      serverThroughput(next);
      threadedLookups(next);
      try (Statement statement = connection.createStatement()) {
        SdkRun sdkGet = sdk -> {
          long before = sdk.requests().get();
          int i = next[0]++;
          sdk.big().getEntity(partition(i % PARTITIONS), row(i % PER_PARTITION));
          return sdk.cost(before, 1, 1);
        };
        java.util.function.IntFunction<String> adHoc = i -> "SELECT Name FROM " + BIG + " WHERE PartitionKey = '"
            + partition(i % PARTITIONS) + "' AND RowKey = '" + row(i % PER_PARTITION) + "'";
        compare("point lookup, ad-hoc SQL (new literals each time)", 1000, 600, sdkGet,
            () -> sqlCost(statement, count(statement.executeQuery(adHoc.apply(next[0]++)))));
        compare("point lookup, ad-hoc SQL prepared each time (as BI tools send it)", 1000, 600, sdkGet, () -> {
          try (PreparedStatement prepared = connection.prepareStatement(adHoc.apply(next[0]++))) {
            return sqlCost(prepared, count(prepared.executeQuery()));
          }
        });
        // as Spring's JdbcTemplate and Hibernate run a query: prepared, bound and closed each time
        compare("point lookup, PreparedStatement with ? prepared each time (as JdbcTemplate)", 1000, 600, sdkGet,
            () -> {
              try (PreparedStatement prepared = connection.prepareStatement(
                  "SELECT Name FROM " + BIG + " WHERE PartitionKey = ? AND RowKey = ?")) {
                int i = next[0]++;
                prepared.setString(1, partition(i % PARTITIONS));
                prepared.setString(2, row(i % PER_PARTITION));
                return sqlCost(prepared, count(prepared.executeQuery()));
              }
            });
        String range = "PartitionKey eq 'p07' and RowKey ge 'r0000' and RowKey lt 'r1000'";
        compare("range scan, 1,000 entities", 30, 30, sdk -> sdkQuery(sdk, range, List.of("Name")),
            () -> sqlCost(statement, count(statement.executeQuery("SELECT Name FROM " + BIG
                + " WHERE PartitionKey = 'p07' AND RowKey >= 'r0000' AND RowKey < 'r1000'"))));
        compare("partition scan with a property filter", 30, 30,
            sdk -> sdkQuery(sdk, "PartitionKey eq 'p11' and Amount ge 50", List.of("Name")),
            () -> sqlCost(statement, count(statement.executeQuery("SELECT Name FROM " + BIG
                + " WHERE PartitionKey = 'p11' AND Amount >= 50"))));
        try (Connection sequential = DriverManager.getConnection(url + ";scanSplits=1");
             Statement unsplit = sequential.createStatement()) {
          compare("full scan, 50,000 entities", 1, 3, sdk -> sdkQuery(sdk, null, null),
              () -> sqlCost(unsplit, count(unsplit.executeQuery("SELECT * FROM " + BIG))));
        }
        // scanSplits=auto: 8 PartitionKey ranges, 8 at a time, against the SDK's sequential listEntities
        try (Connection splitting = DriverManager.getConnection(url + ";scanSplits=auto");
             Statement split = splitting.createStatement()) {
          compare("full scan, 50,000 entities, split", 1, 3, sdk -> sdkQuery(sdk, null, null),
              () -> sqlCost(split, count(split.executeQuery("SELECT * FROM " + BIG))));
          // a table without a sample (mapped over the same entities): its warm-up scan reads one
          // chain and records where pages end, and the measured scans split there
          String mapped = "full scan, 50,000 entities, split, mapped table (no sample)";
          if (cases.isEmpty() || cases.stream().anyMatch(mapped::contains)) {
            split.execute("CREATE TABLE IF NOT EXISTS BenchMapped (P VARCHAR, R VARCHAR, Amount INT, Region VARCHAR, "
                + "Name VARCHAR, Score DOUBLE) OVER " + BIG + " PARTITION KEY '{P}' ROW KEY '{R}'");
            compare(mapped, 1, 3, sdk -> sdkQuery(sdk, null, null),
                () -> sqlCost(split, count(split.executeQuery("SELECT * FROM BenchMapped"))));
          }
        }
        StringBuilder in = new StringBuilder();
        List<String[]> keys = new ArrayList<>();
        for (int k = 0; k < 20; k++) {
          String[] key = {partition(k * 2), row(k * 37)};
          keys.add(key);
          in.append(k == 0 ? "" : ", ").append("('").append(key[0]).append("', '").append(key[1]).append("')");
        }
        compare("IN of 20 full keys across partitions (SDK: 20 concurrent GETs)", 100, 50, sdk -> {
          long before = sdk.requests().get();
          List<CompletableFuture<TableEntity>> gets = new ArrayList<>();
          for (String[] key : keys) {
            gets.add(CompletableFuture.supplyAsync(() -> sdk.big().getEntity(key[0], key[1]), pool));
          }
          gets.forEach(CompletableFuture::join);
          return sdk.cost(before, keys.size(), keys.size());
        }, () -> sqlCost(statement, count(statement.executeQuery("SELECT Name FROM " + BIG
            + " WHERE (PartitionKey, RowKey) IN (" + in + ")"))));
        compare("IN of 20 full keys, SDK doing sequential GETs (reference)", 10, 20, sdk -> {
          long before = sdk.requests().get();
          for (String[] key : keys) {
            sdk.big().getEntity(key[0], key[1]);
          }
          return sdk.cost(before, keys.size(), keys.size());
        }, () -> sqlCost(statement, count(statement.executeQuery("SELECT Name FROM " + BIG
            + " WHERE (PartitionKey, RowKey) IN (" + in + ")"))));
        String join = "SELECT b.Name, r.Label FROM " + BIG + " b JOIN " + LOOKUP + " r ON r.PartitionKey = 'Region' "
            + "AND r.RowKey = b.Region WHERE b.PartitionKey = 'p03'";
        compare("join with a cached lookup table (one partition of 1,000)", 20, 20, sdk -> {
          long before = sdk.requests().get();
          java.util.Map<String, String> labels = new java.util.HashMap<>();
          for (TableEntity region : sdk.service().getTableClient(LOOKUP).listEntities()) {
            labels.put(region.getRowKey(), (String) region.getProperty("Label"));
          }
          long n = 0;
          for (TableEntity entity : sdk.big().listEntities(new ListEntitiesOptions().setFilter("PartitionKey eq 'p03'"),
              null, null)) {
            n += labels.containsKey((String) entity.getProperty("Region")) ? 1 : 0;
          }
          return sdk.cost(before, n + labels.size(), n);
        }, () -> sqlCost(statement, count(statement.executeQuery(join))));
      }
      derivedData(connection, next);
      batchInsert(connection);
      crossPartitionTransaction(connection);
      readsDuringTransfers(connection);
    }
    if ((cases.isEmpty() || cases.stream().anyMatch("cold start"::contains)) && profile.isEmpty()) {
      coldStart();
    }
    int huge = Integer.getInteger("tablesql.bench.hugeScan", 0);
    if (huge > 0 && profile.isEmpty()) {
      hugeScan(huge);
    }
    System.out.println(String.join("\n", rows));
  }

  private static long[] sdkQuery(Sdk sdk, String filter, List<String> select) {
    long before = sdk.requests().get();
    long n = 0;
    for (TableEntity ignored : sdk.big().listEntities(new ListEntitiesOptions().setFilter(filter).setSelect(select), null,
        null)) {
      n++;
    }
    return sdk.cost(before, n, n);
  }

  /**
   * Queries answered from materialized views that no query names (a summary per department, a
   * copy keyed by e-mail) against the SDK reading the table they are kept from, as an application
   * without them does: the department's partition, counted and summed in the client; the table
   * filtered by e-mail.
   */
  private void derivedData(Connection connection, int[] next) throws Exception {
    String totals = "view: COUNT and SUM of one department's 250 rows (summary)";
    String byEmail = "view: a row by e-mail, 2,000 rows (copy keyed by e-mail)";
    String write = "view: UPDATE of one row's Age, kept in its copy and its department's summary (SDK: the same by hand)";
    if (!cases.isEmpty() && cases.stream().noneMatch(c -> totals.contains(c) || byEmail.contains(c)
        || write.contains(c))) {
      return;
    }
    int departments = 8;
    int perDepartment = 250;
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE BenchStaff (Dept VARCHAR, Id INT, Email VARCHAR NOT NULL, Age INT, "
          + "PRIMARY KEY ((Dept), Id))");
      for (int d = 0; d < departments; d++) {
        for (int from = 0; from < perDepartment; from += 50) {
          StringBuilder values = new StringBuilder();
          for (int i = from; i < from + 50; i++) {
            int id = d * perDepartment + i;
            values.append(i == from ? "" : ", ").append("('d").append(d).append("', ").append(id).append(", 'e")
                .append(id).append("@x.com', ").append(20 + id % 40).append(')');
          }
          statement.executeUpdate("INSERT INTO BenchStaff VALUES " + values);
        }
      }
      statement.execute("CREATE MATERIALIZED VIEW BenchStaffTotals PRIMARY KEY ((Dept)) AS "
          + "SELECT Dept, COUNT(*) AS N, SUM(Age) AS Ages FROM BenchStaff GROUP BY Dept");
      statement.execute("CREATE UNIQUE INDEX BenchStaffEmail ON BenchStaff (Email)"); // e-mails identify rows
      statement.execute("CREATE MATERIALIZED VIEW BenchStaffByEmail PRIMARY KEY ((Email)) AS "
          + "SELECT Email, Dept, Id, Age FROM BenchStaff");
      compare(totals, 200, 300, sdk -> {
        long before = sdk.requests().get();
        long rows = 0;
        long ages = 0;
        int d = next[0]++ % departments; // tablesql's key encoding ends a text key with '!'
        for (TableEntity row : sdk.service().getTableClient("BenchStaff").listEntities(new ListEntitiesOptions()
            .setFilter("PartitionKey eq 'd" + d + "!'").setSelect(List.of("Age")), null, null)) {
          rows++;
          ages += ((Number) row.getProperty("Age")).longValue();
        }
        return sdk.cost(before, rows, ages > 0 ? 1 : 0);
      }, () -> sqlCost(statement, count(statement.executeQuery(
          "SELECT COUNT(*), SUM(Age) FROM BenchStaff WHERE Dept = 'd" + (next[0]++ % departments) + "'"))));
      compare(byEmail, 50, 100, sdk -> {
        long before = sdk.requests().get();
        long n = 0;
        int id = next[0]++ % (departments * perDepartment);
        for (TableEntity ignored : sdk.service().getTableClient("BenchStaff").listEntities(new ListEntitiesOptions()
            .setFilter("Email eq 'e" + id + "@x.com'").setSelect(List.of("Id", "Age")), null, null)) {
          n++;
        }
        return sdk.cost(before, n, n); // the service scans every row for it; one comes back
      }, () -> sqlCost(statement, count(statement.executeQuery("SELECT Id, Age FROM BenchStaff WHERE Email = 'e"
          + (next[0]++ % (departments * perDepartment)) + "@x.com'"))));
      viewWrite(connection, write, departments, perDepartment, next);
    }
  }

  /**
   * What keeping views costs a write: tablesql's UPDATE of a row of BenchStaff (its copy keyed by
   * e-mail and its department's summary kept within the statement, through an intent) against
   * the SDK doing the same by hand on tables of its own, as an application following the guide
   * would without any guarantee across them: read the row, replace it on its ETag, upsert the
   * copy, read the summary entity and replace it on its ETag. Requests are the account's for
   * tablesql (the MXBean's: the intent's and the views' are not the statement's).
   */
  private void viewWrite(Connection connection, String name, int departments, int perDepartment, int[] next)
      throws Exception {
    if (!cases.isEmpty() && cases.stream().noneMatch(name::contains)) {
      return;
    }
    TableClient rows = service.createTable("HandStaff");
    TableClient copies = service.createTable("HandStaffByEmail");
    TableClient summaries = service.createTable("HandStaffTotals");
    List<CompletableFuture<Void>> writes = new ArrayList<>();
    for (int d = 0; d < departments; d++) {
      long ages = 0;
      for (int from = 0; from < perDepartment; from += 100) {
        List<TableTransactionAction> actions = new ArrayList<>();
        for (int i = from; i < Math.min(perDepartment, from + 100); i++) {
          int id = d * perDepartment + i;
          actions.add(new TableTransactionAction(TableTransactionActionType.UPSERT_REPLACE, new TableEntity("d" + d,
              String.valueOf(id)).addProperty("Email", "e" + id + "@x.com").addProperty("Age", 20 + id % 40)));
          writes.add(CompletableFuture.runAsync(() -> copies.upsertEntity(new TableEntity("e" + id + "@x.com", "")
              .addProperty("Dept", "d" + id / perDepartment).addProperty("Id", id).addProperty("Age", 20 + id % 40)), pool));
          ages += 20 + id % 40;
        }
        writes.add(CompletableFuture.runAsync(() -> rows.submitTransaction(actions), pool));
      }
      summaries.upsertEntity(new TableEntity("d" + d, "").addProperty("N", (long) perDepartment).addProperty("Ages", ages));
    }
    writes.forEach(CompletableFuture::join);
    try (PreparedStatement update = connection.prepareStatement(
        "UPDATE BenchStaff SET Age = Age + 1 WHERE Dept = ? AND Id = ?")) {
      compare(name, 50, 100, sdk -> {
        long before = sdk.requests().get();
        int id = next[0]++ % (departments * perDepartment);
        String dept = "d" + id / perDepartment;
        TableClient sdkRows = sdk.service().getTableClient("HandStaff");
        TableEntity row = sdkRows.getEntity(dept, String.valueOf(id));
        int age = (Integer) row.getProperty("Age") + 1;
        sdkRows.updateEntityWithResponse(row.addProperty("Age", age), TableEntityUpdateMode.REPLACE, true, null, null);
        sdk.service().getTableClient("HandStaffByEmail").upsertEntity(new TableEntity(row.getProperty("Email").toString(),
            "").addProperty("Dept", dept).addProperty("Id", id).addProperty("Age", age));
        TableClient sdkTotals = sdk.service().getTableClient("HandStaffTotals");
        TableEntity total = sdkTotals.getEntity(dept, "");
        sdkTotals.updateEntityWithResponse(total.addProperty("Ages", (Long) total.getProperty("Ages") + 1),
            TableEntityUpdateMode.REPLACE, true, null, null);
        return sdk.cost(before, 0, 1);
      }, () -> {
        long before = accountRequests();
        int id = next[0]++ % (departments * perDepartment);
        update.setString(1, "d" + id / perDepartment);
        update.setInt(2, id);
        int updated = update.executeUpdate();
        return new long[] {accountRequests() - before, 0, updated};
      });
    }
  }

  private void batchInsert(Connection connection) throws Exception {
    for (Sdk sdk : sdks) { // a table per side: Azurite's inserts slow down as a table grows
      service.createTable("InsertSdk" + sdk.transport());
    }
    try (Statement ddl = connection.createStatement()) {
      ddl.execute("CREATE TABLE InsertSql (PartitionKey VARCHAR, RowKey VARCHAR, Amount INTEGER, Name VARCHAR)");
    }
    int[] round = {0};
    compare("batch insert, 10,000 rows over 20 partitions", 3, 11, sdk -> {
      long before = sdk.requests().get();
      sdkGroups(sdk.service().getTableClient("InsertSdk" + sdk.transport()), "s" + round[0]++, 20, 500);
      return sdk.cost(before, 0, 10_000);
    }, () -> {
      int r = round[0]++;
      try (PreparedStatement insert = batchOfRows(connection, "InsertSql", "q" + r, 20, 500)) {
        int[] counts = insert.executeBatch();
        return sqlCost(insert, counts.length);
      }
    });
  }

  /**
   * The SDK side of the write cases: {@code rows} rows in each of {@code partitions} partitions
   * (PartitionKeys prefix_0, prefix_1, ...), as entity group transactions of 100, sent concurrently.
   */
  private void sdkGroups(TableClient target, String prefix, int partitions, int rows) {
    List<CompletableFuture<Void>> writes = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      for (int chunk = 0; chunk < rows; chunk += 100) {
        List<TableTransactionAction> actions = new ArrayList<>();
        for (int i = chunk; i < Math.min(rows, chunk + 100); i++) {
          actions.add(new TableTransactionAction(TableTransactionActionType.CREATE,
              new TableEntity(prefix + "_" + p, row(i)).addProperty("Amount", i).addProperty("Name", "n" + i)));
        }
        writes.add(CompletableFuture.runAsync(() -> target.submitTransaction(actions), pool));
      }
    }
    writes.forEach(CompletableFuture::join);
  }

  /** tablesql's side of the write cases: the same rows as one prepared INSERT's batch, not yet executed. */
  private static PreparedStatement batchOfRows(Connection connection, String table, String prefix, int partitions,
      int rows) throws Exception {
    PreparedStatement insert = connection.prepareStatement(
        "INSERT INTO " + table + " (PartitionKey, RowKey, Amount, Name) VALUES (?, ?, ?, ?)");
    for (int p = 0; p < partitions; p++) {
      for (int i = 0; i < rows; i++) {
        insert.setString(1, prefix + "_" + p);
        insert.setString(2, row(i));
        insert.setInt(3, i);
        insert.setString(4, "n" + i);
        insert.addBatch();
      }
    }
    return insert;
  }

  /**
   * A JDBC transaction of 1,000 inserts over 10 partitions, committed all or nothing through an
   * intent, against the SDK sending the same 10 entity group transactions concurrently with no
   * guarantee across them. tablesql's requests are the account's (the MXBean's): the commit's
   * are not a statement's.
   */
  private void crossPartitionTransaction(Connection connection) throws Exception {
    for (Sdk sdk : sdks) {
      service.createTable("TxnSdk" + sdk.transport());
    }
    try (Statement ddl = connection.createStatement()) {
      ddl.execute("CREATE TABLE TxnSql (PartitionKey VARCHAR, RowKey VARCHAR, Amount INTEGER, Name VARCHAR)");
    }
    int[] round = {0};
    compare("transaction of 1,000 rows over 10 partitions (SDK: 10 groups, no guarantee)", 3, 11, sdk -> {
      long before = sdk.requests().get();
      sdkGroups(sdk.service().getTableClient("TxnSdk" + sdk.transport()), "s" + round[0]++, 10, 100);
      return sdk.cost(before, 0, 1_000);
    }, () -> {
      int r = round[0]++;
      long before = accountRequests();
      connection.setAutoCommit(false);
      try (PreparedStatement insert = batchOfRows(connection, "TxnSql", "q" + r, 10, 100)) {
        insert.executeBatch();
        connection.commit();
      } finally {
        connection.setAutoCommit(true);
      }
      return new long[] {accountRequests() - before, 0, 1_000};
    });
  }

  /**
   * Point lookups while another connection commits transfers between two partitions without
   * pause (each an intent over two entity groups): the SDK reads each row as stored, marked or
   * not; tablesql reads it as committed, consulting the intent of a row it finds marked (at most
   * one request more per intent a statement meets). Prints tablesql's requests per lookup over
   * all runs and the transfers committed meanwhile.
   */
  private void readsDuringTransfers(Connection connection) throws Exception {
    String name = "point lookups while another connection commits transfers across partitions";
    if (!cases.isEmpty() && cases.stream().noneMatch(name::contains)) {
      return;
    }
    TableClient accounts = service.createTable("Transfers");
    int count = 8;
    for (int a = 0; a < count; a++) {
      accounts.createEntity(new TableEntity("p" + a % 4, "a" + a).addProperty("N", 1000));
    }
    // what one transfer costs alone, before the readers: the account's requests (the MXBean's)
    long requestsBefore = accountRequests();
    int alone = 20;
    try (Statement transfer = connection.createStatement()) {
      connection.setAutoCommit(false);
      for (int t = 0; t < alone; t++) {
        transfer.executeUpdate("UPDATE Transfers SET N = N - 1 WHERE PartitionKey = 'p0' AND RowKey = 'a0'");
        transfer.executeUpdate("UPDATE Transfers SET N = N + 1 WHERE PartitionKey = 'p1' AND RowKey = 'a1'");
        connection.commit();
      }
    } finally {
      connection.setAutoCommit(true);
    }
    double perTransfer = (accountRequests() - requestsBefore) / (double) alone;
    java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
    AtomicLong transfers = new AtomicLong();
    AtomicLong refused = new AtomicLong();
    CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
      try (Connection writes = DriverManager.getConnection(url);
           PreparedStatement move = writes.prepareStatement(
               "UPDATE Transfers SET N = N + ? WHERE PartitionKey = ? AND RowKey = ?")) {
        writes.setAutoCommit(false);
        java.util.Random random = new java.util.Random(6);
        while (!stop.get()) {
          int from = random.nextInt(count);
          int to = (from + 1 + 2 * random.nextInt(count / 2 - 1)) % count; // another partition
          try {
            for (int[] side : new int[][] {{from, -1}, {to, 1}}) {
              move.setInt(1, side[1]);
              move.setString(2, "p" + side[0] % 4);
              move.setString(3, "a" + side[0]);
              move.executeUpdate();
            }
            writes.commit();
            transfers.incrementAndGet();
          } catch (java.sql.SQLException e) {
            refused.incrementAndGet();
            writes.rollback();
          }
        }
      } catch (java.sql.SQLException e) {
        throw new IllegalStateException(e);
      }
    }, pool);
    int[] next = {0};
    AtomicLong lookups = new AtomicLong();
    AtomicLong requests = new AtomicLong();
    try (PreparedStatement point = connection.prepareStatement(
        "SELECT N FROM Transfers WHERE PartitionKey = ? AND RowKey = ?")) {
      java.util.Map<String, TableClient> clients = new java.util.HashMap<>();
      sdks.forEach(sdk -> clients.put(sdk.transport(), sdk.service().getTableClient("Transfers")));
      compare(name, 200, 300, sdk -> {
        long before = sdk.requests().get();
        int a = next[0]++ % count;
        TableEntity entity = clients.get(sdk.transport()).getEntity("p" + a % 4, "a" + a);
        return sdk.cost(before, 1, entity == null ? 0 : 1);
      }, () -> {
        int a = next[0]++ % count;
        point.setString(1, "p" + a % 4);
        point.setString(2, "a" + a);
        long[] cost = sqlCost(point, count(point.executeQuery()));
        lookups.incrementAndGet();
        requests.addAndGet(cost[0]);
        return cost;
      });
    } finally {
      stop.set(true);
      writer.join();
    }
    String line = String.format(Locale.ROOT, "    tablesql: %d requests for %d lookups (%.3f per lookup); the writer "
        + "committed %d transfers (%d refused) meanwhile; a transfer alone costs %.1f requests (its two reads "
        + "included)", requests.get(), lookups.get(), requests.get() / (double) Math.max(1, lookups.get()),
        transfers.get(), refused.get(), perTransfer);
    rows.add(line);
    System.out.println(line);
  }

  /**
   * Connect plus first query in fresh JVMs, the SDK's and tablesql's alternately, as they start
   * by default and with an application class data sharing archive made by a training run; and a
   * full scan streamed in a 64 MiB heap. Runs the packaged driver jar when there is one (what
   * a tool loads), otherwise the build's class path (no archive: it holds a directory).
   */
  private void coldStart() throws Exception {
    String classpath = probeClasspath();
    List<String> sdk = List.of("sdk", endpoint, LocalEmulator.ACCOUNT, LocalEmulator.KEY);
    coldStartRows("cold start: new JVM, connect, first query (whole process)",
        "cold start with a class data sharing archive (-XX:SharedArchiveFile)", classpath, sdk, List.of("sql", url));
    // the same lookup on a table declared over the big one: its types are in the catalog, no sample
    try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE BigKeyed (Part VARCHAR, Item VARCHAR, Name VARCHAR, Amount INT, Region VARCHAR, "
          + "Score DOUBLE, PRIMARY KEY ((Part), Item)) OVER " + BIG + " PARTITION KEY '{Part}' ROW KEY '{Item}'");
    }
    coldStartRows("cold start, a declared table (no sample): new JVM, connect, first query",
        "cold start, a declared table, with a class data sharing archive", classpath, sdk,
        List.of("sql", url, "SELECT Name FROM BigKeyed WHERE Part = 'p01' AND Item = 'r0001'"));
    try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
      statement.execute("DROP TABLE BigKeyed"); // a mapping: its entities stay
    }
    Probe heap = probe(classpath, List.of("-Xmx64m"), List.of("fullscan", url));
    rows.add("| full scan of 50,000 entities streamed with -Xmx64m | | | " + (heap != null ? "completes" : "FAILS")
        + " | | | | " + (heap != null ? heap.cost() : "") + " |");
  }

  /**
   * A scan of {@code entities} entities (partitions of 10,000) streamed in a 64 MiB heap, in
   * fresh JVMs, alternately: the SDK's {@code listEntities}, tablesql by default (split by the
   * sample) and tablesql with {@code scanSplits=1} (one chain of pages, as the SDK reads). Each
   * side reads one entity first, so the figures are the scan's own rows per second.
   */
  private void hugeScan(int entities) throws Exception {
    String classpath = probeClasspath();
    long start = System.nanoTime();
    int perPartition = Math.min(entities, 10_000);
    fill(service.createTable(HUGE), (entities + perPartition - 1) / perPartition, perPartition,
        p -> String.format("h%03d", p), r -> String.format("r%05d", r));
    System.out.printf(Locale.ROOT, "Loaded %d entities into %s in %.1f s%n", entities, HUGE,
        (System.nanoTime() - start) / 1e9);
    List<List<String>> sides = List.of(
        List.of("scan-sdk", endpoint, LocalEmulator.ACCOUNT, LocalEmulator.KEY, HUGE),
        List.of("scan-sql", url, HUGE),
        List.of("scan-sql", url + ";scanSplits=1", HUGE));
    int runs = 3;
    double[][] rates = new double[sides.size()][runs];
    for (int i = 0; i < runs; i++) {
      for (int side = 0; side < sides.size(); side++) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx" + System.getProperty("tablesql.bench.hugeHeap", "64m"), "-cp", classpath, ColdStart.class.getName()));
        command.addAll(sides.get(side));
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String[] output = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
            .trim().split("\\s+");
        if (process.waitFor() != 0 || Long.parseLong(output[output.length - 2]) != entities) {
          throw new IllegalStateException("the streamed scan failed: " + sides.get(side).get(0));
        }
        rates[side][i] = entities / (Double.parseDouble(output[output.length - 1]) / 1000);
        System.out.printf(Locale.ROOT, "  %s run %d: %.0f rows/s%n", side == 0 ? "SDK" : side == 1 ? "tablesql"
            : "tablesql, scanSplits=1", i + 1, rates[side][i]);
      }
    }
    for (double[] side : rates) {
      Arrays.sort(side);
    }
    double sdk = rates[0][runs / 2];
    rows.add(String.format(Locale.ROOT, "| full scan of %,d entities streamed with -Xmx%s (rows/s, median of %d) | | "
        + "%.0f (JDK) | %.0f | %.2f of the SDK's rows/s | | | scanSplits=1: %.0f rows/s, %.2f |", entities,
        System.getProperty("tablesql.bench.hugeHeap", "64m"), runs, sdk,
        rates[1][runs / 2], rates[1][runs / 2] / sdk, rates[2][runs / 2], rates[2][runs / 2] / sdk));
    System.out.println(rows.get(rows.size() - 1));
  }

  /** A cold start's row as both sides start by default, and, from the driver jar, with an archive each. */
  private void coldStartRows(String name, String archivedName, String classpath, List<String> sdk, List<String> sql)
      throws Exception {
    coldStartRow(name, classpath, List.of(), sdk, List.of(), sql);
    if (packagedDriver() != null) {
      Path archives = Files.createTempDirectory("tablesql-cds");
      coldStartRow(archivedName, classpath, archiveOptions(classpath, archives.resolve("sdk.jsa"), sdk), sdk,
          archiveOptions(classpath, archives.resolve("tablesql.jsa"), sql), sql);
    }
  }

  private void coldStartRow(String name, String classpath, List<String> sdkOptions, List<String> sdk,
      List<String> sqlOptions, List<String> sql) throws Exception {
    int runs = Integer.getInteger("tablesql.bench.coldRuns", 5);
    List<String> extra = Arrays.stream(System.getProperty("tablesql.bench.coldOptions", "").split(" "))
        .filter(o -> !o.isBlank()).toList();
    sdkOptions = concat(extra, sdkOptions);
    sqlOptions = concat(extra, sqlOptions);
    double[] sdkTimes = new double[runs];
    double[] sqlTimes = new double[runs];
    double[] sdkCpu = new double[runs];
    double[] sqlCpu = new double[runs];
    Probe sdkProbe = null;
    Probe sqlProbe = null;
    for (int i = -1; i < runs; i++) { // the first pair warms the file cache
      sdkProbe = require(probe(classpath, sdkOptions, sdk));
      sqlProbe = require(probe(classpath, sqlOptions, sql));
      if (i >= 0) {
        sdkTimes[i] = sdkProbe.millis();
        sqlTimes[i] = sqlProbe.millis();
        sdkCpu[i] = sdkProbe.cpuMillis();
        sqlCpu[i] = sqlProbe.cpuMillis();
      }
    }
    Arrays.sort(sdkTimes);
    Arrays.sort(sqlTimes);
    Arrays.sort(sdkCpu);
    Arrays.sort(sqlCpu);
    double a = sdkTimes[runs / 2];
    double b = sqlTimes[runs / 2];
    // the probe's SDK runs on the JDK's HttpClient, from the driver jar (which has no Netty)
    rows.add(String.format(Locale.ROOT, "| %s | | %.0f ms | %.0f ms | %.2f (JDK) | | %s | %s |", name, a, b, b / a,
        sdkProbe.cost(), sqlProbe.cost()));
    System.out.println(rows.get(rows.size() - 1));
    System.out.printf(Locale.ROOT, "  %s%s: SDK runs %s ms, tablesql runs %s ms%n", name,
        extra.isEmpty() ? "" : " " + extra, millis(sdkTimes), millis(sqlTimes));
    // CPU time depends less on what else the machine runs than the elapsed time does
    System.out.printf(Locale.ROOT, "  CPU time until the first row: SDK median %.0f ms (%s), tablesql median %.0f ms (%s), "
        + "ratio %.2f%n", sdkCpu[runs / 2], millis(sdkCpu), sqlCpu[runs / 2], millis(sqlCpu),
        sqlCpu[runs / 2] / sdkCpu[runs / 2]);
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  private static String millis(double[] sorted) {
    return String.join(", ", Arrays.stream(sorted).mapToObj(t -> String.format(Locale.ROOT, "%.0f", t)).toList());
  }

  /** Makes a class data sharing archive with a training run; the options that use it. */
  private List<String> archiveOptions(String classpath, Path archive, List<String> args) throws Exception {
    require(probe(classpath, List.of("-XX:ArchiveClassesAtExit=" + archive, "-Xlog:cds=off"), args));
    if (!Files.isRegularFile(archive)) {
      throw new IllegalStateException("the JVM made no class data sharing archive at " + archive);
    }
    return List.of("-XX:SharedArchiveFile=" + archive, "-Xshare:on");
  }

  /** What a cold-start probe took and the requests / entities it reported. */
  private record Probe(double millis, String cost, double cpuMillis) {
  }

  private static Probe require(Probe probe) {
    if (probe == null) {
      throw new IllegalStateException("a cold start probe failed");
    }
    return probe;
  }

  /**
   * Fills a table with {@code partitions} × {@code perPartition} entities of the benchmark's shape,
   * as entity group transactions of 100 sent concurrently.
   */
  private void fill(TableClient table, int partitions, int perPartition, java.util.function.IntFunction<String> partition,
      java.util.function.IntFunction<String> row) {
    List<CompletableFuture<Void>> writes = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      for (int chunk = 0; chunk < perPartition; chunk += 100) {
        List<TableTransactionAction> actions = new ArrayList<>();
        for (int r = chunk; r < Math.min(perPartition, chunk + 100); r++) {
          actions.add(new TableTransactionAction(TableTransactionActionType.UPSERT_REPLACE,
              new TableEntity(partition.apply(p), row.apply(r)).addProperty("Amount", r % 100)
                  .addProperty("Region", "R" + (r % 10)).addProperty("Name", "entity " + p + "/" + r)
                  .addProperty("Score", r + 0.5)));
        }
        writes.add(CompletableFuture.runAsync(() -> table.submitTransaction(actions), pool));
      }
    }
    writes.forEach(CompletableFuture::join);
  }

  /** The packaged driver jar, or null when the benchmark runs on the build's class path. */
  private static String packagedDriver() {
    String jar = System.getProperty("tablesql.driverJar");
    return jar != null && Files.isRegularFile(Path.of(jar)) ? jar : null;
  }

  /**
   * The class path of a probe JVM: the driver jar (what a tool loads) with the probe, which is a
   * tool, not in the driver jar, in a jar of its own (a class data sharing archive takes jars
   * only); otherwise the build's class path.
   */
  private static String probeClasspath() throws Exception {
    String jar = packagedDriver();
    return jar != null ? jar + java.io.File.pathSeparator + probeJar() : System.getProperty("java.class.path");
  }

  /** A jar holding the {@link ColdStart} probe, next to the driver jar. */
  private static String probeJar() throws Exception {
    Path classes = Path.of(ColdStart.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    Path jar = Path.of(System.getProperty("tablesql.driverJar")).resolveSibling("coldstart-probe.jar");
    String prefix = ColdStart.class.getName().replace('.', '/');
    try (java.util.jar.JarOutputStream out = new java.util.jar.JarOutputStream(Files.newOutputStream(jar));
         java.util.stream.Stream<Path> files = Files.list(classes.resolve(prefix).getParent())) {
      for (Path file : (Iterable<Path>) files::iterator) {
        String name = file.getFileName().toString();
        if (name.equals("ColdStart.class") || name.startsWith("ColdStart$")) {
          out.putNextEntry(new java.util.jar.JarEntry(prefix.substring(0, prefix.lastIndexOf('/') + 1) + name));
          out.write(Files.readAllBytes(file));
          out.closeEntry();
        }
      }
    }
    return jar.toString();
  }

  /** Runs {@link ColdStart} in a new JVM; null if it failed. */
  private static Probe probe(String classpath, List<String> options, List<String> args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(options);
    command.addAll(List.of("-cp", classpath, ColdStart.class.getName()));
    command.addAll(args);
    long start = System.nanoTime();
    Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    String output = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
      return null;
    }
    double millis = (System.nanoTime() - start) / 1e6;
    String[] cost = output.trim().split("\\s+");
    int n = cost.length;
    return new Probe(millis, cost[n - 3] + " / " + cost[n - 2], Double.parseDouble(cost[n - 1]));
  }

  /**
   * A 10 MiB binary value written and read back, past what an entity holds: the SDK as the design
   * guide's large-entities pattern does it by hand (the value uploaded as a blob, then an entity
   * naming it; read: the entity, then the blob), tablesql by an INSERT of the value and a SELECT of
   * it, which do the same. Each run writes a new row; both sides keep their blobs.
   */
  private void largeValue(Connection connection) throws Exception {
    String name = "10 MiB value written and read back (large-entities pattern)";
    if (!cases.isEmpty() && cases.stream().noneMatch(name::contains)) {
      return;
    }
    byte[] value = new byte[10 << 20];
    new java.util.Random(10).nextBytes(value);
    for (Sdk sdk : sdks) {
      sdk.blobs().createIfNotExists();
      sdk.service().createTableIfNotExists("BenchDocs" + sdk.transport());
    }
    try (Statement ddl = connection.createStatement()) {
      ddl.execute("CREATE TABLE IF NOT EXISTS BenchDocs (Id INT PRIMARY KEY, Data BLOB)");
    }
    int[] id = {0};
    try (PreparedStatement insert = connection.prepareStatement("INSERT INTO BenchDocs VALUES (?, ?)");
         PreparedStatement select = connection.prepareStatement("SELECT Data FROM BenchDocs WHERE Id = ?")) {
      compare(name, 3, 15, sdk -> {
        long before = sdk.requests().get();
        String key = String.valueOf(id[0]++);
        String blob = sdk.transport() + "/" + java.util.UUID.randomUUID();
        sdk.blobs().getBlobClient(blob).upload(com.azure.core.util.BinaryData.fromBytes(value));
        TableClient docs = sdk.service().getTableClient("BenchDocs" + sdk.transport());
        docs.createEntity(new TableEntity("docs", key).addProperty("DataBlob", blob));
        String named = (String) docs.getEntity("docs", key).getProperty("DataBlob");
        byte[] read = sdk.blobs().getBlobClient(named).downloadContent().toBytes();
        return sdk.cost(before, 2, read.length == value.length ? 1 : 0);
      }, () -> {
        long before = accountRequests();
        int key = id[0]++;
        insert.setInt(1, key);
        insert.setBytes(2, value);
        insert.executeUpdate();
        select.setInt(1, key);
        long rows = 0;
        try (ResultSet result = select.executeQuery()) {
          while (result.next()) {
            rows += result.getBytes(1).length == value.length ? 1 : 0;
          }
        }
        return new long[] {accountRequests() - before, 2, rows};
      });
    }
  }

  /**
   * A row of 600 integer columns written and read back, more than one entity holds: the SDK as
   * the design guide's wide-entities pattern does it by hand (three entities of 200 properties
   * in one entity group transaction; read: one range query of the three), tablesql by a prepared
   * INSERT of the 600 values and a SELECT of all of them, which keeps the row as three entities
   * (200, 240 and 160 columns) written in one transaction and read by three GETs. Each run writes a
   * new row.
   */
  private void wideRow(Connection connection) throws Exception {
    String name = "600-column row written and read back (wide-entities pattern)";
    if (!cases.isEmpty() && cases.stream().noneMatch(name::contains)) {
      return;
    }
    int columns = 600;
    for (Sdk sdk : sdks) {
      sdk.service().createTableIfNotExists("BenchWide" + sdk.transport());
    }
    String declared = java.util.stream.IntStream.range(0, columns).mapToObj(i -> "c" + i + " INT")
        .collect(java.util.stream.Collectors.joining(", "));
    try (Statement ddl = connection.createStatement()) {
      ddl.execute("CREATE TABLE IF NOT EXISTS BenchWide (Id INT PRIMARY KEY, " + declared + ")");
    }
    String marks = String.join(", ", java.util.Collections.nCopies(columns + 1, "?"));
    int[] id = {0};
    try (PreparedStatement insert = connection.prepareStatement("INSERT INTO BenchWide VALUES (" + marks + ")");
         PreparedStatement select = connection.prepareStatement("SELECT * FROM BenchWide WHERE Id = ?")) {
      compare(name, 3, 30, sdk -> {
        long before = sdk.requests().get();
        String key = String.format("%08d", id[0]++);
        TableClient wide = sdk.service().getTableClient("BenchWide" + sdk.transport());
        List<com.azure.data.tables.models.TableTransactionAction> parts = new ArrayList<>();
        for (int part = 0; part < 3; part++) {
          TableEntity entity = new TableEntity(key, "part" + part);
          for (int c = part * 200; c < (part + 1) * 200; c++) {
            entity.addProperty("c" + c, c);
          }
          parts.add(new com.azure.data.tables.models.TableTransactionAction(
              com.azure.data.tables.models.TableTransactionActionType.CREATE, entity));
        }
        wide.submitTransaction(parts);
        long read = wide.listEntities(new com.azure.data.tables.models.ListEntitiesOptions()
            .setFilter("PartitionKey eq '" + key + "'"), null, null).stream()
            .mapToLong(entity -> entity.getProperties().size()).sum();
        return sdk.cost(before, 3, read >= columns ? 1 : 0);
      }, () -> {
        long before = accountRequests();
        int key = id[0]++;
        insert.setInt(1, key);
        for (int c = 0; c < columns; c++) {
          insert.setInt(c + 2, c);
        }
        insert.executeUpdate();
        select.setInt(1, key);
        long rows = 0;
        try (ResultSet result = select.executeQuery()) {
          while (result.next()) {
            rows += result.getInt(columns + 1) == columns - 1 ? 1 : 0;
          }
        }
        return new long[] {accountRequests() - before, 3, rows};
      });
    }
  }

  /**
   * The point lookup above through tablesql's PostgreSQL-protocol server on loopback, from
   * pgjdbc's reused prepared statement (the extended protocol; server-side statements and binary
   * values after its prepareThreshold): what the wire adds to the driver in the same process.
   * Requests are the account's (the server's session is another connection of this JVM).
   */
  private void serverLookup(int[] next) throws Exception {
    String name = "point lookup through the PostgreSQL-protocol server (pgjdbc, reused PreparedStatement)";
    if (!cases.isEmpty() && cases.stream().noneMatch(name::contains)) {
      return;
    }
    String options = System.getProperty("tablesql.bench.sqlOptions", "");
    try (io.tablesql.server.PgServer server = io.tablesql.server.PgServer.start("127.0.0.1", 0, 8, "TableEndpoint="
        + endpoint + ";AccountName=" + LocalEmulator.ACCOUNT + ";lookupTables=" + LOOKUP
        + (options.isEmpty() ? "" : ";" + options));
         Connection client = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.port() + "/"
             + LocalEmulator.ACCOUNT + "?user=" + LocalEmulator.ACCOUNT + "&password="
             + java.net.URLEncoder.encode(LocalEmulator.KEY, java.nio.charset.StandardCharsets.UTF_8));
         PreparedStatement point = client.prepareStatement(
             "SELECT Name FROM " + BIG + " WHERE PartitionKey = ? AND RowKey = ?")) {
      compare(name, 2000, 600, sdk -> {
        long before = sdk.requests().get();
        int i = next[0]++;
        TableEntity entity = sdk.big().getEntity(partition(i % PARTITIONS), row(i % PER_PARTITION));
        return sdk.cost(before, 1, entity == null ? 0 : 1);
      }, () -> {
        long before = accountRequests();
        int i = next[0]++;
        point.setString(1, partition(i % PARTITIONS));
        point.setString(2, row(i % PER_PARTITION));
        long rows = count(point.executeQuery());
        return new long[] {accountRequests() - before, rows, rows};
      });
    }
  }

  /**
   * Throughput through the PostgreSQL-protocol server: 1, then 4, then 16 pgjdbc clients, each
   * with its own session and prepared point lookup, looking up without pause for a few seconds;
   * lookups per second and the ratio to one client. With {@code tablesql.bench.latencyMs} the
   * service's latency, not this machine's two cores, bounds a client, as on Azure.
   */
  private void serverThroughput(int[] next) throws Exception {
    String name = "point lookups through the server, 1 to 16 clients (throughput)";
    if (!cases.isEmpty() && cases.stream().noneMatch(name::contains)) {
      return;
    }
    java.util.concurrent.atomic.AtomicInteger keys = new java.util.concurrent.atomic.AtomicInteger(next[0]);
    try (io.tablesql.server.PgServer server = io.tablesql.server.PgServer.start("127.0.0.1", 0, 32, "TableEndpoint="
        + endpoint + ";AccountName=" + LocalEmulator.ACCOUNT)) {
      double single = 0;
      List<String> parts = new ArrayList<>();
      for (int clients : new int[] {1, 4, 16}) {
        List<Connection> sessions = new ArrayList<>();
        try {
          for (int c = 0; c < clients; c++) {
            sessions.add(DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + server.port() + "/"
                + LocalEmulator.ACCOUNT + "?user=" + LocalEmulator.ACCOUNT + "&password="
                + java.net.URLEncoder.encode(LocalEmulator.KEY, java.nio.charset.StandardCharsets.UTF_8)));
          }
          lookupsFor(sessions, keys, 2_000); // warm-up: server-side statements, the JIT
          double perSecond = lookupsFor(sessions, keys, 6_000) / 6.0;
          single = clients == 1 ? perSecond : single;
          parts.add(String.format(Locale.ROOT, "%d client%s: %.0f/s (%.1f×)", clients, clients == 1 ? "" : "s",
              perSecond, perSecond / single));
        } finally {
          for (Connection session : sessions) {
            session.close();
          }
        }
      }
      String line = "| " + name + " | | | " + String.join("; ", parts) + " | | | | |";
      rows.add(line);
      System.out.println(line);
    }
    next[0] = keys.get();
  }

  /** Point lookups on each session's own thread for {@code millis}; how many were made in all. */
  private long lookupsFor(List<Connection> sessions, java.util.concurrent.atomic.AtomicInteger keys, long millis)
      throws Exception {
    long end = System.nanoTime() + millis * 1_000_000;
    List<CompletableFuture<Long>> runs = new ArrayList<>();
    ExecutorService threads = Executors.newFixedThreadPool(sessions.size());
    try {
      for (Connection session : sessions) {
        runs.add(CompletableFuture.supplyAsync(() -> {
          long made = 0;
          try (PreparedStatement point = session.prepareStatement(
              "SELECT Name FROM " + BIG + " WHERE PartitionKey = ? AND RowKey = ?")) {
            while (System.nanoTime() < end) {
              int i = keys.getAndIncrement();
              point.setString(1, partition(i % PARTITIONS));
              point.setString(2, row(i % PER_PARTITION));
              count(point.executeQuery());
              made++;
            }
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
          return made;
        }, threads));
      }
      long total = 0;
      for (CompletableFuture<Long> run : runs) {
        total += run.join();
      }
      return total;
    } finally {
      threads.shutdown();
    }
  }

  /**
   * Point lookups on 8 threads at once: tablesql with a connection and a PreparedStatement per
   * thread, the SDK sharing its side's client (thread-safe, as an expert would). What serialises
   * or allocates per execution shows here.
   */
  private void threadedLookups(int[] next) throws Exception {
    String name = "point lookups, 8 threads with a connection each (50 per thread)";
    if (!cases.isEmpty() && cases.stream().noneMatch(name::contains)) {
      return;
    }
    int threads = 8;
    int perThread = 50;
    java.util.concurrent.atomic.AtomicInteger keys = new java.util.concurrent.atomic.AtomicInteger(next[0]);
    List<Connection> connections = new ArrayList<>();
    List<PreparedStatement> lookups = new ArrayList<>();
    try {
      for (int t = 0; t < threads; t++) {
        connections.add(DriverManager.getConnection(url));
        lookups.add(connections.get(t).prepareStatement(
            "SELECT Name FROM " + BIG + " WHERE PartitionKey = ? AND RowKey = ?"));
      }
      compare(name, 20, 30, sdk -> {
        long before = sdk.requests().get();
        onThreads(threads, t -> {
          for (int n = 0; n < perThread; n++) {
            int i = keys.getAndIncrement();
            sdk.big().getEntity(partition(i % PARTITIONS), row(i % PER_PARTITION));
          }
          return new long[3];
        });
        return sdk.cost(before, threads * perThread, threads * perThread);
      }, () -> onThreads(threads, t -> {
        long[] cost = new long[3];
        PreparedStatement lookup = lookups.get(t);
        for (int n = 0; n < perThread; n++) {
          int i = keys.getAndIncrement();
          lookup.setString(1, partition(i % PARTITIONS));
          lookup.setString(2, row(i % PER_PARTITION));
          long[] one = sqlCost(lookup, count(lookup.executeQuery()));
          for (int k = 0; k < 3; k++) {
            cost[k] += one[k];
          }
        }
        return cost;
      }));
    } finally {
      for (Connection c : connections) {
        c.close();
      }
    }
  }

  /** Runs {@code task} for threads 0 to n - 1 at once on the pool; the sum of their costs. */
  private long[] onThreads(int n, ThreadTask task) throws Exception {
    List<java.util.concurrent.Future<long[]>> running = new ArrayList<>();
    for (int t = 0; t < n; t++) {
      int thread = t;
      running.add(pool.submit(() -> task.run(thread)));
    }
    long[] sum = new long[3];
    for (java.util.concurrent.Future<long[]> one : running) {
      long[] cost = one.get();
      for (int k = 0; k < 3; k++) {
        sum[k] += cost[k];
      }
    }
    return sum;
  }

  /** One thread's part of a threaded case, and what it cost (requests, entities, rows). */
  private interface ThreadTask {
    long[] run(int thread) throws Exception;
  }

  private void compare(String name, int warmups, int repetitions, SdkRun sdk, Measurement.Run sql)
      throws Exception {
    if (!cases.isEmpty() && cases.stream().noneMatch(name::contains)) {
      return;
    }
    List<Measurement.Run> runs = new ArrayList<>();
    for (Sdk side : sdks) {
      runs.add(() -> sdk.run(side));
    }
    runs.add(sql);
    if (!profile.isEmpty()) { // one side only, for a profiler
      int side = profile.equals("sql") ? sdks.size() : profile.equals("jdk") ? 1 : 0;
      Measurement m = Measurement.alternate(warmups, 3 * repetitions, runs.get(side))[0];
      System.out.printf(Locale.ROOT, "%s, %s only: median %.2f ms (%.2f to %.2f)%n", name, profile, m.medianMillis(),
          m.minMillis(), m.maxMillis());
      return;
    }
    Measurement[] all = Measurement.alternate(warmups, repetitions, runs.toArray(new Measurement.Run[0]));
    Measurement netty = all[0];
    Measurement jdk = all[1];
    Measurement b = all[2];
    Measurement faster = netty.medianMillis() <= jdk.medianMillis() ? netty : jdk;
    String extra = name.startsWith("full scan") ? String.format(Locale.ROOT, " (%.0f vs %.0f rows/s)",
        faster.rows() / (faster.medianMillis() / 1000), b.rows() / (b.medianMillis() / 1000)) : "";
    rows.add(String.format(Locale.ROOT, "| %s%s | %.2f ms | %.2f ms | %.2f ms | %.2f (%s) | %.2f / %.2f | %d / %d | %d / %d |",
        name, extra, netty.medianMillis(), jdk.medianMillis(), b.medianMillis(), b.medianMillis() / faster.medianMillis(),
        faster == netty ? "Netty" : "JDK", b.medianMillis() / netty.medianMillis(), b.medianMillis() / jdk.medianMillis(),
        faster.requests(), faster.entities(), b.requests(), b.entities()));
    System.out.println(rows.get(rows.size() - 1));
    System.out.printf(Locale.ROOT, "    spread (lowest to highest run): Netty %.2f to %.2f ms, JDK %.2f to %.2f ms, "
        + "tablesql %.2f to %.2f ms%n", netty.minMillis(), netty.maxMillis(), jdk.minMillis(), jdk.maxMillis(),
        b.minMillis(), b.maxMillis());
  }

  /** Counts the SDK's requests, retries included. */
  private static final class Counting implements HttpPipelinePolicy {
    private final AtomicLong requests;

    Counting(AtomicLong requests) {
      this.requests = requests;
    }

    @Override
    public Mono<HttpResponse> process(HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
      requests.incrementAndGet();
      return next.process();
    }

    @Override
    public HttpResponse processSync(HttpPipelineCallContext context, HttpPipelineNextSyncPolicy next) {
      requests.incrementAndGet();
      return next.processSync();
    }

    @Override
    public HttpPipelinePosition getPipelinePosition() {
      return HttpPipelinePosition.PER_RETRY;
    }
  }
}
