package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.shell.LocalEmulator;
import io.tablesql.testing.TestAccount;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** What BI tools read before they query. */
class MetadataTest {
  private static String table;
  private static Connection connection;

  @BeforeAll
  static void setUp() throws SQLException {
    TableClient client = TestAccount.newTable("Meta");
    TestAccount.insert(client, List.of(new TableEntity("a", "1").addProperty("EntityType", "x").addProperty("Size", 3)));
    table = client.getTableName();
    connection = TestAccount.connect();
  }

  @AfterAll
  static void tearDown() throws SQLException {
    connection.close();
  }

  @Test
  void productDriverAndUrlWithoutSecrets() throws SQLException {
    DatabaseMetaData meta = connection.getMetaData();
    assertThat(meta.getDatabaseProductName()).isEqualTo("Azure Table storage");
    assertThat(meta.getDriverName()).isEqualTo("tablesql");
    assertThat(meta.getURL()).startsWith("jdbc:tablesql:TableEndpoint=http://127.0.0.1:").doesNotContain(LocalEmulator.KEY);
    assertThat(meta.getIdentifierQuoteString()).isEqualTo("\"");
    assertThat(meta.getConnection()).isSameAs(connection);
  }

  @Test
  void tablesColumnsKeysAndIndex() throws SQLException {
    DatabaseMetaData meta = connection.getMetaData();
    try (ResultSet tables = meta.getTables(null, null, table, null)) {
      assertThat(tables.next()).isTrue();
      assertThat(tables.getString("TABLE_TYPE")).isEqualTo("TABLE");
    }
    List<String> columns = new ArrayList<>();
    try (ResultSet rs = meta.getColumns(null, null, table, null)) {
      while (rs.next()) {
        columns.add(rs.getInt("ORDINAL_POSITION") + ":" + rs.getString("COLUMN_NAME") + ":"
            + rs.getString("TYPE_NAME") + ":" + rs.getString("IS_NULLABLE"));
      }
    }
    assertThat(columns).containsExactly("1:PartitionKey:VARCHAR:NO", "2:RowKey:VARCHAR:NO",
        "3:Timestamp:TIMESTAMP:YES", "4:EntityType:VARCHAR:YES", "5:Size:INTEGER:YES");
    List<String> keys = new ArrayList<>();
    try (ResultSet rs = meta.getPrimaryKeys(null, null, table)) {
      while (rs.next()) {
        keys.add(rs.getString("TABLE_NAME") + "." + rs.getString("COLUMN_NAME") + "#" + rs.getShort("KEY_SEQ"));
      }
    }
    assertThat(keys).containsExactly(table + ".PartitionKey#1", table + ".RowKey#2");
    try (ResultSet rs = meta.getIndexInfo(null, null, table, true, true)) {
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString("COLUMN_NAME")).isEqualTo("PartitionKey");
      assertThat(rs.getShort("TYPE")).isEqualTo(DatabaseMetaData.tableIndexClustered);
    }
    try (ResultSet rs = meta.getPrimaryKeys(null, null, "NoSuchTable")) {
      assertThat(rs.next()).isFalse();
      assertThat(rs.getMetaData().getColumnCount()).isEqualTo(6);
    }
  }

  @Test
  void schemaCrawlerListsTablesColumnsAndKeys() throws Exception {
    Path output = Files.createTempFile("schemacrawler", ".txt");
    Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("java.class.path"), "schemacrawler.Main", "--url=" + TestAccount.url(),
        "--user=", "--password=", "--info-level=standard", "--command=schema", "--output-format=text",
        "--output-file=" + output, "--no-info")
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).isZero();
    String schema = Files.readString(output);
    assertThat(schema).contains("\"" + table + "\"", "[table]", "\"EntityType\"", "\"Size\"", "[primary key]",
        "[unique clustered index]");
    assertThat(schema).containsPattern("\"PartitionKey\"\\s+VARCHAR NOT NULL\\s")
        .containsPattern("\"Size\"\\s+INTEGER")
        .containsPattern("\"Timestamp\"\\s+TIMESTAMP");
  }

  @Test
  void emptyQueryDescribesColumnsWithoutReadingTheTable() throws SQLException {
    try (Statement statement = connection.createStatement();
         ResultSet rs = statement.executeQuery("SELECT * FROM " + table + " WHERE 1 = 0")) {
      assertThat(rs.getMetaData().getColumnCount()).isEqualTo(5);
      assertThat(rs.next()).isFalse();
      assertThat(statement.unwrap(TableSqlStatement.class).requestCount()).isZero();
    }
    try (PreparedStatement statement = connection.prepareStatement("SELECT * FROM " + table + " WHERE 1 = 0");
         ResultSet rs = statement.executeQuery()) {
      assertThat(rs.next()).isFalse();
      assertThat(statement.unwrap(TableSqlStatement.class).requestCount()).isZero();
    }
  }

  @Test
  void columnsKeepTheirStoredCase() throws SQLException {
    try (Statement statement = connection.createStatement();
         ResultSet rs = statement.executeQuery("SELECT entitytype, size AS howbig FROM " + table)) {
      ResultSetMetaData meta = rs.getMetaData();
      assertThat(meta.getColumnLabel(1)).isEqualTo("EntityType");
      assertThat(meta.getColumnLabel(2)).isEqualTo("howbig");
      assertThat(rs.next()).isTrue();
      assertThat(rs.getString("EntityType")).isEqualTo("x");
    }
    // an alias written in the statement is the label, also where it differs from the column only in case
    try (Statement statement = connection.createStatement();
         ResultSet rs = statement.executeQuery("SELECT EntityType AS \"ENTITYTYPE\", entitytype AS \"entityType\", "
             + "d.description AS \"Description\" FROM " + table + " LEFT JOIN pg_catalog.pg_description d ON false")) {
      ResultSetMetaData meta = rs.getMetaData();
      assertThat(List.of(meta.getColumnLabel(1), meta.getColumnLabel(2), meta.getColumnLabel(3)))
          .containsExactly("ENTITYTYPE", "entityType", "Description");
    }
  }

  /** Result columns without a name: Calcite's EXPR$n by default, PostgreSQL's labels with columnLabels=postgresql. */
  @Test
  void unnamedColumnsAreLabelledAsTheConnectionAsks() throws SQLException {
    String sql = "SELECT COUNT(*), MAX(Size), Size + 1, RowKey FROM " + table + " GROUP BY Size, RowKey";
    try (Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery(sql)) {
      ResultSetMetaData meta = result.getMetaData();
      assertThat(List.of(meta.getColumnLabel(1), meta.getColumnLabel(2), meta.getColumnLabel(3),
          meta.getColumnLabel(4))).containsExactly("EXPR$0", "EXPR$1", "EXPR$2", "RowKey");
    }
    try (Connection postgres = TestAccount.connect("columnLabels=postgresql");
         Statement statement = postgres.createStatement(); ResultSet result = statement.executeQuery(sql)) {
      ResultSetMetaData meta = result.getMetaData();
      assertThat(List.of(meta.getColumnLabel(1), meta.getColumnLabel(2), meta.getColumnLabel(3),
          meta.getColumnLabel(4))).containsExactly("count", "max", "?column?", "RowKey");
      assertThat(result.next()).isTrue();
      assertThat(result.getLong("count")).isEqualTo(1);
    }
  }
}
