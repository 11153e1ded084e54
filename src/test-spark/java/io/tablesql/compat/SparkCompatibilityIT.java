package io.tablesql.compat;

import static org.apache.spark.sql.functions.col;
import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.models.TableEntity;
import io.tablesql.shell.LocalEmulator;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Spark's JDBC source and write.jdbc (local mode, in this JVM) through DriverManager to the
 * driver jar in its own class loader: predicates, partitionColumn, query, and the filters Spark
 * pushes into the SQL it sends, seen on the wire. Runs in the {@code spark} profile.
 */
class SparkCompatibilityIT {
  private static IsolatedDriverJar driverJar;
  private static DriverManagerBridge.Installation bridge;
  private static Wire wire;
  private static SparkSession spark;
  private static String table;

  @BeforeAll
  static void setUp() throws Exception {
    table = TestAccount.newTable("Spark").getTableName();
    List<TableEntity> entities = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      entities.add(new TableEntity("p" + i % 3, String.format("%02d", i)).addProperty("Age", i));
    }
    TestAccount.insert(TestAccount.service().getTableClient(table), entities);
    driverJar = IsolatedDriverJar.load();
    bridge = DriverManagerBridge.install(driverJar.driver());
    wire = Wire.open();
    spark = SparkSession.builder().master("local[2]").appName("tablesql").config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2").getOrCreate();
  }

  @AfterAll
  static void tearDown() throws Exception {
    spark.stop();
    wire.close();
    bridge.close();
    driverJar.close();
  }

  @Test
  void filterIsPushedIntoTheRequest() {
    Dataset<Row> rows = spark.read().format("jdbc").option("url", wire.url()).option("dbtable", table)
        .load().filter(col("PartitionKey").equalTo("p1").and(col("Age").gt(20)));
    Wire.Window window = wire.watch();
    assertThat(rows.collectAsList()).extracting(row -> row.getString(1)).containsExactly("22", "25", "28");
    assertThat(window.requestsTo(table)).singleElement().asString()
        .contains("$filter=PartitionKey eq 'p1' and (Age gt 20 or TablesqlIntent gt '')");
    assertThat(window.entities()).isEqualTo(3);
  }

  @Test
  void keyRangePredicatesReadEveryRowOnceInParallelTasks() throws Exception {
    String[] predicates;
    try (Connection connection = driverJar.driver().connect(wire.url(), new Properties())) {
      // the driver's own class, from the jar's class loader (an application with the jar on its class path casts)
      Class<?> keyRanges = Class.forName("io.tablesql.KeyRanges", true, driverJar.driver().getClass().getClassLoader());
      Object ranges = connection.unwrap(keyRanges);
      predicates = (String[]) keyRanges.getMethod("keyRangePredicates", String.class, int.class)
          .invoke(ranges, table, 3);
    }
    Dataset<Row> rows = spark.read().jdbc(wire.url(), table, predicates, new Properties());
    assertThat(rows.rdd().getNumPartitions()).isEqualTo(predicates.length).isGreaterThan(1);
    List<String> keys = rows.select("PartitionKey", "RowKey").collectAsList().stream()
        .map(row -> row.getString(0) + "/" + row.getString(1)).toList();
    assertThat(keys).hasSize(30).doesNotHaveDuplicates();
  }

  @Test
  void predicatesMakeOnePartitionScanEach() {
    Wire.Window window = wire.watch();
    Dataset<Row> rows = spark.read().jdbc(wire.url(), table,
        new String[] {"PartitionKey = 'p0'", "PartitionKey = 'p2'"}, new Properties());
    assertThat(rows.rdd().getNumPartitions()).isEqualTo(2);
    assertThat(rows.count()).isEqualTo(20);
    assertThat(window.requestsTo(table)).filteredOn(url -> url.contains("$filter=PartitionKey eq"))
        .hasSize(2);
  }

  @Test
  void partitionColumnSplitsTheReadByRanges() {
    Dataset<Row> rows = spark.read().format("jdbc").option("url", wire.url()).option("dbtable", table)
        .option("partitionColumn", "Age").option("lowerBound", "0").option("upperBound", "30")
        .option("numPartitions", "3").load();
    assertThat(rows.rdd().getNumPartitions()).isEqualTo(3);
    assertThat(rows.agg(org.apache.spark.sql.functions.sum("Age")).first().getLong(0)).isEqualTo(435L);
  }

  @Test
  void queryOptionRunsTheGivenQuery() {
    Dataset<Row> rows = spark.read().format("jdbc").option("url", wire.url())
        .option("query", "SELECT RowKey, Age FROM " + table + " WHERE PartitionKey = 'p2' AND Age >= 20").load();
    assertThat(rows.orderBy("RowKey").collectAsList()).extracting(row -> row.getString(0) + ":" + row.getInt(1))
        .containsExactly("20:20", "23:23", "26:26", "29:29");
  }

  @Test
  void topNOnOnePartitionThroughTheJdbcCatalogReadsOnlyItsRows() {
    // Spark's JDBC table catalog pushes ORDER BY ... LIMIT down when asked to (pushDownLimit)
    spark.conf().set("spark.sql.catalog.tablesql",
        "org.apache.spark.sql.execution.datasources.v2.jdbc.JDBCTableCatalog");
    spark.conf().set("spark.sql.catalog.tablesql.url", wire.url());
    spark.conf().set("spark.sql.catalog.tablesql.pushDownLimit", "true");
    Wire.Window window = wire.watch();
    List<Row> rows = spark.table("tablesql." + LocalEmulator.ACCOUNT + "." + table)
        .filter(col("PartitionKey").equalTo("p1")).orderBy(col("RowKey")).limit(4).collectAsList();
    assertThat(rows).extracting(row -> row.getString(1)).containsExactly("01", "04", "07", "10");
    assertThat(window.requestsTo(table)).singleElement().asString().contains("$top=4");
    assertThat(window.entities()).isEqualTo(4);
  }

  @Test
  void writeJdbcAppendsRowsInBatches() throws SQLException {
    String target = "SparkWrite";
    try (Connection connection = driverJar.driver().connect(wire.url(), new Properties());
         Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE " + target + " (PartitionKey VARCHAR, RowKey VARCHAR, Age INTEGER)"); // Spark checks its columns before appending
    }
    Dataset<Row> source = spark.read().jdbc(wire.url(), table, new Properties()).select("PartitionKey", "RowKey", "Age");
    Properties properties = new Properties();
    properties.setProperty("isolationLevel", "NONE"); // rows of several partitions: one transaction cannot hold them
    Wire.Window window = wire.watch();
    source.write().mode(SaveMode.Append).jdbc(wire.url(), target, properties);
    assertThat(window.batches()).isPositive();
    assertThat(spark.read().jdbc(wire.url(), target, new Properties()).count()).isEqualTo(30);
  }

  /** Spark's default write: each task's rows in one JDBC transaction, here 400 rows over 2 partitions. */
  @Test
  void writeJdbcWithDefaultOptionsCommitsEachTaskAllOrNothing() throws SQLException {
    String target = "SparkWriteDefault";
    try (Connection connection = driverJar.driver().connect(wire.url(), new Properties());
         Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE " + target + " (PartitionKey VARCHAR, RowKey VARCHAR, Age INTEGER)");
    }
    Dataset<Row> source = spark.range(400).selectExpr("concat('p', cast(id % 2 as string)) AS PartitionKey",
        "format_string('r%03d', id) AS RowKey", "cast(id AS int) AS Age").coalesce(1);
    source.write().mode(SaveMode.Append).jdbc(wire.url(), target, new Properties());
    assertThat(spark.read().jdbc(wire.url(), target, new Properties()).count()).isEqualTo(400);
    try (Connection connection = driverJar.driver().connect(wire.url(), new Properties());
         Statement statement = connection.createStatement();
         java.sql.ResultSet pending = statement.executeQuery("SELECT COUNT(*) FROM tablesql.pending_writes")) {
      assertThat(pending.next()).isTrue();
      assertThat(pending.getInt(1)).isZero();
    }
  }

  /**
   * The commonest export: a raw table read whole and written to a new one with Spark's defaults.
   * Spark creates the copy with every column it read, Timestamp too, and inserts it: the copy's
   * rows get the service's Timestamp, and the rest as read.
   */
  @Test
  void aTableCopiedWithDefaultOptionsKeepsEveryRow() {
    String target = "SparkCopy";
    Dataset<Row> source = spark.read().jdbc(wire.url(), table, new Properties());
    source.write().jdbc(wire.url(), target, new Properties());
    Dataset<Row> copy = spark.read().jdbc(wire.url(), target, new Properties());
    assertThat(copy.count()).isEqualTo(source.count());
    assertThat(copy.drop("Timestamp").except(source.drop("Timestamp")).count()).isZero();
  }
}
