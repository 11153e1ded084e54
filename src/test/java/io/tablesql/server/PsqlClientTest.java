package io.tablesql.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablesql.shell.LocalEmulator;
import io.tablesql.testing.TestAccount;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * psql, PostgreSQL's own shell (Debian's postgresql-client; .ci/run installs it where it is
 * missing), against the server: log-in, queries and their table output, errors, a transaction.
 */
class PsqlClientTest {
  private static PgServer server;

  @BeforeAll
  static void start() throws IOException {
    Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/psql")), "psql is not installed "
        + "(apt-get install postgresql-client)");
    server = PgServer.start("127.0.0.1", 0, 4, PgClient.endpoint());
  }

  @AfterAll
  static void stop() throws IOException {
    if (server != null) {
      server.close();
    }
  }

  /** Runs psql with {@code script} on its standard input; its output and errors, as one text. */
  private static String psql(String password, String script) throws Exception {
    ProcessBuilder builder = new ProcessBuilder("/usr/bin/psql", "-X", "-v", "ON_ERROR_STOP=0",
        "host=127.0.0.1 port=" + server.port() + " user=" + LocalEmulator.ACCOUNT + " dbname=" + LocalEmulator.ACCOUNT)
        .redirectErrorStream(true);
    builder.environment().put("PGPASSWORD", password);
    builder.environment().put("PGCONNECT_TIMEOUT", "20");
    Process process = builder.start();
    process.getOutputStream().write(script.getBytes(StandardCharsets.UTF_8));
    process.getOutputStream().close();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return output;
  }

  @Test
  void psqlQueriesWritesInATransactionAndSeesErrors() throws Exception {
    String table = TestAccount.newTable("Psql").getTableName();
    String output = psql(LocalEmulator.KEY, String.join("\n", List.of(
        "BEGIN;",
        "INSERT INTO " + table + " (PartitionKey, RowKey, Name) VALUES ('p1', '1', 'Ann'), ('p2', '2', 'Bob');",
        "COMMIT;",
        "SELECT RowKey, Name FROM " + table + " ORDER BY RowKey;",
        "SELECT Nope FROM " + table + ";",
        "\\copy (SELECT RowKey, Name FROM " + table + " ORDER BY RowKey) TO STDOUT WITH CSV HEADER",
        "")));
    assertThat(output).contains("BEGIN", "INSERT 0 2", "COMMIT")
        .contains(" RowKey | Name ", " 1      | Ann", " 2      | Bob", "(2 rows)")
        .contains("ERROR:  Column 'Nope' not found")
        .contains("RowKey,Name\n1,Ann\n2,Bob\n");
  }

  @Test
  void aWrongPasswordIsRefused() throws Exception {
    assertThat(psql("d3Jvbmc=", "SELECT 1;\n")).contains("FATAL:  Password authentication failed");
  }

  /** psql's listings (\\dt, \\dv, \\dm, \\di, \\dn), which query pg_catalog as PostgreSQL's own shell does. */
  @Test
  void psqlListsTablesViewsIndexesAndSchemas() throws Exception {
    String name = "PsqlList" + System.nanoTime() % 1_000_000;
    String output = psql(LocalEmulator.KEY, String.join("\n", List.of(
        "CREATE TABLE " + name + " (Id INTEGER, Name VARCHAR, PRIMARY KEY ((Id)));",
        "CREATE INDEX " + name + "Name ON " + name + " (Name) GLOBAL;",
        "CREATE VIEW " + name + "V AS SELECT Name FROM " + name + ";",
        "CREATE MATERIALIZED VIEW " + name + "M AS SELECT Name, COUNT(*) AS n FROM " + name + " WHERE Name IS NOT NULL GROUP BY Name;",
        "\\dt \"" + name + "\"", // psql folds an unquoted pattern to lower case, as PostgreSQL's names are
        "\\dv \"" + name + "\"*",
        "\\dm \"" + name + "\"*",
        "\\di \"" + name + "\"*",
        "\\dn",
        "DROP VIEW " + name + "V;",
        "DROP MATERIALIZED VIEW " + name + "M;",
        "DROP TABLE " + name + ";",
        "")));
    String account = LocalEmulator.ACCOUNT;
    assertThat(output).doesNotContain("ERROR")
        .containsPattern(account + " +\\| " + name + " +\\| table +\\| " + account)
        .containsPattern(account + " +\\| " + name + "V +\\| view +\\| " + account)
        .containsPattern(account + " +\\| " + name + "M +\\| materialized view +\\| " + account)
        .containsPattern(account + " +\\| " + name + "Name +\\| index +\\| " + account + " +\\| " + name)
        .containsPattern(" " + account + " +\\| " + account) // \\dn leaves out pg_catalog and information_schema
        .containsPattern(" tablesql +\\| " + account);
  }

  /**
   * psql's {@code \\d} of a table, view, materialized view and index, and its other listings
   * (databases, roles, sizes, privileges, functions, tablespaces, {@code \\d+}'s storage and options,
   * event triggers), whose catalog queries use arrays, {@code pg_catalog.unnest} in FROM,
   * {@code E'...'} strings, {@code ::regnamespace} and an ordered UNION with repeated labels.
   */
  @Test
  void psqlDescribesEachKindOfRelationAndListsTheRest() throws Exception {
    String name = "psqldesc" + System.nanoTime() % 1_000_000;
    String output = psql(LocalEmulator.KEY, String.join("\n", List.of(
        "CREATE TABLE " + name + " (Id INTEGER, Name VARCHAR(40) NOT NULL, Price DECIMAL(10,2), Tag UUID, "
            + "PRIMARY KEY ((Id)));",
        "CREATE INDEX " + name + "_name ON " + name + " (Name) GLOBAL;",
        "CREATE UNIQUE INDEX " + name + "_tag ON " + name + " (Tag) GLOBAL;",
        "CREATE VIEW " + name + "_v AS SELECT Name, Price FROM " + name + ";",
        "CREATE MATERIALIZED VIEW " + name + "_m AS SELECT Name, COUNT(*) AS n FROM " + name + " GROUP BY Name;",
        "\\d " + name,
        "\\d " + name + "_v",
        "\\d " + name + "_m",
        "\\d " + name + "_tag",
        "\\dt+ " + name,
        "\\l",
        "\\du",
        "\\dn+",
        "\\dp " + name,
        "\\df",
        "\\db",
        "\\dc",
        "\\do",
        "\\dC",
        "\\dL",
        "\\des",
        "\\dF",
        "\\d+ " + name,
        "\\dy",
        "\\dRs",
        "\\ddp",
        "\\dew",
        "\\drds",
        "\\dO",
        "\\det",
        "DROP VIEW " + name + "_v;",
        "DROP MATERIALIZED VIEW " + name + "_m;",
        "DROP TABLE " + name + ";",
        "")));
    String account = LocalEmulator.ACCOUNT;
    assertThat(output).doesNotContain("ERROR")
        .contains("Table \"" + account + "." + name + "\"")
        .containsPattern(" Id +\\| integer +\\| +\\| not null \\|")
        .containsPattern(" Name +\\| character varying[(0-9)]* +\\| +\\| not null \\|")
        .containsPattern(" Price +\\| numeric\\(10,2\\) +\\| +\\| +\\|")
        .containsPattern(" Tag +\\| uuid ")
        .contains("Indexes:", "\"PK_" + name + "\" PRIMARY KEY, btree (\"Id\")", "\"" + name + "_name\" btree (\"Name\")",
            "\"" + name + "_tag\" UNIQUE CONSTRAINT, btree (\"Tag\")")
        .contains("View \"" + account + "." + name + "_v\"", "Materialized view \"" + account + "." + name + "_m\"")
        .contains("Index \"" + account + "." + name + "_tag\"", "unique, btree, for table \"" + account + "." + name + "\"")
        .containsPattern(account + " +\\| " + name + " +\\| table +\\| " + account + " +\\| permanent +\\| heap")
        .containsPattern(" " + account + " +\\| " + account + " +\\| UTF8") // \\l
        .contains("List of roles", "List of schemas", "Access privileges", "List of functions", "List of tablespaces")
        .contains("List of conversions", "List of operators", "List of casts", "List of languages",
            "List of foreign servers", "List of text search configurations", "List of event triggers",
            "List of subscriptions", "Default access privileges", "List of foreign-data wrappers", "Did not find any settings",
            "List of collations", "List of foreign tables")
        .containsPattern(" Name +\\| character varying[(0-9)]* +\\| +\\| not null \\| +\\| extended +\\|") // \\d+
        .containsPattern(" Id +\\| integer +\\| +\\| not null \\| +\\| plain +\\|")
        .contains("pg_default");
  }
}
