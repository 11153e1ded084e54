package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablesql.testing.QueryRows;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The catalogs every connection has (information_schema, pg_catalog), read with plain SQL
 * through the driver: a declared table, its key and UNIQUE index, a view and a materialized view.
 */
class SystemCatalogsTest {
  private static List<String> rows(Statement statement, String sql) throws SQLException {
    return QueryRows.of(statement, sql, " ");
  }

  @Test
  void informationSchemaDescribesTablesColumnsViewsAndKeys() throws Exception {
    String name = "InfoSchema" + System.nanoTime() % 1_000_000;
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      String schema = connection.getSchema();
      statement.execute("CREATE TABLE " + name + " (Dept VARCHAR, Id INTEGER, Email VARCHAR, Salary DECIMAL(10,2), "
          + "PRIMARY KEY ((Dept), Id))");
      statement.execute("CREATE UNIQUE INDEX " + name + "Email ON " + name + " (Email) GLOBAL");
      statement.execute("CREATE VIEW " + name + "V AS SELECT Email FROM " + name);
      try {
        String of = " WHERE table_schema = '" + schema + "' AND table_name LIKE '" + name + "%' ";
        assertThat(rows(statement, "SELECT table_catalog, table_name, table_type FROM information_schema.tables"
            + of + "ORDER BY table_name")).containsExactly(schema + " " + name + " BASE TABLE",
            schema + " " + name + "V VIEW");
        assertThat(rows(statement, "SELECT column_name, ordinal_position, is_nullable, data_type, numeric_precision, "
            + "numeric_scale FROM information_schema.columns" + of + "AND table_name = '" + name + "' "
            + "ORDER BY ordinal_position")).containsExactly("Dept 1 NO character varying null null",
            "Id 2 NO integer 32 0", "Email 3 YES character varying null null", "Salary 4 YES numeric 10 2");
        assertThat(rows(statement, "SELECT view_definition FROM information_schema.views" + of))
            .singleElement().asString().contains("SELECT", "Email", "FROM", name);
        assertThat(rows(statement, "SELECT constraint_name, constraint_type FROM information_schema.table_constraints"
            + of + "ORDER BY constraint_type")).containsExactly("PK_" + name + " PRIMARY KEY",
            name + "Email UNIQUE");
        assertThat(rows(statement, "SELECT constraint_name, column_name, ordinal_position "
            + "FROM information_schema.key_column_usage" + of + "ORDER BY constraint_name, ordinal_position"))
            .containsExactly(name + "Email Email 1", "PK_" + name + " Dept 1", "PK_" + name + " Id 2");
        // PostgreSQL's view of the same: a relation per table, view and index, named in pg_class
        assertThat(rows(statement, "SELECT c.relname, c.relkind FROM pg_catalog.pg_class c "
            + "JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = '" + schema + "' "
            + "AND c.relname LIKE '%" + name + "%' ORDER BY c.relname")).containsExactly(name + " r",
            name + "Email i", name + "V v", "PK_" + name + " i");
        assertThat(rows(statement, "SELECT a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod) "
            + "FROM pg_catalog.pg_attribute a WHERE a.attrelid = '" + name + "'::regclass ORDER BY a.attnum"))
            .containsExactly("Dept character varying", "Id integer", "Email character varying",
                "Salary numeric(10,2)");
        // a number past an OID's range names no relation: 42S02, not an internal error
        assertThatThrownBy(() -> rows(statement, "SELECT '99999999999'::regclass FROM (VALUES (1))"))
            .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("42S02"));
      } finally {
        statement.execute("DROP VIEW " + name + "V");
        statement.execute("DROP TABLE " + name);
      }
    }
  }

  /** Text of different lengths brought together is VARCHAR, not padded: metadata's types compare as written. */
  @Test
  void textOfDifferentLengthsIsNotPadded() throws Exception {
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      assertThat(rows(statement, "SELECT '[' || CASE WHEN 1 = 1 THEN 'TABLE' ELSE 'MATERIALIZED VIEW' END || ']', "
          + "current_schema = current_database() FROM (VALUES (1))")).containsExactly("[TABLE] true");
      assertThat(rows(statement, "SELECT x || '|' FROM (VALUES ('a'), ('bbb')) AS t(x)")).containsExactly("a|",
          "bbb|");
    }
  }

  @Test
  void aCollationOtherThanCodePointOrderIsRefused() throws Exception {
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      assertThat(rows(statement, "SELECT 'b' COLLATE \"C\" > 'a' COLLATE pg_catalog.default FROM (VALUES (1))"))
          .containsExactly("true");
      assertThatThrownBy(() -> statement.executeQuery("SELECT 'a' COLLATE \"de_DE\" FROM (VALUES (1))"))
          .isInstanceOfSatisfying(SQLException.class, e -> {
            assertThat(e.getSQLState()).isEqualTo("42000");
            assertThat(e.getMessage()).contains("Collation de_DE is not supported");
          });
    }
  }

  /** PostgreSQL's date_trunc and now(), as BI tools group by time; the pushdown-free oracle agrees. */
  @Test
  void dateTruncGroupsByTimeAsPostgresqlDoes() throws Exception {
    String name = "DateTrunc" + System.nanoTime() % 1_000_000;
    try (Connection connection = TestAccount.connect(); Connection oracle = TestAccount.connect("pushdown=false");
         Statement statement = connection.createStatement(); Statement oracleStatement = oracle.createStatement()) {
      statement.execute("CREATE TABLE " + name + " (Id INTEGER, At TIMESTAMP, PRIMARY KEY ((Id)))");
      try {
        statement.execute("INSERT INTO " + name + " VALUES (1, TIMESTAMP '2024-05-17 10:11:12'), "
            + "(2, TIMESTAMP '2024-05-31 23:59:59'), (3, TIMESTAMP '2024-06-01 00:00:00'), (4, NULL)");
        String byMonth = "SELECT date_trunc('month', At) AS m, COUNT(*) FROM " + name + " GROUP BY date_trunc('month', At) "
            + "ORDER BY m NULLS LAST";
        assertThat(rows(statement, byMonth)).containsExactly("2024-05-01 00:00:00.000 2", "2024-06-01 00:00:00.000 1",
            "null 1").isEqualTo(rows(oracleStatement, byMonth));
        assertThat(rows(statement, "SELECT COUNT(*) FROM " + name + " WHERE At < now() "
            + "AND date_trunc('day', At) = TIMESTAMP '2024-05-17 00:00:00'")).containsExactly("1");
      } finally {
        statement.execute("DROP TABLE " + name);
      }
    }
  }
}
