package io.tablesql.shell;

import io.tablesql.settings.ConnectionSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import sqlline.SqlLine;

/**
 * The tablesql shell: sqlline with the driver. With no connection string it starts a local
 * Azurite, loads the sample data of sql-examples/ and connects to it.
 *
 * <pre>
 *   ./tablesql                                   # local emulator with sample data
 *   ./tablesql --raw                             # the same, the sample's Azure tables only
 *   ./tablesql "AccountName=...;AccountKey=..."  # an account of your own
 *   ./tablesql "UseDevelopmentStorage=true" -e "SELECT 1;"   # further arguments go to sqlline
 * </pre>
 */
public final class Shell {
  private Shell() {
  }

  public static void main(String[] args) throws IOException {
    Path home = Path.of(System.getProperty("tablesql.home", ".")).toAbsolutePath().normalize();
    if (args.length > 0 && args[0].equals("serve")) {
      serve(home, Arrays.asList(args).subList(1, args.length));
      return;
    }
    boolean local = args.length == 0 || args[0].startsWith("-");
    List<String> rest = new ArrayList<>(Arrays.asList(args).subList(local ? 0 : 1, args.length));
    // --raw: the sample's Azure tables only, as an application left them, for suggest_tables to map
    boolean raw = local && rest.remove("--raw");
    LocalEmulator emulator = null;
    String connectionString;
    if (local) {
      System.out.println("tablesql: starting a local Azurite (in memory) and loading sql-examples/dataset.json ...");
      emulator = LocalEmulator.start(home);
      List<String> tables = SampleData.load(home.resolve("sql-examples/dataset.json"), emulator.tableEndpoint(),
          LocalEmulator.ACCOUNT, LocalEmulator.KEY);
      connectionString = emulator.connectionString() + ";lookupTables=Departments";
      if (raw) {
        System.out.println("tablesql: Azurite on port " + emulator.port() + " with tables " + String.join(", ", tables)
            + ", raw. Try: SELECT layout, kind, ddl FROM TABLE(tablesql.suggest_tables('Employees'));");
        runSqlLineAndExit(connectionString, rest, emulator);
        return;
      }
      try {
        SampleData.declare(home.resolve("sql-examples/setup/tables.sql"), emulator.connectionString());
      } catch (java.sql.SQLException e) {
        throw new IOException("Declaring the sample's tables failed: " + e.getMessage(), e);
      }
      System.out.println("tablesql: Azurite on port " + emulator.port() + " with tables " + String.join(", ", tables)
          + ", and Employee, EmployeeByEmail, DepartmentSummary, CustomerOrder, EmployeeOrder, EventLog and People "
          + "(with secondary indexes and materialized views) declared over them (sql-examples/setup/tables.sql). Try: "
          + "SELECT * FROM Employee "
          + "WHERE Department = 'Sales'; or !run sql-examples/01-point-query.sql");
    } else {
      connectionString = args[0];
    }
    runSqlLineAndExit(connectionString, rest, emulator);
  }

  /**
   * {@code ./tablesql serve [--port N]}: the PostgreSQL-protocol server on a local Azurite with the
   * sample data, until the process is stopped; prints the psql command that connects.
   */
  private static void serve(Path home, List<String> args) throws IOException {
    int port = args.size() == 2 && args.get(0).equals("--port") ? Integer.parseInt(args.get(1)) : 5432;
    System.out.println("tablesql: starting a local Azurite (in memory) and loading sql-examples/dataset.json ...");
    LocalEmulator emulator = LocalEmulator.start(home);
    Runtime.getRuntime().addShutdownHook(new Thread(emulator::close));
    SampleData.load(home.resolve("sql-examples/dataset.json"), emulator.tableEndpoint(), LocalEmulator.ACCOUNT,
        LocalEmulator.KEY);
    try {
      SampleData.declare(home.resolve("sql-examples/setup/tables.sql"), emulator.connectionString());
    } catch (java.sql.SQLException e) {
      throw new IOException("Declaring the sample's tables failed: " + e.getMessage(), e);
    }
    io.tablesql.server.PgServer server = io.tablesql.server.PgServer.start("127.0.0.1", port, 64, "TableEndpoint="
        + emulator.tableEndpoint() + ";BlobEndpoint=" + emulator.blobEndpoint() + ";AccountName=" + LocalEmulator.ACCOUNT
        + ";lookupTables=Departments"); // Blob storage holds the long values (example 26)
    System.out.println("tablesql: the PostgreSQL-protocol server listens on 127.0.0.1:" + server.port() + " over the "
        + "sample data (the local emulator's well-known key is the password). Connect with:\n  PGPASSWORD='"
        + LocalEmulator.KEY + "' psql \"host=127.0.0.1 port=" + server.port() + " user=" + LocalEmulator.ACCOUNT
        + " dbname=" + LocalEmulator.ACCOUNT + "\"\nStop with Ctrl-C.");
    try {
      Thread.currentThread().join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void runSqlLineAndExit(String connectionString, List<String> sqllineArgs, LocalEmulator emulator)
      throws IOException {
    int status;
    try {
      status = runSqlLine(connectionString, sqllineArgs);
    } finally {
      if (emulator != null) {
        emulator.close();
      }
    }
    System.exit(status);
  }

  /**
   * Runs sqlline on a connection string. Account keys and SAS tokens travel as the password,
   * which sqlline never prints, rather than in the URL, which it echoes.
   */
  static int runSqlLine(String connectionString, List<String> sqllineArgs) throws IOException {
    String body = ConnectionSettings.acceptsUrl(connectionString)
        ? connectionString.substring(ConnectionSettings.URL_PREFIX.length()) : connectionString;
    StringBuilder url = new StringBuilder(ConnectionSettings.URL_PREFIX);
    String secret = "";
    for (String pair : body.split(";")) {
      String key = pair.contains("=") ? pair.substring(0, pair.indexOf('=')).trim() : pair;
      if (key.equalsIgnoreCase("AccountKey") || key.equalsIgnoreCase("SharedAccessSignature")) {
        secret = pair.trim();
      } else if (!pair.isBlank()) {
        url.append(pair.trim()).append(';');
      }
    }
    List<String> arguments = new ArrayList<>(List.of("-d", "io.tablesql.TableSqlDriver", "-u", url.toString(),
        "-n", "", "-p", secret, "--isolation=TRANSACTION_READ_COMMITTED", "--maxWidth=200", "--showElapsedTime=true"));
    arguments.addAll(sqllineArgs);
    Path history = Files.createTempFile("tablesql-history", ".txt");
    arguments.add("--historyFile=" + history);
    SqlLine.Status status = new sqlline.ShellSqlLine().begin(arguments.toArray(new String[0]), null, false);
    return status == SqlLine.Status.OK ? 0 : 1;
  }
}
