package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.models.TableEntity;
import io.tablesql.testing.OracleComparedTest;
import io.tablesql.testing.QueryRuns.Run;
import io.tablesql.testing.QueryRuns;
import io.tablesql.testing.TestAccount;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Tables declared with a PRIMARY KEY: typed columns, keys encoded in order, key predicates
 * planned as access paths with the service's minimum of requests, and every answer the same as
 * with pushdown off.
 */
class DeclaredTableTest extends OracleComparedTest {

  @BeforeAll
  static void setUp() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE Personnel (Department VARCHAR NOT NULL, EmployeeId INT, Name VARCHAR(40), "
          + "Salary DECIMAL(10, 2), Hired DATE, Active BOOLEAN, PRIMARY KEY ((Department), EmployeeId))");
      statement.execute("CREATE TABLE DeviceReadings (Device VARCHAR, EventTime TIMESTAMP, Seq BIGINT, Reading DOUBLE, "
          + "PRIMARY KEY ((Device), EventTime DESC, Seq))");
      statement.execute("CREATE TABLE LedgerEntries (Entry BIGINT PRIMARY KEY, Amount DECIMAL(12, 3), Note TEXT)");
    }
    try (PreparedStatement insert = connection.prepareStatement(
        "INSERT INTO Personnel (Department, EmployeeId, Name, Salary, Hired, Active) VALUES (?, ?, ?, ?, ?, ?)")) {
      String[] departments = {"Sales", "Ops", "R&D/Lab #1"};
      for (String department : departments) {
        for (int id = -3; id <= 12; id++) {
          insert.setString(1, department);
          insert.setInt(2, id);
          insert.setString(3, department + " person " + id);
          insert.setBigDecimal(4, new BigDecimal("1000.05").add(BigDecimal.valueOf(id)));
          insert.setDate(5, Date.valueOf("1969-12-" + (10 + Math.abs(id))));
          insert.setBoolean(6, id % 2 == 0);
          insert.addBatch();
        }
      }
      insert.executeBatch();
    }
    try (Statement statement = connection.createStatement()) {
      for (int device = 1; device <= 2; device++) {
        StringBuilder values = new StringBuilder();
        for (int i = 0; i < 30; i++) {
          values.append(i == 0 ? "" : ", ").append("('d").append(device).append("', TIMESTAMP '2026-01-01 00:00:00' + ")
              .append("INTERVAL '").append(i).append("' MINUTE, ").append(i % 3).append(", ").append(i * 1.5).append(")");
        }
        statement.executeUpdate("INSERT INTO DeviceReadings (Device, EventTime, Seq, Reading) VALUES " + values);
      }
      statement.executeUpdate("INSERT INTO LedgerEntries (Entry, Amount, Note) VALUES (-9223372036854775808, -0.001, 'min'), "
          + "(-5, 12.5, 'neg'), (0, 0, 'zero'), (7, 123456789.123, 'pos'), (9223372036854775807, 1, 'max')");
    }
  }

  @Test
  void valuesComeBackTypedAndExact() throws SQLException {
    try (Statement statement = connection.createStatement();
         ResultSet resultSet = statement.executeQuery(
             "SELECT * FROM Personnel WHERE Department = 'R&D/Lab #1' AND EmployeeId = -3")) {
      ResultSetMetaData meta = resultSet.getMetaData();
      assertThat(meta.getColumnType(1)).isEqualTo(Types.VARCHAR);
      assertThat(meta.getColumnType(2)).isEqualTo(Types.INTEGER);
      assertThat(meta.getColumnType(4)).isEqualTo(Types.DECIMAL);
      assertThat(meta.getScale(4)).isEqualTo(2);
      assertThat(meta.getColumnType(5)).isEqualTo(Types.DATE);
      assertThat(meta.isNullable(2)).isEqualTo(ResultSetMetaData.columnNoNulls);
      assertThat(resultSet.next()).isTrue();
      assertThat(resultSet.getString("Department")).isEqualTo("R&D/Lab #1");
      assertThat(resultSet.getInt("EmployeeId")).isEqualTo(-3);
      assertThat(resultSet.getBigDecimal("Salary")).isEqualTo(new BigDecimal("997.05"));
      assertThat(resultSet.getDate("Hired")).isEqualTo(Date.valueOf("1969-12-13"));
      assertThat(resultSet.getBoolean("Active")).isFalse();
      assertThat(resultSet.next()).isFalse();
    }
    TableEntity stored = TestAccount.service().getTableClient("Personnel").getEntity("Sales!", "P0000000005!");
    assertThat(stored.getProperty("Salary")).isEqualTo("1005.05");
    assertThat(stored.getProperty("Department")).isNull(); // key columns live in the keys only
  }

  /**
   * A table another process declares is a declared table here at once, not a raw one until the
   * catalog cache expires: a schema that lists a table its cached catalog was never checked
   * against reads the catalog again. Before, an open connection (and a new one sharing its JVM's
   * cache) sampled it as raw: its key columns were "not found", and a write would have bypassed
   * its key encoding.
   */
  @Test
  void aTableDeclaredElsewhereIsDeclaredHereAtOnce() throws SQLException {
    // another process: a cache of its own (sampleSize is part of the cache key)
    try (Connection open = TestAccount.connect("sampleSize=1993");
         Connection elsewhere = TestAccount.connect("sampleSize=1994");
         Statement there = elsewhere.createStatement()) {
      QueryRuns.run(open, "SELECT COUNT(*) FROM Personnel"); // its catalog is cached now
      there.execute("CREATE TABLE LateComer (Region VARCHAR(10), Id INT, Name VARCHAR(20), PRIMARY KEY ((Region), Id))");
      try {
        there.execute("INSERT INTO LateComer VALUES ('north', 1, 'Ann')");
        assertThat(QueryRuns.run(open, "SELECT Name FROM LateComer WHERE Region = 'north' AND Id = 1").rows())
            .containsExactly("Ann");
        try (Connection next = TestAccount.connect("sampleSize=1993"); Statement here = next.createStatement()) {
          here.execute("INSERT INTO LateComer VALUES ('south', 2, 'Bob')");
        }
        assertThat(QueryRuns.run(elsewhere, "SELECT Region, Id, Name FROM LateComer ORDER BY Region").rows())
            .containsExactly("north|1|Ann", "south|2|Bob");
      } finally {
        there.execute("DROP TABLE LateComer");
      }
    }
  }

  @Test
  void aValueAnotherWriterStoredOfTheWrongTypeIsAnErrorNotNull() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE OtherWriters (Id INT, Amount DECIMAL(7, 2), Qty SMALLINT, PRIMARY KEY (Id))");
      statement.executeUpdate("INSERT INTO OtherWriters VALUES (1, 1.50, 3), (2, 2.50, 4)");
    }
    com.azure.data.tables.TableClient physical = TestAccount.service().getTableClient("OtherWriters");
    TableEntity second = physical.listEntities().stream().filter(e -> "2.50".equals(e.getProperty("Amount")))
        .findFirst().orElseThrow();
    physical.updateEntity(new TableEntity(second.getPartitionKey(), second.getRowKey()).addProperty("Amount", "n/a")
        .addProperty("Qty", 40_000));
    try (Statement statement = connection.createStatement()) {
      assertThatThrownBy(() -> QueryRuns.rows(statement.executeQuery("SELECT SUM(Amount) FROM OtherWriters")))
          .isInstanceOfSatisfying(SQLException.class, e -> {
            assertThat(e.getSQLState()).isEqualTo("22018");
            assertThat(e.getMessage()).contains("the entity (PartitionKey '", "of Azure table OtherWriters",
                "property Amount", "Edm.String 'n/a'", "not a decimal number");
          });
      assertThatThrownBy(() -> QueryRuns.rows(statement.executeQuery("SELECT Id, Amount FROM OtherWriters")))
          .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getMessage())
              .contains("RowKey '" + second.getRowKey() + "'", "property Amount"));
      assertThatThrownBy(() -> QueryRuns.rows(statement.executeQuery("SELECT MAX(Qty) FROM OtherWriters")))
          .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getMessage())
              .contains("Edm.Int32 40000", "out of the range of SMALLINT"));
      assertThat(QueryRuns.rows(statement.executeQuery("SELECT Amount, Qty FROM OtherWriters WHERE Id = 1")))
          .containsExactly("1.50|3");
      statement.execute("DROP TABLE OtherWriters");
    }
  }

  @Test
  void keyPredicatesBecomeAccessPathsWithTheFewestRequests() throws SQLException {
    String point = "SELECT Name FROM Personnel WHERE Department = 'Sales' AND EmployeeId = 5";
    assertThat(explain(point)).contains("access=[POINT LOOKUP]", "key=[AND(=(Department, 'Sales'), =(EmployeeId, 5))]",
        "keys=[('Sales!', 'P0000000005!')]");
    assertThat(agreed(point)).satisfies(r -> {
      assertThat(r.rows()).containsExactly("Sales person 5");
      assertThat(r.requests()).isEqualTo(1);
    });

    String range = "SELECT EmployeeId FROM Personnel WHERE Department = 'Sales' AND EmployeeId BETWEEN -1 AND 3";
    assertThat(explain(range)).contains("access=[RANGE SCAN]",
        "$filter=[PartitionKey eq 'Sales!' and RowKey ge 'N2147483647!' and RowKey lt 'P0000000003\"']");
    assertThat(agreed(range)).satisfies(r -> {
      assertThat(r.rows()).containsExactly("-1", "0", "1", "2", "3"); // in key order, negatives first
      assertThat(r.requests()).isEqualTo(1);
      assertThat(r.entities()).isEqualTo(5);
    });

    Run partition = agreed("SELECT EmployeeId FROM Personnel WHERE Department = 'Ops' AND Active");
    assertThat(partition.requests()).isEqualTo(1);
    assertThat(partition.entities()).isEqualTo(8);
    assertThat(explain("SELECT EmployeeId FROM Personnel WHERE Department = 'Ops'")).contains("access=[PARTITION SCAN]");

    String multiPoint = "SELECT Name FROM Personnel WHERE Department IN ('Sales', 'Ops') AND EmployeeId IN (1, 2)";
    assertThat(explain(multiPoint)).contains("access=[MULTI-POINT LOOKUP ON 4 KEYS]");
    assertThat(agreed(multiPoint).requests()).isEqualTo(4);

    String multiPartition = "SELECT Name FROM Personnel WHERE Department IN ('Sales', 'Ops') AND EmployeeId > 10";
    assertThat(explain(multiPartition)).contains("access=[MULTI-PARTITION SCAN ON 2 PARTITIONS]");
    assertThat(agreed(multiPartition)).satisfies(r -> {
      assertThat(r.requests()).isEqualTo(2);
      assertThat(r.entities()).isEqualTo(4);
    });

    String keyRange = "SELECT Department, EmployeeId FROM Personnel WHERE Department >= 'Ops' AND Department < 'Salt'";
    assertThat(explain(keyRange)).contains("access=[RANGE SCAN]", "PartitionKey ge 'Ops!'");
    assertThat(agreed(keyRange).entities()).isEqualTo(48);

    String rowOnly = "SELECT Department FROM Personnel WHERE EmployeeId = 4";
    assertThat(explain(rowOnly)).contains("access=[TABLE SCAN]", "$filter=[RowKey eq 'P0000000004!']");
    assertThat(agreed(rowOnly).entities()).isEqualTo(3);
  }

  @Test
  void theOracleAgreesOnKeyAndPropertyConditions() throws SQLException {
    String[] queries = {
        "SELECT Department, EmployeeId FROM Personnel WHERE EmployeeId < 0 ORDER BY Department, EmployeeId",
        "SELECT Department, EmployeeId FROM Personnel WHERE Department = 'Sales' AND EmployeeId > 10",
        "SELECT Department, EmployeeId FROM Personnel WHERE Department = 'Sales' AND EmployeeId >= 10",
        "SELECT Department, EmployeeId FROM Personnel WHERE Department = 'Sales' AND EmployeeId < -2",
        "SELECT Department, EmployeeId FROM Personnel WHERE Department = 'Sales' AND EmployeeId <= -2",
        "SELECT Department, EmployeeId FROM Personnel WHERE Department > 'Ops'",
        "SELECT Department, EmployeeId FROM Personnel WHERE Department <= 'Ops' OR EmployeeId = 3",
        "SELECT Name FROM Personnel WHERE Salary > 1005 AND Hired < DATE '1969-12-15'",
        "SELECT Name FROM Personnel WHERE Department = 'Ops' AND Salary = 1001.05",
        "SELECT Name FROM Personnel WHERE Department = 'Ops' AND EmployeeId = 2.5",
        "SELECT Department, COUNT(*), SUM(Salary) FROM Personnel GROUP BY Department ORDER BY Department",
        "SELECT EventTime, Seq FROM DeviceReadings WHERE Device = 'd2' AND EventTime > TIMESTAMP '2026-01-01 00:20:00'",
        "SELECT EventTime, Seq FROM DeviceReadings WHERE Device = 'd2' AND EventTime >= TIMESTAMP '2026-01-01 00:20:00'",
        "SELECT EventTime, Seq FROM DeviceReadings WHERE Device = 'd2' AND EventTime < TIMESTAMP '2026-01-01 00:03:00'",
        "SELECT EventTime, Seq FROM DeviceReadings WHERE Device = 'd2' AND EventTime <= TIMESTAMP '2026-01-01 00:03:00'",
        "SELECT Device, Seq FROM DeviceReadings WHERE EventTime = TIMESTAMP '2026-01-01 00:03:00' AND Seq = 0",
        "SELECT Entry, Amount FROM LedgerEntries WHERE Entry > -6 AND Entry < 8 ORDER BY Entry",
        "SELECT Entry FROM LedgerEntries WHERE Entry >= -9223372036854775808 ORDER BY Entry DESC",
        "SELECT Entry, Note FROM LedgerEntries WHERE Entry IN (0, 7, 8)",
    };
    for (String query : queries) {
      agreed(query);
    }
    assertThat(QueryRuns.run(connection, "SELECT Amount FROM LedgerEntries WHERE Entry = 7").rows()).containsExactly("123456789.123");
  }

  @Test
  void anExactKeyRangeInKeyOrderReadsOnlyTheRowsOfItsLimit() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE KeyWords (Word VARCHAR PRIMARY KEY, Seen INT)");
      StringBuilder values = new StringBuilder();
      for (int i = 0; i < 40; i++) {
        values.append(i == 0 ? "" : ", ").append("('").append((char) ('a' + i % 26)).append(i).append("', ").append(i)
            .append(')');
      }
      statement.executeUpdate("INSERT INTO KeyWords VALUES " + values);
    }
    // a one-column key is the PartitionKey: the bound is exact, so no client check stands between the LIMIT and the scan
    String top = "SELECT Word FROM KeyWords WHERE Word > 'a' ORDER BY Word LIMIT 5";
    assertThat(explain(top)).contains("access=[RANGE SCAN]", "limit=[5]").doesNotContain("Sort", "client");
    Run run = agreed(top);
    assertThat(run.rows()).containsExactly("a0", "a26", "b1", "b27", "c2");
    assertThat(run.entities()).isEqualTo(5);
    assertThat(agreed("SELECT Word FROM KeyWords WHERE Word >= 'b1' AND Word < 'c2' ORDER BY Word").rows())
        .containsExactly("b1", "b27");
    assertThat(agreed("SELECT Word FROM KeyWords WHERE Word > 'x' AND Seen < 30 ORDER BY Word").rows())
        .containsExactly("x23", "y24", "z25");
    assertThat(agreed("SELECT Entry FROM LedgerEntries WHERE Entry > 3 AND Entry <= 8 ORDER BY Entry LIMIT 2").rows())
        .hasSizeLessThanOrEqualTo(2);
    // whole keys from IN lists are looked up, no bound is sent: the range stays in the client
    assertThat(agreed("SELECT EmployeeId FROM Personnel WHERE Department = 'Sales' AND EmployeeId IN (1, 2, 3) "
        + "AND EmployeeId < 3 ORDER BY EmployeeId").rows()).containsExactly("1", "2");
    assertThat(agreed("SELECT Department, EmployeeId FROM Personnel WHERE Department IN ('Sales', 'Ops') "
        + "AND EmployeeId IN (1, 2, 3) AND EmployeeId > 1 ORDER BY Department, EmployeeId").rows())
        .containsExactly("Ops|2", "Ops|3", "Sales|2", "Sales|3");
  }

  @Test
  void aDescendingKeyServesTheLatestRowsWithoutAClientSort() throws SQLException {
    String tail = "SELECT EventTime, Reading FROM DeviceReadings WHERE Device = 'd1' ORDER BY EventTime DESC LIMIT 3";
    String plan = explain(tail);
    assertThat(plan).contains("access=[PARTITION SCAN]", "limit=[3]").doesNotContain("Sort");
    Run run = agreed(tail);
    assertThat(run.rows()).containsExactly("2026-01-01 00:29:00.000|43.5", "2026-01-01 00:28:00.000|42.0",
        "2026-01-01 00:27:00.000|40.5");
    assertThat(run.requests()).isEqualTo(1);
    assertThat(run.entities()).isEqualTo(3);

    Run ordered = agreed("SELECT Entry FROM LedgerEntries ORDER BY Entry");
    assertThat(ordered.rows()).containsExactly("-9223372036854775808", "-5", "0", "7", "9223372036854775807");
    assertThat(explain("SELECT Entry FROM LedgerEntries ORDER BY Entry")).doesNotContain("Sort");
  }

  @Test
  void writesComposeKeysAndKeepTheirRules() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE BankAccounts (Region VARCHAR, Id INT, Balance DECIMAL(10, 2) NOT NULL, "
          + "PRIMARY KEY ((Region), Id))");
      statement.executeUpdate("INSERT INTO BankAccounts VALUES ('eu', 1, 10.00), ('eu', 2, 20.50), ('us', 1, 5)");
      assertThat(statement.executeUpdate("UPDATE BankAccounts SET Balance = Balance + 1 WHERE Region = 'eu'"))
          .isEqualTo(2);
      assertThat(QueryRuns.run(connection, "SELECT Id, Balance FROM BankAccounts WHERE Region = 'eu'").rows())
          .containsExactly("1|11.00", "2|21.50");
      assertThat(statement.executeUpdate("DELETE FROM BankAccounts WHERE Region = 'eu' AND Id = 2")).isEqualTo(1);
      statement.executeUpdate("UPSERT INTO BankAccounts VALUES ('us', 1, 6.25)");
      assertThat(QueryRuns.run(connection, "SELECT Region, Id, Balance FROM BankAccounts ORDER BY Region, Id").rows())
          .containsExactly("eu|1|11.00", "us|1|6.25");
      assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO BankAccounts VALUES ('eu', 1, 1)"))
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("23505"));
      // changing a key column moves the row: one delete and one insert in one entity group transaction
      assertThat(statement.executeUpdate("UPDATE BankAccounts SET Id = 9, Balance = 9.99 WHERE Region = 'eu'"))
          .isEqualTo(1);
      assertThat(QueryRuns.run(connection, "SELECT Region, Id, Balance FROM BankAccounts ORDER BY Region, Id").rows())
          .containsExactly("eu|9|9.99", "us|1|6.25");
      statement.executeUpdate("INSERT INTO BankAccounts VALUES ('eu', 7, 7)");
      assertThatThrownBy(() -> statement.executeUpdate("UPDATE BankAccounts SET Id = 9 WHERE Region = 'eu' AND Id = 7"))
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("23505"));
      // to another partition: a delete and an insert committed together through an intent
      assertThat(statement.executeUpdate("UPDATE BankAccounts SET Region = 'ap' WHERE Id = 9")).isEqualTo(1);
      assertThatThrownBy(() -> statement.executeUpdate("UPDATE BankAccounts SET Region = 'us', Id = 1 WHERE Id = 9"))
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("23505"));
      assertThat(statement.executeUpdate("UPDATE BankAccounts SET Region = 'eu', Id = 1, Balance = 11 WHERE Id = 9"))
          .isEqualTo(1);
      statement.executeUpdate("DELETE FROM BankAccounts WHERE Region = 'eu' AND Id = 7");
      assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO BankAccounts (Region, Balance) VALUES ('eu', 1)"))
          .isInstanceOf(SQLException.class);
    }
    try (PreparedStatement insert = connection.prepareStatement("INSERT INTO BankAccounts VALUES (?, ?, ?)")) {
      insert.setString(1, null);
      insert.setInt(2, 3);
      insert.setBigDecimal(3, BigDecimal.ONE);
      assertThatThrownBy(insert::executeUpdate)
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).startsWith("23"));
    }
    connection.setAutoCommit(false);
    try (Statement statement = connection.createStatement()) {
      statement.executeUpdate("INSERT INTO BankAccounts VALUES ('eu', 5, 50)");
      statement.executeUpdate("UPDATE BankAccounts SET Balance = 0 WHERE Region = 'eu' AND Id = 1");
      assertThat(QueryRuns.run(connection, "SELECT Id, Balance FROM BankAccounts WHERE Region = 'eu'").rows())
          .containsExactly("1|0.00", "5|50.00"); // the transaction reads its own writes
      connection.commit();
    } finally {
      connection.setAutoCommit(true);
    }
    assertThat(QueryRuns.run(oracle, "SELECT Id, Balance FROM BankAccounts WHERE Region = 'eu'").rows())
        .containsExactly("1|0.00", "5|50.00");
  }

  @Test
  void theCatalogIsSharedDescribedAndProtected() throws SQLException {
    try (Connection other = TestAccount.connect()) {
      DatabaseMetaData meta = other.getMetaData();
      List<String> keys = new ArrayList<>();
      try (ResultSet resultSet = meta.getPrimaryKeys(null, null, "DeviceReadings")) {
        while (resultSet.next()) {
          keys.add(resultSet.getString("COLUMN_NAME") + ":" + resultSet.getInt("KEY_SEQ"));
        }
      }
      assertThat(keys).containsExactly("Device:1", "EventTime:2", "Seq:3");
      List<String> columns = new ArrayList<>();
      try (ResultSet resultSet = meta.getColumns(null, null, "Personnel", null)) {
        while (resultSet.next()) {
          columns.add(resultSet.getString("COLUMN_NAME") + ":" + resultSet.getInt("DATA_TYPE"));
        }
      }
      assertThat(columns).containsExactly("Department:" + Types.VARCHAR, "EmployeeId:" + Types.INTEGER,
          "Name:" + Types.VARCHAR, "Salary:" + Types.DECIMAL, "Hired:" + Types.DATE, "Active:" + Types.BOOLEAN);
      List<String> tables = new ArrayList<>();
      try (ResultSet resultSet = meta.getTables(null, null, "%", null)) {
        while (resultSet.next()) {
          tables.add(resultSet.getString("TABLE_NAME"));
        }
      }
      assertThat(tables).contains("Personnel", "DeviceReadings", "LedgerEntries").doesNotContain("TablesqlCatalog");
    }
    try (Connection raw = TestAccount.connect("catalog=false")) {
      assertThat(QueryRuns.run(raw, "SELECT RowKey, Salary FROM Personnel WHERE PartitionKey = 'Sales!' AND RowKey = 'P0000000005!'")
          .rows()).containsExactly("P0000000005!|1005.05");
    }
    TestAccount.service().createTableIfNotExists(io.tablesql.intent.Intent.TABLE); // where intents are recorded
    try (Connection other = TestAccount.connect()) {
      try (ResultSet hidden = other.getMetaData().getTables(null, null, "Tablesql%", null)) {
        assertThat(hidden.next()).isFalse();
      }
      try (Statement statement = other.createStatement()) {
        assertThatThrownBy(() -> statement.execute("DROP TABLE TablesqlCatalog"))
            .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42501"));
        assertThatThrownBy(() -> statement.execute("DROP TABLE TablesqlIntents"))
            .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42501"));
        statement.execute("CREATE TABLE Scratch (K VARCHAR, V INT, PRIMARY KEY (K))");
        assertThatThrownBy(() -> statement.execute("CREATE TABLE Scratch (K VARCHAR, PRIMARY KEY (K))"))
            .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42S01"));
        statement.execute("CREATE TABLE IF NOT EXISTS Scratch (K VARCHAR, PRIMARY KEY (K))");
        statement.execute("DROP TABLE Scratch");
        assertThatThrownBy(() -> statement.executeQuery("SELECT * FROM Scratch"))
            .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42S02"));
        assertThatThrownBy(() -> statement.execute("CREATE TABLE Bad (K DECIMAL(30, 2), PRIMARY KEY (K))"))
            .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("0A000"));
        assertThatThrownBy(() -> statement.execute("CREATE TABLE Bad (K INT, PRIMARY KEY (Nope))"))
            .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42S22"));
      }
    }
  }

  @Test
  void viewsAreKeptInTheAccountAndPushTheirPredicatesDown() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE VIEW SalesStaff AS SELECT EmployeeId, Name, Salary FROM Personnel "
          + "WHERE Department = 'Sales'");
      statement.execute("CREATE VIEW Payroll (Dept, Total) AS SELECT Department, SUM(Salary) FROM Personnel "
          + "GROUP BY Department");
      assertThatThrownBy(() -> statement.execute("CREATE VIEW SalesStaff AS SELECT 1 AS One FROM Personnel"))
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42S01"));
      assertThatThrownBy(() -> statement.execute("CREATE VIEW Personnel AS SELECT 1 AS One FROM LedgerEntries"))
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42S01"));
      assertThatThrownBy(() -> statement.execute("CREATE VIEW Broken AS SELECT Nope FROM Personnel"))
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42S22"));
    }
    try (Connection other = TestAccount.connect()) {
      String point = "SELECT Name, Salary FROM SalesStaff WHERE EmployeeId = 5";
      try (Statement statement = other.createStatement();
           ResultSet plan = statement.executeQuery("EXPLAIN PLAN FOR " + point)) {
        plan.next();
        assertThat(plan.getString(1)).contains("access=[POINT LOOKUP]");
      }
      Run run = QueryRuns.run(other, point);
      assertThat(run.rows()).containsExactly("Sales person 5|1005.05");
      assertThat(run.requests()).isEqualTo(1);
      assertThat(QueryRuns.run(other, "SELECT Dept, Total FROM Payroll WHERE Dept = 'Ops'").rows())
          .containsExactly("Ops|16072.80");
      List<String> views = new ArrayList<>();
      try (ResultSet tables = other.getMetaData().getTables(null, null, "%", new String[] {"VIEW"})) {
        while (tables.next()) {
          views.add(tables.getString("TABLE_NAME"));
        }
      }
      assertThat(views).contains("SalesStaff", "Payroll");
      try (Statement statement = other.createStatement()) {
        statement.execute("CREATE OR REPLACE VIEW SalesStaff AS SELECT EmployeeId FROM Personnel WHERE Department = 'Ops'");
        assertThat(QueryRuns.run(other, "SELECT COUNT(*) FROM SalesStaff").rows()).containsExactly("16");
        statement.execute("DROP VIEW SalesStaff");
        statement.execute("DROP VIEW IF EXISTS SalesStaff");
        assertThatThrownBy(() -> statement.executeQuery("SELECT * FROM SalesStaff"))
            .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42S02"));
        assertThatThrownBy(() -> statement.execute("DROP VIEW SalesStaff"))
            .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42S02"));
        statement.execute("DROP VIEW Payroll");
        assertThat(QueryRuns.run(other, "SELECT COUNT(*) FROM Personnel").rows()).containsExactly("48");
      }
    }
  }

  @Test
  void anySqlNameGetsAnAzureTableOfItsOwn() throws SQLException {
    String[] names = {"\"order_items\"", "T1", "\"Tables\"", "\"1st quarter\"", "\"Order_Items2\""};
    try (Statement statement = connection.createStatement()) {
      for (String name : names) {
        statement.execute("CREATE TABLE " + name + " (Id INT PRIMARY KEY, Label VARCHAR)");
        statement.executeUpdate("INSERT INTO " + name + " VALUES (1, " + "'" + name.replace("\"", "") + "')");
      }
      for (String name : names) {
        assertThat(QueryRuns.run(connection, "SELECT Label FROM " + name + " WHERE Id = 1").rows())
            .containsExactly(name.replace("\"", ""));
      }
      List<String> tables = new ArrayList<>();
      try (ResultSet resultSet = connection.getMetaData().getTables(null, null, "%", null)) {
        while (resultSet.next()) {
          tables.add(resultSet.getString("TABLE_NAME"));
        }
      }
      assertThat(tables).contains("order_items", "T1", "Tables", "1st quarter", "Order_Items2");
      for (String name : names) {
        statement.execute("DROP TABLE " + name);
      }
      assertThatThrownBy(() -> statement.executeQuery("SELECT * FROM \"order_items\""))
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42S02"));
    }
  }

  @Test
  void aTableWithoutAPrimaryKeyTakesRowsAsGenericToolsWriteThem() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE ToolNotes (Author VARCHAR(20), Body TEXT, Stars INT)");
      assertThat(statement.executeUpdate("INSERT INTO ToolNotes VALUES ('ann', 'hello', 3), ('bob', 'hi', 5), "
          + "('ann', 'hello', 3)")).isEqualTo(3);
      try (ResultSet resultSet = statement.executeQuery("SELECT * FROM ToolNotes")) {
        assertThat(resultSet.getMetaData().getColumnCount()).isEqualTo(3);
      }
      assertThat(QueryRuns.run(connection, "SELECT Author, Body, Stars FROM ToolNotes ORDER BY Author").rows())
          .containsExactly("ann|hello|3", "ann|hello|3", "bob|hi|5");
      assertThat(statement.executeUpdate("UPDATE ToolNotes SET Stars = 4 WHERE Author = 'bob'")).isEqualTo(1);
      assertThat(statement.executeUpdate("UPDATE ToolNotes SET Stars = Stars + 1 WHERE Author = 'ann'")).isEqualTo(2);
      assertThat(QueryRuns.run(connection, "SELECT Author, Stars FROM ToolNotes ORDER BY Author").rows())
          .containsExactly("ann|4", "ann|4", "bob|4");
      assertThat(statement.executeUpdate("DELETE FROM ToolNotes WHERE Author = 'ann'")).isEqualTo(2); // equal rows both
      assertThat(QueryRuns.run(connection, "SELECT COUNT(*) FROM ToolNotes").rows()).containsExactly("1");
      try (ResultSet keys = connection.getMetaData().getPrimaryKeys(null, null, "ToolNotes")) {
        assertThat(keys.next()).isFalse();
      }
      for (int i = 0; i < 40; i++) {
        statement.executeUpdate("INSERT INTO ToolNotes (Author, Stars) VALUES ('spread', " + i + ")");
      }
    }
    java.util.Set<String> partitions = new java.util.HashSet<>();
    TestAccount.service().getTableClient("ToolNotes").listEntities().forEach(e -> partitions.add(e.getPartitionKey()));
    assertThat(partitions).hasSizeGreaterThan(1); // writes spread over partitions

    connection.setAutoCommit(false);
    try (Statement statement = connection.createStatement()) {
      for (int i = 0; i < 3; i++) {
        statement.executeUpdate("INSERT INTO ToolNotes (Author, Stars) VALUES ('txn', " + i + ")");
      }
      statement.executeUpdate("DELETE FROM ToolNotes WHERE Author = 'txn' AND Stars = 1");
      connection.commit(); // one transaction: its rows share one partition
    } finally {
      connection.setAutoCommit(true);
    }
    assertThat(QueryRuns.run(oracle, "SELECT Stars FROM ToolNotes WHERE Author = 'txn' ORDER BY Stars").rows())
        .containsExactly("0", "2");
    java.util.Set<String> transactionPartitions = new java.util.HashSet<>();
    TestAccount.service().getTableClient("ToolNotes").listEntities().stream()
        .filter(e -> "txn".equals(e.getProperty("Author"))).forEach(e -> transactionPartitions.add(e.getPartitionKey()));
    assertThat(transactionPartitions).hasSize(1);
  }

  @Test
  void everyKeyTypeRoundTripsAndOverlongKeysAreRefused() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE Tokens (Owner UUID, Secret VARBINARY, Issued TIMESTAMP, Flag BOOLEAN, "
          + "Ratio REAL, Note VARCHAR, PRIMARY KEY ((Owner), Secret, Issued DESC, Flag, Ratio))");
      statement.executeUpdate("INSERT INTO Tokens VALUES ('0f8fad5b-d9cb-469f-a165-70867728950e', X'00FF10', "
          + "TIMESTAMP '1965-03-01 10:00:00.123', TRUE, -1.5, 'a')");
      statement.executeUpdate("INSERT INTO Tokens SELECT Owner, X'01', Issued, FALSE, Ratio * 2, 'copy' FROM Tokens");
      assertThat(QueryRuns.run(connection, "SELECT Owner, Secret, Issued, Flag, Ratio, Note FROM Tokens "
          + "WHERE Owner = '0f8fad5b-d9cb-469f-a165-70867728950e' ORDER BY Secret").rows()).containsExactly(
          "0f8fad5b-d9cb-469f-a165-70867728950e|00ff10|1965-03-01 10:00:00.123|true|-1.5|a",
          "0f8fad5b-d9cb-469f-a165-70867728950e|01|1965-03-01 10:00:00.123|false|-3.0|copy");
      assertThat(QueryRuns.agreed(connection, oracle, "SELECT Note FROM Tokens WHERE Owner = "
          + "'0f8fad5b-d9cb-469f-a165-70867728950e' AND Secret = X'01' AND Issued = TIMESTAMP '1965-03-01 10:00:00.123' "
          + "AND Flag = FALSE AND Ratio = -3.0").rows()).containsExactly("copy");

      // a UUID column is text in SQL, and DatabaseMetaData names its type as declared
      try (java.sql.ResultSet columns = connection.getMetaData().getColumns(null, null, "Tokens", "Owner")) {
        assertThat(columns.next()).isTrue();
        assertThat(columns.getString("TYPE_NAME")).isEqualTo("UUID");
        assertThat(columns.getInt("DATA_TYPE")).isEqualTo(java.sql.Types.VARCHAR);
      }
      try (java.sql.ResultSet rows = statement.executeQuery("SELECT Owner, Note FROM Tokens")) {
        assertThat(rows.getMetaData().getColumnTypeName(1)).isEqualTo("UUID");
        assertThat(rows.getMetaData().getColumnTypeName(2)).isEqualTo("VARCHAR");
      }
      try (java.sql.PreparedStatement prepared = connection.prepareStatement("SELECT Owner FROM Tokens")) {
        assertThat(prepared.getMetaData().getColumnTypeName(1)).isEqualTo("UUID");
      }

      statement.execute("CREATE TABLE LongKeys (K VARCHAR PRIMARY KEY, V INT)");
      String overlong = "k".repeat(1100);
      assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO LongKeys VALUES ('" + overlong + "', 1)"))
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).startsWith("22"))
          .hasMessageContaining("1 KiB");
    }
  }

  /**
   * Two scans of one table that give different key columns of one type send the same request;
   * the planner merged them, and both sides of a UNION ALL gave the first column.
   */
  @Test
  void scansOfDifferentKeyColumnsStayApart() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE DtPeriods (Region VARCHAR(5), Yr INT, Mo INT, PRIMARY KEY ((Region), Yr, Mo))");
      statement.execute("INSERT INTO DtPeriods VALUES ('r', 2020, 1), ('r', 2021, 2)");
    }
    assertThat(agreed("SELECT Yr FROM DtPeriods UNION ALL SELECT Mo FROM DtPeriods").rows())
        .containsExactlyInAnyOrder("2020", "2021", "1", "2");
    agreed("SELECT a.Yr, b.Mo FROM DtPeriods a JOIN DtPeriods b ON a.Region = b.Region");
    agreed("SELECT Yr FROM DtPeriods WHERE Region = 'r' EXCEPT SELECT Mo FROM DtPeriods WHERE Region = 'r'");
    try (Statement statement = connection.createStatement()) {
      statement.execute("DROP TABLE DtPeriods");
    }
  }
}
