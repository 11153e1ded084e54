package io.tablesql.parser;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.calcite.sql.parser.SqlAbstractParserImpl;
import org.apache.calcite.sql.parser.SqlParserFixture;
import org.apache.calcite.sql.parser.SqlParserTest;
import org.junit.jupiter.api.Test;

/**
 * Calcite's own parser tests (its testkit's {@code SqlParserTest}, some 480 cases) run against
 * tablesql's generated grammar, as Calcite's server module, Flink and Drill test theirs: the
 * words tablesql makes non-reserved and the statements and operators it adds leave standard
 * SQL parsing as Calcite parses it. tablesql's own statements are {@link GrammarUnitTest}'s.
 */
class CalciteParserUnitTest extends SqlParserTest {
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
