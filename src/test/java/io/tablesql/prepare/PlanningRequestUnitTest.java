package io.tablesql.prepare;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicReference;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.junit.jupiter.api.Test;

class PlanningRequestUnitTest {
  @Test
  void aScopeAddsToTheRequestItIsInAndPutsThatOneBack() throws Exception {
    assertThat(PlanningRequest.current().bound()).isNull();
    SqlNode tree = SqlLiteral.createExactNumeric("1", SqlParserPos.ZERO);
    try (PlanningRequest.Scope bounded = PlanningRequest.bounded(60)) {
      PlanningRequest.Bound bound = PlanningRequest.current().bound();
      assertThat(bound).isNotNull();
      try (PlanningRequest.Scope handing = PlanningRequest.handingOver("VALUES 1", tree, null)) {
        AtomicReference<DirectPlan> slot = new AtomicReference<>();
        PlanningRequest.capturing(slot, () -> {
          assertThat(PlanningRequest.current().bound()).isSameAs(bound); // the outer scopes' parts carry on
          assertThat(PlanningRequest.current().take("VALUES 2")).isNull(); // another text is parsed anew
          assertThat(PlanningRequest.current().take("VALUES 1").tree()).isSameAs(tree);
          assertThat(PlanningRequest.current().take("VALUES 1")).isNull(); // once
          return null;
        });
      }
      assertThat(PlanningRequest.current().take("VALUES 1")).isNull();
      assertThat(PlanningRequest.current().bound()).isSameAs(bound);
      assertThat(PlanningRequest.expired()).isFalse();
    }
    assertThat(PlanningRequest.current().bound()).isNull();
  }

  @Test
  void noTimeoutIsNoBound() {
    try (PlanningRequest.Scope ignored = PlanningRequest.bounded(0)) {
      assertThat(PlanningRequest.current().bound()).isNull();
      assertThat(PlanningRequest.expired()).isFalse();
    }
  }
}
