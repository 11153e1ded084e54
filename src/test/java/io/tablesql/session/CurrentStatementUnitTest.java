package io.tablesql.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablesql.settings.ConnectionSettings;
import io.tablesql.store.RequestCounters;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.junit.jupiter.api.Test;

/** The one thread-local's scopes, without a backend. */
class CurrentStatementUnitTest {
  @Test
  void aScopeAddsToTheRequestItIsInAndPutsThatOneBack() throws Exception {
    assertThat(CurrentStatement.get().bound()).isNull();
    SqlNode tree = SqlLiteral.createExactNumeric("1", SqlParserPos.ZERO);
    try (CurrentStatement.Scope bounded = CurrentStatement.bounded(60)) {
      CurrentStatement.Bound bound = CurrentStatement.get().bound();
      assertThat(bound).isNotNull();
      try (CurrentStatement.Scope handing = CurrentStatement.handingOver("VALUES 1", tree, null)) {
        AtomicReference<Object> slot = new AtomicReference<>();
        CurrentStatement.capturing(slot, () -> {
          assertThat(CurrentStatement.get().bound()).isSameAs(bound); // the outer scopes' parts carry on
          assertThat(CurrentStatement.get().take("VALUES 2")).isNull(); // another text is parsed anew
          assertThat(CurrentStatement.get().take("VALUES 1").tree()).isSameAs(tree);
          assertThat(CurrentStatement.get().take("VALUES 1")).isNull(); // once
          CurrentStatement.get().prepared("a plan");
          return null;
        });
        assertThat(slot.get()).isEqualTo("a plan");
      }
      assertThat(CurrentStatement.get().take("VALUES 1")).isNull();
      assertThat(CurrentStatement.get().bound()).isSameAs(bound);
      assertThat(CurrentStatement.expired()).isFalse();
    }
    assertThat(CurrentStatement.get().bound()).isNull();
  }

  @Test
  void noTimeoutIsNoBound() {
    try (CurrentStatement.Scope ignored = CurrentStatement.bounded(0)) {
      assertThat(CurrentStatement.get().bound()).isNull();
      assertThat(CurrentStatement.expired()).isFalse();
    }
  }

  /** A statement executing is its session's only: another connection used on the thread has its own. */
  @Test
  void theStatementExecutingBelongsToItsSessionAndNestsWithPlanning() throws Exception {
    ConnectionSettings settings = ConnectionSettings.parse(ConnectionSettings.URL_PREFIX + "UseDevelopmentStorage=true",
        null);
    Session one = new Session(settings, null);
    Session other = new Session(settings, null);
    StatementContext outer = StatementContext.single(new RequestCounters(), 100, StatementKind.QUERY);
    StatementContext inner = StatementContext.single(new RequestCounters(), 100, StatementKind.UPDATE);
    assertThat(one.during(outer, () -> {
      assertThat(one.executing()).isSameAs(outer);
      assertThat(other.executing()).isNotSameAs(outer); // a detached context of its own
      try (CurrentStatement.Scope bounded = CurrentStatement.bounded(60)) {
        assertThat(one.executing()).isSameAs(outer); // planning scopes keep the statement
        return one.during(inner, () -> one.executing() == inner);
      }
    })).isTrue();
    assertThat(one.executing()).isNotIn(outer, inner);
  }
}
