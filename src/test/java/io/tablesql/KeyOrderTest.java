package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablesql.jdbc.ConnectionSettings;
import io.tablesql.shell.LocalEmulator;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * The Cosmos DB Table API does not return query results in key order: keyOrder says whether the
 * service does, recognising Cosmos DB endpoints by default.
 */
class KeyOrderTest {
  private static final String KEY = "AccountKey=" + LocalEmulator.KEY;

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

  private static boolean resultsInKeyOrder(String connectionString) throws SQLException {
    return ConnectionSettings.parse(ConnectionSettings.URL_PREFIX + connectionString, null).resultsInKeyOrder();
  }
}
