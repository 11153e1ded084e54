package io.tablesql.parser;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.calcite.sql.parser.SqlAbstractParserImpl;
import org.apache.calcite.sql.parser.SqlParserFixture;
import org.apache.calcite.sql.parser.SqlParserTest;
import java.lang.reflect.Method;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Calcite's own parser tests (its testkit's {@code SqlParserTest}, some 480 cases; three about character sets left out) run against
 * tablesql's generated grammar, as Calcite's server module, Flink and Drill test theirs: the
 * words tablesql makes non-reserved and the statements and operators it adds leave standard
 * SQL parsing as Calcite parses it. tablesql's own statements are {@link GrammarUnitTest}'s.
 */
@ExtendWith(CalciteParserUnitTest.TableSqlCharset.class)
class CalciteParserUnitTest extends SqlParserTest {
  /**
   * Cases that expect Calcite's default character set for string literals (ISO-8859-1), where
   * tablesql runs Calcite with UTF-8 (TableSqlConnection sets calcite.default.charset): they pass
   * or fail with the order tests load Calcite in one JVM, so they are left out.
   */
  static final class TableSqlCharset implements ExecutionCondition {
    private static final Set<String> CASES = Set.of("testStringLiteral", "testStringLiteralFails",
        "testContinuedLiteral");

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
      return context.getTestMethod().map(Method::getName).filter(CASES::contains)
          .map(name -> ConditionEvaluationResult.disabled(name + " expects ISO-8859-1 literals; tablesql's are UTF-8"))
          .orElse(ConditionEvaluationResult.enabled("no character set expected"));
    }
  }

  @Override
  public SqlParserFixture fixture() {
    return super.fixture().withConfig(config -> config.withParserFactory(TableSqlParserImpl.FACTORY));
  }

  /**
   * Calcite's keyword metadata, but for the function names tablesql deliberately leaves
   * non-reserved so that users can name columns after them (config.fmpp), such as ABS.
   */
  @Override
  @Test
  protected void testMetadata() {
    SqlAbstractParserImpl.Metadata metadata = sql("").parser().getMetadata();
    assertThat(metadata.isReservedFunctionName("ABS")).isTrue();
    assertThat(metadata.isNonReservedKeyword("ABS")).as("tablesql's choice").isTrue();
    assertThat(metadata.isNonReservedKeyword("KEY")).isTrue();
    assertThat(metadata.isNonReservedKeyword("INDEX")).isTrue();
    assertThat(metadata.isNonReservedKeyword("SELECT")).isFalse();
    assertThat(metadata.isNonReservedKeyword("FOO")).isFalse();
    assertThat(metadata.isContextVariableName("CURRENT_SCHEMA")).isTrue();
    assertThat(metadata.isKeyword("MATERIALIZED")).isTrue();
    assertThat(metadata.isKeyword("BAR")).isFalse();
    assertThat(metadata.isReservedWord("SELECT")).isTrue();
    assertThat(metadata.isReservedWord("KEY")).isFalse();
    assertThat(metadata.getJdbcKeywords()).doesNotContain(",SELECT,");
  }
}
