package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.catalog.TableShape;
import io.tablesql.testing.OracleComparedTest;
import io.tablesql.testing.QueryRuns;
import io.tablesql.testing.QueryRuns.Run;
import io.tablesql.testing.TestAccount;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The guide's intra-partition secondary index, written by an application (a copy of each
 * employee under {@code email_<address>} in its partition), adopted as an index of the table
 * mapped over the employees: verified without rewriting what is right, used by the planner, and
 * kept exactly as the application writes it by every write through tablesql.
 */
class AdoptedIndexTest extends OracleComparedTest {
  private static TableClient raw;

  private static TableEntity employee(String department, int id, String name) {
    return new TableEntity(department, String.format("empid_%06d", id)).addProperty("EntityType", "Employee")
        .addProperty("EmployeeId", String.format("%06d", id)).addProperty("FirstName", name)
        .addProperty("Email", name.toLowerCase() + "@contoso.com").addProperty("Age", 30 + id % 10)
        .addProperty("Badge", new byte[] {1, 2, (byte) id}); // Binary: copies compare by content
  }

  /** The application's index entity of an employee: the same properties under email_ in its partition. */
  private static TableEntity byEmail(TableEntity employee) {
    TableEntity copy = new TableEntity(employee.getPartitionKey(), "email_" + employee.getProperty("Email"));
    TableShape.userProperties(employee).forEach(copy::addProperty);
    return copy;
  }

  @BeforeAll
  static void setUp() throws SQLException {
    List<TableEntity> entities = new ArrayList<>();
    String[] names = {"Ann", "Bob", "Cy", "Dee", "Eve", "Fay"};
    for (int i = 0; i < names.length; i++) {
      TableEntity employee = employee(i % 2 == 0 ? "Sales" : "Finance", 101 + i, names[i]);
      entities.add(employee);
      if (i != 5) {
        entities.add(byEmail(employee)); // Fay's entity is missing
      }
    }
    entities.set(1, byEmail(employee("Sales", 101, "Ann")).addProperty("Age", 99)); // a stale copy of Ann
    entities.add(byEmail(employee("Sales", 199, "Ghost"))); // a copy of no employee
    raw = TestAccount.newTable("AdoptStaff");
    TestAccount.insert(raw, entities);
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE AdoptStaff (Department VARCHAR, EmployeeId INT, FirstName VARCHAR, "
          + "Email VARCHAR, Age INT) OVER " + raw.getTableName() + " PARTITION KEY '{Department}' "
          + "ROW KEY 'empid_{EmployeeId:6}' KEY PROPERTIES (EmployeeId) WHERE EntityType = 'Employee'");
    }
  }

  private static Map<String, String> etags() {
    Map<String, String> etags = new HashMap<>();
    raw.listEntities().forEach(e -> etags.put(e.getPartitionKey() + "/" + e.getRowKey(), e.getETag()));
    return etags;
  }

  /** Every employee's email_ entity is a copy of it, and there is no other. */
  private static void assertEntitiesAreCopies() {
    Map<String, Map<String, Object>> employees = new HashMap<>();
    Map<String, Map<String, Object>> copies = new HashMap<>();
    for (TableEntity entity : raw.listEntities()) {
      Map<String, Object> properties = TableShape.userProperties(entity);
      properties.replaceAll((name, value) -> value instanceof byte[] bytes ? Arrays.toString(bytes) : value);
      if (entity.getRowKey().startsWith("empid_")) {
        employees.put(entity.getPartitionKey() + "/email_" + properties.get("Email"), properties);
      } else {
        copies.put(entity.getPartitionKey() + "/" + entity.getRowKey(), properties);
      }
    }
    assertThat(copies).isEqualTo(employees);
  }

  private static String lastWarning(Statement statement) throws SQLException {
    String last = null;
    for (SQLWarning w = statement.getWarnings(); w != null; w = w.getNextWarning()) {
      last = w.getMessage();
    }
    return last;
  }

  @Test
  void adoptingRepairsOnlyWhatIsWrongAndEveryWriteKeepsTheCopies() throws SQLException {
    Map<String, String> before = etags();
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE INDEX AdoptStaffByEmail ON AdoptStaff (Email) LOCAL ROW KEY 'email_{Email}'");
      assertThat(lastWarning(statement)).isEqualTo("Index AdoptStaffByEmail: 6 rows indexed, 1 missing and 1 "
          + "differing entries written (the others were right), 7 entries checked, 1 orphaned entries removed.");
    }
    assertEntitiesAreCopies();
    Map<String, String> after = etags();
    for (String right : List.of("Finance/email_bob@contoso.com", "Sales/email_cy@contoso.com",
        "Finance/email_dee@contoso.com", "Sales/email_eve@contoso.com", "Sales/empid_000101")) {
      assertThat(after.get(right)).as(right + " is not written again").isEqualTo(before.get(right));
    }

    // the Azure table stays visible as it is, and a statement writing a row and its copy by hand
    // (the guide's way, through the raw table) writes them as it says, once each
    assertThat(agreed("SELECT COUNT(*) FROM " + raw.getTableName()).rows()).containsExactly("12");
    try (Statement statement = connection.createStatement()) {
      assertThat(statement.executeUpdate("UPDATE " + raw.getTableName() + " SET Age = Age + 1 WHERE "
          + "PartitionKey = 'Sales' AND RowKey IN ('empid_000103', 'email_cy@contoso.com')")).isEqualTo(2);
      statement.executeUpdate("UPDATE " + raw.getTableName() + " SET Age = Age - 1 WHERE "
          + "PartitionKey = 'Sales' AND RowKey IN ('empid_000103', 'email_cy@contoso.com')");
    }
    assertEntitiesAreCopies();

    String byEmail = "SELECT EmployeeId, FirstName, Age FROM AdoptStaff WHERE Department = 'Sales' "
        + "AND Email = 'cy@contoso.com'";
    assertThat(explain(byEmail)).contains("INDEX LOOKUP AdoptStaffByEmail");
    Run run = agreed(byEmail);
    assertThat(run.rows()).containsExactly("103|Cy|33");
    assertThat(run.requests()).isEqualTo(1);

    try (Statement statement = connection.createStatement()) {
      statement.executeUpdate("INSERT INTO AdoptStaff VALUES ('Sales', 107, 'Gus', 'gus@contoso.com', 41)");
      statement.executeUpdate("UPDATE AdoptStaff SET Email = 'ann.b@contoso.com' WHERE Department = 'Sales' "
          + "AND EmployeeId = 101");
      statement.executeUpdate("UPDATE AdoptStaff SET Age = 50 WHERE Department = 'Finance'");
      statement.executeUpdate("DELETE FROM AdoptStaff WHERE Department = 'Sales' AND EmployeeId = 105");
      statement.executeUpdate("UPDATE AdoptStaff SET Department = 'Finance' WHERE Department = 'Sales' "
          + "AND EmployeeId = 103");
      statement.executeUpdate("UPSERT INTO AdoptStaff VALUES ('Sales', 107, 'Gus', 'gus@contoso.com', 42)");
      connection.setAutoCommit(false);
      statement.executeUpdate("INSERT INTO AdoptStaff VALUES ('Finance', 109, 'Ivy', 'ivy@contoso.com', 28)");
      statement.executeUpdate("INSERT INTO AdoptStaff VALUES ('Sales', 110, 'Jo', 'jo@contoso.com', 29)");
      connection.commit();
      connection.setAutoCommit(true);
    }
    try (PreparedStatement insert = connection.prepareStatement("INSERT INTO AdoptStaff VALUES (?, ?, ?, ?, ?)")) {
      for (Object[] row : new Object[][] {{"Finance", 111, "Kim", "kim@contoso.com", 45},
          {"Sales", 112, "Lu", "lu@contoso.com", 46}}) {
        for (int i = 0; i < row.length; i++) {
          insert.setObject(i + 1, row[i]);
        }
        insert.addBatch();
      }
      insert.executeBatch();
    }
    assertEntitiesAreCopies();
    assertThat(raw.getEntity("Sales", "email_gus@contoso.com").getProperty("EmployeeId")).isEqualTo("000107");
    assertThat(raw.getEntity("Sales", "email_gus@contoso.com").getProperty("Age")).isEqualTo(42);
    assertThat(QueryRuns.verify(connection, "AdoptStaffByEmail")).isEqualTo("Index AdoptStaffByEmail: 10 rows "
        + "indexed, 0 missing and 0 differing entries written (the others were right), 10 entries checked, "
        + "0 orphaned entries removed.");
    assertThat(agreed("SELECT EmployeeId FROM AdoptStaff WHERE Department = 'Finance' AND Email = 'cy@contoso.com'")
        .rows()).containsExactly("103");

    // one entity per value and partition: a second row with the value is refused, nothing written
    try (Statement statement = connection.createStatement()) {
      assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO AdoptStaff VALUES ('Sales', 108, 'Gus2', "
          + "'gus@contoso.com', 20)")).isInstanceOfSatisfying(SQLException.class, e -> {
            assertThat(e.getSQLState()).isEqualTo("23505");
            assertThat(e.getMessage()).contains("AdoptStaffByEmail", "RowKey 'empid_000107'");
          });
      assertThat(raw.listEntities().stream().noneMatch(e -> e.getRowKey().equals("empid_000108"))).isTrue();

      statement.execute("DROP INDEX AdoptStaffByEmail");
    }
    // the entities are the application's: dropping the index leaves them
    assertEntitiesAreCopies();
    assertThat(raw.getEntity("Sales", "email_gus@contoso.com")).isNotNull();
  }

  /**
   * Applications often keep the key field as a number beside the key ({@code EmployeeId} Int32 123
   * next to the RowKey {@code empid_000123}): the copies name their rows by that number, and
   * tablesql's writes keep it a number.
   */
  @Test
  void keyPropertiesHeldAsNumbersNameTheirRowsAndStayNumbers() throws SQLException {
    List<TableEntity> entities = new ArrayList<>();
    String[] names = {"Ann", "Bob", "Cy"};
    for (int i = 0; i < names.length; i++) {
      TableEntity employee = employee("Sales", 121 + i, names[i]).addProperty("EmployeeId", 121 + i);
      entities.add(employee);
      entities.add(byEmail(employee));
    }
    TableClient numbered = TestAccount.newTable("AdoptNumbered");
    TestAccount.insert(numbered, entities);
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE AdoptNumbered (Department VARCHAR, EmployeeId INT, FirstName VARCHAR, "
          + "Email VARCHAR, Age INT) OVER " + numbered.getTableName() + " PARTITION KEY '{Department}' "
          + "ROW KEY 'empid_{EmployeeId:6}' KEY PROPERTIES (EmployeeId) WHERE EntityType = 'Employee'");
      statement.execute("CREATE INDEX AdoptNumberedByEmail ON AdoptNumbered (Email) LOCAL ROW KEY 'email_{Email}'");
      assertThat(lastWarning(statement)).isEqualTo("Index AdoptNumberedByEmail: 3 rows indexed, 0 missing and 0 "
          + "differing entries written (the others were right), 3 entries checked, 0 orphaned entries removed.");
      String byEmail = "SELECT EmployeeId, FirstName FROM AdoptNumbered WHERE Department = 'Sales' "
          + "AND Email = 'bob@contoso.com'";
      assertThat(explain(byEmail)).contains("INDEX LOOKUP AdoptNumberedByEmail");
      assertThat(agreed(byEmail).rows()).containsExactly("122|Bob");

      statement.executeUpdate("INSERT INTO AdoptNumbered VALUES ('Sales', 124, 'Dee', 'dee@contoso.com', 40)");
      statement.executeUpdate("UPDATE AdoptNumbered SET Age = 51 WHERE Department = 'Sales' AND EmployeeId = 121");
      statement.executeUpdate("UPDATE AdoptNumbered SET Department = 'Finance' WHERE Department = 'Sales' "
          + "AND EmployeeId = 123");
    }
    for (String[] key : new String[][] {{"Sales", "empid_000124"}, {"Sales", "email_dee@contoso.com"},
        {"Sales", "email_ann@contoso.com"}, {"Finance", "empid_000123"}, {"Finance", "email_cy@contoso.com"}}) {
      assertThat(numbered.getEntity(key[0], key[1]).getProperty("EmployeeId")).as(key[1]).isInstanceOf(Integer.class);
    }
    assertThat(QueryRuns.verify(connection, "AdoptNumberedByEmail")).isEqualTo("Index AdoptNumberedByEmail: 4 rows "
        + "indexed, 0 missing and 0 differing entries written (the others were right), 4 entries checked, "
        + "0 orphaned entries removed.");
    assertThat(agreed("SELECT EmployeeId, Age FROM AdoptNumbered WHERE Department = 'Sales' "
        + "AND Email = 'ann@contoso.com'").rows()).containsExactly("121|51");

    // a copy whose key property names no row cannot be skipped: its row could be lost from the answer
    numbered.updateEntity(new TableEntity("Sales", "email_bob@contoso.com").addProperty("EmployeeId", "twelve"));
    assertThatThrownBy(() -> QueryRuns.run(connection, "SELECT EmployeeId FROM AdoptNumbered WHERE Department = "
        + "'Sales' AND Email = 'bob@contoso.com'")).isInstanceOfSatisfying(SQLException.class, e -> {
          assertThat(e.getSQLState()).isEqualTo("22000");
          assertThat(e.getMessage()).contains("AdoptNumberedByEmail", "email_bob@contoso.com", "EmployeeId");
        });
  }

  @Test
  void whatAdoptionNeedsIsNamed() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE AdoptNoKeyProps (Department VARCHAR, EmployeeId INT, Email VARCHAR) OVER "
          + raw.getTableName() + " PARTITION KEY '{Department}' ROW KEY 'empid_{EmployeeId:6}'");
      assertThatThrownBy(() -> statement.execute("CREATE INDEX AdoptBad ON AdoptNoKeyProps (Email) LOCAL ROW KEY "
          + "'email_{Email}'")).isInstanceOfSatisfying(SQLException.class, e -> {
            assertThat(e.getSQLState()).isEqualTo("0A000");
            assertThat(e.getMessage()).contains("KEY PROPERTIES (EmployeeId)");
          });
      assertThatThrownBy(() -> statement.execute("CREATE INDEX AdoptBad ON AdoptNoKeyProps (Email) LOCAL"))
          .isInstanceOfSatisfying(SQLException.class, e -> {
            assertThat(e.getSQLState()).isEqualTo("0A000");
            assertThat(e.getMessage()).contains("LOCAL ROW KEY");
          });
      assertThatThrownBy(() -> statement.execute("CREATE INDEX AdoptBad ON AdoptStaff (Email) LOCAL ROW KEY "
          + "'email_{FirstName}'")).isInstanceOfSatisfying(SQLException.class, e -> {
            assertThat(e.getSQLState()).isEqualTo("42000");
            assertThat(e.getMessage()).contains("must be made of the indexed columns (Email)");
          });
      assertThatThrownBy(() -> statement.execute("CREATE INDEX AdoptBad ON AdoptStaff (Email) LOCAL ROW KEY "
          + "'email_{Email:wide}'")).isInstanceOfSatisfying(SQLException.class, e -> {
            assertThat(e.getSQLState()).isEqualTo("42000");
            assertThat(e.getMessage()).contains("'email_{Email:wide}'", "cannot be used");
          });
      statement.execute("DROP TABLE AdoptNoKeyProps");
    }
  }
}
