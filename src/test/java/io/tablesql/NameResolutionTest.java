package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.testing.QueryRuns;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** Table names resolve to the table of exactly that name first, then to the one matching ignoring case. */
class NameResolutionTest {
  @Test
  void aNameFindsItsOwnTableBeforeOneDifferingInCase() throws SQLException {
    TableClient table = TestAccount.newTable("CaseRaw", new TableEntity("a", "1").addProperty("N", 1),
        new TableEntity("b", "2").addProperty("N", 2), new TableEntity("b", "x").addProperty("N", 3));
    String raw = table.getTableName();
    String lower = raw.toLowerCase(Locale.ROOT);
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      // a table mapped over the Azure table, under the same name in lower case: the entities with RowKey 'x'
      statement.execute("CREATE TABLE " + lower + " (p VARCHAR(5) NOT NULL, N INT) OVER " + raw
          + " PARTITION KEY '{p}' ROW KEY 'x'");
      try {
        assertThat(QueryRuns.run(connection, "SELECT N FROM " + lower).rows()).containsExactly("3");
        assertThat(QueryRuns.run(connection, "SELECT N FROM \"" + lower + "\"").rows()).containsExactly("3");
        assertThat(QueryRuns.run(connection, "SELECT N FROM " + raw).rows()).containsExactlyInAnyOrder("1", "2", "3");
        assertThatThrownBy(() -> QueryRuns.run(connection, "SELECT N FROM " + raw.toUpperCase(Locale.ROOT)))
            .isInstanceOf(SQLException.class)
            .hasMessageContaining(raw).hasMessageContaining(lower).hasMessageContaining("differ only in case")
            .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("42000"));
      } finally {
        statement.execute("DROP TABLE " + lower);
      }
      // with one table of the name, any case finds it, as before
      assertThat(QueryRuns.run(connection, "SELECT N FROM " + raw.toUpperCase(Locale.ROOT)).rows()).hasSize(3);
    }
  }
}
