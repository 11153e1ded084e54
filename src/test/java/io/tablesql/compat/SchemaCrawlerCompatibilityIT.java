package io.tablesql.compat;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.models.TableEntity;
import io.tablesql.testing.TestAccount;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import schemacrawler.tools.commandline.SchemaCrawlerCommandLine;

/**
 * SchemaCrawler's command line, in this JVM, connecting by URL through DriverManager to the
 * driver jar in its own class loader: the details of the schema, row counts and a data dump.
 */
class SchemaCrawlerCompatibilityIT {
  private static IsolatedDriverJar driverJar;
  private static DriverManagerBridge.Installation bridge;
  private static Wire wire;
  private static String table;

  @BeforeAll
  static void setUp() throws Exception {
    table = TestAccount.newTable("Crawled").getTableName();
    List<TableEntity> entities = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      entities.add(new TableEntity("p" + i % 3, "r" + i).addProperty("Name", "n" + i).addProperty("Size", i));
    }
    TestAccount.insert(TestAccount.service().getTableClient(table), entities);
    driverJar = IsolatedDriverJar.load();
    bridge = DriverManagerBridge.install(driverJar.driver());
    wire = Wire.open();
  }

  @AfterAll
  static void tearDown() throws Exception {
    wire.close();
    bridge.close();
    driverJar.close();
  }

  @Test
  void detailsShowColumnsKeysAndTheClusteredIndex() throws Exception {
    String details = crawl("details", "--info-level=maximum");
    assertThat(details).contains("\"" + table + "\"", "[table]", "[primary key]", "[unique clustered index]");
    assertThat(details).containsPattern("\"PartitionKey\"\\s+VARCHAR NOT NULL")
        .containsPattern("\"Size\"\\s+INTEGER")
        .containsPattern("\"Name\"\\s+VARCHAR");
  }

  @Test
  void countShowsTheRowsOfEachTable() throws Exception {
    assertThat(crawl("count", "--info-level=minimum")).containsPattern("\"" + table + "\"\\s+12 rows");
  }

  @Test
  void dumpShowsEveryRow() throws Exception {
    String dump = crawl("dump", "--info-level=standard");
    assertThat(dump).contains("\"" + table + "\"");
    for (int i = 0; i < 12; i++) {
      assertThat(dump).containsPattern("(?m)^p" + i % 3 + "\tr" + i + "\t[^\t]+\tn" + i + "\t" + i + "$");
    }
  }

  private static String crawl(String command, String infoLevel) throws Exception {
    Path output = Files.createTempFile("schemacrawler-" + command, ".txt");
    try {
      int exitCode = SchemaCrawlerCommandLine.execute(new String[] {"--url=" + wire.url(), "--user=", "--password=",
          infoLevel, "--grep-tables=.*" + table + "\"?", "--command=" + command, "--output-format=text",
          "--output-file=" + output, "--no-info"});
      String printed = Files.readString(output);
      assertThat(exitCode).as(printed).isZero();
      return printed;
    } finally {
      Files.deleteIfExists(output);
    }
  }
}
