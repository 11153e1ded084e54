package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.exec.PageEnds;
import io.tablesql.jdbc.TableSqlConnection;
import io.tablesql.testing.FaultyProxy;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Scans split into PartitionKey ranges (scanSplits): requests, key order, early page ends, early close. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SplitScanTest {
  private static final int PARTITIONS = 30;
  private static final int PER_PARTITION = 40;
  private static final Pattern BOUND = Pattern.compile("PartitionKey (ge|lt) '([^']*)'");
  private String table;
  private List<String> keys;
  private FaultyProxy proxy;

  @BeforeAll
  void load() throws Exception {
    TableClient client = TestAccount.newTable("Split");
    List<TableEntity> entities = new ArrayList<>();
    keys = new ArrayList<>();
    for (int p = 0; p < PARTITIONS; p++) {
      for (int r = 0; r < PER_PARTITION; r++) {
        String partition = String.format("part%02d", p);
        String row = String.format("r%03d", r);
        entities.add(new TableEntity(partition, row).addProperty("N", p * PER_PARTITION + r));
        keys.add(partition + "/" + row);
      }
    }
    TestAccount.insert(client, entities);
    table = client.getTableName();
    proxy = new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port());
  }

  @AfterAll
  void close() {
    proxy.close();
  }

  private static List<String> read(Statement statement, String sql) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (ResultSet resultSet = statement.executeQuery(sql)) {
      while (resultSet.next()) {
        rows.add(resultSet.getString(1) + "/" + resultSet.getString(2));
      }
    }
    return rows;
  }

  private static String plan(Statement statement, String sql) throws SQLException {
    try (ResultSet resultSet = statement.executeQuery("EXPLAIN PLAN FOR " + sql)) {
      assertThat(resultSet.next()).isTrue();
      return resultSet.getString(1);
    }
  }

  /** The boundaries EXPLAIN shows ({@code boundaries=['a', 'b']}), in order. */
  private static List<String> shownBoundaries(String explained) {
    Matcher shown = Pattern.compile("boundaries=\\[([^\\]]*)\\]").matcher(explained);
    assertThat(shown.find()).isTrue();
    return Pattern.compile("'([^']*)'").matcher(shown.group(1)).results().map(m -> m.group(1)).toList();
  }

  /** The PartitionKey boundaries the ranges of a split scan were read with, sorted. */
  private static List<String> usedBoundaries(List<FaultyProxy.Request> sent) {
    return sent.stream().map(r -> r.query().get("$filter")).filter(f -> f != null && f.contains("PartitionKey ge"))
        .map(f -> { Matcher m = BOUND.matcher(f); m.find(); return m.group(2); }).distinct().sorted().toList();
  }

  /**
   * Fills {@code client} with {@code partitions} × {@code rows} entities keyed
   * {@code prefix + partition} (zero-padded to {@code digits}) and {@code r00...}, and returns their
   * keys in key order as {@link #read} gives them.
   */
  private static List<String> fill(TableClient client, String prefix, int digits, int partitions, int rows) {
    List<TableEntity> entities = new ArrayList<>();
    List<String> keys = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      for (int r = 0; r < rows; r++) {
        String partition = String.format("%s%0" + digits + "d", prefix, p);
        String row = String.format("r%02d", r);
        entities.add(new TableEntity(partition, row).addProperty("N", r));
        keys.add(partition + "/" + row);
      }
    }
    TestAccount.insert(client, entities);
    return keys;
  }

  /** Entities whose PartitionKey lies in [from, to) (null: unbounded). */
  private long entitiesIn(String from, String to) {
    return keys.stream().map(key -> key.substring(0, key.indexOf('/')))
        .filter(p -> (from == null || p.compareTo(from) >= 0) && (to == null || p.compareTo(to) < 0)).count();
  }

  @Test
  void aSplitFullScanTakesItsBoundariesFromTheSampleAndReadsOnePageChainPerRange() throws Exception {
    try (Connection connection = FaultTest.connectThrough(proxy, "scanSplits=4", "pageSize=100");
         Statement statement = connection.createStatement()) {
      String sql = "SELECT PartitionKey, RowKey FROM " + table;
      assertThat(plan(statement, sql)).contains("split=[4 key ranges]");
      int before = proxy.requests();
      assertThat(read(statement, sql)).isEqualTo(keys); // every row once, in key order
      List<FaultyProxy.Request> sent = proxy.seen().subList(before, proxy.requests());
      long probes = sent.stream().filter(r -> "1".equals(r.query().get("$top"))).count();
      List<FaultyProxy.Request> pages = sent.stream().filter(r -> "100".equals(r.query().get("$top"))).toList();
      assertThat(probes + pages.size()).isEqualTo(sent.size())
          .isEqualTo(statement.unwrap(TableSqlStatement.class).requestCount());
      assertThat(probes).isZero(); // the sample saw 19 and more PartitionKeys: enough for 4 ranges
      // each range is one chain of pages: ⌈its entities / 100⌉ requests, at least one
      List<String> ranges = pages.stream().map(r -> r.query().get("$filter")).distinct().toList();
      assertThat(ranges).hasSize(4);
      long expectedPages = 0;
      for (String filter : ranges) {
        String from = null;
        String to = null;
        Matcher bound = BOUND.matcher(filter);
        while (bound.find()) {
          if (bound.group(1).equals("ge")) {
            from = bound.group(2);
          } else {
            to = bound.group(2);
          }
        }
        expectedPages += Math.max(1, (entitiesIn(from, to) + 99) / 100);
      }
      assertThat((long) pages.size()).isEqualTo(expectedPages);
      // every entity once, plus the key each probe that found one returned
      assertThat(statement.unwrap(TableSqlStatement.class).entityCount()).isBetween((long) keys.size(),
          keys.size() + probes);
    }
  }

  @Test
  void aRangeTheSampleSawTooFewKeysOfIsProbed() throws Exception {
    try (Connection connection = FaultTest.connectThrough(proxy, "scanSplits=4", "pageSize=100");
         Statement statement = connection.createStatement()) {
      String sql = "SELECT PartitionKey, RowKey FROM " + table
          + " WHERE PartitionKey >= 'part10' AND PartitionKey < 'part12'";
      assertThat(plan(statement, sql)).contains("split=[4 key ranges]");
      int before = proxy.requests();
      assertThat(read(statement, sql)).isEqualTo(keys.stream()
          .filter(k -> k.compareTo("part10") >= 0 && k.compareTo("part12") < 0).toList());
      long probes = proxy.seen().subList(before, proxy.requests()).stream()
          .filter(r -> "1".equals(r.query().get("$top"))).count();
      assertThat(probes).isPositive();
    }
  }

  @Test
  void pagesEndingEarlyLoseAndRepeatNothing() throws Exception {
    try (Connection connection = FaultTest.connectThrough(proxy, "scanSplits=8", "maxRetries=5");
         Statement statement = connection.createStatement()) {
      proxy.endPagesEarly(30, true);
      try {
        assertThat(read(statement, "SELECT PartitionKey, RowKey FROM " + table)).isEqualTo(keys);
        assertThat(read(statement, "SELECT PartitionKey, RowKey FROM " + table
            + " WHERE PartitionKey >= 'part05' AND PartitionKey < 'part21' AND N >= 0"))
            .isEqualTo(keys.subList(5 * PER_PARTITION, 21 * PER_PARTITION));
      } finally {
        proxy.endPagesEarly(Integer.MAX_VALUE, false);
      }
    }
  }

  /**
   * The benchmark's stand-in for a service that serves a table's partitions at once: the proxy
   * answers a read it answered before from memory (so a change made behind its back is not seen),
   * until anything is written through it.
   */
  @Test
  void aProxyAnsweringRepeatedReadsFromMemoryForgetsThemOnAWrite() throws Exception {
    TableClient direct = TestAccount.service().getTableClient(table);
    try (FaultyProxy remembering = new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port());
         Connection connection = FaultTest.connectThrough(remembering, "scanSplits=4", "pageSize=1000");
         Statement statement = connection.createStatement()) {
      remembering.answerRepeatedReadsFromMemory(); // ranges of one page each: no page end recorded, the same requests
      String sql = "SELECT RowKey, N FROM " + table + " WHERE PartitionKey >= 'part03'"; // split: many reads
      List<String> first = read(statement, sql);
      assertThat(first).contains("r001/" + (3 * PER_PARTITION + 1));
      direct.updateEntity(new TableEntity("part03", "r001").addProperty("N", -1));
      assertThat(read(statement, sql)).isEqualTo(first);
      statement.executeUpdate("UPDATE " + table + " SET N = N WHERE PartitionKey = 'part03' AND RowKey = 'r000'");
      assertThat(read(statement, sql)).contains("r001/-1");
    } finally {
      direct.updateEntity(new TableEntity("part03", "r001").addProperty("N", 3 * PER_PARTITION + 1));
    }
  }

  @Test
  void whatIsAndIsNotSplit() throws Exception {
    try (Connection connection = TestAccount.connect("scanSplits=8");
         Statement statement = connection.createStatement()) {
      String range = "SELECT PartitionKey, RowKey FROM " + table + " WHERE PartitionKey > 'part03' AND PartitionKey <= 'part09'";
      assertThat(plan(statement, range)).contains("RANGE SCAN", "split=[8 key ranges]");
      assertThat(read(statement, range)).isEqualTo(keys.subList(4 * PER_PARTITION, 10 * PER_PARTITION));
      assertThat(plan(statement, "SELECT PartitionKey, RowKey FROM " + table
          + " WHERE PartitionKey = 'part03'")).doesNotContain("split");
      String limited = "SELECT PartitionKey, RowKey FROM " + table + " LIMIT 5";
      assertThat(read(statement, limited)).isEqualTo(keys.subList(0, 5));
      assertThat(statement.unwrap(TableSqlStatement.class).requestCount()).isEqualTo(1); // a small LIMIT: no probes
    }
    try (Connection connection = TestAccount.connect("sampleSize=2000", "scanSplits=auto");
         Statement statement = connection.createStatement()) {
      // auto: this table fits in its sample, so it is not split
      assertThat(plan(statement, "SELECT PartitionKey, RowKey FROM " + table)).doesNotContain("split");
    }
    try (Connection connection = TestAccount.connect("scanSplits=auto");
         Statement statement = connection.createStatement()) {
      // auto: the table is larger than its sample: split into as many ranges as the pages its sample
      // expects (1,200 entities in pages of 1,000: two), never one smaller than a page, unless limited
      assertThat(plan(statement, "SELECT PartitionKey, RowKey FROM " + table)).contains("split=[2 key ranges]");
      assertThat(plan(statement, "SELECT PartitionKey, RowKey FROM " + table + " LIMIT 2000"))
          .doesNotContain("split");
    }
    assertThatThrownBy(() -> TestAccount.connect("scanSplits=many")).isInstanceOf(SQLException.class)
        .hasMessageContaining("auto or a whole number");
  }

  /**
   * The default (auto) splits a large scan of a sampled table where the sample gives the
   * boundaries, and nothing else: not a declared table not yet scanned (no sample, size unknown), not a statement
   * whose maxRows fits one page, not a range the sample saw too few keys of (no probes).
   */
  @Test
  void theDefaultSplitsOnlyWhatTheSampleKnowsToBeLarge() throws Exception {
    try (Connection connection = FaultTest.connectThrough(proxy, "pageSize=100");
         Statement statement = connection.createStatement()) {
      // where the other tests' scans saw pages begin would come first
      PageEnds.forget(connection.unwrap(TableSqlConnection.class).session(), table);
      String all = "SELECT PartitionKey, RowKey FROM " + table;
      String explained = plan(statement, all);
      assertThat(explained).contains("split=[8 key ranges]");
      // EXPLAIN shows the boundaries the sample gives, which are the ones the scan uses
      List<String> planned = shownBoundaries(explained);
      assertThat(planned).hasSize(7).isSorted();
      int before = proxy.requests();
      assertThat(read(statement, all)).isEqualTo(keys);
      assertThat(usedBoundaries(proxy.seen().subList(before, proxy.requests()))).isEqualTo(planned);
      assertThat(proxy.seen().subList(before, proxy.requests()))
          .noneMatch(r -> "1".equals(r.query().get("$top"))); // boundaries from the sample: no probes
      assertThat(statement.unwrap(TableSqlStatement.class).requestCount()).isGreaterThan(1);

      statement.setMaxRows(50); // stops within the first page: one chain, one request
      assertThat(read(statement, all)).hasSize(50);
      assertThat(statement.unwrap(TableSqlStatement.class).requestCount()).isEqualTo(1);
      statement.setMaxRows(0);

      String narrow = all + " WHERE PartitionKey >= 'part10' AND PartitionKey < 'part12'";
      assertThat(plan(statement, narrow)).doesNotContain("split");
      before = proxy.requests();
      assertThat(read(statement, narrow)).hasSize(2 * PER_PARTITION);
      assertThat(proxy.requests() - before).isEqualTo(1); // one page of 80, no probe

      statement.execute("DROP TABLE IF EXISTS SplitDeclared");
      statement.execute("CREATE TABLE SplitDeclared (Region VARCHAR(10), Id INTEGER, PRIMARY KEY ((Region), Id))");
      try {
        assertThat(plan(statement, "SELECT * FROM SplitDeclared")).doesNotContain("split");
      } finally {
        statement.execute("DROP TABLE SplitDeclared");
      }
    }
  }

  /**
   * A declared table has no sample: its first scan in the JVM reads one chain and records where
   * its pages ended; later scans split there, with no probe, and EXPLAIN shows those boundaries.
   */
  @Test
  void aDeclaredTableSplitsWhereItsEarlierScansSawPagesEnd() throws Exception {
    try (Connection connection = FaultTest.connectThrough(proxy, "pageSize=50");
         Statement statement = connection.createStatement()) {
      statement.execute("DROP TABLE IF EXISTS SplitPaged");
      statement.execute("CREATE TABLE SplitPaged (Region VARCHAR(10), Id INTEGER, PRIMARY KEY ((Region), Id))");
      try {
        List<String> expected = new ArrayList<>();
        try (var insert = connection.prepareStatement("INSERT INTO SplitPaged (Region, Id) VALUES (?, ?)")) {
          for (int region = 0; region < 20; region++) {
            for (int id = 0; id < 30; id++) {
              insert.setString(1, String.format("r%02d", region));
              insert.setInt(2, id);
              insert.addBatch();
              expected.add(String.format("r%02d", region) + "/" + id);
            }
          }
          insert.executeBatch();
        }
        String all = "SELECT Region, Id FROM SplitPaged";
        assertThat(plan(statement, all)).doesNotContain("split"); // nothing known of its size yet
        int before = proxy.requests();
        assertThat(read(statement, all)).isEqualTo(expected);
        assertThat(proxy.seen().subList(before, proxy.requests())).hasSize(12) // 600 entities, pages of 50
            .allMatch(r -> r.query().get("$filter") == null); // one chain

        String explained = plan(statement, all);
        assertThat(explained).contains("split=[8 key ranges]");
        List<String> planned = shownBoundaries(explained);
        assertThat(planned).hasSize(7).isSorted();
        before = proxy.requests();
        assertThat(read(statement, all)).isEqualTo(expected); // every row once, in key order
        List<FaultyProxy.Request> sent = proxy.seen().subList(before, proxy.requests());
        assertThat(sent).noneMatch(r -> "1".equals(r.query().get("$top"))); // no probe
        assertThat(usedBoundaries(sent)).isEqualTo(planned);
        // the boundaries are where pages began, so the ranges hold about as many rows each: 600
        // entities in 8 ranges of about 75 are 2 pages of 50 each, never most of the table in one
        assertThat(sent.stream().collect(Collectors.groupingBy(r -> String.valueOf(r.query().get("$filter")),
            Collectors.counting())).values()).hasSize(8).allMatch(pages -> pages <= 3);
        // a filter on a non-key column splits at the same boundaries, and keeps the filter in each range
        assertThat(read(statement, all + " WHERE Id < 3")).isEqualTo(expected.stream()
            .filter(key -> Integer.parseInt(key.substring(4)) < 3).toList());

        statement.execute("DROP TABLE SplitPaged");
        statement.execute("CREATE TABLE SplitPaged (Region VARCHAR(10), Id INTEGER, PRIMARY KEY ((Region), Id))");
        assertThat(plan(statement, all)).doesNotContain("split"); // a new table: its old page ends are forgotten
      } finally {
        statement.execute("DROP TABLE IF EXISTS SplitPaged");
      }
    }
  }

  /**
   * A sampled table scanned before splits where that scan's pages began (spread by rows) rather
   * than at its sample's keys (spread over the key space), and the ranges hold even shares.
   */
  @Test
  void aScannedTableSplitsWherePagesBeganRatherThanAtItsSample() throws Exception {
    TableClient client = TestAccount.newTable("SplitPages");
    List<String> expected = fill(client, "q", 2, 20, 60); // 1,200 entities: more than the sample reads
    String all = "SELECT PartitionKey, RowKey FROM " + client.getTableName();
    // one chain of pages of 100: the pages after the first begin at rows 100, 200, ..., 1,100
    List<String> pagesBegan = new ArrayList<>();
    for (int row = 100; row < 1200; row += 100) {
      pagesBegan.add(String.format("q%02d", row / 60));
    }
    try (Connection chain = FaultTest.connectThrough(proxy, "pageSize=100", "scanSplits=1");
         Statement statement = chain.createStatement()) {
      assertThat(read(statement, all)).isEqualTo(expected);
    }
    try (Connection connection = FaultTest.connectThrough(proxy, "pageSize=100");
         Statement statement = connection.createStatement()) {
      List<String> planned = shownBoundaries(plan(statement, all));
      assertThat(planned).hasSize(7).isSorted().isSubsetOf(pagesBegan);
      int before = proxy.requests();
      assertThat(read(statement, all)).isEqualTo(expected);
      List<FaultyProxy.Request> sent = proxy.seen().subList(before, proxy.requests());
      assertThat(usedBoundaries(sent)).isEqualTo(planned);
      assertThat(sent.stream().collect(Collectors.groupingBy(r -> String.valueOf(r.query().get("$filter")),
          Collectors.counting())).values()).hasSize(8).allMatch(pages -> pages <= 3);
    }
  }

  /**
   * A table of many pages is cut where its pages began into ranges of at most a few pages, more
   * than are read at once: the ranges are consumed in key order and each is one chain of pages,
   * so few long ones would go on at one page per round trip once the read-ahead budget is full. A
   * scan with another condition for the service (its pages are not those seen) keeps one range
   * per chain read at once.
   */
  @Test
  void aLargeTableIsCutIntoRangesOfAFewPagesEach() throws Exception {
    TableClient client = TestAccount.newTable("SplitMany");
    // 1,200 entities (more than the sample reads): 60 pages of 20, one a partition
    List<String> expected = fill(client, "m", 2, 60, 20);
    String all = "SELECT PartitionKey, RowKey FROM " + client.getTableName();
    try (Connection chain = FaultTest.connectThrough(proxy, "pageSize=20", "scanSplits=1");
         Statement statement = chain.createStatement()) {
      assertThat(read(statement, all)).isEqualTo(expected); // records where its pages began: m01 to m59
    }
    try (Connection connection = FaultTest.connectThrough(proxy, "pageSize=20", "maxConcurrency=4");
         Statement statement = connection.createStatement()) {
      String explained = plan(statement, all);
      assertThat(explained).contains("split=[20 key ranges]"); // 60 pages in ranges of 3, 4 read at once
      List<String> shown = shownBoundaries(explained);
      assertThat(shown).hasSize(16).isSorted(); // the first 16 boundaries of 19
      assertThat(explained).contains(", ... 3 more]");
      int before = proxy.requests();
      assertThat(read(statement, all)).isEqualTo(expected);
      List<FaultyProxy.Request> sent = proxy.seen().subList(before, proxy.requests());
      assertThat(sent).noneMatch(r -> "1".equals(r.query().get("$top"))); // no probe
      assertThat(usedBoundaries(sent)).hasSize(19).startsWith(shown.toArray(String[]::new));
      // the boundaries are where pages began: 3 pages a range, the requests of one chain
      assertThat(sent.stream().collect(Collectors.groupingBy(r -> String.valueOf(r.query().get("$filter")),
          Collectors.counting())).values()).hasSize(20).allMatch(pages -> pages == 3);
      assertThat(sent).hasSize(60);
      // what the split scan's ranges saw does not make more ranges next time
      assertThat(plan(statement, all)).contains("split=[20 key ranges]");

      String filtered = all + " WHERE N >= 0";
      assertThat(plan(statement, filtered)).contains("split=[4 key ranges]");
      assertThat(read(statement, filtered)).isEqualTo(expected);
    }
    // in pages of 1,000 the same entities are 2 pages: 2 ranges, none smaller than about a page
    try (Connection connection = FaultTest.connectThrough(proxy, "pageSize=1000", "maxConcurrency=4");
         Statement statement = connection.createStatement()) {
      assertThat(plan(statement, all)).contains("split=[2 key ranges]");
    }
  }

  /**
   * Where partitions are smaller than a page, each split scan's ranges begin their pages elsewhere
   * and record more keys; the ranges stay as many as the table's pages call for.
   */
  @Test
  void splitScansOfSmallPartitionsDoNotCutFinerEachTime() throws Exception {
    TableClient client = TestAccount.newTable("SplitSmall");
    fill(client, "s", 3, 180, 7); // 1,260 entities: 32 pages of 40, most beginning inside a partition
    String all = "SELECT PartitionKey, RowKey FROM " + client.getTableName();
    try (Connection chain = FaultTest.connectThrough(proxy, "pageSize=40", "scanSplits=1");
         Statement statement = chain.createStatement()) {
      assertThat(read(statement, all)).hasSize(1260);
    }
    try (Connection connection = FaultTest.connectThrough(proxy, "pageSize=40", "maxConcurrency=4");
         Statement statement = connection.createStatement()) {
      for (int scan = 0; scan < 3; scan++) {
        assertThat(plan(statement, all)).contains("split=[11 key ranges]"); // 32 pages, 3 a range
        int before = proxy.requests();
        assertThat(read(statement, all)).hasSize(1260);
        assertThat(proxy.requests() - before).isLessThanOrEqualTo(32 + 11); // a short page a range at most
      }
    }
  }

  @Test
  void closingStopsTheRanges() throws Exception {
    try (Connection connection = FaultTest.connectThrough(proxy, "scanSplits=4", "pageSize=20", "maxRetries=3");
         Statement statement = connection.createStatement()) {
      String sql = "SELECT PartitionKey, RowKey FROM " + table;
      read(statement, sql); // plans and samples the table
      int requestsAtClose;
      try (ResultSet resultSet = statement.executeQuery(sql)) {
        assertThat(resultSet.next()).isTrue();
        Thread.sleep(300); // the ranges read ahead until their buffers are full
        requestsAtClose = proxy.requests();
      }
      Thread.sleep(1000);
      assertThat(proxy.requests()).isLessThanOrEqualTo(requestsAtClose + 4); // at most the requests under way
      int settled = proxy.requests();
      Thread.sleep(1000);
      assertThat(proxy.requests()).isEqualTo(settled);
    }
  }
}
