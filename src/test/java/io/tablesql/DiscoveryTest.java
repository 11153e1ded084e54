package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.testing.QueryRuns;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Column inference sees the whole key space: a kind of entity, or a property, that first appears
 * after 5,000 entities in key order is a column, within the default sample of 1,000 entities.
 */
class DiscoveryTest {
  private static TableClient partitions;
  private static TableClient onePartition;
  private static TableClient lastFew;

  @BeforeAll
  static void setUp() {
    // 60 partitions of 100: orders first, then (from the 51st partition on) returns with a Reason
    List<TableEntity> entities = new ArrayList<>();
    for (int p = 0; p < 60; p++) {
      for (int r = 0; r < 100; r++) {
        TableEntity entity = new TableEntity(String.format("store%03d", p), String.format("%05d", r))
            .addProperty("Amount", p * 100 + r);
        if (p >= 50) {
          entity.addProperty("Kind", "return").addProperty("Reason", "damaged").addProperty("Refund", 5_000_000_000L);
        } else {
          entity.addProperty("Kind", "order");
        }
        entities.add(entity);
      }
    }
    partitions = TestAccount.newTable("LateKinds");
    TestAccount.insert(partitions, entities);

    // one partition of 6,000 zero-padded RowKeys: the property Note appears after 5,000
    entities.clear();
    for (int r = 0; r < 6000; r++) {
      TableEntity entity = new TableEntity("log", String.format("entry%06d", r)).addProperty("Level", "INFO");
      entities.add(r >= 5000 ? entity.addProperty("Note", "late").addProperty("Code", 7) : entity);
    }
    onePartition = TestAccount.newTable("LateProperty");
    TestAccount.insert(onePartition, entities);

    // 60 partitions of 100 whose last 5 (8 % of the table) hold another kind, with AuditNote
    entities.clear();
    for (int p = 0; p < 60; p++) {
      for (int r = 0; r < 100; r++) {
        TableEntity entity = new TableEntity(String.format("p%03d", p), String.format("%05d", r)).addProperty("N", r);
        entities.add(p >= 55 ? entity.addProperty("AuditNote", "checked") : entity.addProperty("Name", "x"));
      }
    }
    lastFew = TestAccount.newTable("LateFew");
    TestAccount.insert(lastFew, entities);
  }

  /** A kind of entity in the last 8 % of the key space: the scouts' last probes place the pages over the data. */
  @Test
  void aKindOfEntityInTheLastPartitionsIsSeen() throws SQLException {
    try (Connection connection = TestAccount.connect()) {
      assertThat(columnTypes(connection, lastFew.getTableName())).contains("AuditNote VARCHAR", "Name VARCHAR");
      assertThat(QueryRuns.run(connection, "SELECT COUNT(AuditNote) FROM " + lastFew.getTableName()).rows())
          .containsExactly("500");
    }
  }

  @Test
  void aKindOfEntityInLaterPartitionsIsSeen() throws SQLException {
    try (Connection connection = TestAccount.connect()) {
      assertThat(columnTypes(connection, partitions.getTableName())).contains("Kind VARCHAR", "Reason VARCHAR",
          "Refund BIGINT", "Amount INTEGER");
      assertThat(QueryRuns.run(connection, "SELECT COUNT(*), MIN(Refund) FROM " + partitions.getTableName()
          + " WHERE Reason = 'damaged'").rows()).containsExactly("1000|5000000000");
    }
  }

  @Test
  void aPropertyLateInOnePartitionIsSeen() throws SQLException {
    try (Connection connection = TestAccount.connect()) {
      assertThat(columnTypes(connection, onePartition.getTableName())).contains("Note VARCHAR", "Code INTEGER");
      assertThat(QueryRuns.run(connection, "SELECT COUNT(Note), SUM(Code) FROM " + onePartition.getTableName())
          .rows()).containsExactly("1000|7000");
    }
  }

  @Test
  void aSmallBudgetReadsTheFirstEntitiesAsBefore() throws SQLException {
    try (Connection connection = TestAccount.connect("sampleSize=50")) {
      assertThat(columnTypes(connection, partitions.getTableName())).doesNotContain("Reason VARCHAR");
    }
  }

  private static List<String> columnTypes(Connection connection, String table) throws SQLException {
    List<String> columns = new ArrayList<>();
    try (ResultSet resultSet = connection.getMetaData().getColumns(null, null, table, null)) {
      while (resultSet.next()) {
        columns.add(resultSet.getString("COLUMN_NAME") + " " + resultSet.getString("TYPE_NAME"));
      }
    }
    assertThat(columns).isNotEmpty();
    return columns;
  }
}
