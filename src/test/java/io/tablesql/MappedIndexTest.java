package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.testing.OracleComparedTest;
import io.tablesql.testing.QueryRuns;
import io.tablesql.testing.TestAccount;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * GLOBAL indexes of a table mapped over existing data: entries in a table of their own (the
 * application's partitions get nothing of tablesql's), only for the mapping's rows (not the other
 * entity types sharing the Azure table), kept by writes through tablesql; rows the application
 * writes itself get theirs from ALTER INDEX ... VERIFY.
 */
class MappedIndexTest extends OracleComparedTest {
  private static TableClient raw;

  private static TableEntity employee(String department, int id, String email, int age) {
    return new TableEntity(department, String.format("emp_%04d", id)).addProperty("Kind", "Employee")
        .addProperty("Email", email).addProperty("Age", age);
  }

  @BeforeAll
  static void setUp() throws SQLException {
    List<TableEntity> entities = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      entities.add(employee(i % 3 == 0 ? "Sales" : "Ops", i, "e" + i + "@x.com", 20 + i % 4));
    }
    entities.add(new TableEntity("Sales", "dept").addProperty("Kind", "Department").addProperty("Email", "e1@x.com"));
    raw = TestAccount.newTable("MixStaff");
    TestAccount.insert(raw, entities);
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE MixStaff (Dept VARCHAR, Id INT, Email VARCHAR, Age INT) OVER "
          + raw.getTableName() + " PARTITION KEY '{Dept}' ROW KEY 'emp_{Id:4}' WHERE Kind = 'Employee'");
      statement.execute("CREATE UNIQUE INDEX MixStaffEmail ON MixStaff (Email)");
      statement.execute("CREATE INDEX MixStaffAge ON MixStaff (Age) GLOBAL");
    }
  }

  @Test
  void lookupsThroughTheIndexesAgreeWithTheOracle() throws SQLException {
    String byEmail = "SELECT Dept, Id FROM MixStaff WHERE Email = 'e1@x.com'";
    assertThat(explain(byEmail)).contains("INDEX LOOKUP MixStaffEmail");
    assertThat(agreed(byEmail).rows()).containsExactly("Ops|1"); // not the department entity holding the value
    agreed("SELECT Id FROM MixStaff WHERE Age = 21");
    assertThat(raw.listEntities().stream().allMatch(e -> e.getRowKey().startsWith("emp_")
        || e.getRowKey().equals("dept"))).as("nothing of tablesql's in the application's table").isTrue();
  }

  @Test
  void indexesThatWouldTrustEntriesOverTheApplicationsWritesAreRefused() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      assertThatThrownBy(() -> statement.execute("CREATE INDEX MixStaffCover ON MixStaff (Age) INCLUDE (Email)"))
          .hasMessageContaining("mark it unverified").extracting(e -> ((SQLException) e).getSQLState())
          .isEqualTo("0A000");
      assertThatThrownBy(() -> statement.execute("CREATE INDEX MixStaffLocal ON MixStaff (Age) LOCAL"))
          .hasMessageContaining("application's partitions").extracting(e -> ((SQLException) e).getSQLState())
          .isEqualTo("0A000");
    }
  }

  @Test
  void writesThroughTheMappingKeepTheIndexesAndVerifyAddsTheApplicationsRows() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("INSERT INTO MixStaff VALUES ('Ops', 50, 'new@x.com', 30)");
      statement.execute("UPDATE MixStaff SET Email = 'moved@x.com', Dept = 'Sales' WHERE Id = 4");
      assertThat(agreed("SELECT Dept, Id FROM MixStaff WHERE Email IN ('new@x.com', 'moved@x.com', 'e4@x.com')")
          .rows()).containsExactlyInAnyOrder("Ops|50", "Sales|4");
      raw.createEntity(employee("Ops", 60, "app@x.com", 30)); // the application's own write
      String byApp = "SELECT Id FROM MixStaff WHERE Email = 'app@x.com'";
      assertThat(QueryRuns.run(connection, byApp).rows()).as("no entry until VERIFY").isEmpty();
      statement.execute("ALTER INDEX MixStaffEmail VERIFY");
      statement.execute("ALTER INDEX MixStaffAge VERIFY");
      assertThat(agreed(byApp).rows()).containsExactly("60");
      agreed("SELECT Id, Email FROM MixStaff WHERE Age = 30");
    }
  }
}
