package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.catalog.TableShape;
import io.tablesql.shell.LocalEmulator;
import io.tablesql.shell.SampleData;
import io.tablesql.testing.OracleComparedTest;
import io.tablesql.testing.QueryRuns;
import io.tablesql.testing.QueryRuns.Run;
import io.tablesql.testing.TestAccount;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code tablesql.suggest_tables} on the sample data: the layouts an application wrote into one
 * Azure table, and statements that map them which, run, give tables that agree with the oracle.
 */
class SuggestTablesTest extends OracleComparedTest {
  @BeforeAll
  static void loadDataset() throws IOException {
    LocalEmulator emulator = TestAccount.emulator();
    SampleData.load(Path.of("sql-examples/dataset.json"), emulator.tableEndpoint(), LocalEmulator.ACCOUNT,
        LocalEmulator.KEY);
  }

  @Test
  void theEmployeesTableHoldsEmployeesTheirEmailIndexAndDepartments() throws SQLException {
    List<String> rows = QueryRuns.run(connection, "SELECT layout, kind, discriminator, partition_key, row_key, "
        + "sampled_entities FROM TABLE(tablesql.suggest_tables('Employees')) ORDER BY layout").rows();
    assertThat(rows).containsExactly(
        "Department|table|\"EntityType\" = 'Department'|{DepartmentName}|department|4",
        "Employee|table|\"EntityType\" = 'Employee'|{DepartmentName}|empid_{EmployeeId:6}|24",
        "EmployeeByEmail|index entries of Employee|\"EntityType\" = 'Employee'|{DepartmentName}|email_{Email}|24");
    assertThat(QueryRuns.run(connection, "SELECT ddl FROM TABLE(tablesql.suggest_tables('Employees')) "
        + "WHERE layout = 'Employee'").rows()).singleElement().asString()
        .contains("ROW KEY 'empid_{EmployeeId:6}' KEY PROPERTIES (\"EmployeeId\") WHERE \"EntityType\" = 'Employee'");
    assertThat(QueryRuns.run(connection, "SELECT s.layout FROM TABLE(tablesql.suggest_tables('Employees')) AS s "
        + "WHERE s.layout = 'Employee'").rows()).containsExactly("Employee"); // aliased, a table function still
    assertThat(QueryRuns.run(connection, "SELECT columns FROM TABLE(tablesql.suggest_tables('Employees')) "
        + "WHERE layout = 'Employee'").rows()).singleElement().asString()
        .startsWith("\"DepartmentName\" VARCHAR, \"EmployeeId\" INT, \"Age\" INT, \"Email\" VARCHAR, \"FirstName\"");
  }

  @Test
  void theSuggestedStatementsMapTablesAndAdoptTheIndexThatAgreeWithTheOracle() throws SQLException {
    // a copy of the sample's Employees: adopting its email_ entities must not touch the shared sample
    TableClient employees = TestAccount.newTable("SuggestEmployees");
    TestAccount.insert(employees, TestAccount.service().getTableClient("Employees").listEntities().stream()
        .map(e -> {
          TableEntity copy = new TableEntity(e.getPartitionKey(), e.getRowKey());
          TableShape.userProperties(e).forEach(copy::addProperty);
          return copy;
        }).toList());
    List<String> layouts = new ArrayList<>();
    List<String> ddl = new ArrayList<>();
    try (Statement statement = connection.createStatement();
        ResultSet resultSet = statement.executeQuery("SELECT layout, ddl FROM TABLE(tablesql.suggest_tables('"
            + employees.getTableName() + "')) ORDER BY kind DESC")) {
      while (resultSet.next()) {
        layouts.add(resultSet.getString(1));
        ddl.add(resultSet.getString(2));
      }
    }
    // the statements README's walkthrough runs (on the sample's own Employees)
    String over = "OVER \"" + employees.getTableName() + "\"";
    assertThat(ddl).containsExactly(
        "CREATE TABLE \"Employee\" (\"DepartmentName\" VARCHAR, \"EmployeeId\" INT, \"Age\" INT, \"Email\" VARCHAR, "
            + "\"FirstName\" VARCHAR, \"HireDate\" TIMESTAMP, \"LastName\" VARCHAR, \"Salary\" BIGINT) " + over
            + " PARTITION KEY '{DepartmentName}' ROW KEY 'empid_{EmployeeId:6}' KEY PROPERTIES (\"EmployeeId\") "
            + "WHERE \"EntityType\" = 'Employee'",
        "CREATE TABLE \"Department\" (\"DepartmentName\" VARCHAR, \"EmployeeCount\" INT, \"Manager\" VARCHAR) " + over
            + " PARTITION KEY '{DepartmentName}' ROW KEY 'department' KEY PROPERTIES (\"DepartmentName\") "
            + "WHERE \"EntityType\" = 'Department'",
        "CREATE INDEX \"EmployeeByEmail\" ON \"Employee\" (\"Email\") LOCAL ROW KEY 'email_{Email}'");
    try (Statement statement = connection.createStatement()) {
      for (String create : ddl) {
        // under names of their own: the sample's setup declares tables named like these
        for (String layout : layouts) {
          create = create.replace("\"" + layout + "\"", "\"Suggested" + layout + "\"");
        }
        statement.execute(create);
      }
    }
    try {
      assertThat(agreed("SELECT COUNT(*) FROM SuggestedEmployee").rows()).containsExactly("24");
      assertThat(agreed("SELECT DepartmentName, EmployeeCount FROM SuggestedDepartment ORDER BY 1").rows())
          .containsExactly("Engineering|6", "Finance|6", "Marketing|6", "Sales|6");
      String point = "SELECT FirstName FROM SuggestedEmployee WHERE DepartmentName = 'Sales' AND EmployeeId = 101";
      assertThat(explain(point)).contains("POINT LOOKUP");
      assertThat(agreed(point).rows()).containsExactly("Hugo");
      String byEmail = "SELECT EmployeeId, LastName FROM SuggestedEmployee WHERE DepartmentName = 'Sales' "
          + "AND Email = 'hugo.oneil@contoso.com'";
      assertThat(explain(byEmail)).contains("INDEX LOOKUP SuggestedEmployeeByEmail");
      Run run = agreed(byEmail);
      assertThat(run.rows()).containsExactly("101|O'Neil");
      assertThat(run.requests()).isEqualTo(1);
      assertThat(agreed("SELECT e.EmployeeId, d.Manager FROM SuggestedEmployee e JOIN SuggestedDepartment d "
          + "ON d.DepartmentName = e.DepartmentName WHERE e.Age > 40 ORDER BY 1").rows()).isNotEmpty();
      // a row written through the suggested table, and its index entity, are as the application writes them
      try (Statement statement = connection.createStatement()) {
        statement.executeUpdate("INSERT INTO SuggestedEmployee (DepartmentName, EmployeeId, Age, Email, FirstName, "
            + "HireDate, LastName, Salary) SELECT DepartmentName, 999, Age, 'new@contoso.com', FirstName, HireDate, "
            + "LastName, Salary FROM SuggestedEmployee WHERE DepartmentName = 'Sales' AND EmployeeId = 101");
      }
      assertThat(propertyTypes(employees.getEntity("Sales", "empid_000999")))
          .isEqualTo(propertyTypes(employees.getEntity("Sales", "empid_000101")));
      assertThat(employees.getEntity("Sales", "empid_000999").getProperty("EmployeeId")).isEqualTo("000999");
      assertThat(TableShape.userProperties(employees.getEntity("Sales", "email_new@contoso.com")))
          .isEqualTo(TableShape.userProperties(employees.getEntity("Sales", "empid_000999")));
    } finally {
      try (Statement statement = connection.createStatement()) {
        for (String table : List.of("SuggestedEmployee", "SuggestedDepartment")) {
          statement.execute("DROP TABLE IF EXISTS " + table);
        }
      }
    }
  }

  /**
   * Compound and padded keys and numbers stored as several Edm types: the suggested statement,
   * run, gives a table that agrees with the oracle and reads every stored number.
   */
  @Test
  void compoundKeysAndMixedTypesMapAsSuggested() throws SQLException {
    List<TableEntity> orders = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      orders.add(new TableEntity(String.format("cust%03d", i % 3), "2024-0" + (1 + i % 6) + "_A" + String.format("%03d", i))
          .addProperty("Total", i % 2 == 0 ? (Object) (10 * i) : (Object) (10L * i)).addProperty("Note", "n" + i));
    }
    TableClient raw = TestAccount.newTable("SuggestOrders");
    TestAccount.insert(raw, orders);
    List<String> ddl = QueryRuns.run(connection, "SELECT ddl FROM TABLE(tablesql.suggest_tables('"
        + raw.getTableName() + "'))").rows();
    assertThat(ddl).singleElement().asString().contains("\"RkValue\" VARCHAR, \"RkValue2\" VARCHAR",
        "\"Total\" BIGINT", "ROW KEY '{RkValue}_{RkValue2}'");
    try (Statement statement = connection.createStatement()) {
      statement.execute(ddl.get(0).replaceFirst("\"[A-Za-z0-9]+\"", "\"SuggestedOrder\""));
    }
    try {
      assertThat(agreed("SELECT COUNT(*), SUM(Total) FROM SuggestedOrder").rows()).containsExactly("12|660");
      assertThat(agreed("SELECT RkValue2, Total FROM SuggestedOrder WHERE PkValue = 'cust001' AND RkValue = '2024-02' "
          + "ORDER BY RkValue2").rows()).containsExactly("A001|10", "A007|70");
    } finally {
      try (Statement statement = connection.createStatement()) {
        statement.execute("DROP TABLE IF EXISTS SuggestedOrder");
      }
    }
  }

  private static Map<String, String> propertyTypes(TableEntity entity) {
    Map<String, String> types = new TreeMap<>();
    TableShape.userProperties(entity).forEach((name, value) -> types.put(name, value.getClass().getSimpleName()));
    return types;
  }

  /** Ids kept as numbers beside the key (EmployeeId Int32 123 next to empid_000123) tell rows from copies too. */
  @Test
  void numericIdsTellTheRowsFromTheirCopies() throws SQLException {
    TableClient staff = TestAccount.newTable("SuggestNumbered");
    List<TableEntity> entities = new ArrayList<>();
    for (int id = 1; id <= 6; id++) {
      TableEntity employee = new TableEntity(id % 2 == 0 ? "Sales" : "Finance", String.format("empid_%06d", id))
          .addProperty("EmployeeId", id).addProperty("Email", "e" + id + "@contoso.com").addProperty("Age", 30 + id);
      entities.add(employee);
      TableEntity copy = new TableEntity(employee.getPartitionKey(), "email_e" + id + "@contoso.com");
      TableShape.userProperties(employee).forEach(copy::addProperty);
      entities.add(copy);
    }
    TestAccount.insert(staff, entities);
    List<String> rows = QueryRuns.run(connection, "SELECT kind, row_key FROM TABLE(tablesql.suggest_tables('"
        + staff.getTableName() + "')) ORDER BY kind").rows();
    assertThat(rows).containsExactly("index entries of Empid|email_{Email}",
        "table|empid_{EmployeeId:6}");
    assertThat(QueryRuns.run(connection, "SELECT ddl FROM TABLE(tablesql.suggest_tables('" + staff.getTableName()
        + "')) WHERE kind = 'table'").rows()).singleElement().asString()
        .contains("ROW KEY 'empid_{EmployeeId:6}' KEY PROPERTIES (\"EmployeeId\")");
  }

  @Test
  void anUnknownTableIsNamed() {
    assertThatThrownBy(() -> QueryRuns.run(connection, "SELECT * FROM TABLE(tablesql.suggest_tables('NoSuchTable'))"))
        .isInstanceOfSatisfying(SQLException.class, e -> {
          assertThat(e.getSQLState()).isEqualTo("42S02");
          assertThat(e.getMessage()).contains("NoSuchTable");
        });
  }
}
