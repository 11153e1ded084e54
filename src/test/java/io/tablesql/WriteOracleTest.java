package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.testing.OracleData;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The oracle for writes: UPDATE and DELETE find their targets through pushed-down access paths;
 * the same statements run with pushdown=false on an identical copy must leave identical tables.
 */
class WriteOracleTest {
  /** The connection whose writes are checked against the oracle's. */
  Connection connectPushed() throws Exception {
    return TestAccount.connect();
  }

  @Test
  void updatesAndDeletesChangeTheSameEntitiesWithAndWithoutPushdown() throws Exception {
    String pushedTable = OracleData.create().getTableName();
    String oracleTable = OracleData.create().getTableName();
    List<String> predicates = new java.util.ArrayList<>(OracleTest.handWritten().subList(0, 30));
    Random random = new Random(3);
    while (predicates.size() < 60) {
      predicates.add(OracleTest.randomPredicate(random, 0));
    }
    try (Connection pushed = connectPushed(); Connection oracle = TestAccount.connect("pushdown=false");
         Statement onPushed = pushed.createStatement(); Statement onOracle = oracle.createStatement()) {
      for (int i = 0; i < predicates.size(); i++) {
        String statement = i % 3 == 2
            ? "DELETE FROM {table} WHERE " + predicates.get(i)
            : "UPDATE {table} SET Age = " + i + ", Name = NULL WHERE " + predicates.get(i);
        int pushedCount = onPushed.executeUpdate(statement.replace("{table}", pushedTable));
        int oracleCount = onOracle.executeUpdate(statement.replace("{table}", oracleTable));
        assertThat(pushedCount).as(statement).isEqualTo(oracleCount);
      }
    }
    assertThat(contents(pushedTable)).isEqualTo(contents(oracleTable));
  }

  /** Every entity's key and user properties, as the service holds them. */
  private static Map<String, String> contents(String table) {
    TableClient client = TestAccount.service().getTableClient(table);
    Map<String, String> contents = new TreeMap<>();
    for (TableEntity entity : client.listEntities()) {
      String properties = new TreeMap<>(entity.getProperties()).entrySet().stream()
          .filter(e -> !e.getKey().startsWith("odata.") && !e.getKey().contains("@") && !e.getKey().equals("Timestamp"))
          .map(e -> e.getKey() + "=" + (e.getValue() instanceof byte[] b ? java.util.Arrays.toString(b) : e.getValue()))
          .collect(Collectors.joining(","));
      contents.put(entity.getPartitionKey() + "/" + entity.getRowKey(), properties);
    }
    return contents;
  }
}
