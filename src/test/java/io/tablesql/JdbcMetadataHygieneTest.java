package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Metadata calls close what they open, and every getter of a type name gives it plain. */
class JdbcMetadataHygieneTest {
  private static final List<String> PLAIN = List.of("VARCHAR", "INTEGER", "BIGINT", "DOUBLE", "BOOLEAN", "TIMESTAMP",
      "VARBINARY");
  private static String table;
  private static Connection connection;

  @BeforeAll
  static void setUp() throws SQLException {
    TableClient client = TestAccount.newTable("Hyg");
    TestAccount.insert(client, List.of(new TableEntity("a", "1").addProperty("Text", "x").addProperty("Small", 3)
        .addProperty("Big", 3L).addProperty("Ratio", 1.5).addProperty("Flag", true)
        .addProperty("Bytes", new byte[] {1}).addProperty("At", OffsetDateTime.parse("2000-01-01T00:00:00Z"))));
    table = client.getTableName();
    connection = TestAccount.connect();
  }

  @AfterAll
  static void tearDown() throws SQLException {
    connection.close();
  }

  @Test
  void closingAMetadataResultClosesTheStatementItWasReadWith() throws SQLException {
    DatabaseMetaData meta = connection.getMetaData();
    List<ResultSet> results = List.of(meta.getColumns(null, null, table, null),
        meta.getPrimaryKeys(null, null, table), meta.getIndexInfo(null, null, table, false, true),
        meta.getPrimaryKeys(null, null, "NoSuchTable"), meta.getTypeInfo());
    for (ResultSet rs : results) {
      Statement statement = rs.getStatement();
      assertThat(statement.isClosed()).isFalse();
      while (rs.next()) {
        rs.getString(1);
      }
      rs.close();
      assertThat(statement.isClosed()).isTrue();
    }
  }

  @Test
  void getColumnsTypeNamesArePlainThroughGetStringAndGetObject() throws SQLException {
    List<String> byString = new ArrayList<>();
    List<Object> byObject = new ArrayList<>();
    List<Object> byIndex = new ArrayList<>();
    try (ResultSet rs = connection.getMetaData().getColumns(null, null, table, null)) {
      while (rs.next()) {
        byString.add(rs.getString("TYPE_NAME"));
        byObject.add(rs.getObject("TYPE_NAME"));
        byIndex.add(rs.getObject(6, String.class));
      }
    }
    assertThat(byString).containsExactly("VARCHAR", "VARCHAR", "TIMESTAMP", "TIMESTAMP", "BIGINT", "VARBINARY",
        "BOOLEAN", "DOUBLE", "INTEGER", "VARCHAR");
    assertThat(byObject).isEqualTo(byString);
    assertThat(byIndex).isEqualTo(byString);
  }

  @Test
  void typeInfoAndProcedureTypeNamesArePlain() throws SQLException {
    DatabaseMetaData meta = connection.getMetaData();
    List<String> names = new ArrayList<>();
    try (ResultSet rs = meta.getTypeInfo()) {
      while (rs.next()) {
        names.add(rs.getString("TYPE_NAME"));
        assertThat(rs.getObject("TYPE_NAME")).isEqualTo(names.get(names.size() - 1));
      }
    }
    assertThat(names).containsAll(PLAIN).allSatisfy(JdbcMetadataHygieneTest::assertPlain);
    try (ResultSet rs = meta.getProcedureColumns(null, null, null, null)) {
      while (rs.next()) {
        assertPlain(rs.getString("TYPE_NAME"));
      }
    }
    try (ResultSet rs = meta.getFunctionColumns(null, null, null, null)) {
      while (rs.next()) {
        assertPlain(rs.getString("TYPE_NAME"));
      }
    }
  }

  @Test
  void resultSetMetaDataTypeNamesArePlain() throws SQLException {
    String columns = "Text, Small, Big, Ratio, Flag, \"Timestamp\", Bytes";
    List<String> expected = List.of("VARCHAR", "INTEGER", "BIGINT", "DOUBLE", "BOOLEAN", "TIMESTAMP", "VARBINARY");
    try (Statement statement = connection.createStatement();
         ResultSet rs = statement.executeQuery("SELECT " + columns + ", CAST(Text AS VARCHAR(10)) AS Cut, "
             + "CAST(1.5 AS DECIMAL(5, 2)) AS Dec, 'abc' AS Lit FROM " + table)) {
      List<String> names = typeNames(rs.getMetaData());
      assertThat(names.subList(0, expected.size())).isEqualTo(expected);
      assertThat(names.subList(expected.size(), names.size())).containsExactly("VARCHAR", "DECIMAL", "CHAR");
    }
    try (PreparedStatement prepared = connection.prepareStatement(
        "SELECT " + columns + " FROM " + table + " WHERE RowKey = ?")) {
      assertThat(typeNames(prepared.getMetaData())).isEqualTo(expected);
    }
  }

  private static List<String> typeNames(ResultSetMetaData metaData) throws SQLException {
    List<String> names = new ArrayList<>();
    for (int i = 1; i <= metaData.getColumnCount(); i++) {
      names.add(metaData.getColumnTypeName(i));
    }
    return names;
  }

  private static void assertPlain(String typeName) {
    assertThat(typeName).doesNotContain("(", "NOT NULL", "CHARACTER SET", "JavaType");
  }
}
