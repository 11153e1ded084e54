package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.sas.TableAccountSasPermission;
import com.azure.data.tables.sas.TableAccountSasResourceType;
import com.azure.data.tables.sas.TableAccountSasService;
import com.azure.data.tables.sas.TableAccountSasSignatureValues;
import io.tablesql.shell.LocalEmulator;
import io.tablesql.testing.FaultyProxy;
import io.tablesql.testing.TestAccount;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The debug log of requests, captured through the slf4j binding of the host (here the tests'
 * logback): one line per request with what an operator needs, and never a credential.
 */
class RequestLogTest {
  private final Logger logger = (Logger) LoggerFactory.getLogger("io.tablesql.requests");
  private final ListAppender<ILoggingEvent> captured = new ListAppender<>();

  @BeforeEach
  void capture() {
    captured.start();
    logger.addAppender(captured);
    logger.setLevel(Level.DEBUG);
  }

  @AfterEach
  void stopCapturing() {
    logger.setLevel(null);
    logger.detachAppender(captured);
  }

  @Test
  void eachRequestIsOneLineWithoutTheSasSignature() throws Exception {
    TableClient table = TestAccount.newTable("Logged");
    TestAccount.insert(table, List.of(new TableEntity("p", "1").addProperty("N", 1),
        new TableEntity("p", "2").addProperty("N", 2)));
    String name = table.getTableName();
    String sas = TestAccount.service().generateAccountSas(new TableAccountSasSignatureValues(
        OffsetDateTime.now().plusHours(1), TableAccountSasPermission.parse("rwdlau"),
        new TableAccountSasService().setTableAccess(true), TableAccountSasResourceType.parse("sco")));
    String signature = URLDecoder.decode(sas.replaceAll(".*sig=([^&]*).*", "$1"), StandardCharsets.UTF_8);
    try (FaultyProxy proxy = new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port());
         Connection connection = DriverManager.getConnection("jdbc:tablesql:TableEndpoint=" + proxy.base() + "/"
             + LocalEmulator.ACCOUNT + ";SharedAccessSignature=" + sas);
         Statement statement = connection.createStatement()) {
      FaultTest.count(statement, "SELECT N FROM " + name + " WHERE PartitionKey = 'p' AND N > 1");
      proxy.failNext(1);
      FaultTest.count(statement, "SELECT N FROM " + name + " WHERE PartitionKey = 'p' AND RowKey = '1'");
      statement.executeUpdate("INSERT INTO " + name + " (PartitionKey, RowKey, N) VALUES ('p', '3', 3)");

      List<String> lines = captured.list.stream().map(ILoggingEvent::getFormattedMessage).collect(Collectors.toList());
      assertThat(captured.list).allSatisfy(event -> assertThat(event.getLevel()).isEqualTo(Level.DEBUG));
      assertThat(lines).hasSize(proxy.requests());
      assertThat(lines).anySatisfy(line -> assertThat(line)
          .startsWith("GET table=" + name + " access=\"PARTITION SCAN\" status=200 ")
          .contains("$filter=\"PartitionKey eq 'p' and (N gt 1 or TablesqlIntent gt '')\"")
          .containsPattern("durationMs=\\d+\\.\\d attempt=1 "));
      // the throttled attempt and its retry, each on its own line
      assertThat(lines).anySatisfy(line -> assertThat(line)
          .startsWith("GET table=" + name + " access=\"POINT LOOKUP\" status=503 ").contains("attempt=1")
          .contains("path=/" + LocalEmulator.ACCOUNT + "/" + name + "(PartitionKey="));
      assertThat(lines).anySatisfy(line -> assertThat(line)
          .startsWith("GET table=" + name + " access=\"POINT LOOKUP\" status=200 ").contains("attempt=2"));
      assertThat(lines).anySatisfy(line -> assertThat(line).startsWith("POST table=" + name + " ")
          .contains("status=202").contains("path=/" + LocalEmulator.ACCOUNT + "/$batch"));
      assertThat(lines).anySatisfy(line -> assertThat(line).startsWith("GET table=Tables "));
      assertThat(lines).allSatisfy(line -> assertThat(line).doesNotContain(signature)
          .doesNotContain("sig=").doesNotContain("sv=").doesNotContain(LocalEmulator.KEY));
    }
  }

  @Test
  void nothingIsFormattedWhenTheLoggerIsNotAtDebug() throws Exception {
    logger.setLevel(Level.INFO);
    TableClient table = TestAccount.newTable("Unlogged");
    TestAccount.insert(table, List.of(new TableEntity("p", "1").addProperty("N", 1)));
    try (Connection connection = TestAccount.connect();
         Statement statement = connection.createStatement()) {
      FaultTest.count(statement, "SELECT N FROM " + table.getTableName());
    }
    assertThat(captured.list).isEmpty();
  }

  /** A declared table's columns and types come from the catalog: reading it never samples its entities. */
  @Test
  void aDeclaredTableIsReadWithoutASample() throws Exception {
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      statement.execute("DROP TABLE IF EXISTS LoggedDeclared");
      statement.execute("CREATE TABLE LoggedDeclared (Region VARCHAR(10), Id INTEGER, Note VARCHAR(20), "
          + "PRIMARY KEY ((Region), Id))");
      statement.executeUpdate("INSERT INTO LoggedDeclared VALUES ('east', 1, 'a'), ('east', 2, 'b'), ('west', 3, 'c')");
    }
    captured.list.clear();
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      assertThat(FaultTest.count(statement, "SELECT Note FROM LoggedDeclared WHERE Region = 'east' AND Id = 2"))
          .isEqualTo(1);
      assertThat(FaultTest.count(statement, "SELECT Note FROM LoggedDeclared")).isEqualTo(3);
      List<String> lines = captured.list.stream().map(ILoggingEvent::getFormattedMessage).collect(Collectors.toList());
      List<String> tableReads = lines.stream().filter(line -> line.contains(" table=LoggedDeclared "))
          .collect(Collectors.toList());
      assertThat(tableReads).hasSize(2); // the statements' own reads, no sample before them
      assertThat(tableReads.get(0)).contains("access=\"POINT LOOKUP\"");
      assertThat(tableReads.get(1)).contains("access=\"TABLE SCAN\"");
    } finally {
      try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
        statement.execute("DROP TABLE LoggedDeclared");
      }
    }
  }
}
