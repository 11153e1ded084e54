package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.testing.QueryRuns;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.lang.reflect.Field;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Collections;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Joins of many tables, as SQLite's select5 conformance file writes them (a BI star join has the
 * same shape): 4 to 13 ten-row tables in one FROM clause, joined by the WHERE clause.
 */
class ManyJoinsTest {
  private static final int TABLES = 13;
  private static final List<String> NAMES = new ArrayList<>();

  @BeforeAll
  static void setUp() {
    for (int t = 1; t <= TABLES; t++) {
      List<TableEntity> rows = new ArrayList<>();
      for (int r = 1; r <= 10; r++) {
        rows.add(new TableEntity("p", String.format("%02d", r)).addProperty("a" + t, r)
            .addProperty("b" + t, (r * t) % 10 + 1).addProperty("x" + t, "table " + t + " row " + r));
      }
      TableClient table = TestAccount.newTable("Join" + t + "x");
      TestAccount.insert(table, rows);
      NAMES.add(table.getTableName());
    }
  }

  /**
   * The chain t1 - t2 - ... - tk, each joined to the next, and one condition on the first; as
   * select5 writes it, the tables in the FROM clause and the conditions in random order.
   */
  private static String chain(int k, Random random) {
    List<String> select = new ArrayList<>();
    List<String> from = new ArrayList<>();
    List<String> where = new ArrayList<>();
    for (int t = 1; t <= k; t++) {
      select.add("x" + t);
      from.add(NAMES.get(t - 1));
      if (t > 1) {
        where.add(random.nextBoolean() ? "a" + t + " = b" + (t - 1) : "b" + (t - 1) + " = a" + t);
      }
    }
    where.add("a1 IN (1, 3, 5)");
    Collections.shuffle(select, random);
    Collections.shuffle(from, random);
    Collections.shuffle(where, random);
    return "SELECT " + String.join(", ", select) + " FROM " + String.join(", ", from) + " WHERE "
        + String.join(" AND ", where);
  }

  /**
   * Planned exhaustively (as below 4 joins), this join of 8 tables takes Calcite's planner more
   * than 10 seconds (measured warm; other orders of the same tables take 0.1 second): a query
   * timeout of 1 second stops the planning, and the statement is usable again.
   */
  @Test
  void theQueryTimeoutBoundsPlanning() throws Exception {
    Field threshold = Class.forName("io.tablesql.plan.PlanningProgram").getDeclaredField("heuristicFromJoins");
    threshold.setAccessible(true);
    Object heuristic = threshold.get(null);
    String sql = chain(8, new Random(108));
    try (Connection connection = TestAccount.connect("planCacheSize=0");
        Statement statement = connection.createStatement()) {
      threshold.set(null, 100);
      statement.setQueryTimeout(1);
      assertThatThrownBy(() -> statement.executeQuery(sql)).isInstanceOfSatisfying(SQLTimeoutException.class, e -> {
        assertThat(e.getSQLState()).isEqualTo("HYT00");
        assertThat(e.getMessage()).contains("query timeout of 1 seconds", "to plan");
      });
      threshold.set(null, heuristic);
      assertThat(QueryRuns.rows(statement.executeQuery(sql))).hasSize(3);
    } finally {
      threshold.set(null, heuristic);
    }
  }

  /**
   * The chain of k tables, written with no two neighbours next to each other in the FROM clause
   * (t1, t3, t5, ..., t2, t4, ...): each join as written is a cross product, the hardest order for
   * an exhaustive search to get out of.
   */
  private static String crossed(int k) {
    List<String> select = new ArrayList<>();
    List<String> from = new ArrayList<>();
    List<String> where = new ArrayList<>();
    for (int start = 1; start <= 2; start++) {
      for (int t = start; t <= k; t += 2) {
        select.add("x" + t);
        from.add(NAMES.get(t - 1));
      }
    }
    for (int t = 2; t <= k; t++) {
      where.add("a" + t + " = b" + (t - 1));
    }
    where.add("a1 IN (1, 3, 5)");
    return "SELECT " + String.join(", ", select) + " FROM " + String.join(", ", from) + " WHERE "
        + String.join(" AND ", where);
  }

  @Test
  void joinsOfUpToThirteenTablesPlanAndAgreeWithTheOracle() throws SQLException {
    try (Connection connection = TestAccount.connect(); Connection oracle = TestAccount.connect("pushdown=false")) {
      Random random = new Random(5);
      for (int k = 4; k <= TABLES; k++) {
        String sql = chain(k, random);
        assertThat(QueryRuns.explain(connection, sql)).as(sql).contains("access=[");
        assertThat(QueryRuns.agreed(connection, oracle, sql).rows()).as(sql).hasSize(3);
        assertThat(QueryRuns.agreed(connection, oracle, crossed(k)).rows()).as(crossed(k)).hasSize(3);
      }
    }
  }
}
