package io.tablesql.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablesql.shell.LocalEmulator;
import io.tablesql.testing.TestAccount;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The catalogs through the server as PostgreSQL's clients read them: pgjdbc's DatabaseMetaData
 * (what DBeaver, Metabase and other JDBC tools call), which queries pg_catalog with PostgreSQL's
 * SQL (regular expressions, {@code ::regclass}, window functions, arrays of schemas).
 */
class PgCatalogTest {
  private static PgServer server;
  private static String table;
  private static String view;
  private static String summary;

  @BeforeAll
  static void start() throws Exception {
    server = PgServer.start("127.0.0.1", 0, 4, PgClient.endpoint());
    String suffix = String.valueOf(System.nanoTime() % 1_000_000);
    table = "PgCat" + suffix;
    view = "PgCatNames" + suffix;
    summary = "PgCatCount" + suffix;
    try (Connection connection = PgClient.connect(server); Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE " + table + " (Dept VARCHAR, Id INTEGER, Name VARCHAR, Salary DECIMAL(10,2), "
          + "PRIMARY KEY ((Dept), Id))");
      statement.execute("CREATE INDEX " + table + "Name ON " + table + " (Name) GLOBAL");
      statement.execute("CREATE VIEW " + view + " AS SELECT Name FROM " + table);
      statement.execute("CREATE MATERIALIZED VIEW " + summary + " AS SELECT Dept, COUNT(*) AS n FROM " + table
          + " GROUP BY Dept");
    }
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      try (Connection connection = PgClient.connect(server); Statement statement = connection.createStatement()) {
        statement.execute("DROP VIEW " + view);
        statement.execute("DROP MATERIALIZED VIEW " + summary);
        statement.execute("DROP TABLE " + table);
      }
      server.close();
    }
  }

  private static List<String> rows(ResultSet result, String... columns) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (result) {
      while (result.next()) {
        List<String> values = new ArrayList<>();
        for (String column : columns) {
          values.add(result.getString(column));
        }
        rows.add(String.join(" ", values));
      }
    }
    return rows;
  }

  @Test
  void pgjdbcListsTablesViewsAndMaterializedViewsByType() throws Exception {
    try (Connection connection = PgClient.connect(server)) {
      DatabaseMetaData meta = connection.getMetaData();
      assertThat(rows(meta.getTables(null, LocalEmulator.ACCOUNT, "PgCat%" , new String[] {"TABLE", "VIEW",
          "MATERIALIZED VIEW"}), "TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "TABLE_TYPE")).containsExactly(
          LocalEmulator.ACCOUNT + " " + LocalEmulator.ACCOUNT + " " + summary + " MATERIALIZED VIEW",
          LocalEmulator.ACCOUNT + " " + LocalEmulator.ACCOUNT + " " + table + " TABLE",
          LocalEmulator.ACCOUNT + " " + LocalEmulator.ACCOUNT + " " + view + " VIEW");
      assertThat(rows(meta.getTables(null, null, table, new String[] {"VIEW"}), "TABLE_NAME")).isEmpty();
      // the catalogs' own relations are system tables and views, listed only when asked for
      assertThat(rows(meta.getTables(null, null, "%", new String[] {"TABLE"}), "TABLE_SCHEM"))
          .contains(LocalEmulator.ACCOUNT).doesNotContain("pg_catalog", "information_schema");
      assertThat(rows(meta.getTables(null, "pg_catalog", "pg_class", new String[] {"SYSTEM TABLE"}), "TABLE_NAME"))
          .containsExactly("pg_class");
      assertThat(rows(meta.getSchemas(), "TABLE_SCHEM")).contains(LocalEmulator.ACCOUNT, "pg_catalog",
          "information_schema");
      assertThat(rows(meta.getCatalogs(), "TABLE_CAT")).containsExactly(LocalEmulator.ACCOUNT);
      assertThat(connection.getSchema()).isEqualTo(LocalEmulator.ACCOUNT);
    }
  }

  @Test
  void pgjdbcDescribesColumnsWithTheirTypesAndNullability() throws Exception {
    try (Connection connection = PgClient.connect(server)) {
      List<String> columns = rows(connection.getMetaData().getColumns(null, null, table, "%"), "COLUMN_NAME",
          "DATA_TYPE", "TYPE_NAME", "COLUMN_SIZE", "DECIMAL_DIGITS", "IS_NULLABLE", "ORDINAL_POSITION");
      assertThat(columns).containsExactly(
          "Dept " + Types.VARCHAR + " varchar 2147483647 0 NO 1",
          "Id " + Types.INTEGER + " int4 10 0 NO 2",
          "Name " + Types.VARCHAR + " varchar 2147483647 0 YES 3",
          "Salary " + Types.NUMERIC + " numeric 10 2 YES 4");
      assertThat(rows(connection.getMetaData().getColumns(null, null, view, "%"), "COLUMN_NAME", "TYPE_NAME"))
          .containsExactly("Name varchar");
    }
  }

  /**
   * The rest of pgjdbc's DatabaseMetaData that DBeaver and Metabase call: keys and indexes come
   * from {@code _pg_expandarray} in a select list (one row per key column), foreign keys from
   * {@code generate_series} in FROM, type information from {@code ::regproc} and an array of
   * schemas subscripted.
   */
  @Test
  void pgjdbcDescribesKeysIndexesAndTypes() throws Exception {
    try (Connection connection = PgClient.connect(server)) {
      DatabaseMetaData meta = connection.getMetaData();
      assertThat(rows(meta.getPrimaryKeys(null, null, table), "COLUMN_NAME", "KEY_SEQ", "PK_NAME"))
          .containsExactly("Dept 1 PK_" + table, "Id 2 PK_" + table);
      assertThat(rows(meta.getIndexInfo(null, null, table, false, true), "INDEX_NAME", "NON_UNIQUE",
          "ORDINAL_POSITION", "COLUMN_NAME", "ASC_OR_DESC")).containsExactly(
          "PK_" + table + " f 1 Dept A", "PK_" + table + " f 2 Id A", table + "Name t 1 Name A");
      assertThat(rows(meta.getIndexInfo(null, null, table, true, true), "INDEX_NAME")).containsOnly("PK_" + table);
      assertThat(rows(meta.getBestRowIdentifier(null, null, table, DatabaseMetaData.bestRowSession, true),
          "COLUMN_NAME", "TYPE_NAME")).containsExactly("Dept varchar", "Id int4");
      assertThat(rows(meta.getImportedKeys(null, null, table), "FK_NAME")).isEmpty();
      assertThat(rows(meta.getExportedKeys(null, null, table), "FK_NAME")).isEmpty();
      assertThat(rows(meta.getTypeInfo(), "TYPE_NAME")).contains("int4", "varchar", "numeric", "timestamp", "uuid");
    }
    try (Connection connection = PgClient.connect(server); Statement statement = connection.createStatement()) {
      assertThat(rows(statement.executeQuery("SELECT s.n, (current_schemas(true))[s.n] AS schema "
          + "FROM generate_series(1, array_upper(current_schemas(true), 1)) AS s(n)"), "n", "schema"))
          .containsExactly("1 pg_catalog", "2 " + LocalEmulator.ACCOUNT);
      assertThat(rows(statement.executeQuery("SELECT generate_series FROM pg_catalog.generate_series(10, 1, -4)"),
          "generate_series")).containsExactly("10", "6", "2");
      // one row per element, the calls of one argument in step, as PostgreSQL runs them
      assertThat(rows(statement.executeQuery("SELECT (information_schema._pg_expandarray(i.indkey)).n AS n, "
          + "(information_schema._pg_expandarray(i.indkey)).x AS x FROM pg_catalog.pg_index i "
          + "JOIN pg_catalog.pg_class c ON c.oid = i.indrelid WHERE c.relname = '" + table + "' AND i.indisprimary"),
          "n", "x")).containsExactly("1 1", "2 2");
      // unnest keeps the elements' type; the expansion's own columns stay out of the answer
      assertThat(rows(statement.executeQuery("SELECT unnest(ARRAY[1.5, 2.5]) AS u, generate_subscripts(ARRAY[1.5, 2.5], 1) "
          + "AS n"), "u", "n")).containsExactly("1.5 1", "2.5 2");
      assertThat(rows(statement.executeQuery("SELECT unnest(string_to_array('a,b', ',')) AS u"), "u"))
          .containsExactly("a", "b");
      assertThat(statement.executeQuery("SELECT unnest(ARRAY[1]) AS u, c.relname FROM pg_catalog.pg_class c "
          + "WHERE c.relname = '" + table + "'").getMetaData().getColumnCount()).isEqualTo(2);
    }
  }

  @Test
  void catalogQueriesAsClientsWriteThem() throws Exception {
    try (Connection connection = PgClient.connect(server); Statement statement = connection.createStatement()) {
      try (ResultSet result = statement.executeQuery("SELECT c.oid = '" + table + "'::regclass, c.relkind, "
          + "n.nspname !~ '^pg_', pg_catalog.pg_table_is_visible(c.oid), pg_catalog.pg_get_userbyid(c.relowner) "
          + "FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "
          + "WHERE c.relname = '" + table + "'")) {
        assertThat(result.next()).isTrue();
        assertThat(List.of(result.getBoolean(1), result.getString(2), result.getBoolean(3), result.getBoolean(4),
            result.getString(5))).containsExactly(true, "r", true, true, LocalEmulator.ACCOUNT);
      }
      try (ResultSet result = statement.executeQuery("SELECT current_database(), current_schema(), "
          + "current_setting('server_version'), 'x'::text || 'y', pg_catalog.version()")) {
        assertThat(result.next()).isTrue();
        assertThat(List.of(result.getString(1), result.getString(2), result.getString(3), result.getString(4)))
            .containsExactly(LocalEmulator.ACCOUNT, LocalEmulator.ACCOUNT, "14.0", "xy");
        assertThat(result.getString(5)).startsWith("PostgreSQL 14.0 (tablesql");
      }
      assertThat(rows(statement.executeQuery("SELECT i.indisunique, i.indisprimary, "
          + "pg_catalog.pg_get_indexdef(i.indexrelid) AS def FROM pg_catalog.pg_index i "
          + "JOIN pg_catalog.pg_class c ON c.oid = i.indrelid WHERE c.relname = '" + table + "' "
          + "ORDER BY i.indisprimary DESC"), "indisunique", "indisprimary", "def")).containsExactly(
          "t t CREATE UNIQUE INDEX \"PK_" + table + "\" ON " + LocalEmulator.ACCOUNT + ".\"" + table
              + "\" USING btree (\"Dept\", \"Id\")",
          "f f CREATE INDEX \"" + table + "Name\" ON " + LocalEmulator.ACCOUNT + ".\"" + table
              + "\" USING btree (\"Name\")");
    }
  }

  /** Object ids are derived from names: every session, and every server, gives a relation the same. */
  @Test
  void objectIdsAreTheSameInEverySession() throws Exception {
    String oid = "SELECT oid FROM pg_catalog.pg_class WHERE relname = '" + table + "'";
    List<String> seen = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      try (Connection connection = PgClient.connect(server); Statement statement = connection.createStatement()) {
        seen.addAll(rows(statement.executeQuery(oid), "oid"));
      }
    }
    try (PgServer other = PgServer.start("127.0.0.1", 0, 1, PgClient.endpoint());
         Connection connection = PgClient.connect(other); Statement statement = connection.createStatement()) {
      seen.addAll(rows(statement.executeQuery(oid), "oid"));
    }
    assertThat(seen).hasSize(3).containsOnly(seen.get(0));
  }

  /**
   * Npgsql's type loading (Power BI's PostgreSQL connector runs it on every connection): the four
   * statements of its PostgresDatabaseInfo, in one simple query as Npgsql sends them, with
   * pg_catalog's tables named unqualified. Every type tablesql's columns are described with is
   * loaded as a base type.
   */
  @Test
  void npgsqlsTypeLoadingQueriesAnswerAsItExpects() throws Exception {
    String startup;
    try (var text = PgCatalogTest.class.getResourceAsStream("/clients/npgsql-startup.sql")) {
      startup = new String(text.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    }
    List<List<String>> results = new ArrayList<>();
    try (Connection connection = PgClient.connect(server, "preferQueryMode=simple");
         Statement statement = connection.createStatement()) {
      boolean isResult = statement.execute(startup);
      while (isResult || statement.getUpdateCount() != -1) {
        if (isResult) {
          try (ResultSet result = statement.getResultSet()) {
            List<String> rows = new ArrayList<>();
            while (result.next()) {
              rows.add(result.getMetaData().getColumnCount() >= 4 ? result.getString(3) + ":" + result.getString(4)
                  + ":" + result.getString(1) : result.getString(1));
            }
            results.add(rows);
          }
        }
        isResult = statement.getMoreResults();
      }
    }
    assertThat(results).hasSize(4);
    assertThat(results.get(0)).singleElement().asString().startsWith("PostgreSQL 14");
    assertThat(results.get(1)).contains("bool:b:pg_catalog", "int2:b:pg_catalog", "int4:b:pg_catalog",
        "int8:b:pg_catalog", "float8:b:pg_catalog", "numeric:b:pg_catalog", "varchar:b:pg_catalog",
        "text:b:pg_catalog", "timestamp:b:pg_catalog", "date:b:pg_catalog", "bytea:b:pg_catalog",
        "uuid:b:pg_catalog");
    assertThat(results.get(2)).isEmpty();
    assertThat(results.get(3)).isEmpty();
  }

  /**
   * Metabase's sync of a table's fields, foreign keys and indexes (postgres.clj: describe-fields-sql,
   * describe-fks-sql, describe-indexes-sql), as HoneySQL renders them, with pgjdbc's parameters.
   */
  @Test
  void metabasesSyncQueriesAnswer() throws Exception {
    String[] statements;
    try (var text = PgCatalogTest.class.getResourceAsStream("/clients/metabase-sync.sql")) {
      statements = new String(text.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).split("\n;\n");
    }
    try (Connection connection = PgClient.connect(server)) {
      try (PreparedStatement fields = connection.prepareStatement(statements[0])) {
        fields.setString(1, LocalEmulator.ACCOUNT);
        fields.setString(2, table);
        fields.setString(3, LocalEmulator.ACCOUNT);
        fields.setString(4, table);
        assertThat(rows(fields.executeQuery(), "name", "database-type", "database-position", "pk?",
            "database-required")).containsExactly("Dept varchar 0 t t", "Id int4 1 t t", "Name varchar 2 f f",
            "Salary numeric 3 f f");
      }
      try (PreparedStatement keys = connection.prepareStatement(statements[1])) {
        keys.setString(1, table);
        assertThat(rows(keys.executeQuery(), "fk-column-name")).isEmpty();
      }
      try (PreparedStatement indexes = connection.prepareStatement(statements[2])) {
        indexes.setString(1, table);
        assertThat(rows(indexes.executeQuery(), "field-name")).containsExactlyInAnyOrder("Dept", "Name");
      }
    }
  }

  /** A regclass prints as the relation's name, as PostgreSQL's does; CAST(... AS REGCLASS) is ::regclass. */
  @Test
  void aRegclassCastToTextIsTheRelationsName() throws Exception {
    try (Connection connection = PgClient.connect(server, "preferQueryMode=simple");
         Statement statement = connection.createStatement()) {
      String quoted = "\"" + table + "\"";
      assertThat(rows(statement.executeQuery("SELECT c.oid::regclass::text AS a, CAST(CAST(c.oid AS REGCLASS) AS TEXT) "
          + "AS b, CAST('" + quoted + "' AS REGCLASS) = c.oid AS c, 'pg_class'::regclass::text AS d FROM pg_class c "
          + "WHERE c.relname = '" + table + "'"), "a", "b", "c", "d")).containsExactly(quoted + " " + quoted + " t pg_class");
      assertThat(rows(statement.executeQuery("SELECT 12345::regclass::varchar AS a"), "a")).containsExactly("12345");
    }
  }

  /**
   * What Grafana's PostgreSQL data source and Metabase's PostgreSQL driver send that tablesql
   * answers, taken from their sources (grafana/grafana: pgx's ping, postgresMetaQuery.ts, the
   * backend's schema.go; metabase/metabase: sql_jdbc/connection.clj, postgres.clj). Their
   * editor's table and column lists, which number the search path's schemas with
   * generate_series over string_to_array and compare them with user.
   */
  @Test
  void grafanaAndMetabaseQueriesAnswer() throws Exception {
    try (Connection connection = PgClient.connect(server, "preferQueryMode=simple");
         Statement statement = connection.createStatement()) {
      statement.execute("-- ping"); // Grafana's health check on pgx; on lib/pq it is ";"
      statement.execute(";");
      assertThat(rows(statement.executeQuery("SELECT current_setting('server_version_num')::int/100 as version"),
          "version")).containsExactly("1400");
      assertThat(rows(statement.executeQuery("SELECT extversion FROM pg_extension WHERE extname = 'timescaledb'"),
          "extversion")).isEmpty();
      assertThat(rows(statement.executeQuery("SELECT quote_ident(table_name) AS \"table\" FROM "
          + "information_schema.tables WHERE quote_ident(table_schema) = '" + LocalEmulator.ACCOUNT + "' ORDER BY 1"),
          "table")).contains("\"" + table + "\"", "\"" + view + "\"");
      assertThat(rows(statement.executeQuery("SELECT 1"), "?column?")).containsExactly("1"); // Metabase's test
      assertThat(rows(statement.executeQuery("SELECT format('%I.%I has %s%%', 'public', 'People', 'x')"), "format"))
          .containsExactly("public.\"People\" has x%");
      try {
        statement.executeQuery("SELECT format('%z', 'x')");
        throw new AssertionError("an unknown conversion was taken");
      } catch (java.sql.SQLException e) {
        assertThat(e.getSQLState()).isEqualTo("22023");
      }
      // Grafana's query editor (postgresMetaQuery.ts): showTables() and getSchema(table)
      String inSearchPath = "quote_ident(table_schema) IN (\n SELECT\n CASE WHEN trim(s[i]) = '\"$user\"' THEN user "
          + "ELSE trim(s[i]) END\n FROM\n generate_series(\n array_lower(string_to_array(current_setting("
          + "'search_path'),','),1),\n array_upper(string_to_array(current_setting('search_path'),','),1)\n ) as i,\n"
          + " string_to_array(current_setting('search_path'),',') s\n )";
      assertThat(rows(statement.executeQuery("SELECT\n CASE WHEN " + inSearchPath + "\n THEN quote_ident(table_name)\n"
          + " ELSE quote_ident(table_schema) || '.' || quote_ident(table_name)\n END AS \"table\"\n"
          + " FROM information_schema.tables\n WHERE quote_ident(table_schema) NOT IN ('information_schema',\n"
          + " 'pg_catalog', '_timescaledb_cache', '_timescaledb_catalog', '_timescaledb_internal', "
          + "'_timescaledb_config', 'timescaledb_information', 'timescaledb_experimental')\n"
          + " ORDER BY CASE WHEN " + inSearchPath + " THEN 0 ELSE 1 END, 1"), "table"))
          .contains("\"" + table + "\"", "\"" + view + "\"");
      String quotedTable = "'\"" + table + "\"'";
      assertThat(rows(statement.executeQuery("SELECT quote_ident(column_name) AS \"column\", data_type AS \"type\"\n"
          + " FROM information_schema.columns\n WHERE\n CASE WHEN array_length(parse_ident(" + quotedTable + "),1) = 2\n"
          + " THEN quote_ident(table_schema) = (parse_ident(" + quotedTable + "))[1]\n"
          + " AND quote_ident(table_name) = (parse_ident(" + quotedTable + "))[2]\n"
          + " ELSE quote_ident(table_name) = " + quotedTable + "\n AND " + inSearchPath + "\n END"), "column", "type"))
          .containsExactly("\"Dept\" character varying", "\"Id\" integer", "\"Name\" character varying",
              "\"Salary\" numeric");
      assertThat(rows(statement.executeQuery("SELECT user, current_user, session_user"), "current_user"))
          .containsExactly(LocalEmulator.ACCOUNT);
      assertThat(rows(statement.executeQuery("show timezone"), "TimeZone")).containsExactly("UTC");
      // Metabase's table privileges (postgres.clj, current-user-table-privileges): keywords as labels
      String quotedName = "'\"' || replace(t.schemaname, '\"', '\"\"') || '\"' || '.' || '\"' || "
          + "replace(t.objectname, '\"', '\"\"') || '\"'";
      assertThat(rows(statement.executeQuery("with table_privileges as (\n select\n   NULL as role,\n"
          + "   t.schemaname as schema,\n   t.objectname as table,\n"
          + "   pg_catalog.has_any_column_privilege(current_user, " + quotedName + ",  'update') as update,\n"
          + "   pg_catalog.has_any_column_privilege(current_user, " + quotedName + ",  'select') as select,\n"
          + "   pg_catalog.has_any_column_privilege(current_user, " + quotedName + ",  'insert') as insert,\n"
          + "   pg_catalog.has_table_privilege(     current_user, " + quotedName + ",  'delete') as delete\n"
          + " from (\n   select schemaname, tablename as objectname from pg_catalog.pg_tables\n   union\n"
          + "   select schemaname, viewname as objectname from pg_catalog.pg_views\n   union\n"
          + "   select schemaname, matviewname as objectname from pg_catalog.pg_matviews\n ) t\n"
          + " where t.schemaname !~ '^pg_'\n   and t.schemaname <> 'information_schema'\n"
          + "   and pg_catalog.has_schema_privilege(current_user, t.schemaname, 'usage')\n)\n"
          + "select t.*\nfrom table_privileges t"), "table", "select", "update", "insert", "delete"))
          .contains(table + " t t t t", view + " t t t t", summary + " t t t t");
      statement.execute("SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL READ UNCOMMITTED");
      assertThat(rows(statement.executeQuery("SELECT nspname, typname FROM pg_type t JOIN pg_namespace n ON n.oid = "
          + "t.typnamespace WHERE t.oid IN (SELECT DISTINCT enumtypid FROM pg_enum e)"), "nspname")).isEmpty();
    }
    // Grafana's schema API, through pgx's prepared statements
    try (Connection connection = PgClient.connect(server)) {
      try (PreparedStatement schemas = connection.prepareStatement("SELECT schema_name FROM "
          + "information_schema.schemata WHERE schema_name NOT LIKE 'pg_%' AND schema_name != 'information_schema' "
          + "ORDER BY schema_name")) {
        assertThat(rows(schemas.executeQuery(), "schema_name")).contains(LocalEmulator.ACCOUNT);
      }
      try (PreparedStatement tables = connection.prepareStatement("SELECT table_name FROM information_schema.tables "
          + "WHERE table_schema = ? AND table_type IN ('BASE TABLE', 'VIEW') ORDER BY table_name")) {
        tables.setString(1, LocalEmulator.ACCOUNT);
        assertThat(rows(tables.executeQuery(), "table_name")).contains(table, view);
      }
      // Metabase's table list (postgres.clj, get-tables-sql), as HoneySQL renders it
      try (PreparedStatement tables = connection.prepareStatement("SELECT \"n\".\"nspname\" AS \"schema\", "
          + "\"c\".\"relname\" AS \"name\", CASE \"c\".\"relkind\" WHEN 'r' THEN 'TABLE' WHEN 'p' THEN "
          + "'PARTITIONED TABLE' WHEN 'v' THEN 'VIEW' WHEN 'f' THEN 'FOREIGN TABLE' WHEN 'm' THEN 'MATERIALIZED VIEW' "
          + "ELSE NULL END AS \"type\", \"d\".\"description\" AS \"description\", \"stat\".\"n_live_tup\" AS "
          + "\"estimated_row_count\" FROM \"pg_catalog\".\"pg_class\" AS \"c\" INNER JOIN \"pg_catalog\"."
          + "\"pg_namespace\" AS \"n\" ON \"c\".\"relnamespace\" = \"n\".\"oid\" LEFT JOIN \"pg_catalog\"."
          + "\"pg_description\" AS \"d\" ON (\"c\".\"oid\" = \"d\".\"objoid\") AND (\"d\".\"objsubid\" = ?) AND "
          + "(\"d\".\"classoid\" = 'pg_class'::regclass) LEFT JOIN \"pg_stat_user_tables\" AS \"stat\" ON "
          + "(\"n\".\"nspname\" = \"stat\".\"schemaname\") AND (\"c\".\"relname\" = \"stat\".\"relname\") WHERE "
          + "(\"c\".\"relnamespace\" = \"n\".\"oid\") AND (\"n\".\"nspname\" !~ ?) AND (\"n\".\"nspname\" <> ?) "
          + "AND c.relkind in ('r', 'p', 'v', 'f', 'm') AND (\"n\".\"nspname\" IN (?)) ORDER BY \"type\" ASC, "
          + "\"schema\" ASC, \"name\" ASC")) {
        tables.setInt(1, 0);
        tables.setString(2, "^pg_");
        tables.setString(3, "information_schema");
        tables.setString(4, LocalEmulator.ACCOUNT);
        assertThat(rows(tables.executeQuery(), "name", "type")).contains(table + " TABLE", view + " VIEW",
            summary + " MATERIALIZED VIEW");
      }
      try (PreparedStatement columns = connection.prepareStatement("SELECT column_name, data_type, udt_name, "
          + "numeric_precision, numeric_scale FROM information_schema.columns WHERE table_schema = ? AND "
          + "table_name = ? ORDER BY ordinal_position")) {
        columns.setString(1, LocalEmulator.ACCOUNT);
        columns.setString(2, table);
        assertThat(rows(columns.executeQuery(), "column_name", "udt_name")).containsExactly("Dept varchar",
            "Id int4", "Name varchar", "Salary numeric");
      }
    }
  }
}
