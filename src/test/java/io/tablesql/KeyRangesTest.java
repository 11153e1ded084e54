package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.testing.QueryRuns;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Balanced key-range predicates (KeyRanges), as Spark's predicates read them: every row exactly once. */
class KeyRangesTest {
  @Test
  void thePredicatesHoldEveryRowOnceAndEachIsAKeyRangeScan() throws SQLException {
    TableClient table = TestAccount.newTable("Ranged");
    List<TableEntity> entities = new ArrayList<>();
    for (int p = 0; p < 40; p++) {
      for (int r = 0; r < 10; r++) {
        entities.add(new TableEntity(String.format("part%02d", p), "r" + r).addProperty("N", p * 10 + r));
      }
    }
    TestAccount.insert(table, entities);
    try (Connection connection = TestAccount.connect()) {
      String[] predicates = connection.unwrap(KeyRanges.class).keyRangePredicates(table.getTableName(), 4);
      assertThat(predicates.length).isBetween(2, 4);
      Set<String> seen = new HashSet<>();
      int rows = 0;
      for (String predicate : predicates) {
        String sql = "SELECT PartitionKey, RowKey FROM " + table.getTableName() + " WHERE " + predicate;
        for (String row : QueryRuns.run(connection, sql).rows()) {
          seen.add(row);
          rows++;
        }
      }
      assertThat(rows).isEqualTo(400);
      assertThat(seen).hasSize(400);
      assertThat(QueryRuns.explain(connection, "SELECT N FROM " + table.getTableName() + " WHERE " + predicates[1]))
          .contains("access=[RANGE SCAN]");

      try (Statement statement = connection.createStatement()) {
        statement.execute("CREATE TABLE RangedDeclared (Region VARCHAR, Id INT, PRIMARY KEY ((Region), Id))");
        StringBuilder values = new StringBuilder();
        for (int i = 0; i < 60; i++) {
          values.append(i == 0 ? "" : ", ").append("('r").append(i % 30).append("', ").append(i).append(")");
        }
        statement.executeUpdate("INSERT INTO RangedDeclared VALUES " + values);
      }
      String[] declared = connection.unwrap(KeyRanges.class).keyRangePredicates("RangedDeclared", 3);
      assertThat(declared[0]).startsWith("\"Region\" < '");
      Set<String> ids = new HashSet<>();
      for (String predicate : declared) {
        ids.addAll(QueryRuns.run(connection, "SELECT Id FROM RangedDeclared WHERE " + predicate).rows());
      }
      assertThat(ids).hasSize(60);
    }
  }
}
