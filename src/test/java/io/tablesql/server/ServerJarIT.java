package io.tablesql.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablesql.shell.LocalEmulator;
import io.tablesql.testing.TestAccount;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The server's artifact as a user runs it: {@code java -jar target/tablesql-server.jar}, a process
 * of its own, reached by pgjdbc; and the driver jar, which stays driver-only.
 */
class ServerJarIT {
  @Test
  void theServerJarRunsAndAnswersAPostgresClient() throws Exception {
    String endpoint = "TableEndpoint=http://127.0.0.1:" + TestAccount.emulator().port() + "/" + LocalEmulator.ACCOUNT
        + ";AccountName=" + LocalEmulator.ACCOUNT;
    Process server = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
        System.getProperty("tablesql.serverJar"), "--port", "0", endpoint).redirectErrorStream(true).start();
    try (BufferedReader output = new BufferedReader(new InputStreamReader(server.getInputStream(),
        StandardCharsets.UTF_8))) {
      Matcher listening = null;
      for (String line = output.readLine(); line != null; line = output.readLine()) {
        listening = Pattern.compile("listening on 127\\.0\\.0\\.1:(\\d+)").matcher(line);
        if (listening.find()) {
          break;
        }
      }
      assertThat(listening).isNotNull();
      String url = "jdbc:postgresql://127.0.0.1:" + listening.group(1) + "/" + LocalEmulator.ACCOUNT
          + "?preferQueryMode=simple&user=" + LocalEmulator.ACCOUNT;
      java.util.Properties properties = new java.util.Properties();
      properties.setProperty("password", LocalEmulator.KEY);
      String table = TestAccount.newTable("ServedJar").getTableName();
      try (Connection connection = DriverManager.getConnection(url, properties);
           Statement statement = connection.createStatement()) {
        statement.executeUpdate("INSERT INTO " + table + " (PartitionKey, RowKey, Name) VALUES ('p', '1', 'Ann')");
        try (ResultSet result = statement.executeQuery("SELECT Name FROM " + table)) {
          assertThat(result.next()).isTrue();
          assertThat(result.getString(1)).isEqualTo("Ann");
        }
      }
    } finally {
      server.destroy();
      server.waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void hashPasswordPrintsAVerifierTheUsersFileTakes() throws Exception {
    Process hash = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
        System.getProperty("tablesql.serverJar"), "--hash-password").start();
    hash.getOutputStream().write("s3cret\n".getBytes(StandardCharsets.UTF_8));
    hash.getOutputStream().close();
    String verifier = new String(hash.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assertThat(hash.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(verifier).matches("SCRAM-SHA-256\\$4096:[A-Za-z0-9+/=]+\\$[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+")
        .doesNotContain("s3cret");
    assertThat(Scram.Verifier.parse(verifier).toString()).isEqualTo(verifier);
  }

  @Test
  void theDriverJarHoldsNoServer() throws Exception {
    try (JarFile driver = new JarFile(System.getProperty("tablesql.driverJar"))) {
      assertThat(driver.stream().map(java.util.zip.ZipEntry::getName).filter(n -> n.startsWith("io/tablesql/server/")))
          .isEmpty();
      assertThat(driver.getEntry("io/tablesql/TableSqlDriver.class")).isNotNull();
    }
  }
}
