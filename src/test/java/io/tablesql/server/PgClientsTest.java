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
 * (npm, installed project-locally by {@code npm ci} in src/clients/node, as the emulator is);
 * Python's psycopg2, psycopg 3, SQLAlchemy with pandas; and ODBC, the path of Excel and Power BI,
 * through unixODBC's isql and psqlODBC (Debian's python3-psycopg2, python3-psycopg,
 * python3-sqlalchemy, python3-pandas, unixodbc and odbc-postgresql, which .ci/run installs where
 * they are missing; without one, its test is skipped). Each runs the script in src/clients:
 * parameters, a transaction, an error's SQLSTATE, the catalog, an export.
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
    return run(directory, Map.of(), "", command);
  }

  /** Runs a client program with the PG* environment and {@code more}, {@code input} on its standard input; its output. */
  private static String run(Path directory, Map<String, String> more, String input, String... command)
      throws Exception {
    ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true);
    Map<String, String> environment = builder.environment();
    environment.putAll(more);
    environment.put("PGHOST", "127.0.0.1");
    environment.put("PGPORT", String.valueOf(server.port()));
    environment.put("PGUSER", LocalEmulator.ACCOUNT);
    environment.put("PGPASSWORD", LocalEmulator.KEY);
    environment.put("PGDATABASE", LocalEmulator.ACCOUNT);
    Process process = builder.start();
    try (var stdin = process.getOutputStream()) {
      stdin.write(input.getBytes(StandardCharsets.UTF_8));
    }
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assertThat(process.waitFor(10, TimeUnit.MINUTES)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
    return output;
  }

  @Test
  void nodePostgres() throws Exception {
    Path node = Path.of("src/clients/node");
    if (!Files.isDirectory(node.resolve("node_modules/pg-copy-streams"))) {
      run(node, "npm", "ci", "--no-audit", "--no-fund", "--loglevel=error");
    }
    String table = TestAccount.newTable("NodePg").getTableName();
    assertThat(run(node, "node", "check.js", table)).isEqualTo("1:Ann:10,2:Bob:20|42703|2|" + table + "|N,Name|1,Ann;2,Bob");
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

  /** Whether Debian's python3 has a module (.ci/run installs the clients' packages). */
  private static boolean pythonHas(String module) throws Exception {
    return Files.isExecutable(PYTHON) && new ProcessBuilder(PYTHON.toString(), "-c", "import " + module).start()
        .waitFor() == 0;
  }

  private static final Path PYTHON = Path.of("/usr/bin/python3");

  @Test
  void psycopg3() throws Exception {
    Assumptions.assumeTrue(pythonHas("psycopg"), "psycopg 3 is not installed (apt-get install python3-psycopg)");
    String table = TestAccount.newTable("Psycopg3").getTableName() + "D";
    // prepared statements on the server, DEALLOCATE ALL at a rollback, a savepoint (connection.transaction())
    assertThat(run(Path.of("src/clients/python"), PYTHON.toString(), "check_psycopg3.py", table))
        .isEqualTo("Bob|42703|1:Ann:100.50,2:Bob:200.00|1,Anne;2,Bob;3,Cy;|" + table + "|Dept,Hired,Id,Name,Salary");
  }

  @Test
  void sqlAlchemyAndPandas() throws Exception {
    Assumptions.assumeTrue(pythonHas("sqlalchemy") && pythonHas("pandas") && pythonHas("psycopg2"),
        "SQLAlchemy, pandas or psycopg2 is not installed (apt-get install python3-sqlalchemy python3-pandas)");
    String table = TestAccount.newTable("Alchemy").getTableName() + "D";
    assertThat(run(Path.of("src/clients/python"), PYTHON.toString(), "check_sqlalchemy.py", table))
        .isEqualTo("True|Dept,Id|" + table + "Name:Name:False|Dept:VARCHAR:False,Id:INTEGER:False,Name:VARCHAR:True,"
            + "Salary:DOUBLE_PRECISION:True|Dept,Id|2:Bob:20.0,3:Cy:30.25,4:Di:nan|float64|d1,1,Ann;d1,2,Bob");
  }

  /**
   * ODBC as Excel and Power BI's ODBC connector reach it: a DSN of psqlODBC (its defaults: the
   * extended protocol, a savepoint around each statement in a transaction), run through isql:
   * DDL, inserts, a transaction, a query (ODBC has no COPY: a tool exports by reading a query's
   * rows, as Excel does), an error's SQLSTATE, and the tables and columns that SQLTables and
   * SQLColumns report (isql's help).
   */
  @Test
  void odbc() throws Exception {
    Path isql = Path.of("/usr/bin/isql");
    Path driver;
    try (var found = Files.list(Path.of("/usr/lib"))) {
      driver = found.map(directory -> directory.resolve("odbc/psqlodbcw.so")).filter(Files::exists).findFirst()
          .orElse(null);
    }
    Assumptions.assumeTrue(Files.isExecutable(isql) && driver != null,
        "unixODBC's isql or psqlODBC is not installed (apt-get install unixodbc odbc-postgresql)");
    Path configuration = Files.createTempDirectory("odbc");
    Files.writeString(configuration.resolve("odbcinst.ini"), "[PostgreSQL Unicode]\nDriver=" + driver + "\n");
    Files.writeString(configuration.resolve("odbc.ini"), "[tablesql]\nDriver=PostgreSQL Unicode\nServername=127.0.0.1\n"
        + "Port=" + server.port() + "\nDatabase=" + LocalEmulator.ACCOUNT + "\nSSLmode=disable\n");
    String table = TestAccount.newTable("Odbc").getTableName() + "D";
    String input = String.join("\n",
        "CREATE TABLE " + table + " (Dept VARCHAR, Id INT, Name VARCHAR, Amount DECIMAL(10,2), PRIMARY KEY ((Dept), Id))",
        "INSERT INTO " + table + " VALUES ('d1', 1, 'Ann', 10.50), ('d2', 2, 'Bob', 20)",
        "BEGIN",
        "INSERT INTO " + table + " VALUES ('d3', 3, 'Cy', 30)",
        "UPDATE " + table + " SET Amount = 31 WHERE Dept = 'd3' AND Id = 3",
        "COMMIT",
        "SELECT Id, Name, Amount FROM " + table + " ORDER BY Id",
        "SELECT Nope FROM " + table,
        "help",
        "help " + table) + "\n";
    String output = run(configuration, Map.of("ODBCSYSINI", configuration.toString(),
        "ODBCINI", configuration.resolve("odbc.ini").toString()), input,
        isql.toString(), "-b", "-v", "-d|", "tablesql", LocalEmulator.ACCOUNT, LocalEmulator.KEY);
    assertThat(output).contains("1|Ann|10.50\n2|Bob|20.00\n3|Cy|31.00", "[42703]",
        LocalEmulator.ACCOUNT + "|" + LocalEmulator.ACCOUNT + "|" + table + "|TABLE|",
        "|" + table + "|Id|4|int4|", "|" + table + "|Amount|2|numeric|10|");
  }
}
