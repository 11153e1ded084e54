package io.tablesql.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablesql.shell.LocalEmulator;
import io.tablesql.testing.FaultyProxy;
import io.tablesql.testing.QueryRows;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The PostgreSQL-protocol server through a real PostgreSQL client, pgjdbc, in its simple query
 * mode: log-in with the account key, statements and their answers, errors with PostgreSQL's
 * SQLSTATEs, transactions, cancel.
 */
class PgServerTest {
  private static PgServer server;
  private static String table;

  @BeforeAll
  static void start() throws Exception {
    server = PgServer.start("127.0.0.1", 0, 8, PgClient.endpoint());
    table = "PgRows" + System.nanoTime() % 1_000_000;
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  /** pgjdbc in its simple query mode. */
  private static Connection connect(PgServer to, String user, String password) throws SQLException {
    return PgClient.connectAs(to, "127.0.0.1", user, password, "preferQueryMode=simple");
  }

  private static Connection connect() throws SQLException {
    return connect(server, LocalEmulator.ACCOUNT, LocalEmulator.KEY);
  }

  private static List<String> rows(Statement statement, String sql) throws SQLException {
    return QueryRows.of(statement, sql, "|");
  }

  private static String stateOf(Statement statement, String sql) {
    try {
      statement.execute(sql);
      return "no error";
    } catch (SQLException e) {
      return e.getSQLState();
    }
  }

  /** A connection string with a key need not be an argument (a process listing shows arguments): @FILE, or the environment. */
  @Test
  void theConnectionStringComesFromAnArgumentAFileOrTheEnvironment() throws Exception {
    java.nio.file.Path file = java.nio.file.Files.createTempFile("connection", ".txt");
    java.nio.file.Files.writeString(file, "AccountName=a;AccountKey=k\n");
    assertThat(PgServer.connectionString("@" + file, "ignored")).isEqualTo("AccountName=a;AccountKey=k");
    assertThat(PgServer.connectionString("AccountName=b", "ignored")).isEqualTo("AccountName=b");
    assertThat(PgServer.connectionString(null, " AccountName=c ")).isEqualTo("AccountName=c");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> PgServer.connectionString(null, null))
        .hasMessageContaining(PgServer.CONNECTION_VARIABLE);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> PgServer.connectionString("@" + file + ".missing", null))
        .hasMessageContaining("cannot be read");
    java.nio.file.Files.delete(file);
  }

  @Test
  void statementsRunThroughTheDriverAndAnswerInPostgresTypes() throws SQLException {
    try (Connection connection = connect(); Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE " + table + " (Id INTEGER, Grp VARCHAR, Price DOUBLE, Paid BOOLEAN, "
          + "Due TIMESTAMP, Amount DECIMAL(9, 2), Code VARBINARY, Big BIGINT, PRIMARY KEY ((Grp), Id))");
      assertThat(statement.executeUpdate("INSERT INTO " + table + " VALUES (1, 'a', 2.5, TRUE, "
          + "TIMESTAMP '2024-05-01 10:00:00.123', 12.30, X'0aff', 9000000000), (2, 'a', 3.0, FALSE, NULL, NULL, NULL, "
          + "NULL)")).isEqualTo(2);
      try (ResultSet result = statement.executeQuery("SELECT Id, Grp, Price, Paid, Due, Amount, Code, Big FROM "
          + table + " WHERE Grp = 'a' ORDER BY Id")) {
        assertThat(result.getMetaData().getColumnTypeName(1)).isEqualTo("int4");
        assertThat(result.getMetaData().getColumnTypeName(3)).isEqualTo("float8");
        assertThat(result.getMetaData().getColumnTypeName(5)).isEqualTo("timestamp");
        assertThat(result.getMetaData().getColumnTypeName(8)).isEqualTo("int8");
        assertThat(result.next()).isTrue();
        assertThat(result.getInt(1)).isEqualTo(1);
        assertThat(result.getString(2)).isEqualTo("a");
        assertThat(result.getDouble(3)).isEqualTo(2.5);
        assertThat(result.getBoolean(4)).isTrue();
        assertThat(result.getTimestamp(5).toString()).isEqualTo("2024-05-01 10:00:00.123");
        assertThat(result.getBigDecimal(6)).isEqualByComparingTo("12.30");
        assertThat(result.getBytes(7)).containsExactly(0x0a, 0xff);
        assertThat(result.getLong(8)).isEqualTo(9_000_000_000L);
        assertThat(result.next()).isTrue();
        assertThat(result.getString(3)).isEqualTo("3");
        assertThat(result.getBoolean(4)).isFalse();
        assertThat(result.getTimestamp(5)).isNull();
        assertThat(result.getBytes(7)).isNull();
        assertThat(result.next()).isFalse();
      }
      assertThat(rows(statement, "SELECT COUNT(*) AS n FROM " + table)).containsExactly("2");
      // columns without a name of their own are labelled as PostgreSQL labels them, in subqueries too
      try (ResultSet result = statement.executeQuery("SELECT count(*), MAX(Price), Id + 1, CAST(Id AS VARCHAR), "
          + "CAST(2 AS BIGINT), CASE WHEN Paid THEN 1 END, upper(Grp) FROM " + table + " GROUP BY Id, Paid, Grp")) {
        List<String> labels = new java.util.ArrayList<>();
        for (int c = 1; c <= result.getMetaData().getColumnCount(); c++) {
          labels.add(result.getMetaData().getColumnLabel(c));
        }
        assertThat(labels).containsExactly("count", "max", "?column?", "Id", "bigint", "case", "upper");
      }
      assertThat(rows(statement, "SELECT s.count FROM (SELECT count(*) FROM " + table + ") s")).containsExactly("2");
      assertThat(statement.executeUpdate("UPDATE " + table + " SET Price = Price * 2 WHERE Grp = 'a'")).isEqualTo(2);
      assertThat(rows(statement, "SHOW TRANSACTION ISOLATION LEVEL")).containsExactly("read committed");
    }
  }

  /** PostgreSQL's cast operator, which clients write: value::type is CAST(value AS type) (the driver takes it too). */
  @Test
  void postgresCastsAreCasts() throws SQLException {
    try (Connection connection = connect(); Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE IF NOT EXISTS " + table + "Cast (Id INTEGER PRIMARY KEY, Label VARCHAR)");
      statement.execute("UPSERT INTO " + table + "Cast VALUES (7, '42')");
      assertThat(rows(statement, "SELECT Id::VARCHAR AS s, Label::INTEGER + 1 AS n, '2024-05-01'::DATE AS d FROM "
          + table + "Cast WHERE Id = '7'::INTEGER")).containsExactly("7|43|2024-05-01");
      // PostgreSQL's functions and ILIKE, from Calcite's PostgreSQL library
      assertThat(rows(statement, "SELECT LPAD(Label, 5, '0'), SPLIT_PART('a-b-c', '-', 2) FROM " + table
          + "Cast WHERE 'ABC' ILIKE 'a%'")).containsExactly("00042|b");
      assertThat(rows(statement, "SELECT version()")).singleElement().asString()
          .startsWith("PostgreSQL 14.0 (tablesql ");
      assertThat(rows(statement, "SELECT E'a\\tb', 1 FROM " + table + "Cast LIMIT ALL")).containsExactly("a\tb|1");
      assertThat(rows(statement, "SELECT CONCAT_WS('-', Label, 'x'), STRING_AGG(Label, ','), "
          + "TO_CHAR(TIMESTAMP '2024-05-03 10:00:00', 'YYYY-MM') FROM " + table + "Cast GROUP BY Label"))
          .containsExactly("42-x|42|2024-05");
    }
    try (Connection direct = TestAccount.connect(); Statement statement = direct.createStatement();
         ResultSet result = statement.executeQuery("SELECT Label::INTEGER * 2 FROM " + table + "Cast")) {
      assertThat(result.next()).isTrue();
      assertThat(result.getInt(1)).isEqualTo(84);
    }
  }

  /** What catalog queries write: arrays in PostgreSQL's text form, E'' strings among columns, ordered UNIONs. */
  @Test
  void arraysEscapedStringsAndOrderedUnionsAsPostgresWritesThem() throws SQLException {
    try (Connection connection = connect(); Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE IF NOT EXISTS " + table + "Arr (Id INTEGER PRIMARY KEY, Label VARCHAR)");
      statement.execute("UPSERT INTO " + table + "Arr VALUES (1, 'one'), (2, 'two')");
      assertThat(rows(statement, "SELECT ARRAY[1, 2], ARRAY['a b', 'c', NULL], ARRAY['x\"y']"))
          .containsExactly("{1,2}|{\"a b\",c,NULL}|{\"x\\\"y\"}");
      assertThat(rows(statement, "SELECT Label || E':\\n' || '\u6f22' FROM " + table + "Arr WHERE Id = 1"))
          .containsExactly("one:\n\u6f22");
      // a string literal compared with an array is the array's text; text against an array of VARCHAR
      assertThat(rows(statement, "SELECT ARRAY[0] = '{0}', ARRAY[1, 2] <> '{1,3}', 'd' = ANY(ARRAY[Label, 'd']) "
          + "FROM " + table + "Arr WHERE Id = 1")).containsExactly("t|t|t");
      assertThat(rows(statement, "SELECT pg_catalog.array_to_string(ARRAY(SELECT Label FROM " + table + "Arr ORDER BY 1), "
          + "', ')")).containsExactly("one, two");
      // psql's \\d reads publications with two unnamed NULL columns in an ordered UNION
      assertThat(rows(statement, "SELECT Label, NULL, NULL FROM " + table + "Arr WHERE Id = 2 UNION ALL "
          + "SELECT Label, NULL, NULL FROM " + table + "Arr WHERE Id = 1 ORDER BY 1"))
          .containsExactly("one|null|null", "two|null|null");
      String pair = " FROM " + table + "Arr x CROSS JOIN " + table + "Arr y WHERE x.Id = 1 AND y.Id = 2";
      assertThat(rows(statement, "SELECT x.*, y.*" + pair + " UNION ALL SELECT y.*, x.*" + pair + " ORDER BY 1"))
          .containsExactly("1|one|2|two", "2|two|1|one"); // a star's names are left as they are
      // text against CHAR(n) elements is compared whole: 'one' is not 'on'
      assertThat(rows(statement, "SELECT Id FROM " + table + "Arr WHERE Label = ANY(ARRAY['on', 'tw']) OR "
          + "'d' = ANY(ARRAY[Label])")).isEmpty();
      assertThat(rows(statement, "SELECT Id FROM " + table + "Arr WHERE Label = ANY(ARRAY['one', 'xx']) ORDER BY Id"))
          .containsExactly("1");
      ResultSet labels = statement.executeQuery("SELECT 1 AS a, 2 AS a UNION SELECT 3, 4 ORDER BY 1 DESC");
      assertThat(labels.getMetaData().getColumnLabel(1)).isEqualTo("a");
      assertThat(labels.next()).isTrue();
      assertThat(labels.getInt(2)).isEqualTo(4);
      // a function in FROM that returns one value is a row, its column named by the alias
      assertThat(rows(statement, "SELECT s[2], array_lower(s, 1), array_upper(s, 1) FROM string_to_array(CAST('a,b,c' "
          + "AS VARCHAR), ',') s")).containsExactly("b|1|3");
      assertThat(rows(statement, "SELECT string_to_array('a,bb', ','), s[1] || '|' FROM string_to_array('x,yy', ',') s"))
          .containsExactly("{a,bb}|x|");
      assertThat(rows(statement, "SELECT s[1] FROM string_to_array((current_setting('search_path')), ',') s"))
          .containsExactly(LocalEmulator.ACCOUNT);
      assertThat(rows(statement, "SELECT parse_ident('Public.\"My Table\"')")).containsExactly("{public,\"My Table\"}");
      assertThat(stateOf(statement, "SELECT parse_ident('a.\"b')")).isEqualTo("22023");
      assertThat(rows(statement, "SELECT pg_size_pretty(CAST(123456789 AS BIGINT)), pg_size_pretty(CAST(10000 AS "
          + "BIGINT)), 'x'::regnamespace IS NULL, 11::regnamespace::text")).containsExactly("118 MB|10000 bytes|t|pg_catalog");
    }
  }

  @Test
  void errorsCarryTheStatesPostgresClientsExpect() throws SQLException {
    try (Connection connection = connect(); Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE IF NOT EXISTS " + table + "E (Id INTEGER PRIMARY KEY, Name VARCHAR)");
      statement.execute("UPSERT INTO " + table + "E VALUES (1, 'one')");
      assertThat(stateOf(statement, "SELECT * FROM NoSuchTable")).isEqualTo("42P01");
      assertThat(stateOf(statement, "SELECT NoSuchColumn FROM " + table + "E")).isEqualTo("42703");
      assertThat(stateOf(statement, "INSERT INTO " + table + "E VALUES (1, 'again')")).isEqualTo("23505");
      assertThat(stateOf(statement, "SELEC 1")).isEqualTo("42601");
      // the session goes on after each
      assertThat(rows(statement, "SELECT Name FROM " + table + "E WHERE Id = 1")).containsExactly("one");
    }
  }

  @Test
  void transactionsAreTheDriversAndAFailedOneIgnoresStatementsUntilItEnds() throws SQLException {
    try (Connection connection = connect(); Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE IF NOT EXISTS " + table + "T (Id INTEGER, Part VARCHAR, PRIMARY KEY ((Part), Id))");
      connection.setAutoCommit(false);
      statement.executeUpdate("INSERT INTO " + table + "T VALUES (1, 'p1'), (2, 'p2')");
      connection.rollback();
      assertThat(rows(statement, "SELECT COUNT(*) FROM " + table + "T")).containsExactly("0");
      statement.executeUpdate("INSERT INTO " + table + "T VALUES (1, 'p1')");
      statement.executeUpdate("INSERT INTO " + table + "T VALUES (2, 'p2')");
      connection.commit();
      assertThat(stateOf(statement, "SELECT * FROM NoSuchTable")).isEqualTo("42P01");
      assertThat(stateOf(statement, "SELECT COUNT(*) FROM " + table + "T")).isEqualTo("25P02");
      connection.rollback();
      connection.setAutoCommit(true);
      assertThat(rows(statement, "SELECT Part, Id FROM " + table + "T ORDER BY Part")).containsExactly("p1|1", "p2|2");
    }
  }

  /**
   * Savepoints as clients use them (pgjdbc's setSavepoint, psqlODBC around each statement,
   * psycopg's nested transactions): ROLLBACK TO drops the writes made since and ends a failed
   * state; RELEASE keeps them; a released or unknown one is 3B001. DISCARD ALL and DEALLOCATE, as
   * pools and psycopg send them.
   */
  @Test
  void savepointsDiscardAndDeallocate() throws SQLException {
    try (Connection connection = connectExtended("autosave=never"); Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE IF NOT EXISTS " + table + "Sp (Id INTEGER, Part VARCHAR, PRIMARY KEY ((Part), Id))");
      connection.setAutoCommit(false);
      statement.executeUpdate("INSERT INTO " + table + "Sp VALUES (1, 'p1')");
      java.sql.Savepoint first = connection.setSavepoint("first");
      statement.executeUpdate("INSERT INTO " + table + "Sp VALUES (2, 'p2')");
      assertThat(rows(statement, "SELECT COUNT(*) FROM " + table + "Sp")).containsExactly("2");
      connection.rollback(first);
      assertThat(rows(statement, "SELECT COUNT(*) FROM " + table + "Sp")).containsExactly("1");
      java.sql.Savepoint second = connection.setSavepoint();
      assertThat(stateOf(statement, "SELECT Nope FROM " + table + "Sp")).isEqualTo("42703");
      connection.rollback(second); // the failed transaction goes on from the savepoint
      statement.executeUpdate("INSERT INTO " + table + "Sp VALUES (3, 'p3')");
      connection.releaseSavepoint(first);
      connection.commit();
      statement.executeUpdate("INSERT INTO " + table + "Sp VALUES (4, 'p4')");
      assertThat(stateOf(statement, "ROLLBACK TO SAVEPOINT first")).as("its transaction ended").isEqualTo("3B001");
      connection.rollback(); // the failed transaction, and its insert
      connection.setAutoCommit(true);
      assertThat(rows(statement, "SELECT Id FROM " + table + "Sp ORDER BY Id")).containsExactly("1", "3");
      assertThat(stateOf(statement, "SAVEPOINT outside")).isEqualTo("25P01");
      connection.setAutoCommit(false);
      statement.executeUpdate("INSERT INTO " + table + "Sp VALUES (5, 'p5')");
      assertThat(stateOf(statement, "ROLLBACK TO")).as("a name is needed").isEqualTo("42601");
      assertThat(stateOf(statement, "ROLLBACK PREPARED 'x'")).isEqualTo("0A000");
      connection.rollback();
      connection.setAutoCommit(true);
      // SET is transactional, as in PostgreSQL: a rollback (to a savepoint) undoes it, a commit keeps it
      List<String> before = rows(statement, "SHOW application_name");
      statement.execute("BEGIN");
      statement.execute("SET application_name = 'in transaction'");
      statement.execute("SAVEPOINT s");
      statement.execute("SET application_name = 'after savepoint'");
      statement.execute("ROLLBACK TO SAVEPOINT s");
      assertThat(rows(statement, "SHOW application_name")).containsExactly("in transaction");
      statement.execute("ROLLBACK AND CHAIN"); // and a new transaction begins at once
      assertThat(rows(statement, "SHOW application_name")).isEqualTo(before);
      statement.execute("SET application_name = 'kept'");
      statement.execute("COMMIT");
      assertThat(rows(statement, "SHOW application_name")).containsExactly("kept");
      statement.execute("COMMIT");
      assertThat(statement.getWarnings().getSQLState()).as("the chained transaction was committed: none is open")
          .isEqualTo("25P01");
      // SET LOCAL lasts until the transaction ends, committed or not; outside one it is a warning
      statement.execute("BEGIN");
      statement.execute("SET LOCAL application_name = 'local'");
      assertThat(rows(statement, "SHOW application_name")).containsExactly("local");
      statement.execute("COMMIT");
      assertThat(rows(statement, "SHOW application_name")).containsExactly("kept");
      statement.execute("BEGIN");
      statement.execute("SET LOCAL application_name = 'local'");
      statement.execute("SET application_name = 'session'"); // the session's value, kept at the end
      statement.execute("COMMIT");
      assertThat(rows(statement, "SHOW application_name")).containsExactly("session");
      statement.execute("SET LOCAL application_name = 'nowhere'");
      assertThat(statement.getWarnings().getSQLState()).isEqualTo("25P01");
      assertThat(rows(statement, "SHOW application_name")).containsExactly("session");
      statement.execute("SET application_name = 'changed'");
      statement.execute("DEALLOCATE ALL");
      statement.execute("DISCARD ALL");
      assertThat(rows(statement, "SHOW application_name")).containsExactly(connection.getClientInfo("ApplicationName"));
      assertThat(stateOf(statement, "DEALLOCATE nosuch")).isEqualTo("26000");
    }
  }

  /** pgjdbc in its default mode, the extended protocol. */
  private static Connection connectExtended(String... options) throws SQLException {
    return PgClient.connect(server, options);
  }

  /**
   * pgjdbc's default mode, the extended protocol: prepared statements with parameters on the
   * driver's plan cache, batches, server-side statements and binary values once a statement has
   * run prepareThreshold (5) times, and a fetch size that reads a portal a few rows at a time.
   */
  @Test
  void preparedStatementsBatchesAndFetchSizesOverTheExtendedProtocol() throws SQLException {
    try (Connection connection = connectExtended(); Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE IF NOT EXISTS " + table + "X (Id INTEGER, Grp VARCHAR, Price DOUBLE, "
          + "Amount DECIMAL(12, 3), Due TIMESTAMP, Day DATE, Paid BOOLEAN, Big BIGINT, PRIMARY KEY ((Grp), Id))");
      try (java.sql.PreparedStatement insert = connection.prepareStatement("INSERT INTO " + table
          + "X VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
        for (int id = 1; id <= 12; id++) {
          insert.setInt(1, id);
          insert.setString(2, id % 2 == 0 ? "even" : "odd");
          insert.setDouble(3, id * 1.5);
          insert.setBigDecimal(4, new java.math.BigDecimal("-1234.5").add(java.math.BigDecimal.valueOf(id)));
          insert.setTimestamp(5, java.sql.Timestamp.valueOf("2024-05-01 10:00:00.25"));
          insert.setDate(6, java.sql.Date.valueOf("2024-05-0" + (1 + id % 9)));
          insert.setBoolean(7, id % 3 == 0);
          insert.setLong(8, 10_000_000_000L + id);
          insert.addBatch();
        }
        assertThat(insert.executeBatch()).hasSize(12).containsOnly(1);
      }
      // prepareThreshold=-1: server-side statements and binary values from the first execution
      try (Connection binary = connectExtended("prepareThreshold=-1");
           java.sql.PreparedStatement lookup = binary.prepareStatement("SELECT Price, Amount, Due, Day, Paid, "
          + "Big FROM " + table + "X WHERE Grp = ? AND Id = ?")) {
        for (int round = 0; round < 8; round++) { // binary results from the 5th on
          int id = 1 + round;
          lookup.setString(1, id % 2 == 0 ? "even" : "odd");
          lookup.setInt(2, id);
          try (ResultSet result = lookup.executeQuery()) {
            assertThat(result.next()).isTrue();
            assertThat(result.getDouble(1)).isEqualTo(id * 1.5);
            assertThat(result.getBigDecimal(2)).isEqualByComparingTo(new java.math.BigDecimal("-1234.5").add(
                java.math.BigDecimal.valueOf(id)));
            assertThat(result.getTimestamp(3)).isEqualTo(java.sql.Timestamp.valueOf("2024-05-01 10:00:00.25"));
            assertThat(result.getDate(4).toString()).isEqualTo("2024-05-0" + (1 + id % 9));
            assertThat(result.getBoolean(5)).isEqualTo(id % 3 == 0);
            assertThat(result.getLong(6)).isEqualTo(10_000_000_000L + id);
            assertThat(result.next()).isFalse();
          }
        }
      }
      connection.setAutoCommit(false);
      try (java.sql.PreparedStatement scan = connection.prepareStatement("SELECT Id FROM " + table
          + "X WHERE Grp = ? ORDER BY Id")) {
        scan.setFetchSize(2);
        scan.setString(1, "even");
        List<Integer> ids = new ArrayList<>();
        try (ResultSet result = scan.executeQuery()) {
          while (result.next()) {
            ids.add(result.getInt(1));
          }
        }
        assertThat(ids).containsExactly(2, 4, 6, 8, 10, 12);
      }
      connection.commit();
      connection.setAutoCommit(true);
      assertThatThrownBy(() -> statement.executeQuery("SELECT Nope FROM " + table + "X"))
          .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("42703"));
      assertThat(rows(statement, "SELECT COUNT(*) FROM " + table + "X")).containsExactly("12");
    }
  }

  /** COPY, the export (and bulk load) people ask for: text and CSV, through pgjdbc's CopyManager. */
  @Test
  void copyExportsTablesAndQueriesAndLoadsFromTheClient() throws Exception {
    try (Connection connection = connect(); Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE IF NOT EXISTS " + table + "Copy (Id INTEGER, Name VARCHAR, Score DOUBLE, "
          + "PRIMARY KEY ((Id)))");
      org.postgresql.copy.CopyManager copy = connection.unwrap(org.postgresql.PGConnection.class).getCopyAPI();
      long loaded = copy.copyIn("COPY " + table + "Copy (Id, Name, Score) FROM STDIN WITH (FORMAT csv, HEADER)",
          new java.io.StringReader("Id,Name,Score\n1,Ann,1.5\n2,\"Bob, \"\"Jr\"\"\",\n3,\"\",2\n"));
      assertThat(loaded).isEqualTo(3);
      java.io.StringWriter csv = new java.io.StringWriter();
      assertThat(copy.copyOut("COPY (SELECT Id, Name, Score FROM " + table + "Copy ORDER BY Id) TO STDOUT WITH CSV "
          + "HEADER", csv)).isEqualTo(3);
      assertThat(csv.toString()).isEqualTo("Id,Name,Score\n1,Ann,1.5\n2,\"Bob, \"\"Jr\"\"\",\n3,\"\",2\n");
      java.io.StringWriter text = new java.io.StringWriter();
      copy.copyOut("COPY " + table + "Copy TO STDOUT", text);
      assertThat(text.toString().lines().sorted().toList()).containsExactly("1\tAnn\t1.5", "2\tBob, \"Jr\"\t\\N",
          "3\t\t2");
      assertThatThrownBy(() -> copy.copyIn("COPY " + table + "Copy (Id, Name) FROM STDIN",
          new java.io.StringReader("4\tDee\textra\n"))).isInstanceOfSatisfying(SQLException.class,
          e -> assertThat(e.getSQLState()).isEqualTo("22P04"));
      assertThat(rows(statement, "SELECT COUNT(*) FROM " + table + "Copy")).containsExactly("3"); // the session goes on
    }
  }

  /** The startup packet's options set the driver's properties of the session (and other settings, for SHOW). */
  @Test
  void startupOptionsSetTheSessionsDriverProperties() throws SQLException {
    try (Connection connection = PgClient.connect(server, "options=-c pushdown=false -c search_path=whatever");
         Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE IF NOT EXISTS " + table + "Opt (Id INTEGER PRIMARY KEY)");
      assertThat(String.join("\n", rows(statement, "EXPLAIN PLAN FOR SELECT Id FROM " + table + "Opt WHERE Id = 1")))
          .doesNotContain("POINT LOOKUP");
      assertThat(rows(statement, "SHOW search_path")).containsExactly("whatever");
    }
    try (Connection connection = connect(); Statement statement = connection.createStatement()) {
      assertThat(String.join("\n", rows(statement, "EXPLAIN PLAN FOR SELECT Id FROM " + table + "Opt WHERE Id = 1")))
          .contains("POINT LOOKUP");
      // a driver property is the connection's: SET of one is refused, not kept without effect
      assertThat(stateOf(statement, "SET pushdown = false")).isEqualTo("55P02");
      assertThat(String.join("\n", rows(statement, "EXPLAIN PLAN FOR SELECT Id FROM " + table + "Opt WHERE Id = 1")))
          .contains("POINT LOOKUP");
      statement.execute("SET application_name = 'report'");
      assertThat(rows(statement, "SHOW application_name")).containsExactly("report");
    }
  }

  @Test
  void aWrongPasswordOrUserIsRefused() {
    String otherKey = java.util.Base64.getEncoder().encodeToString(new byte[64]);
    assertThatThrownBy(() -> connect(server, LocalEmulator.ACCOUNT, otherKey).close())
        .isInstanceOfSatisfying(SQLException.class, e -> {
          assertThat(e.getSQLState()).isEqualTo("28P01");
          assertThat(e.getMessage()).doesNotContain(otherKey);
        });
    assertThatThrownBy(() -> connect(server, "someone", LocalEmulator.KEY).close())
        .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("28P01"));
  }

  @Test
  void aConnectionStringWithACredentialIsRefused() {
    assertThatThrownBy(() -> PgServer.start("127.0.0.1", 0, 1, PgClient.endpoint("http://127.0.0.1:1")
        + ";AccountKey=" + LocalEmulator.KEY)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("carries a credential").hasMessageNotContaining(LocalEmulator.KEY);
  }

  @Test
  void cancelStopsTheRunningStatementAndTheSessionGoesOn() throws Exception {
    try (FaultyProxy slow = new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port());
         PgServer delayed = PgServer.start("127.0.0.1", 0, 2, PgClient.endpoint(slow.base()));
         Connection connection = connect(delayed, LocalEmulator.ACCOUNT, LocalEmulator.KEY);
         Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE IF NOT EXISTS " + table + "C (Id INTEGER PRIMARY KEY)");
      slow.delay(3_000);
      CompletableFuture<String> query = CompletableFuture.supplyAsync(
          () -> stateOf(statement, "SELECT COUNT(*) FROM " + table + "C"));
      TimeUnit.MILLISECONDS.sleep(500);
      long cancelled = System.nanoTime();
      statement.cancel();
      assertThat(query.get(30, TimeUnit.SECONDS)).isEqualTo("57014");
      assertThat(System.nanoTime() - cancelled).isLessThan(TimeUnit.SECONDS.toNanos(10));
      slow.delay(0);
      assertThat(rows(statement, "SELECT COUNT(*) FROM " + table + "C")).containsExactly("0");
    }
  }

  /**
   * Values kept in Blob storage read through the server: its prepared statements run on the
   * driver's direct path, which leaves such values unread until a getter asks; text and bytea
   * come whole, in text and in binary transfer (after prepareThreshold executions).
   */
  @Test
  void longValuesKeptInBlobsComeWholeThroughTheServer() throws SQLException {
    String docs = table + "Docs";
    String text = "é".repeat(10) + "abcdefghij".repeat(150_000);
    byte[] bytes = new byte[2_500_000];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) (i * 31);
    }
    try (Connection direct = TestAccount.connect(); Statement statement = direct.createStatement()) {
      statement.execute("CREATE TABLE " + docs + " (Id INT PRIMARY KEY, Body CLOB, Data BLOB)");
      try (java.sql.PreparedStatement insert = direct.prepareStatement("INSERT INTO " + docs + " VALUES (1, ?, ?)")) {
        insert.setString(1, text);
        insert.setBytes(2, bytes);
        insert.executeUpdate();
      }
    }
    try (Connection pg = connectExtended();
         java.sql.PreparedStatement query = pg.prepareStatement("SELECT Body, Data FROM " + docs + " WHERE Id = ?")) {
      for (int run = 0; run < 6; run++) { // the last ones in binary transfer
        query.setInt(1, 1);
        try (ResultSet rows = query.executeQuery()) {
          assertThat(rows.next()).isTrue();
          assertThat(rows.getString(1)).isEqualTo(text);
          assertThat(rows.getBytes(2)).isEqualTo(bytes);
        }
      }
    }
    try (Connection direct = TestAccount.connect(); Statement statement = direct.createStatement()) {
      statement.execute("DROP TABLE " + docs);
    }
  }

  /**
   * A wide row (500 columns: two entities) through the server: created, written and read by a
   * client of the protocol, prepared and not, every column in its place.
   */
  @Test
  void wideRowsGoThroughTheServer() throws SQLException {
    String wide = table + "Wide";
    String columns = java.util.stream.IntStream.range(0, 500).mapToObj(i -> "c" + i + " INT")
        .collect(java.util.stream.Collectors.joining(", "));
    String marks = String.join(", ", java.util.Collections.nCopies(501, "?"));
    try (Connection pg = connectExtended(); Statement statement = pg.createStatement()) {
      statement.execute("CREATE TABLE " + wide + " (Id INT PRIMARY KEY, " + columns + ")");
      try (java.sql.PreparedStatement insert = pg.prepareStatement("INSERT INTO " + wide + " VALUES (" + marks + ")")) {
        for (int id = 1; id <= 2; id++) {
          insert.setInt(1, id);
          for (int c = 0; c < 500; c++) {
            insert.setInt(c + 2, id * 1000 + c);
          }
          insert.executeUpdate();
        }
      }
      try (java.sql.PreparedStatement query = pg.prepareStatement("SELECT * FROM " + wide + " WHERE Id = ?")) {
        for (int run = 0; run < 6; run++) { // the last ones in binary transfer
          query.setInt(1, 2);
          try (ResultSet rows = query.executeQuery()) {
            assertThat(rows.getMetaData().getColumnCount()).isEqualTo(501);
            assertThat(rows.next()).isTrue();
            assertThat(rows.getInt("c0")).isEqualTo(2000);
            assertThat(rows.getInt("c499")).isEqualTo(2499);
          }
        }
      }
      try (ResultSet rows = statement.executeQuery("SELECT SUM(c499), COUNT(*) FROM " + wide)) {
        assertThat(rows.next()).isTrue();
        assertThat(rows.getLong(1)).isEqualTo(1499 + 2499);
        assertThat(rows.getLong(2)).isEqualTo(2);
      }
      statement.execute("DROP TABLE " + wide);
    }
  }
}
