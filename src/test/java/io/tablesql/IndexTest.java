package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableItem;
import io.tablesql.testing.OracleComparedTest;
import io.tablesql.testing.QueryRuns;
import io.tablesql.testing.QueryRuns.Run;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Secondary indexes: CREATE INDEX builds one over existing rows, every write path keeps it right,
 * queries on indexed columns read a handful of entities instead of the table, and every answer
 * is the one a full scan gives.
 */
class IndexTest extends OracleComparedTest {
  private static final int PEOPLE = 1200;

  @BeforeAll
  static void setUp() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE IxPeople (Region VARCHAR, Id INT, Email VARCHAR, LastName VARCHAR, Age INT, "
          + "PRIMARY KEY ((Region), Id))");
    }
    try (PreparedStatement insert = connection.prepareStatement(
        "INSERT INTO IxPeople (Region, Id, Email, LastName, Age) VALUES (?, ?, ?, ?, ?)")) {
      for (int id = 0; id < PEOPLE; id++) {
        insert.setString(1, "r" + id % 7);
        insert.setInt(2, id);
        insert.setString(3, "p" + id + "@example.com");
        insert.setString(4, "Name" + id % 20);
        if (id % 10 == 9) {
          insert.setNull(5, java.sql.Types.INTEGER);
        } else {
          insert.setInt(5, 20 + id % 50);
        }
        insert.addBatch();
      }
      insert.executeBatch();
    }
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE UNIQUE INDEX IxPeopleEmail ON IxPeople (Email)");
      statement.execute("CREATE INDEX IxPeopleName ON IxPeople (LastName, Age DESC)");
      statement.execute("CREATE INDEX IxPeopleAge ON IxPeople (Age)");
    }
  }

  @Test
  void equalityOnAUniqueIndexIsOneEntryAndOneRow() throws SQLException {
    String sql = "SELECT Id, Region, Age FROM IxPeople WHERE Email = 'p42@example.com'";
    assertThat(explain(sql)).contains("INDEX LOOKUP IxPeopleEmail")
        .contains("then each row by its key");
    Run run = agreed(sql);
    assertThat(run.rows()).containsExactly("42|r0|62");
    assertThat(run.requests()).isEqualTo(2);
  }

  @Test
  void equalityAndRangesOnIndexPrefixes() throws SQLException {
    Run byName = agreed("SELECT Id FROM IxPeople WHERE LastName = 'Name3' AND Age >= 0 ORDER BY Id");
    assertThat(byName.rows()).hasSize(PEOPLE / 20);
    assertThat(byName.requests()).isLessThanOrEqualTo(1 + PEOPLE / 20);
    assertThat(explain("SELECT Id FROM IxPeople WHERE LastName = 'Name3' AND Age > 30"))
        .contains("IxPeopleName");
    agreed("SELECT Id FROM IxPeople WHERE LastName = 'Name3' AND Age > 30 ORDER BY Id");
    agreed("SELECT Id FROM IxPeople WHERE LastName IN ('Name1', 'Name2') AND Age <= 40 ORDER BY Id");
    agreed("SELECT Id FROM IxPeople WHERE Email IN ('p1@example.com', 'p2@example.com', 'nobody') ORDER BY Id");
    Run range = agreed("SELECT Id FROM IxPeople WHERE Age BETWEEN 30 AND 31 ORDER BY Id");
    assertThat(explain("SELECT Id FROM IxPeople WHERE Age BETWEEN 30 AND 31"))
        .contains("INDEX RANGE SCAN IxPeopleAge");
    assertThat(range.rows()).isNotEmpty();
    agreed("SELECT COUNT(*) FROM IxPeople WHERE Age = 25");
    // rows whose Age is NULL have no entry in (LastName, Age DESC): LastName alone cannot use it
    assertThat(explain("SELECT Id FROM IxPeople WHERE LastName = 'Name9'"))
        .doesNotContain("IxPeopleName");
    assertThat(agreed("SELECT Id FROM IxPeople WHERE LastName = 'Name9' ORDER BY Id").rows()).hasSize(PEOPLE / 20);
  }

  @Test
  void theKeyStillWinsWhereItIsCheaper() throws SQLException {
    assertThat(explain("SELECT * FROM IxPeople WHERE Region = 'r1' AND Id = 8 AND "
        + "Email = 'p8@example.com'")).contains("POINT LOOKUP").doesNotContain("INDEX");
  }

  @Test
  void everyWritePathKeepsTheIndexesRight() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("INSERT INTO IxPeople (Region, Id, Email, LastName, Age) VALUES ('w', 1, 'w1@x', 'Writer', 40)");
      statement.execute("UPDATE IxPeople SET Email = 'w1-new@x', Age = 41 WHERE Region = 'w' AND Id = 1");
      statement.execute("UPSERT INTO IxPeople (Region, Id, Email, LastName, Age) VALUES ('w', 2, 'w2@x', 'Writer', 50)");
      statement.execute("UPSERT INTO IxPeople (Region, Id, Email) VALUES ('w', 2, 'w2-new@x')");
      statement.execute("INSERT INTO IxPeople (Region, Id, Email, LastName, Age) "
          + "SELECT 'w', Id + 1000, 'copy' || Email, 'Writer', Age FROM IxPeople WHERE Region = 'r3' AND Id < 30");
      statement.execute("DELETE FROM IxPeople WHERE Region = 'w' AND Id = 1003");
      statement.addBatch("INSERT INTO IxPeople (Region, Id, Email, LastName, Age) VALUES ('w', 3, 'w3@x', 'Writer', 40)");
      statement.addBatch("UPDATE IxPeople SET LastName = 'Moved' WHERE Region = 'w' AND Id = 2");
      statement.executeBatch();
    }
    try (Connection replacing = TestAccount.connect("upsertMode=replace");
        Statement statement = replacing.createStatement()) {
      // replace leaves out what the UPSERT does not name: Age and LastName go, with their entries
      statement.execute("UPSERT INTO IxPeople (Region, Id, Email) VALUES ('w', 3, 'w3-new@x')");
    }
    connection.setAutoCommit(false);
    try (Statement statement = connection.createStatement()) {
      statement.execute("INSERT INTO IxPeople (Region, Id, Email, LastName, Age) VALUES ('t', 1, 't1@x', 'Txn', 33)");
      statement.execute("INSERT INTO IxPeople (Region, Id, Email, LastName, Age) VALUES ('t', 2, 't2@x', 'Txn', 34)");
      connection.commit();
      statement.execute("UPDATE IxPeople SET Email = 't2-new@x' WHERE Region = 't' AND Id = 2");
      statement.execute("DELETE FROM IxPeople WHERE Region = 't' AND Id = 1");
      connection.commit();
    } finally {
      connection.setAutoCommit(true);
    }
    assertThat(agreed("SELECT Id, Email FROM IxPeople WHERE Email = 'w1-new@x'").rows()).containsExactly("1|w1-new@x");
    assertThat(agreed("SELECT Id FROM IxPeople WHERE Email = 'w1@x'").rows()).isEmpty();
    assertThat(agreed("SELECT Id, LastName FROM IxPeople WHERE Email = 'w2-new@x'").rows()).containsExactly("2|Moved");
    assertThat(agreed("SELECT Id FROM IxPeople WHERE LastName = 'Writer' AND Age >= 0 ORDER BY Id").rows()).hasSize(4);
    assertThat(agreed("SELECT Id, LastName FROM IxPeople WHERE Email = 'w3-new@x'").rows()).containsExactly("3|null");
    assertThat(agreed("SELECT Id FROM IxPeople WHERE LastName = 'Moved'").rows()).containsExactly("2");
    assertThat(agreed("SELECT Id FROM IxPeople WHERE Email = 't2-new@x'").rows()).containsExactly("2");
    assertThat(agreed("SELECT Id FROM IxPeople WHERE LastName = 'Txn'").rows()).containsExactly("2");
    assertThat(agreed("SELECT Id FROM IxPeople WHERE Email LIKE 'copy%' AND Email = 'copyp3@example.com'").rows())
        .isEmpty(); // row 1003 was deleted
    assertNoStaleEntries("IxPeopleEmail", "IxPeopleName", "IxPeopleAge");
  }

  @Test
  void aUniqueIndexRefusesASecondRowWithItsValue() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("INSERT INTO IxPeople (Region, Id, Email) VALUES ('u', 1, 'unique@x')");
      assertThatThrownBy(() -> statement.execute("INSERT INTO IxPeople (Region, Id, Email) VALUES ('u', 2, 'unique@x')"))
          .isInstanceOf(SQLException.class).hasMessageContaining("IxPeopleEmail")
          .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("23505");
      assertThatThrownBy(() -> statement.execute("UPDATE IxPeople SET Email = 'p5@example.com' WHERE Region = 'u' "
          + "AND Id = 1")).extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("23505");
      assertThatThrownBy(() -> statement.execute("INSERT INTO IxPeople (Region, Id, Email) VALUES ('u', 3, 'same@x'), "
          + "('u', 4, 'same@x')")).extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("23505");
      assertThatThrownBy(() -> statement.execute("INSERT INTO IxPeople (Region, Id, Email) VALUES ('u1', 3, 'same@x'), "
          + "('u2', 4, 'same@x')")).hasMessageContaining("Nothing was written")
          .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("23505"); // two partitions, one statement
      assertThat(agreed("SELECT Id FROM IxPeople WHERE Region IN ('u1', 'u2')").rows()).isEmpty();
      // refused after an entry of another index was added: that entry is removed again
      assertThatThrownBy(() -> statement.execute("INSERT INTO IxPeople (Region, Id, Email, Age) "
          + "VALUES ('u', 5, 'unique@x', 33)")).isInstanceOf(SQLException.class)
          .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("23505");
      connection.setAutoCommit(false);
      try {
        statement.execute("INSERT INTO IxPeople (Region, Id, Email, Age) VALUES ('u', 6, 'unique@x', 34)");
        assertThatThrownBy(connection::commit).isInstanceOf(SQLException.class)
            .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("23505");
      } finally {
        connection.setAutoCommit(true);
      }
      assertNoStaleEntries("IxPeopleAge");
      statement.execute("DELETE FROM IxPeople WHERE Region = 'u' AND Id = 1");
      statement.execute("INSERT INTO IxPeople (Region, Id, Email) VALUES ('u', 2, 'unique@x')"); // free again
    }
    assertThat(agreed("SELECT Id FROM IxPeople WHERE Email = 'unique@x'").rows()).containsExactly("2");
    assertThat(agreed("SELECT Id FROM IxPeople WHERE Region = 'u' ORDER BY Id").rows()).containsExactly("2");
  }

  @Test
  void metadataListsTheIndexesAndHidesTheirEntries() throws SQLException {
    List<String> indexes = new ArrayList<>();
    try (ResultSet info = connection.getMetaData().getIndexInfo(null, null, "IxPeople", false, false)) {
      while (info.next()) {
        indexes.add(info.getString("INDEX_NAME") + ":" + info.getString("COLUMN_NAME") + ":"
            + info.getString("ASC_OR_DESC") + ":" + info.getBoolean("NON_UNIQUE"));
      }
    }
    assertThat(indexes).contains("IxPeopleEmail:Email:A:false", "IxPeopleName:LastName:A:true",
        "IxPeopleName:Age:D:true");
    try (ResultSet tables = connection.getMetaData().getTables(null, null, "%", null)) {
      while (tables.next()) {
        assertThat(tables.getString("TABLE_NAME")).doesNotStartWith("tsi");
      }
    }
  }

  @Test
  void createDropAndErrors() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE IxTemp (K INT PRIMARY KEY, V VARCHAR)");
      statement.execute("INSERT INTO IxTemp (K, V) VALUES (1, 'a'), (2, 'b'), (3, 'a')");
      assertThatThrownBy(() -> statement.execute("CREATE UNIQUE INDEX IxTempV ON IxTemp (V)"))
          .hasMessageContaining("IxTempV").extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("23505");
      statement.execute("CREATE INDEX IxTempV ON IxTemp (V)");
      SQLWarning warning = statement.getWarnings();
      assertThat(warning != null).isTrue();
      assertThat(warning.getMessage()).isEqualTo("Index IxTempV: 3 rows indexed, 3 entries checked, 0 stale entries "
          + "removed.");
      assertThat(agreed("SELECT K FROM IxTemp WHERE V = 'a' ORDER BY K").rows()).containsExactly("1", "3");
      assertThatThrownBy(() -> statement.execute("CREATE INDEX IxTempV ON IxTemp (K)"))
          .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("42S01");
      statement.execute("CREATE INDEX IF NOT EXISTS IxTempV ON IxTemp (K)");
      assertThatThrownBy(() -> statement.execute("CREATE INDEX IxTempW ON IxTemp (Nope)"))
          .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("42S22");
      assertThatThrownBy(() -> statement.execute("CREATE INDEX IxTempW ON IxTemp V"))
          .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("42000");
      statement.execute("DROP INDEX IxTempV");
      assertThat(explain("SELECT K FROM IxTemp WHERE V = 'a'")).doesNotContain("INDEX");
      assertThatThrownBy(() -> statement.execute("DROP INDEX IxTempV"))
          .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("42S02");
      statement.execute("DROP INDEX IF EXISTS IxTempV");
      statement.execute("CREATE INDEX IxTempV2 ON IxTemp (V)");
      statement.execute("DROP TABLE IxTemp");
    }
  }

  @Test
  void localIndexesLiveInTheRowsPartitionsAndChangeWithThem() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE IxOrders (Customer VARCHAR, OrderId INT, Status VARCHAR, Total DOUBLE, "
          + "Note VARCHAR, PRIMARY KEY ((Customer), OrderId))");
      StringBuilder values = new StringBuilder();
      for (int i = 0; i < 150; i++) {
        values.append(i == 0 ? "" : ", ").append("('c").append(i % 3).append("', ").append(i).append(", '")
            .append(i % 4 == 0 ? "open" : "shipped").append("', ").append(i * 1.5).append(", 'n").append(i).append("')");
      }
      statement.execute("INSERT INTO IxOrders (Customer, OrderId, Status, Total, Note) VALUES " + values);
      statement.execute("CREATE INDEX IxOrdersStatus ON IxOrders (Status) INCLUDE (Total) LOCAL");
    }
    String covered = "SELECT OrderId, Total FROM IxOrders WHERE Customer = 'c1' AND Status = 'open' ORDER BY OrderId";
    assertThat(explain(covered)).contains("INDEX LOOKUP IxOrdersStatus")
        .contains("covering: no row read");
    Run run = agreed(covered);
    assertThat(run.rows()).hasSize(13);
    assertThat(run.requests()).isEqualTo(1);
    String rowsRead = "SELECT OrderId, Note FROM IxOrders WHERE Customer = 'c1' AND Status = 'open' ORDER BY OrderId";
    agreed(rowsRead); // the partition's one page is cheaper than a row read per entry
    assertThat(explain("SELECT OrderId FROM IxOrders WHERE Status = 'open'"))
        .doesNotContain("IxOrdersStatus"); // no partition given: the entries of every partition are no cheaper
    assertThat(agreed("SELECT COUNT(*) FROM IxOrders").rows()).containsExactly("150");
    agreed("SELECT * FROM IxOrders WHERE Status = 'open' ORDER BY OrderId");

    try (Statement statement = connection.createStatement()) {
      statement.execute("UPDATE IxOrders SET Status = 'shipped' WHERE Customer = 'c1' AND OrderId = 4");
      statement.execute("UPDATE IxOrders SET Total = 999 WHERE Customer = 'c1' AND OrderId = 16");
      statement.execute("DELETE FROM IxOrders WHERE Customer = 'c1' AND OrderId = 28");
      statement.execute("UPSERT INTO IxOrders (Customer, OrderId, Status, Total) VALUES ('c1', 1000, 'open', 1)");
      statement.execute("INSERT INTO IxOrders (Customer, OrderId, Status, Total) SELECT Customer, OrderId + 2000, "
          + "'open', Total FROM IxOrders WHERE Customer = 'c1' AND OrderId < 60"); // 19 rows, 57 operations
    }
    connection.setAutoCommit(false);
    try (Statement statement = connection.createStatement()) {
      statement.execute("UPDATE IxOrders SET Status = 'open' WHERE Customer = 'c2' AND OrderId = 2");
      statement.execute("INSERT INTO IxOrders (Customer, OrderId, Status, Total) VALUES ('c2', 3000, 'open', 7)");
      connection.commit();
    } finally {
      connection.setAutoCommit(true);
    }
    assertThat(agreed(covered).rows()).hasSize(13 - 2 + 1 + 19).contains("16|999.0");
    agreed(rowsRead);
    agreed("SELECT OrderId, Total FROM IxOrders WHERE Customer = 'c2' AND Status = 'open' ORDER BY OrderId");
    assertThat(agreed("SELECT COUNT(*) FROM IxOrders").rows()).containsExactly("170");
    assertNoStaleEntries("IxOrdersStatus");
    try (Statement statement = connection.createStatement()) {
      statement.execute("DROP INDEX IxOrdersStatus");
    }
    long entities = 0;
    for (TableItem item : TestAccount.service().listTables()) {
      if (item.getName().equalsIgnoreCase("IxOrders")) {
        for (TableEntity ignored : TestAccount.service().getTableClient(item.getName()).listEntities()) {
          entities++;
        }
      }
    }
    assertThat(entities).isEqualTo(170); // the entries went with the index
  }

  @Test
  void coveringGlobalIndexesAnswerFromVerifiedEntriesAndCheckTheOthers() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE IxStock (Warehouse VARCHAR, Sku VARCHAR, Qty INT, Price DECIMAL(9, 2), "
          + "Note VARCHAR, PRIMARY KEY ((Warehouse), Sku))");
      StringBuilder values = new StringBuilder();
      for (int i = 0; i < 60; i++) {
        values.append(i == 0 ? "" : ", ").append("('w").append(i % 4).append("', 's").append(i).append("', ")
            .append(i % 6).append(", ").append(i).append(".25, 'n").append(i).append("')");
      }
      statement.execute("INSERT INTO IxStock (Warehouse, Sku, Qty, Price, Note) VALUES " + values);
      statement.execute("CREATE INDEX IxStockQty ON IxStock (Qty) INCLUDE (Price) GLOBAL");
      statement.execute("CREATE UNIQUE INDEX IxStockNote ON IxStock (Note) INCLUDE (Qty)");
    }
    String covered = "SELECT Warehouse, Sku, Price FROM IxStock WHERE Qty = 2 ORDER BY Sku, Warehouse";
    assertThat(explain(covered)).contains("INDEX LOOKUP IxStockQty").contains("covering");
    // the build inserted its entries verified: one request, no row read
    Run built = agreed(covered);
    assertThat(built.rows()).hasSize(10);
    assertThat(built.requests()).isEqualTo(1);
    assertThat(explain("SELECT Sku, Note FROM IxStock WHERE Qty = 2")).doesNotContain("covering");

    try (Statement statement = connection.createStatement()) {
      statement.execute("UPDATE IxStock SET Price = 99.5 WHERE Warehouse = 'w2' AND Sku = 's2'"); // included value
      statement.execute("UPDATE IxStock SET Qty = 2 WHERE Warehouse = 'w3' AND Sku = 's3'"); // indexed value
      statement.execute("UPDATE IxStock SET Qty = 5 WHERE Warehouse = 'w0' AND Sku = 's8'"); // leaves Qty 2
      statement.execute("DELETE FROM IxStock WHERE Warehouse = 'w2' AND Sku = 's14'");
      statement.execute("UPSERT INTO IxStock (Warehouse, Sku, Qty, Price, Note) VALUES ('w9', 'new', 2, 1.5, 'nn')");
      statement.execute("INSERT INTO IxStock (Warehouse, Sku, Qty, Price) SELECT 'w8', Sku, Qty, Price + 1 "
          + "FROM IxStock WHERE Warehouse = 'w2' AND Qty = 2"); // 4 rows
    }
    connection.setAutoCommit(false);
    try (Statement statement = connection.createStatement()) {
      statement.execute("UPDATE IxStock SET Price = 7, Qty = 2 WHERE Warehouse = 'w1' AND Sku = 's1'");
      statement.execute("UPDATE IxStock SET Note = 'moved' WHERE Warehouse = 'w1' AND Sku = 's5'");
      connection.commit();
    } finally {
      connection.setAutoCommit(true);
    }
    Run written = agreed(covered);
    assertThat(written.rows()).hasSize(10 + 1 - 1 - 1 + 1 + 4 + 1).contains("w2|s2|99.50", "w1|s1|7.00");
    // the rows written since hold verified entries, as the build's do
    assertThat(written.requests()).isEqualTo(1);

    try (Connection settled = TestAccount.connect("indexGraceSeconds=0")) {
      assertThat(QueryRuns.verify(settled, "IxStockQty")).contains("0 stale entries removed")
          .contains("entries verified");
      QueryRuns.verify(settled, "IxStockNote");
      Run verified = QueryRuns.agreed(settled, oracle, covered);
      assertThat(verified.rows()).isEqualTo(written.rows());
      assertThat(verified.requests()).isEqualTo(1);
      Run unique = QueryRuns.agreed(settled, oracle, "SELECT Warehouse, Sku, Qty FROM IxStock WHERE Note = 'moved'");
      assertThat(unique.rows()).containsExactly("w1|s5|5");
      assertThat(unique.requests()).isEqualTo(1);
      assertThat(QueryRuns.agreed(settled, oracle, "SELECT Sku FROM IxStock WHERE Note = 'n5'").rows()).isEmpty();
    }
    // a write the UNIQUE index refuses changes no entry
    try (Statement statement = connection.createStatement()) {
      assertThatThrownBy(() -> statement.execute("UPDATE IxStock SET Note = 'n7', Qty = 3 WHERE Warehouse = 'w0' "
          + "AND Sku = 's0'")).extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("23505");
    }
    agreed(covered);
    agreed("SELECT Warehouse, Sku, Price FROM IxStock WHERE Qty = 0 ORDER BY Sku, Warehouse");
    assertNoStaleEntries("IxStockQty", "IxStockNote");
  }

  @Test
  void aTableWithoutAPrimaryKeyTakesAGlobalIndexAndAPreparedCreateIndexWorks() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE IxKeyless (Sku VARCHAR, Qty INT)");
      statement.execute("INSERT INTO IxKeyless VALUES ('a', 1), ('b', 2), ('a', 3)");
    }
    try (PreparedStatement create = connection.prepareStatement("CREATE INDEX IxKeylessSku ON IxKeyless (Sku)")) {
      // prepared DDL runs when executed, not when prepared (as Calcite would)
      assertThat(explain("SELECT Qty FROM IxKeyless WHERE Sku = 'a'")).doesNotContain("INDEX");
      assertThat(create.getMetaData()).as("DDL returns no rows").isNull();
      assertThat(create.getParameterMetaData().getParameterCount()).isZero();
      assertThat(create.execute()).isFalse();
      assertThat(create.getUpdateCount()).isEqualTo(0);
    }
    String query = "SELECT Qty FROM IxKeyless WHERE Sku = 'a' ORDER BY Qty";
    assertThat(explain(query)).contains("INDEX LOOKUP IxKeylessSku");
    assertThat(agreed(query).rows()).containsExactly("1", "3");
    try (Statement statement = connection.createStatement()) {
      statement.execute("UPDATE IxKeyless SET Sku = 'c' WHERE Qty = 3");
      statement.execute("DELETE FROM IxKeyless WHERE Qty = 1");
    }
    assertThat(agreed(query).rows()).isEmpty();
    assertThat(agreed("SELECT Qty FROM IxKeyless WHERE Sku = 'c'").rows()).containsExactly("3");
    assertNoStaleEntries("IxKeylessSku");
  }

  @Test
  void writesKeepIndexesAfterDdlElsewhereMadeTheJvmForgetTheCatalog() throws SQLException {
    try (Connection other = TestAccount.connect(); Statement ddl = other.createStatement();
        Statement statement = connection.createStatement()) {
      statement.execute("INSERT INTO IxPeople (Region, Id, Email) VALUES ('f', 1, 'forgot1@x')");
      ddl.execute("CREATE VIEW IxForget AS SELECT Id FROM IxPeople");
      statement.execute("INSERT INTO IxPeople (Region, Id, Email) VALUES ('f', 2, 'forgot2@x')");
      ddl.execute("DROP VIEW IxForget");
    }
    assertThat(agreed("SELECT Id FROM IxPeople WHERE Email = 'forgot2@x'").rows()).containsExactly("2");
  }

  @Test
  void scopesRefuseWhatTheyCannotDo() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      assertThatThrownBy(() -> statement.execute("CREATE UNIQUE INDEX IxBad ON IxPeople (Age) LOCAL"))
          .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("0A000");
      assertThatThrownBy(() -> statement.execute("CREATE INDEX IxBad ON IxPeople (Region) LOCAL"))
          .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("42000");
    }
  }

  /** VERIFY finds no stale entry on an index every write kept right. */
  private static void assertNoStaleEntries(String... indexes) throws SQLException {
    for (String index : indexes) {
      assertThat(QueryRuns.verify(connection, index)).contains("0 stale entries removed").doesNotContain("left");
    }
  }
}
