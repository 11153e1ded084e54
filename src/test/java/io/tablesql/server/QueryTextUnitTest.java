package io.tablesql.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** How a simple-query message is cut into statements, and the words that name a statement's tag. */
class QueryTextUnitTest {
  @Test
  void semicolonsEndStatementsOnlyOutsideQuotesAndComments() {
    assertThat(QueryText.statements("SELECT 1; SELECT 'a;b'; SELECT \"x;y\" FROM t;")).containsExactly(
        "SELECT 1", "SELECT 'a;b'", "SELECT \"x;y\" FROM t");
    assertThat(QueryText.statements("SELECT 'it''s;'; SELECT E'\\';'")).containsExactly("SELECT 'it''s;'",
        "SELECT E'\\';'");
    assertThat(QueryText.statements("-- a; comment\nSELECT 1 /* ; */; $$a;b$$; $tag$;$tag$"))
        .containsExactly("-- a; comment\nSELECT 1 /* ; */", "$$a;b$$", "$tag$;$tag$");
  }

  @Test
  void blankAndEmptyStatementsAreLeftOut() {
    assertThat(QueryText.statements("")).isEmpty();
    assertThat(QueryText.statements(" ; ;\n")).isEmpty();
    assertThat(QueryText.statements("SELECT 1;;")).containsExactly("SELECT 1");
  }

  @Test
  void tagsFollowPostgres() {
    assertThat(PgErrors.tag(QueryText.leadingWords("insert into t values (1)", 3), 1)).isEqualTo("INSERT 0 1");
    // comments before a statement are not its words (a statement prepared with a comment first returns rows)
    assertThat(QueryText.leadingWords("-- Metabase\n/* a /* nested */ one */ select 1", 2)).containsExactly("SELECT", "1");
    assertThat(QueryText.leadingWords("  -- only a comment", 2)).isEmpty();
    assertThat(PgErrors.tag(QueryText.leadingWords("UPDATE t SET a = 1", 3), 4)).isEqualTo("UPDATE 4");
    assertThat(PgErrors.tag(QueryText.leadingWords("CREATE UNIQUE INDEX i ON t (a)", 3), 0))
        .isEqualTo("CREATE INDEX");
    assertThat(PgErrors.tag(QueryText.leadingWords("create table t (a int)", 3), 0)).isEqualTo("CREATE TABLE");
    assertThat(PgErrors.tag(List.of("DROP", "MATERIALIZED", "VIEW"), 0)).isEqualTo("DROP MATERIALIZED VIEW");
  }
}
