package io.tablesql.prepare;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablesql.prepare.StatementRouter.Call;
import io.tablesql.prepare.StatementRouter.Route;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The route of each kind of statement through each JDBC call, without a backend. */
class StatementRouterUnitTest {
  private static final String QUERY = "SELECT Name FROM People WHERE PartitionKey = 'p1' AND RowKey = 'r1'";
  private static final String MARKED = "SELECT Name FROM People WHERE PartitionKey = ?";
  private static final String INSERT = "INSERT INTO People (PartitionKey, RowKey) VALUES ('p', 'r')";
  private static final String DDL = "CREATE TABLE T (Id INTEGER PRIMARY KEY)";

  private final AtomicBoolean cold = new AtomicBoolean();
  private final StatementRouter cached = new StatementRouter(new PlanCache(null, 10, null, s -> { }), cold::get);
  private final StatementRouter uncached = new StatementRouter(new PlanCache(null, 0, null, s -> { }), cold::get);

  private static Route route(StatementRouter router, String sql, Call call, long maxRows) {
    return router.route(StatementText.of(sql), call, maxRows).route();
  }

  @Test
  void aStatementsQueryRunsUnplannedWhileColdThenOnTheCachedPlanOfItsShape() {
    cold.set(true);
    assertThat(route(cached, QUERY, Call.EXECUTE_QUERY, 0)).isEqualTo(Route.UNPLANNED);
    assertThat(route(cached, QUERY, Call.EXECUTE, 0)).isEqualTo(Route.UNPLANNED);
    assertThat(route(cached, INSERT, Call.EXECUTE, 0)).isEqualTo(Route.AS_WRITTEN); // only queries go unplanned
    cold.set(false);
    StatementRouter.Routed lifted = cached.route(StatementText.of(QUERY), Call.EXECUTE_QUERY, 0);
    assertThat(lifted.route()).isEqualTo(Route.LIFTED);
    assertThat(lifted.lifted().sql()).contains("?").doesNotContain("'p1'");
    assertThat(route(cached, QUERY, Call.EXECUTE, 0)).isEqualTo(Route.LIFTED);
    assertThat(cached.planned(StatementText.of(QUERY), 0).route()).isEqualTo(Route.LIFTED);
  }

  @Test
  void maxRowsOrNoPlanCachePlansAQueryAsWritten() {
    assertThat(route(cached, QUERY, Call.EXECUTE_QUERY, 5)).isEqualTo(Route.QUERY_AS_WRITTEN);
    assertThat(route(uncached, QUERY, Call.EXECUTE_QUERY, 0)).isEqualTo(Route.QUERY_AS_WRITTEN);
    assertThat(route(uncached, QUERY, Call.EXECUTE, 0)).isEqualTo(Route.AS_WRITTEN);
    assertThat(route(cached, INSERT, Call.EXECUTE_UPDATE, 0)).isEqualTo(Route.AS_WRITTEN);
    assertThat(cached.unlifted(StatementText.of(QUERY), Call.EXECUTE_QUERY).route()).isEqualTo(Route.QUERY_AS_WRITTEN);
  }

  @Test
  void preparedStatementsKeepTheirPlanAndDdlRunsWhenExecuted() {
    assertThat(route(cached, QUERY, Call.PREPARE, 0)).isEqualTo(Route.LIFTED);
    assertThat(route(cached, MARKED, Call.PREPARE, 0)).isEqualTo(Route.KEPT_PLAN);
    assertThat(route(cached, INSERT, Call.PREPARE, 0)).isEqualTo(Route.KEPT_PLAN);
    assertThat(route(cached, DDL, Call.PREPARE, 0)).isEqualTo(Route.DEFERRED_DDL);
    assertThat(route(cached, "SELEC 1", Call.PREPARE, 0)).isEqualTo(Route.AS_WRITTEN); // Calcite reports the syntax error
    assertThat(cached.unlifted(StatementText.of(QUERY), Call.PREPARE).route()).isEqualTo(Route.KEPT_PLAN);
    assertThat(route(uncached, MARKED, Call.PREPARE, 0)).isEqualTo(Route.AS_WRITTEN);
    assertThat(route(uncached, DDL, Call.PREPARE, 0)).isEqualTo(Route.DEFERRED_DDL);
    assertThat(route(cached, QUERY, Call.PREPARE_WITH_CURSOR, 0)).isEqualTo(Route.AS_WRITTEN);
    assertThat(route(cached, DDL, Call.PREPARE_WITH_CURSOR, 0)).isEqualTo(Route.DEFERRED_DDL);
  }
}
