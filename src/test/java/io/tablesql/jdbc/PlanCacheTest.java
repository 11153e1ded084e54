package io.tablesql.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Ad-hoc statements that differ only in literals are planned once and still answer right. */
class PlanCacheTest {
  @Test
  void literalsAreLiftedAndThePlanReused() throws SQLException {
    TableClient table = TestAccount.newTable("Plans");
    List<TableEntity> entities = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      entities.add(new TableEntity("p" + (i % 2), "r" + i).addProperty("N", i));
    }
    TestAccount.insert(table, entities);
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      PlanCache cache = connection.unwrap(TableSqlConnection.class).planCache();
      for (int i = 0; i < 20; i++) {
        try (ResultSet resultSet = statement.executeQuery("SELECT N FROM " + table.getTableName()
            + " WHERE PartitionKey = 'p" + (i % 2) + "' AND RowKey = 'r" + i + "'")) {
          assertThat(resultSet.next()).isTrue();
          assertThat(resultSet.getInt(1)).isEqualTo(i);
          assertThat(resultSet.next()).isFalse();
        }
      }
      assertThat(cache.plansMade()).isEqualTo(1);
      // two open result sets of one shape never share a plan
      try (Statement other = connection.createStatement();
           ResultSet first = statement.executeQuery("SELECT N FROM " + table.getTableName() + " WHERE N >= 10");
           ResultSet second = other.executeQuery("SELECT N FROM " + table.getTableName() + " WHERE N >= 15")) {
        assertThat(first.next()).isTrue();
        int secondRows = 0;
        while (second.next()) {
          secondRows++;
        }
        int firstRows = 1;
        while (first.next()) {
          firstRows++;
        }
        assertThat(secondRows).isEqualTo(5);
        assertThat(firstRows).isEqualTo(10);
      }
      // a value that does not fit its parameter runs as written
      try (ResultSet resultSet = statement.executeQuery("SELECT N FROM " + table.getTableName()
          + " WHERE N > 3000000000")) {
        assertThat(resultSet.next()).isFalse();
      }
    }
  }

  @Test
  void onlyComparedLiteralsAreLifted() {
    LiteralLifter.Lifted lifted = LiteralLifter.lift("SELECT 'x' AS k, N FROM T WHERE PartitionKey = 'a''b' AND "
        + "RowKey LIKE 'r%' AND N IN (1, 2) AND UPPER(Name) = 'Z' ORDER BY 1 LIMIT 10");
    assertThat(lifted).isNotNull();
    assertThat(lifted.values()).containsExactly("a'b", new java.math.BigDecimal(1), new java.math.BigDecimal(2), "Z");
    assertThat(lifted.sql()).contains("'x'", "LIKE 'r%'", "FETCH NEXT 10 ROWS ONLY").doesNotContain("'a''b'");
    assertThat(LiteralLifter.lift("SELECT * FROM T").values()).isEmpty(); // cached as written
    assertThat(LiteralLifter.lift("INSERT INTO T (a) VALUES ('x')")).isNull();
    assertThat(LiteralLifter.lift("SELECT * FROM T WHERE (a, b) IN (('x', 'y'), ('z', 'w'))").values())
        .isEmpty(); // Calcite cannot type ROW(?, ?)
  }
}
