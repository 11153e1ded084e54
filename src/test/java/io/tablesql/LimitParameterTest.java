package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.testing.TestAccount;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Row limits and offsets given as parameters of any integral Java type, as jOOQ and others bind them. */
class LimitParameterTest {
  private static String table;
  private static Connection connection;

  @BeforeAll
  static void setUp() throws SQLException {
    TableClient client = TestAccount.newTable("Limits");
    List<TableEntity> entities = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      entities.add(new TableEntity("p", "r" + i).addProperty("N", i));
    }
    TestAccount.insert(client, entities);
    table = client.getTableName();
    connection = TestAccount.connect();
  }

  @AfterAll
  static void tearDown() throws SQLException {
    connection.close();
  }

  private interface Binder {
    void bind(PreparedStatement statement, int index, long value) throws SQLException;
  }

  private static List<String> rows(String sql, Binder binder, long... values) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      for (int i = 0; i < values.length; i++) {
        binder.bind(statement, i + 1, values[i]);
      }
      List<String> rows = new ArrayList<>();
      try (ResultSet resultSet = statement.executeQuery()) {
        while (resultSet.next()) {
          rows.add(resultSet.getString(1));
        }
      }
      return rows;
    }
  }

  private static final List<Binder> BINDERS = List.of(
      (statement, index, value) -> statement.setInt(index, (int) value),
      (statement, index, value) -> statement.setLong(index, value),
      (statement, index, value) -> statement.setShort(index, (short) value),
      (statement, index, value) -> statement.setBigDecimal(index, BigDecimal.valueOf(value)),
      (statement, index, value) -> statement.setObject(index, value),
      (statement, index, value) -> statement.setObject(index, (int) value));

  @Test
  void limitTakesAnyIntegralParameter() throws SQLException {
    for (Binder binder : BINDERS) {
      assertThat(rows("SELECT RowKey FROM " + table + " WHERE PartitionKey = 'p' ORDER BY RowKey LIMIT ?", binder, 3))
          .containsExactly("r0", "r1", "r2");
    }
  }

  @Test
  void offsetAndFetchTakeAnyIntegralParameter() throws SQLException {
    for (Binder binder : BINDERS) {
      assertThat(rows("SELECT RowKey FROM " + table + " WHERE PartitionKey = 'p' ORDER BY RowKey "
          + "OFFSET ? ROWS FETCH NEXT ? ROWS ONLY", binder, 2, 3)).containsExactly("r2", "r3", "r4");
    }
  }

  @Test
  void limitAndOffsetTakeLongsWithoutOrderBy() throws SQLException {
    assertThat(rows("SELECT RowKey FROM " + table + " WHERE PartitionKey = 'p' LIMIT ? OFFSET ?",
        (statement, index, value) -> statement.setLong(index, value), 2, 1)).containsExactly("r1", "r2");
  }
}
