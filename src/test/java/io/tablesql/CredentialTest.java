package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.sas.TableAccountSasPermission;
import com.azure.data.tables.sas.TableAccountSasResourceType;
import com.azure.data.tables.sas.TableAccountSasService;
import com.azure.data.tables.sas.TableAccountSasSignatureValues;
import com.azure.data.tables.sas.TableSasPermission;
import com.azure.data.tables.sas.TableSasSignatureValues;
import io.tablesql.shell.LocalEmulator;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Other people's credentials: shared caches never cross them, and scoped SAS tokens work. */
class CredentialTest {
  private static TableClient departments;
  private static TableClient projects;

  @BeforeAll
  static void setUp() {
    departments = TestAccount.newTable("Depts");
    projects = TestAccount.newTable("Projects");
    TestAccount.insert(departments, List.of(new TableEntity("d", "1").addProperty("Name", "Payroll"),
        new TableEntity("d", "2").addProperty("Name", "Legal")));
    TestAccount.insert(projects, List.of(new TableEntity("p", "1").addProperty("Name", "Apollo")));
  }

  private static String accountSas(String permissions) {
    return TestAccount.service().generateAccountSas(new TableAccountSasSignatureValues(
        OffsetDateTime.now().plusHours(1), TableAccountSasPermission.parse(permissions),
        new TableAccountSasService().setTableAccess(true), TableAccountSasResourceType.parse("sco")));
  }

  private static String tableSas(TableClient table) {
    return table.generateSas(new TableSasSignatureValues(OffsetDateTime.now().plusHours(1),
        TableSasPermission.parse("r")));
  }

  private static Connection connect(String sas, String... properties) throws SQLException {
    StringBuilder url = new StringBuilder("jdbc:tablesql:TableEndpoint=")
        .append(TestAccount.emulator().tableEndpoint()).append(";SharedAccessSignature=").append(sas);
    for (String property : properties) {
      url.append(';').append(property);
    }
    return DriverManager.getConnection(url.toString());
  }

  private static List<String> names(Connection connection, String sql) throws SQLException {
    List<String> names = new ArrayList<>();
    try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
      while (rows.next()) {
        names.add(rows.getString(1));
      }
    }
    return names;
  }

  @Test
  void cachedLookupTableIsNeverServedToACredentialThatCannotReadIt() throws SQLException {
    String sql = "SELECT Name FROM " + departments.getTableName() + " ORDER BY Name";
    String lookup = "lookupTables=" + departments.getTableName();
    try (Connection reader = connect(accountSas("rl"), lookup);
         Connection lister = connect(accountSas("l"), lookup)) {
      assertThat(names(reader, sql)).containsExactly("Legal", "Payroll"); // cached now
      assertThatThrownBy(() -> names(lister, sql))
          .isInstanceOf(SQLException.class)
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42501"))
          .hasMessageContaining(departments.getTableName())
          .hasMessageNotContaining("sig=");
    }
  }

  @Test
  void aSasScopedToOneTableConnectsAndFindsItsTable() throws SQLException {
    try (Connection connection = connect(tableSas(projects))) {
      assertThat(names(connection, "SELECT Name FROM " + projects.getTableName())).containsExactly("Apollo");
      try (ResultSet tables = connection.getMetaData().getTables(null, LocalEmulator.ACCOUNT, "%", null)) {
        List<String> listed = new ArrayList<>();
        while (tables.next()) {
          listed.add(tables.getString("TABLE_NAME"));
        }
        assertThat(listed).contains(projects.getTableName()).doesNotContain(departments.getTableName());
      }
      assertThatThrownBy(() -> names(connection, "SELECT Name FROM " + departments.getTableName()))
          .isInstanceOf(SQLException.class)
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42501"))
          .hasMessageContaining(departments.getTableName())
          .hasMessageNotContaining("sig=");
      assertThat(names(connection, "SELECT Name FROM " + projects.getTableName())).containsExactly("Apollo");
    }
  }

  @Test
  void tablesFoundAsStatementsNameThemWhenTheSasMayNotList() throws SQLException {
    // an account SAS that reads entities but may not list tables
    try (Connection connection = connect(accountSas("r"))) {
      assertThat(names(connection, "SELECT Name FROM " + departments.getTableName() + " ORDER BY Name"))
          .containsExactly("Legal", "Payroll");
      assertThatThrownBy(() -> names(connection, "SELECT * FROM NoSuchTable"))
          .isInstanceOf(SQLException.class)
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isIn("42S02", "42501"))
          .hasMessageContaining("NoSuchTable");
    }
  }

  @Test
  void theTablesPropertyNamesTheSchemaWithoutListing() throws SQLException {
    try (Connection connection = TestAccount.connect("tables=" + projects.getTableName());
         ResultSet tables = connection.getMetaData().getTables(null, LocalEmulator.ACCOUNT, "%", null)) {
      List<String> listed = new ArrayList<>();
      while (tables.next()) {
        listed.add(tables.getString("TABLE_NAME"));
      }
      // the named table, not the account's others (declared tables, from the catalog, may be there too)
      assertThat(listed).contains(projects.getTableName()).doesNotContain(departments.getTableName());
      assertThat(names(connection, "SELECT Name FROM " + departments.getTableName() + " WHERE RowKey = '2'"))
          .containsExactly("Legal");
    }
  }

  /** A SAS of the Table service alone writes every row but one whose value must go to Blob storage: that is 42501. */
  @Test
  void aSasWithoutTheBlobServiceIsRefusedOnlyForALongValue() throws SQLException {
    try (Connection connection = connect(accountSas("rwdlacu"), "BlobEndpoint=" + TestAccount.emulator().blobEndpoint());
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE SasDocs (Id INT PRIMARY KEY, Body VARCHAR)");
      statement.executeUpdate("INSERT INTO SasDocs VALUES (1, '" + "x".repeat(40_000) + "')"); // parts: no blob
      try (java.sql.PreparedStatement insert = connection.prepareStatement("INSERT INTO SasDocs VALUES (2, ?)")) {
        insert.setString(1, "y".repeat(600_000));
        assertThatThrownBy(insert::executeUpdate)
            .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("42501"))
            .hasMessageContaining("Blob storage").hasMessageContaining("ss=b");
      }
      assertThat(names(connection, "SELECT Id FROM SasDocs")).containsExactly("1");
      statement.execute("DROP TABLE SasDocs"); // its blobs cannot be listed with this SAS: dropped all the same
    }
  }
}
