package io.tablesql.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import sqlline.SqlLine;

/** sqlline runs a script through DriverManager against the driver jar in its own class loader. */
class SqllineCompatibilityIT {
  private static IsolatedDriverJar driverJar;
  private static DriverManagerBridge.Installation bridge;
  private static Wire wire;

  @BeforeAll
  static void setUp() throws Exception {
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
  void scriptCreatesWritesAndQueries() throws Exception {
    Path script = Files.createTempFile("sqlline", ".sql");
    Files.writeString(script, String.join("\n",
        "CREATE TABLE SqllineScript (PartitionKey VARCHAR, RowKey VARCHAR, Name VARCHAR, Age INTEGER);",
        "INSERT INTO SqllineScript (PartitionKey, RowKey, Name, Age) VALUES ('p', '1', 'Ann', 34), ('p', '2', 'Bob', 41);",
        "UPDATE SqllineScript SET Age = Age + 1 WHERE PartitionKey = 'p' AND RowKey = '2';",
        "SELECT RowKey, Name, Age FROM SqllineScript WHERE PartitionKey = 'p' ORDER BY RowKey;",
        "!tables",
        ""));
    ByteArrayOutputStream output = new ByteArrayOutputStream();
    SqlLine sqlline = new SqlLine();
    sqlline.setOutputStream(new PrintStream(output, true, StandardCharsets.UTF_8));
    sqlline.setErrorStream(new PrintStream(output, true, StandardCharsets.UTF_8));
    Wire.Window window = wire.watch();
    SqlLine.Status status = sqlline.begin(new String[] {"-u", wire.url(), "-n", "", "-p", "",
        "--outputformat=csv", "--showWarnings=false", "--run=" + script}, null, false);
    String printed = output.toString(StandardCharsets.UTF_8);
    assertThat(status).as(printed).isEqualTo(SqlLine.Status.OK);
    assertThat(printed).contains("'RowKey','Name','Age'\n'1','Ann','34'\n'2','Bob','42'\n")
        .containsPattern("'devstoreaccount1','SqllineScript','TABLE'");
    assertThat(window.requestsTo("SqllineScript")).isNotEmpty();
    Files.delete(script);
  }
}
