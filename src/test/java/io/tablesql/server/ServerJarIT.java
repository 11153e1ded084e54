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
  /** The server jar started in a JVM of its own with {@code jvmOptions}, on a free port of the emulator's account. */
  private record ServedJar(Process process, String url) implements AutoCloseable {
    static ServedJar start(String... jvmOptions) throws Exception {
      String endpoint = "TableEndpoint=http://127.0.0.1:" + TestAccount.emulator().port() + "/" + LocalEmulator.ACCOUNT
          + ";AccountName=" + LocalEmulator.ACCOUNT;
      java.util.List<String> command = new java.util.ArrayList<>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.addAll(java.util.List.of(jvmOptions));
      command.addAll(java.util.List.of("-jar", System.getProperty("tablesql.serverJar"), "--port", "0"));
      // the connection string from the environment, as one with a key is given (never an argument)
      ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
      builder.environment().put(PgServer.CONNECTION_VARIABLE, endpoint);
      Process server = builder.start();
      BufferedReader output = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
      for (String line = output.readLine(); line != null; line = output.readLine()) {
        Matcher listening = Pattern.compile("listening on 127\\.0\\.0\\.1:(\\d+)").matcher(line);
        if (listening.find()) {
          Thread drain = new Thread(() -> {
            try {
              output.transferTo(java.io.Writer.nullWriter());
            } catch (java.io.IOException e) {
              // the server stopped
            }
          });
          drain.setDaemon(true);
          drain.start();
          return new ServedJar(server, "jdbc:postgresql://127.0.0.1:" + listening.group(1) + "/" + LocalEmulator.ACCOUNT
              + "?preferQueryMode=simple&user=" + LocalEmulator.ACCOUNT);
        }
      }
      server.destroy();
      throw new AssertionError("the server jar did not start listening");
    }

    Connection connect() throws java.sql.SQLException {
      java.util.Properties properties = new java.util.Properties();
      properties.setProperty("password", LocalEmulator.KEY);
      return DriverManager.getConnection(url, properties);
    }

    @Override
    public void close() throws InterruptedException {
      process.destroy();
      process.waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void theServerJarRunsAndAnswersAPostgresClient() throws Exception {
    String table = TestAccount.newTable("ServedJar").getTableName();
    try (ServedJar server = ServedJar.start();
         Connection connection = server.connect();
         Statement statement = connection.createStatement()) {
      statement.executeUpdate("INSERT INTO " + table + " (PartitionKey, RowKey, Name) VALUES ('p', '1', 'Ann')");
      try (ResultSet result = statement.executeQuery("SELECT Name FROM " + table)) {
        assertThat(result.next()).isTrue();
        assertThat(result.getString(1)).isEqualTo("Ann");
      }
    }
  }

  /**
   * A million rows (about 500 MB of text) exported by COPY through a server of 256 MiB: streamed as
   * they are read, the client's reading pacing the server (back-pressure), never held whole. The
   * rows are the cross join of two tables of 1,000 entities each, so the emulator holds only 2,000.
   */
  @Test
  void aMillionRowCopyStreamsThroughAServerOf256MiB() throws Exception {
    String left = TestAccount.newTable("CopyLeft").getTableName();
    String right = TestAccount.newTable("CopyRight").getTableName();
    try (Connection direct = TestAccount.connect()) {
      for (String table : java.util.List.of(left, right)) {
        try (java.sql.PreparedStatement insert = direct.prepareStatement("INSERT INTO " + table
            + " (PartitionKey, RowKey, Label) VALUES ('p', ?, ?)")) {
          for (int i = 0; i < 1000; i++) {
            insert.setString(1, String.format("%04d", i));
            insert.setString(2, "label " + i + " " + "x".repeat(250)); // 1M rows of these are 500 MB: never held whole
            insert.addBatch();
          }
          insert.executeBatch();
        }
      }
    }
    try (ServedJar server = ServedJar.start("-Xmx256m");
         Connection connection = server.connect()) {
      org.postgresql.copy.CopyManager copy = connection.unwrap(org.postgresql.PGConnection.class).getCopyAPI();
      long[] lines = new long[1];
      java.io.OutputStream counting = new java.io.OutputStream() {
        @Override
        public void write(int b) {
          lines[0] += b == '\n' ? 1 : 0;
        }

        @Override
        public void write(byte[] bytes, int offset, int length) {
          for (int i = offset; i < offset + length; i++) {
            lines[0] += bytes[i] == '\n' ? 1 : 0;
          }
        }
      };
      long copied = copy.copyOut("COPY (SELECT a.RowKey, a.Label, b.RowKey, b.Label FROM " + left + " a CROSS JOIN "
          + right + " b) TO STDOUT", counting);
      assertThat(copied).isEqualTo(1_000_000L);
      assertThat(lines[0]).isEqualTo(1_000_000L);
      try (Statement statement = connection.createStatement();
           ResultSet result = statement.executeQuery("SELECT COUNT(*) FROM " + left)) {
        assertThat(result.next()).isTrue();
        assertThat(result.getLong(1)).isEqualTo(1000L); // the server still answers, in the same session
      }
      assertThat(server.process().isAlive()).isTrue();
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
