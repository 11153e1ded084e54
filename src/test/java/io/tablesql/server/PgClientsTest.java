package io.tablesql.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablesql.shell.LocalEmulator;
import io.tablesql.testing.TestAccount;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The server through the clients of other languages, as applications use them: node-postgres
 * (npm, installed project-locally by {@code npm ci} in src/clients/node, as the emulator is) and
 * Python's psycopg2 (Debian's python3-psycopg2, which .ci/run installs where it is missing). Each
 * runs the script in src/clients: parameters, a transaction, an error's SQLSTATE.
 */
class PgClientsTest {
  private static PgServer server;

  @BeforeAll
  static void start() throws IOException {
    server = PgServer.start("127.0.0.1", 0, 8, PgClient.endpoint());
  }

  @AfterAll
  static void stop() throws IOException {
    server.close();
  }

  /** Runs a client program with the PG* environment pointing at the server; its output. */
  private static String run(Path directory, String... command) throws Exception {
    ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true);
    Map<String, String> environment = builder.environment();
    environment.put("PGHOST", "127.0.0.1");
    environment.put("PGPORT", String.valueOf(server.port()));
    environment.put("PGUSER", LocalEmulator.ACCOUNT);
    environment.put("PGPASSWORD", LocalEmulator.KEY);
    environment.put("PGDATABASE", LocalEmulator.ACCOUNT);
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assertThat(process.waitFor(10, TimeUnit.MINUTES)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
    return output;
  }

  @Test
  void nodePostgres() throws Exception {
    Path node = Path.of("src/clients/node");
    if (!Files.isDirectory(node.resolve("node_modules/pg"))) {
      run(node, "npm", "ci", "--no-audit", "--no-fund", "--loglevel=error");
    }
    String table = TestAccount.newTable("NodePg").getTableName();
    assertThat(run(node, "node", "check.js", table)).isEqualTo("1:Ann:10,2:Bob:20|42703|2|" + table + "|N,Name");
  }

  @Test
  void psycopg2() throws Exception {
    Path python = Path.of("/usr/bin/python3");
    Assumptions.assumeTrue(Files.isExecutable(python) && new ProcessBuilder(python.toString(), "-c",
        "import psycopg2").start().waitFor() == 0, "psycopg2 is not installed (apt-get install python3-psycopg2)");
    String table = TestAccount.newTable("Psycopg").getTableName();
    assertThat(run(Path.of("src/clients/python"), List.of(python.toString(), "check.py", table)
        .toArray(new String[0]))).isEqualTo("1:Ann:10,2:Bob:20|42703|2|" + table + "|N,Name|1,Ann;2,Bob;");
  }
}
