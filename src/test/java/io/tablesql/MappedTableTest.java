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
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Tables mapped over an existing Azure table whose writer composed the keys (the design guide's
 * intra-partition secondary index: each employee stored under 'empid_...' and under 'email_...',
 * plus a department entity, all in the department's partition).
 */
class MappedTableTest extends OracleComparedTest {
  private static final String[] DEPARTMENTS = {"Engineering", "Finance", "Marketing", "Sales"};
  private static TableClient physical;

  @BeforeAll
  static void setUp() throws SQLException {
    physical = TestAccount.newTable("Staffing");
    List<TableEntity> entities = new ArrayList<>();
    int id = 100;
    for (String department : DEPARTMENTS) {
      entities.add(new TableEntity(department, "department").addProperty("EntityType", "Department")
          .addProperty("DepartmentName", department).addProperty("EmployeeCount", 6));
      for (int i = 0; i < 6; i++, id++) {
        String email = "e" + id + "@contoso.com";
        for (String rowKey : new String[] {String.format("empid_%06d", id), "email_" + email}) {
          entities.add(new TableEntity(department, rowKey).addProperty("EntityType", "StaffMember")
              .addProperty("EmployeeId", String.format("%06d", id)).addProperty("FirstName", "F" + id)
              .addProperty("Age", 20 + id % 30).addProperty("Email", email));
        }
      }
    }
    TestAccount.insert(physical, entities);
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE StaffMember (Department VARCHAR, EmployeeId INT, FirstName VARCHAR, Age INT, "
          + "Email VARCHAR) OVER " + physical.getTableName() + " PARTITION KEY '{Department}' "
          + "ROW KEY 'empid_{EmployeeId:6}' WHERE EntityType = 'StaffMember'");
      statement.execute("CREATE TABLE StaffByEmail (Department VARCHAR, Email VARCHAR, EmployeeId VARCHAR, "
          + "PRIMARY KEY (Department, Email)) OVER " + physical.getTableName()
          + " PARTITION KEY '{Department}' ROW KEY 'email_{Email}'");
      statement.execute("CREATE TABLE StaffDepartment (DepartmentName VARCHAR, EmployeeCount INT) OVER "
          + physical.getTableName() + " PARTITION KEY '{DepartmentName}' ROW KEY 'department'");
    }
  }

  @Test
  void eachEntityKindIsATableOfItsOwn() throws SQLException {
    assertThat(agreed("SELECT COUNT(*) FROM StaffMember").rows()).containsExactly("24");
    assertThat(agreed("SELECT COUNT(*) FROM StaffByEmail").rows()).containsExactly("24");
    assertThat(agreed("SELECT DepartmentName, EmployeeCount FROM StaffDepartment ORDER BY DepartmentName").rows())
        .containsExactly("Engineering|6", "Finance|6", "Marketing|6", "Sales|6");
    assertThat(explain("SELECT COUNT(*) FROM StaffMember"))
        .contains("RowKey ge 'empid_' and RowKey lt 'empid`' and EntityType eq 'StaffMember'");
    Run all = QueryRuns.run(connection, "SELECT EmployeeId, FirstName, Age FROM StaffMember WHERE Department = 'Sales'");
    assertThat(all.rows()).hasSize(6).contains("118|F118|48");
    assertThat(all.entities()).isEqualTo(6); // the index and department entities are not read
  }

  @Test
  void numbersStoredAsAnyExactEdmTypeReadAsTheColumnsType() throws SQLException {
    // an application that wrote the same properties as Int32 from one client and Int64 (or text) from another
    TableClient mixed = TestAccount.newTable("MixedNumbers",
        new TableEntity("a", "1").addProperty("N", 5).addProperty("M", 7).addProperty("D", 2),
        new TableEntity("a", "2").addProperty("N", 6L).addProperty("M", 8L).addProperty("D", 2.5),
        new TableEntity("a", "3").addProperty("N", 7_000_000_000L).addProperty("M", "9.25").addProperty("D", 3L));
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE MixedNumbers (P VARCHAR NOT NULL, R VARCHAR NOT NULL, N BIGINT, "
          + "M DECIMAL(10, 2), D DOUBLE) OVER " + mixed.getTableName() + " PARTITION KEY '{P}' ROW KEY '{R}'");
    }
    assertThat(agreed("SELECT R, N, M, D FROM MixedNumbers ORDER BY R").rows())
        .containsExactly("1|5|7.00|2.0", "2|6|8.00|2.5", "3|7000000000|9.25|3.0");
    assertThat(agreed("SELECT R FROM MixedNumbers WHERE N > 5 ORDER BY R").rows()).containsExactly("2", "3");
    assertThat(agreed("SELECT R FROM MixedNumbers WHERE N = 5").rows()).containsExactly("1");
    assertThat(agreed("SELECT R FROM MixedNumbers WHERE M >= 8 ORDER BY R").rows()).containsExactly("2", "3");
    assertThat(agreed("SELECT SUM(N) FROM MixedNumbers").rows()).containsExactly("7000000011");
  }

  @Test
  void storedValuesThatDoNotConvertAreErrorsNamingTheEntity() throws SQLException {
    TableClient raw = TestAccount.newTable("BadValues",
        new TableEntity("a", "1").addProperty("I", 5L).addProperty("B", 5).addProperty("S", "five")
            .addProperty("M", "5.5"),
        new TableEntity("a", "2").addProperty("I", 7_000_000_000L),
        new TableEntity("a", "3").addProperty("B", "abc"),
        new TableEntity("a", "4").addProperty("B", 2.5),
        new TableEntity("a", "5").addProperty("S", 5),
        new TableEntity("a", "6").addProperty("M", "n/a"));
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE BadValues (P VARCHAR NOT NULL, R VARCHAR NOT NULL, I INT, B BIGINT, "
          + "S VARCHAR, M DECIMAL(5, 2)) OVER " + raw.getTableName() + " PARTITION KEY '{P}' ROW KEY '{R}'");
    }
    // a lookup that reads no other entity answers (the oracle, which reads them all, fails as the
    // scans below); an Int64 in range reads in an INT column
    assertThat(QueryRuns.run(connection, "SELECT I, B, S, M FROM BadValues WHERE P = 'a' AND R = '1'").rows())
        .containsExactly("5|5|five|5.50");
    assertThat(QueryRuns.run(connection, "SELECT R FROM BadValues WHERE P = 'a' AND R IN ('1', '5') AND B = 5")
        .rows()).containsExactly("1");
    assertUnreadable("SELECT I FROM BadValues", "22003", "RowKey '2'", "property I", "Edm.Int64 7000000000",
        "out of the range of INTEGER");
    assertUnreadable("SELECT R, B FROM BadValues WHERE R >= '3'", "22018", "RowKey '3'", "Edm.String 'abc'",
        "not BIGINT");
    assertUnreadable("SELECT SUM(B) FROM BadValues WHERE R = '4'", "22018", "RowKey '4'", "Edm.Double 2.5");
    assertUnreadable("SELECT S FROM BadValues", "22018", "RowKey '5'", "property S", "Edm.Int32 5", "not VARCHAR");
    assertUnreadable("SELECT M FROM BadValues", "22018", "RowKey '6'", "'n/a'", "not a decimal number");
  }

  /**
   * The query fails naming the entity and its value; without pushdown too, where the first entity
   * of the table that does not convert is named (all columns of every entity are read).
   */
  private void assertUnreadable(String sql, String sqlState, String... named) {
    for (String properties : new String[] {"", "pushdown=false"}) {
      boolean oracle = !properties.isEmpty();
      assertThatThrownBy(() -> {
        try (java.sql.Connection on = TestAccount.connect(properties); Statement statement = on.createStatement();
            ResultSet resultSet = statement.executeQuery(sql)) {
          QueryRuns.rows(resultSet);
        }
      }).as(sql + " " + properties).isInstanceOfSatisfying(SQLException.class, e -> {
        assertThat(e.getSQLState()).isEqualTo(oracle ? "22003" : sqlState);
        assertThat(e.getMessage()).contains("Azure table BadValues").contains(oracle ? new String[] {"RowKey '2'"} : named);
      });
    }
  }

  @Test
  void keyPropertiesAreWrittenAsTheApplicationWritesThem() throws SQLException {
    TableEntity written = new TableEntity("Sales", "empid_000101").addProperty("EntityType", "Employee")
        .addProperty("EmployeeId", "000101").addProperty("FirstName", "Hugo");
    TableClient raw = TestAccount.newTable("KeyProps", written);
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE KeyProps (Department VARCHAR, EmployeeId INT, FirstName VARCHAR) OVER "
          + raw.getTableName() + " PARTITION KEY '{Department}' ROW KEY 'empid_{EmployeeId:6}' "
          + "KEY PROPERTIES (EmployeeId) WHERE EntityType = 'Employee'");
      statement.executeUpdate("INSERT INTO KeyProps VALUES ('Sales', 102, 'Ann')");
      TableEntity inserted = raw.getEntity("Sales", "empid_000102");
      assertThat(TableShape.userProperties(inserted))
          .isEqualTo(Map.of("EntityType", "Employee", "EmployeeId", "000102", "FirstName", "Ann"));
      // a move to other keys writes the new key's text; a change of another column leaves it
      statement.executeUpdate("UPDATE KeyProps SET EmployeeId = 103 WHERE Department = 'Sales' AND EmployeeId = 102");
      statement.executeUpdate("UPDATE KeyProps SET FirstName = 'Anna' WHERE Department = 'Sales' AND EmployeeId = 103");
      assertThat(TableShape.userProperties(raw.getEntity("Sales", "empid_000103")))
          .isEqualTo(Map.of("EntityType", "Employee", "EmployeeId", "000103", "FirstName", "Anna"));
      assertThat(raw.listEntities().stream().map(TableEntity::getRowKey).toList())
          .containsExactly("empid_000101", "empid_000103");
      assertThat(agreed("SELECT EmployeeId, FirstName FROM KeyProps ORDER BY EmployeeId").rows())
          .containsExactly("101|Hugo", "103|Anna");
      assertThatThrownBy(() -> statement.execute("CREATE TABLE KeyPropsBad (Department VARCHAR, EmployeeId INT, "
          + "FirstName VARCHAR) OVER " + raw.getTableName() + " PARTITION KEY '{Department}' "
          + "ROW KEY 'empid_{EmployeeId:6}' KEY PROPERTIES (FirstName)"))
          .isInstanceOfSatisfying(SQLException.class, e -> {
            assertThat(e.getSQLState()).isEqualTo("42000");
            assertThat(e.getMessage()).contains("KEY PROPERTIES", "FirstName", "not a field of its key templates");
          });
    }
    // drivers that would write rows without the key properties refuse the table (catalog format 4)
    TableEntity definition = TestAccount.service().getTableClient("TablesqlCatalog").listEntities().stream()
        .filter(e -> "KeyProps".equals(e.getProperty("Name"))).findFirst().orElseThrow();
    assertThat(definition.getProperty("Format")).isEqualTo(4);
  }

  @Test
  void keyColumnsPlanAsKeyRanges() throws SQLException {
    String range = "SELECT EmployeeId FROM StaffMember WHERE Department = 'Sales' AND EmployeeId BETWEEN 100 AND 120";
    assertThat(explain(range)).contains("access=[RANGE SCAN]",
        "PartitionKey eq 'Sales' and RowKey ge 'empid_000100' and RowKey lt 'empid_000121'");
    Run run = agreed(range);
    assertThat(run.rows()).containsExactly("118", "119", "120");
    assertThat(run.requests()).isEqualTo(1);
    assertThat(run.entities()).isEqualTo(3);

    String point = "SELECT FirstName FROM StaffMember WHERE Department = 'Finance' AND EmployeeId = 107";
    assertThat(explain(point)).contains("access=[POINT LOOKUP]", "keys=[('Finance', 'empid_000107')]");
    assertThat(agreed(point)).satisfies(r -> {
      assertThat(r.rows()).containsExactly("F107");
      assertThat(r.requests()).isEqualTo(1);
    });

    String byEmail = "SELECT EmployeeId FROM StaffByEmail WHERE Department = 'Finance' AND Email = 'e107@contoso.com'";
    assertThat(explain(byEmail)).contains("access=[POINT LOOKUP]");
    assertThat(agreed(byEmail).rows()).containsExactly("000107");

    assertThat(agreed("SELECT EmployeeId FROM StaffMember WHERE Department = 'Sales' AND EmployeeId = -5").rows())
        .isEmpty();
    assertThat(agreed("SELECT EmployeeId FROM StaffMember WHERE Department = 'Sales' AND EmployeeId > -5 "
        + "AND EmployeeId < 119").rows()).containsExactly("118");
    assertThat(agreed("SELECT EmployeeId FROM StaffMember WHERE Department = 'Sales' AND EmployeeId < 5000000").rows())
        .hasSize(6);
    assertThat(agreed("SELECT Department, EmployeeId FROM StaffMember WHERE EmployeeId > 115 AND Age > 30 "
        + "ORDER BY Department, EmployeeId").rows()).isNotEmpty();
    assertThat(explain("SELECT Department, EmployeeId FROM StaffMember ORDER BY Department, EmployeeId"))
        .doesNotContain("Sort");
    try (PreparedStatement lookup = connection.prepareStatement(
        "SELECT FirstName FROM StaffMember WHERE Department = ? AND EmployeeId = ?")) {
      lookup.setString(1, "Marketing");
      lookup.setInt(2, 112);
      try (ResultSet resultSet = lookup.executeQuery()) {
        assertThat(resultSet.next()).isTrue();
        assertThat(resultSet.getString(1)).isEqualTo("F112");
      }
      lookup.setInt(2, 1_000_000); // wider than the key's 6 digits: no such row
      try (ResultSet resultSet = lookup.executeQuery()) {
        assertThat(resultSet.next()).isFalse();
      }
    }
  }

  @Test
  void writesComposeTheExistingKeysAndDroppingKeepsTheEntities() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.executeUpdate("INSERT INTO StaffMember (Department, EmployeeId, FirstName, Age, Email) "
          + "VALUES ('Sales', 900, 'New', 33, 'new@contoso.com')");
      TableEntity written = physical.getEntity("Sales", "empid_000900");
      assertThat(written.getProperty("EntityType")).isEqualTo("StaffMember");
      assertThat(written.getProperty("FirstName")).isEqualTo("New");
      assertThat(statement.executeUpdate("UPDATE StaffMember SET Age = 34 WHERE Department = 'Sales' AND EmployeeId = 900"))
          .isEqualTo(1);
      assertThat(physical.getEntity("Sales", "empid_000900").getProperty("Age")).isEqualTo(34);
      assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO StaffMember (Department, EmployeeId) "
          + "VALUES ('Sales', 1234567)"))
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22000"))
          .hasMessageContaining("6 digits");
      assertThat(statement.executeUpdate("DELETE FROM StaffMember WHERE Department = 'Sales' AND EmployeeId = 900"))
          .isEqualTo(1);
      List<String> keys = new ArrayList<>();
      try (ResultSet resultSet = connection.getMetaData().getPrimaryKeys(null, null, "StaffMember")) {
        while (resultSet.next()) {
          keys.add(resultSet.getString("COLUMN_NAME"));
        }
      }
      assertThat(keys).containsExactly("Department", "EmployeeId");

      statement.execute("CREATE TABLE Doomed (Department VARCHAR, EmployeeId INT) OVER " + physical.getTableName()
          + " PARTITION KEY '{Department}' ROW KEY 'empid_{EmployeeId:6}'");
      statement.execute("DROP TABLE Doomed");
      assertThat(physical.listEntities().stream().count()).isEqualTo(52); // the data stays
      assertThatThrownBy(() -> statement.execute("CREATE TABLE Nowhere (K VARCHAR) OVER NoSuchTable "
          + "PARTITION KEY '{K}' ROW KEY ''"))
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42S02"));
      assertThatThrownBy(() -> statement.execute("CREATE TABLE Bad (K VARCHAR, N INT) OVER " + physical.getTableName()
          + " PARTITION KEY '{K}{N}' ROW KEY ''"))
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42000"));
    }
  }

  /**
   * The guide's large-entities pattern as an application wrote it: each entity names its blob
   * (container/blob, or the blob's URL); a column declared REFERENCES BLOB reads the blob's
   * content, compared in the client, and is never written by tablesql.
   */
  @Test
  void aColumnThatReferencesABlobReadsTheApplicationsBlob() throws SQLException {
    var container = TestAccount.blobContainer("appdocs" + System.nanoTime() % 100_000);
    container.create();
    String text = "hello from the application, " + "x".repeat(70_000);
    byte[] scan = new byte[300_000];
    new java.util.Random(3).nextBytes(scan);
    container.getBlobClient("notes/one.txt").upload(com.azure.core.util.BinaryData.fromString(text));
    container.getBlobClient("scans/one.bin").upload(com.azure.core.util.BinaryData.fromBytes(scan));
    TableClient physical = TestAccount.newTable("AppDocs",
        new TableEntity("doc", "d1").addProperty("Title", "one")
            .addProperty("Body", container.getBlobContainerName() + "/notes/one.txt")
            .addProperty("Scan", container.getBlobClient("scans/one.bin").getBlobUrl()),
        new TableEntity("doc", "d2").addProperty("Title", "two"));
    String table = "AppDocs" + physical.getTableName();
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE " + table + " (Kind VARCHAR, Id VARCHAR, Title VARCHAR, Body CLOB REFERENCES "
          + "BLOB, Scan BLOB REFERENCES BLOB) OVER " + physical.getTableName() + " PARTITION KEY '{Kind}' "
          + "ROW KEY '{Id}'");
      assertThat(QueryRuns.rows(statement.executeQuery("SELECT Id, CHAR_LENGTH(Body), OCTET_LENGTH(Scan) FROM "
          + table + " WHERE Id IN ('d1', 'd2') ORDER BY Id"))).containsExactly("d1|" + text.length() + "|300000",
              "d2|null|null");
      try (ResultSet rows = statement.executeQuery("SELECT Body, Scan FROM " + table + " WHERE Id = 'd1'")) {
        assertThat(rows.next()).isTrue();
        assertThat(rows.getString(1)).isEqualTo(text);
        assertThat(rows.getBytes(2)).isEqualTo(scan);
      }
      // a prepared query's rows go straight to the caller: the blobs are streamed, and read only when asked for
      try (java.sql.PreparedStatement query = connection.prepareStatement("SELECT Body, Scan FROM " + table
          + " WHERE Kind = 'doc' AND Id = ?")) {
        query.setString(1, "d1");
        try (ResultSet rows = query.executeQuery()) {
          assertThat(rows.next()).isTrue();
          assertThat(query.unwrap(io.tablesql.TableSqlStatement.class).requestCount()).isEqualTo(1);
          try (java.io.Reader body = rows.getCharacterStream(1)) {
            StringBuilder read = new StringBuilder();
            char[] buffer = new char[8192];
            for (int n; (n = body.read(buffer)) > 0; ) {
              read.append(buffer, 0, n);
            }
            assertThat(read.toString()).isEqualTo(text);
          }
          assertThat(rows.getBlob(2).length()).isEqualTo(scan.length);
          assertThat(rows.getBinaryStream(2).readAllBytes()).isEqualTo(scan);
        }
      } catch (java.io.IOException e) {
        throw new AssertionError(e);
      }
      for (String where : List.of("Body LIKE 'hello%'", "Body IS NULL", "Body = 'one.txt'", "Scan IS NOT NULL")) {
        agreed("SELECT Id FROM " + table + " WHERE " + where);
      }
      assertThat(agreed("SELECT Id FROM " + table + " WHERE Body LIKE 'hello%'").rows()).containsExactly("d1");
      // a name that names no blob is an error where the value is read, not a NULL
      physical.upsertEntity(new TableEntity("doc", "d3").addProperty("Title", "three")
          .addProperty("Body", container.getBlobContainerName() + "/notes/missing.txt"));
      assertThatThrownBy(() -> QueryRuns.rows(statement.executeQuery("SELECT Body FROM " + table + " WHERE Id = 'd3'")))
          .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("22000"))
          .hasMessageContaining("missing.txt");
      assertThat(QueryRuns.rows(statement.executeQuery("SELECT Title FROM " + table + " WHERE Id = 'd3'")))
          .containsExactly("three");
      // the application writes its blobs and their names; tablesql writes the other columns
      assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO " + table + " (Kind, Id, Body) VALUES ('doc', "
          + "'d4', 'text')")).isInstanceOfSatisfying(SQLException.class,
              e -> assertThat(e.getSQLState()).isEqualTo("0A000")).hasMessageContaining("REFERENCES BLOB");
      assertThat(statement.executeUpdate("UPDATE " + table + " SET Title = 'first' WHERE Id = 'd1'")).isEqualTo(1);
      assertThat(physical.getEntity("doc", "d1").getProperty("Body"))
          .isEqualTo(container.getBlobContainerName() + "/notes/one.txt");
      assertThatThrownBy(() -> statement.execute("CREATE INDEX " + table + "Body ON " + table + " (Body)"))
          .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("0A000"))
          .hasMessageContaining("REFERENCES BLOB");
      assertThatThrownBy(() -> statement.execute("ALTER TABLE " + table + " ADD COLUMN Other CLOB REFERENCES BLOB"))
          .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("0A000"));
      try (java.sql.Connection replacing = TestAccount.connect("upsertMode=replace");
          Statement upsert = replacing.createStatement()) {
        assertThatThrownBy(() -> upsert.executeUpdate("UPSERT INTO " + table + " (Kind, Id, Title) VALUES ('doc', "
            + "'d1', 'replaced')")).isInstanceOfSatisfying(SQLException.class,
                e -> assertThat(e.getSQLState()).isEqualTo("0A000")).hasMessageContaining("Body");
      }
      assertThatThrownBy(() -> statement.execute("CREATE TABLE NotOver" + physical.getTableName()
          + " (Id INT PRIMARY KEY, Body CLOB REFERENCES BLOB)")).isInstanceOfSatisfying(SQLException.class,
              e -> assertThat(e.getSQLState()).isEqualTo("0A000")).hasMessageContaining("OVER");
      assertThatThrownBy(() -> statement.execute("CREATE TABLE Fk" + physical.getTableName()
          + " (Id INT PRIMARY KEY, Other INT REFERENCES Others)")).isInstanceOfSatisfying(SQLException.class,
              e -> assertThat(e.getSQLState()).isEqualTo("0A000")).hasMessageContaining("foreign keys");
    }
  }
}
