package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.sas.TableAccountSasPermission;
import com.azure.data.tables.sas.TableAccountSasResourceType;
import com.azure.data.tables.sas.TableAccountSasService;
import com.azure.data.tables.sas.TableAccountSasSignatureValues;
import io.tablesql.settings.ConnectionSettings;
import io.tablesql.shell.LocalEmulator;
import io.tablesql.testing.TestAccount;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class ConnectionTest {
  private static final String WRONG_KEY = "d3Jvbmcta2V5LXRoYXQtbXVzdC1uZXZlci1iZS1wcmludGVkLWFueXdoZXJlLi4uLg==";

  @Test
  void driverIsFoundThroughServiceLoader() throws SQLException {
    Driver driver = DriverManager.getDriver("jdbc:tablesql:UseDevelopmentStorage=true");
    assertThat(driver).isInstanceOf(TableSqlDriver.class);
    assertThat(driver.acceptsURL("jdbc:postgresql://x")).isFalse();
  }

  @Test
  void connectsWithAccountKeyAndQueries() throws SQLException {
    try (Connection connection = TestAccount.connect(); ResultSet resultSet =
        connection.createStatement().executeQuery("VALUES 1")) {
      assertThat(resultSet.next()).isTrue();
      assertThat(connection.isValid(5)).isTrue();
    }
  }

  @Test
  void connectsWithPropertiesInsteadOfTheUrl() throws SQLException {
    Properties properties = new Properties();
    properties.setProperty("TableEndpoint", TestAccount.emulator().tableEndpoint());
    properties.setProperty("AccountName", LocalEmulator.ACCOUNT);
    properties.setProperty("AccountKey", LocalEmulator.KEY);
    properties.setProperty("pushdown", "false");
    try (Connection connection = DriverManager.getConnection("jdbc:tablesql:", properties)) {
      assertThat(connection.unwrap(io.tablesql.jdbc.TableSqlConnection.class).session().pushdown()).isFalse();
    }
  }

  @Test
  void connectsWithSharedAccessSignature() throws SQLException {
    TestAccount.newTable("SasVisible");
    String sas = TestAccount.service().generateAccountSas(new TableAccountSasSignatureValues(
        OffsetDateTime.now().plusHours(1), TableAccountSasPermission.parse("rl"),
        new TableAccountSasService().setTableAccess(true),
        TableAccountSasResourceType.parse("sco")));
    String url = "jdbc:tablesql:TableEndpoint=" + TestAccount.emulator().tableEndpoint()
        + ";SharedAccessSignature=" + sas;
    try (Connection connection = DriverManager.getConnection(url);
         ResultSet tables = connection.getMetaData().getTables(null, null, "SasVisible%", null)) {
      assertThat(tables.next()).isTrue();
    }
  }

  @Test
  void connectionStringFormsResolveToEndpoints() throws SQLException {
    ConnectionSettings development = ConnectionSettings.parse("jdbc:tablesql:UseDevelopmentStorage=true", null);
    assertThat(development.tableEndpoint()).isEqualTo("http://127.0.0.1:10002/devstoreaccount1");
    ConnectionSettings azure = ConnectionSettings.parse("jdbc:tablesql:DefaultEndpointsProtocol=https;"
        + "AccountName=contoso;AccountKey=" + WRONG_KEY + ";EndpointSuffix=core.windows.net", null);
    assertThat(azure.tableEndpoint()).isEqualTo("https://contoso.table.core.windows.net");
    assertThat(azure.accountName()).isEqualTo("contoso");
    ConnectionSettings explicit = ConnectionSettings.parse("jdbc:tablesql:TableEndpoint=http://127.0.0.1:9/acct;"
        + "AccountKey=" + WRONG_KEY, null);
    assertThat(explicit.accountName()).isEqualTo("acct");
    assertThat(azure.toString()).doesNotContain(WRONG_KEY);
  }

  @Test
  void unknownKeyIsNamedWithTheValidOnes() {
    assertThatThrownBy(() -> DriverManager.getConnection("jdbc:tablesql:UseDevelopmentStorage=true;pushDwon=false"))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("'pushDwon'")
        .hasMessageContaining("pushdown")
        .hasMessageContaining("AccountKey")
        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("08001"));
  }

  @Test
  void badPropertyValueSaysWhatIsExpected() {
    assertThatThrownBy(() -> DriverManager.getConnection(TestAccount.url("pageSize=5000")))
        .hasMessageContaining("pageSize").hasMessageContaining("1 to 1000");
  }

  @Test
  void missingCredentialsAreExplained() {
    assertThatThrownBy(() -> DriverManager.getConnection("jdbc:tablesql:AccountName=contoso"))
        .hasMessageContaining("AccountKey");
  }

  @Test
  void unreachableEndpointIsClass08AndNamesTheEndpoint() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    String endpoint = "http://127.0.0.1:" + port + "/devstoreaccount1";
    assertThatThrownBy(() -> DriverManager.getConnection("jdbc:tablesql:TableEndpoint=" + endpoint
        + ";AccountName=devstoreaccount1;AccountKey=" + WRONG_KEY + ";maxRetries=0"))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining(endpoint)
        .hasMessageNotContaining(WRONG_KEY)
        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).startsWith("08"));
  }

  @Test
  void rejectedCredentialsAre28000AndNeverEchoed() {
    String url = "jdbc:tablesql:TableEndpoint=" + TestAccount.emulator().tableEndpoint()
        + ";AccountName=devstoreaccount1;AccountKey=" + WRONG_KEY;
    assertThatThrownBy(() -> DriverManager.getConnection(url))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("credentials")
        .hasMessageNotContaining(WRONG_KEY)
        .satisfies(e -> {
          assertThat(((SQLException) e).getSQLState()).isEqualTo("28000");
          for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            assertThat(String.valueOf(cause.getMessage())).doesNotContain(WRONG_KEY);
          }
        });
  }

  /** A password that is no account key at all (not base64) is refused as credentials, before any request. */
  @Test
  void aPasswordThatIsNoAccountKeyIs28000() {
    String notAKey = "hunter2!not*base64";
    Properties properties = new Properties();
    properties.setProperty("password", notAKey);
    assertThatThrownBy(() -> DriverManager.getConnection("jdbc:tablesql:TableEndpoint="
        + TestAccount.emulator().tableEndpoint() + ";AccountName=devstoreaccount1", properties))
        .isInstanceOf(SQLException.class)
        .hasMessageContaining("not a valid account key")
        .hasMessageNotContaining(notAKey)
        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("28000"));
  }

  @Test
  void everyDriverPropertyIsListedWithItsDefault() throws SQLException {
    DriverPropertyInfo[] infos = new TableSqlDriver().getPropertyInfo("jdbc:tablesql:", new Properties());
    assertThat(Arrays.stream(infos).map(info -> info.name))
        .contains("pushdown", "sampleSize", "schemaTtlSeconds", "pageSize", "maxConcurrency");
    assertThat(Arrays.stream(infos)).allSatisfy(info -> assertThat(info.description).contains("Default:"));
  }
}
