package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.settings.ConnectionSettings;
import io.tablesql.shell.LocalEmulator;
import io.tablesql.testing.FaultyProxy;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Cosmos DB Table API does not return query results in key order. With keyOrder=unsorted
 * (declared here, recognised from the endpoint in real use) nothing relies on that order: every
 * ORDER BY is sorted in the client, and a LIMIT is pushed to the service only without one.
 */
class KeyOrderTest {
  private static final String[] PARTITIONS = {"Pa", "pb", "Q'x", "ü-part"};
  private static final String KEY = "AccountKey=" + LocalEmulator.KEY;

  private static String table;
  private static String lookup;
  private static Connection sorted;
  private static Connection unsorted;
  private static Connection unsortedOracle;

  @BeforeAll
  static void setUp() throws SQLException {
    TableClient client = TestAccount.newTable("KeyOrder");
    List<TableEntity> entities = new ArrayList<>();
    for (String partition : PARTITIONS) {
      for (int i = 0; i < 30; i++) {
        entities.add(new TableEntity(partition, rowKey(i)).addProperty("N", i % 7));
      }
    }
    TestAccount.insert(client, entities);
    table = client.getTableName();
    // a small table whose rows name entities of the large one, for joins on its key
    TableClient references = TestAccount.newTable("KeyOrderLookup");
    List<TableEntity> names = new ArrayList<>();
    for (int n = 0; n < 12; n++) {
      names.add(new TableEntity("n", String.format("%02d", n)).addProperty("Name", "name" + n)
          .addProperty("ItemPartition", PARTITIONS[n % PARTITIONS.length]).addProperty("ItemRow", rowKey(n * 2)));
    }
    TestAccount.insert(references, names);
    lookup = references.getTableName();
    // sampleSize=100: the large table is known to be larger than the sample, so joins on its key look it up
    sorted = TestAccount.connect("keyOrder=sorted", "sampleSize=100");
    unsorted = TestAccount.connect("keyOrder=unsorted", "sampleSize=100");
    unsortedOracle = TestAccount.connect("keyOrder=unsorted", "sampleSize=100", "pushdown=false", "planCacheSize=0");
  }

  /** Upper- and lower-case keys, which sort apart in the service's ordinal order. */
  private static String rowKey(int i) {
    return (i % 3 == 0 ? "R" : "r") + String.format("%02d", i);
  }

  @AfterAll
  static void tearDown() throws SQLException {
    sorted.close();
    unsorted.close();
    unsortedOracle.close();
  }

  @Test
  void cosmosEndpointsAreUnsortedUnlessDeclaredOtherwise() throws SQLException {
    assertThat(resultsInKeyOrder("DefaultEndpointsProtocol=https;AccountName=contoso;" + KEY
        + ";TableEndpoint=https://contoso.table.cosmos.azure.com:443/;")).isFalse();
    assertThat(resultsInKeyOrder("TableEndpoint=https://contoso.table.cosmosdb.azure.com;" + KEY)).isFalse();
    assertThat(resultsInKeyOrder("AccountName=contoso;" + KEY + ";EndpointSuffix=cosmos.azure.com")).isFalse();
    // the Cosmos DB emulator's Table API, as its documentation connects to it
    assertThat(resultsInKeyOrder("DefaultEndpointsProtocol=http;AccountName=localhost;" + KEY
        + ";TableEndpoint=http://localhost:8902/;")).isFalse();
    assertThat(resultsInKeyOrder("AccountName=contoso;" + KEY)).isTrue();
    assertThat(resultsInKeyOrder("UseDevelopmentStorage=true")).isTrue();
    assertThat(resultsInKeyOrder("TableEndpoint=https://contoso.table.cosmos.azure.com;" + KEY + ";keyOrder=Sorted"))
        .isTrue();
    assertThat(resultsInKeyOrder("UseDevelopmentStorage=true;keyOrder=unsorted")).isFalse();
  }

  @Test
  void keyOrderIsValidatedListedAndSettable() throws SQLException {
    assertThatThrownBy(() -> DriverManager.getConnection(TestAccount.url("keyOrder=random")))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("keyOrder='random'").hasMessageContaining("auto, sorted, unsorted")
        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08001"));
    DriverPropertyInfo[] infos = new TableSqlDriver().getPropertyInfo("jdbc:tablesql:", new Properties());
    assertThat(Arrays.stream(infos).filter(info -> info.name.equals("keyOrder")))
        .singleElement().satisfies(info -> {
          assertThat(info.value).isEqualTo("auto");
          assertThat(info.choices).containsExactly("auto", "sorted", "unsorted");
        });
    TableSqlDataSource dataSource = new TableSqlDataSource();
    dataSource.setConnectionString(TestAccount.emulator().connectionString());
    dataSource.setKeyOrder("unsorted");
    try (Connection connection = dataSource.getConnection()) {
      assertThat(connection.unwrap(io.tablesql.jdbc.TableSqlConnection.class).session().resultsInKeyOrder())
          .isFalse();
    }
  }

  @Test
  void explainKeepsTheClientSortOnlyWhereTheServiceIsUnsorted() throws SQLException {
    String ordered = "SELECT PartitionKey, RowKey FROM " + table + " ORDER BY PartitionKey, RowKey LIMIT 5";
    assertThat(explain(sorted, ordered)).doesNotContain("Sort").contains("limit=[5]").doesNotContain("keyOrder");
    assertThat(explain(unsorted, ordered)).contains("EnumerableSort", "keyOrder=[unsorted]")
        .doesNotContain("limit=[5]");
    String partition = "SELECT PartitionKey, RowKey FROM " + table
        + " WHERE PartitionKey = 'pb' ORDER BY PartitionKey, RowKey LIMIT 3";
    assertThat(explain(sorted, partition)).doesNotContain("Sort");
    assertThat(explain(unsorted, partition)).contains("Sort").doesNotContain("limit=[3]");
    String rowKeyOnly = "SELECT RowKey FROM " + table + " WHERE PartitionKey = 'pb' ORDER BY RowKey NULLS FIRST LIMIT 3";
    assertThat(explain(sorted, rowKeyOnly)).doesNotContain("Sort").contains("limit=[3]");
    assertThat(explain(unsorted, rowKeyOnly)).contains("Sort").doesNotContain("limit=[3]");
    // without ORDER BY any rows will do: paging still stops early
    String anyRows = "SELECT PartitionKey, RowKey FROM " + table + " LIMIT 5";
    assertThat(explain(unsorted, anyRows)).contains("limit=[5]");
    assertThat(rows(unsorted, anyRows)).hasSize(5);
  }

  @Test
  void unsortedModeAgreesWithTheOracleOnOrderedQueriesWithLimit() throws SQLException {
    for (String sql : orderedQueries()) {
      List<String> expected = rows(unsortedOracle, sql);
      assertThat(expected).as(sql).isNotEmpty();
      assertThat(rows(unsorted, sql)).as(sql).isEqualTo(expected);
      assertThat(rows(sorted, sql)).as(sql).isEqualTo(expected); // Azurite does sort by key
    }
  }

  @Test
  void throughAServiceThatDoesNotSortOnlyUnsortedModeAnswersRight() throws Exception {
    try (FaultyProxy proxy = new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port())) {
      proxy.reversePages(true);
      try (Connection unsortedThroughProxy = throughProxy(proxy, "keyOrder=unsorted");
           Connection sortedThroughProxy = throughProxy(proxy, "keyOrder=sorted")) {
        assertThat(explain(unsortedThroughProxy, lookupJoin())).contains("LookupJoin", "CACHED");
        for (String sql : orderedQueries()) {
          assertThat(rows(unsortedThroughProxy, sql)).as(sql).isEqualTo(rows(sorted, sql));
        }
        // Trusting the service's order would be wrong on a table, a multi-partition and a cached
        // scan, so the check above can fail.
        for (String sql : List.of(
            "SELECT PartitionKey, RowKey FROM " + table + " ORDER BY PartitionKey, RowKey LIMIT 5",
            "SELECT PartitionKey, RowKey FROM " + table + " WHERE PartitionKey IN ('pb', 'Pa') "
                + "ORDER BY PartitionKey, RowKey LIMIT 12",
            "SELECT RowKey, Name FROM " + lookup + " ORDER BY PartitionKey, RowKey LIMIT 3")) {
          assertThat(rows(sortedThroughProxy, sql)).as(sql).isNotEqualTo(rows(sorted, sql));
        }
      }
    }
  }

  /** The large table looked up by the keys the small one names, ordered by the small one's key. */
  private static String lookupJoin() {
    return "SELECT l.RowKey, t.PartitionKey, t.RowKey, t.N FROM " + lookup + " l JOIN " + table + " t "
        + "ON t.PartitionKey = l.ItemPartition AND t.RowKey = l.ItemRow ORDER BY l.PartitionKey, l.RowKey LIMIT 5";
  }

  /** ORDER BY ... LIMIT over each access path, the lookup cache and a lookup join. */
  private static List<String> orderedQueries() {
    String columns = "SELECT PartitionKey, RowKey, N FROM " + table;
    return List.of(
        columns + " ORDER BY PartitionKey, RowKey LIMIT 7",
        columns + " ORDER BY PartitionKey DESC, RowKey DESC LIMIT 4",
        columns + " WHERE PartitionKey = 'pb' ORDER BY RowKey LIMIT 4 OFFSET 3",
        columns + " WHERE PartitionKey = 'pb' ORDER BY RowKey NULLS FIRST LIMIT 4",
        "SELECT t.RowKey FROM (" + columns + ") t WHERE t.PartitionKey = 'Pa' ORDER BY t.RowKey DESC LIMIT 4",
        columns + " WHERE PartitionKey = 'Q''x' AND RowKey > 'r10' ORDER BY PartitionKey, RowKey LIMIT 5",
        columns + " WHERE PartitionKey IN ('ü-part', 'Pa') ORDER BY PartitionKey, RowKey LIMIT 33",
        columns + " WHERE PartitionKey = 'Pa' AND N > 2 ORDER BY PartitionKey, RowKey LIMIT 6",
        columns + " WHERE (PartitionKey, RowKey) IN (('pb', 'r04'), ('Pa', 'r10'), ('pb', 'R03')) "
            + "ORDER BY PartitionKey, RowKey LIMIT 2",
        columns + " ORDER BY N, PartitionKey, RowKey LIMIT 10",
        "SELECT RowKey, Name FROM " + lookup + " ORDER BY PartitionKey, RowKey LIMIT 3",
        lookupJoin());
  }

  private static Connection throughProxy(FaultyProxy proxy, String keyOrder) throws SQLException {
    return DriverManager.getConnection("jdbc:tablesql:TableEndpoint=" + proxy.base() + "/" + LocalEmulator.ACCOUNT
        + ";AccountName=" + LocalEmulator.ACCOUNT + ";" + KEY + ";sampleSize=100;pageSize=5;lookupTables=" + lookup + ";"
        + keyOrder);
  }

  private static boolean resultsInKeyOrder(String connectionString) throws SQLException {
    return ConnectionSettings.parse(ConnectionSettings.URL_PREFIX + connectionString, null).resultsInKeyOrder();
  }

  private static String explain(Connection connection, String sql) throws SQLException {
    return rows(connection, "EXPLAIN PLAN FOR " + sql).get(0);
  }

  private static List<String> rows(Connection connection, String sql) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Statement statement = connection.createStatement(); ResultSet resultSet = statement.executeQuery(sql)) {
      int columns = resultSet.getMetaData().getColumnCount();
      while (resultSet.next()) {
        StringBuilder row = new StringBuilder();
        for (int i = 1; i <= columns; i++) {
          row.append(i == 1 ? "" : "/").append(resultSet.getString(i));
        }
        rows.add(row.toString());
      }
    }
    return rows;
  }
}
