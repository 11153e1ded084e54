package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.testing.FaultyProxy;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.TimeZone;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class SchemaTest {
  private static String typed;
  private static String mixed;

  @BeforeAll
  static void setUp() {
    TableClient typedTable = TestAccount.newTable("Typed");
    TestAccount.insert(typedTable, List.of(new TableEntity("p", "1")
        .addProperty("S", "text").addProperty("I", 7).addProperty("L", 1L << 40).addProperty("D", 2.5)
        .addProperty("B", true).addProperty("T", OffsetDateTime.parse("2024-03-01T23:30:00.1234567Z"))
        .addProperty("G", UUID.fromString("5f0c6e2a-1b2c-4d5e-8f90-123456789abc"))
        .addProperty("Bin", new byte[] {10, 27})));
    typed = typedTable.getTableName();

    TableClient mixedTable = TestAccount.newTable("Mixed");
    TestAccount.insert(mixedTable, List.of(
        new TableEntity("emp", "1").addProperty("EntityType", "Employee").addProperty("Name", "Ann").addProperty("N", 1),
        new TableEntity("emp", "2").addProperty("EntityType", "Department").addProperty("Budget", 5L)
            .addProperty("N", 1L << 40),
        new TableEntity("emp", "3").addProperty("EntityType", "Note").addProperty("N", "many").addProperty("Ratio", 1),
        new TableEntity("emp", "4").addProperty("Ratio", 0.5)));
    mixed = mixedTable.getTableName();
  }

  @Test
  void edmTypesMapToSqlTypes() throws SQLException {
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement();
         ResultSet resultSet = statement.executeQuery("SELECT * FROM " + typed)) {
      ResultSetMetaData meta = resultSet.getMetaData();
      List<String> columns = new ArrayList<>();
      for (int i = 1; i <= meta.getColumnCount(); i++) {
        columns.add(meta.getColumnName(i) + ":" + meta.getColumnType(i));
      }
      assertThat(columns).containsExactly("PartitionKey:" + Types.VARCHAR, "RowKey:" + Types.VARCHAR,
          "Timestamp:" + Types.TIMESTAMP, "B:" + Types.BOOLEAN, "Bin:" + Types.VARBINARY, "D:" + Types.DOUBLE,
          "G:" + Types.VARCHAR, "I:" + Types.INTEGER, "L:" + Types.BIGINT, "S:" + Types.VARCHAR,
          "T:" + Types.TIMESTAMP);
      assertThat(meta.isNullable(1)).isEqualTo(ResultSetMetaData.columnNoNulls);
      assertThat(meta.isNullable(4)).isEqualTo(ResultSetMetaData.columnNullable);
      resultSet.next();
      assertThat(resultSet.getLong("L")).isEqualTo(1L << 40);
      assertThat(resultSet.getString("G")).isEqualTo("5f0c6e2a-1b2c-4d5e-8f90-123456789abc");
      assertThat(resultSet.getBytes("Bin")).containsExactly(10, 27);
      assertThat(resultSet.getDouble("D")).isEqualTo(2.5);
    }
  }

  @Test
  void dateTimesAreUtcWhateverTheJvmTimeZone() throws SQLException {
    assertThat(TimeZone.getDefault().getID()).isNotEqualTo("UTC"); // surefire runs the suite in Los Angeles
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement();
         ResultSet resultSet = statement.executeQuery("SELECT T, CAST(T AS VARCHAR) FROM " + typed
             + " WHERE T = TIMESTAMP '2024-03-01 23:30:00.123'")) {
      assertThat(resultSet.next()).isTrue();
      assertThat(resultSet.getString(1)).isEqualTo("2024-03-01 23:30:00.123");
      assertThat(resultSet.getString(2)).startsWith("2024-03-01 23:30:00");
      // a TIMESTAMP without time zone whose wall clock is UTC (JavaTimeTest has every read path)
      assertThat(resultSet.getTimestamp(1)).hasToString("2024-03-01 23:30:00.123");
      assertThat(resultSet.getTimestamp(1, java.util.Calendar.getInstance(TimeZone.getTimeZone("UTC"))).toInstant())
          .isEqualTo(java.time.Instant.parse("2024-03-01T23:30:00.123Z"));
    }
  }

  @Test
  void heterogeneousTableShowsTheUnionAndWidensTypes() throws SQLException {
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement();
         ResultSet resultSet = statement.executeQuery(
             "SELECT RowKey, EntityType, Name, Budget, N, Ratio FROM " + mixed + " ORDER BY RowKey")) {
      ResultSetMetaData meta = resultSet.getMetaData();
      assertThat(meta.getColumnType(5)).isEqualTo(Types.VARCHAR); // Int32 + Int64 + String
      assertThat(meta.getColumnType(6)).isEqualTo(Types.DOUBLE); // Int32 + Double
      List<String> rows = new ArrayList<>();
      while (resultSet.next()) {
        rows.add(resultSet.getString(1) + "," + resultSet.getString(2) + "," + resultSet.getString(3) + ","
            + resultSet.getString(4) + "," + resultSet.getString(5) + "," + resultSet.getString(6));
      }
      assertThat(rows).containsExactly("1,Employee,Ann,null,1,null", "2,Department,null,5,1099511627776,null",
          "3,Note,null,null,many,1.0", "4,null,null,null,null,0.5");
    }
  }

  @Test
  void unquotedIdentifiersIgnoreCase() throws SQLException {
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement();
         ResultSet resultSet = statement.executeQuery("SELECT entitytype, \"Name\" FROM " + mixed.toUpperCase()
             + " WHERE partitionkey = 'emp' AND rowkey = '1'")) {
      assertThat(resultSet.getMetaData().getColumnLabel(2)).isEqualTo("Name");
      assertThat(resultSet.next()).isTrue();
      assertThat(resultSet.getString(2)).isEqualTo("Ann");
    }
  }

  @Test
  void newTableAppearsOnANewConnection() throws SQLException {
    try (Connection before = TestAccount.connect()) {
      String name = TestAccount.newTable("Later").getTableName();
      try (Connection after = TestAccount.connect(); Statement statement = after.createStatement();
           ResultSet resultSet = statement.executeQuery("SELECT COUNT(*) FROM " + name)) {
        assertThat(resultSet.next()).isTrue();
      }
      try (Connection immediate = TestAccount.connect("schemaTtlSeconds=0"); Statement statement =
          before.createStatement()) {
        assertThat(immediate.isValid(1)).isTrue();
        assertThat(statement).isNotNull();
      }
    }
  }

  @Test
  void aSampleOfATableLargerThanItIsOneRequest() throws Exception {
    List<TableEntity> entities = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      entities.add(new TableEntity("p", String.format("r%02d", i)).addProperty(i < 10 ? "Early" : "Late", i));
    }
    String table = TestAccount.newTable("Sampled", entities.toArray(new TableEntity[0])).getTableName();
    try (FaultyProxy proxy = new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port());
         Connection connection = FaultTest.connectThrough(proxy, "sampleSize=10");
         ResultSet columns = connection.getMetaData().getColumns(null, null, table, null)) {
      List<String> names = new ArrayList<>();
      while (columns.next()) {
        names.add(columns.getString("COLUMN_NAME"));
      }
      // the first 10 entities only, from one request of 10: the page after them is not asked for
      assertThat(names).contains("Early").doesNotContain("Late");
      assertThat(proxy.seen().stream().filter(request -> request.isQuery() && request.path().contains(table)))
          .singleElement().satisfies(request -> assertThat(request.query()).containsEntry("$top", "10"));
    }
  }
}
