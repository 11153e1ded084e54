package io.tablesql.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The statement classifier: the first keyword after comments and parentheses, through EXPLAIN. */
class StatementKindUnitTest {
  @Test
  void classifiesByTheFirstKeyword() {
    assertEquals(StatementKind.QUERY, StatementKind.of("select 1"));
    assertEquals(StatementKind.QUERY, StatementKind.of("  -- note\n/* block */ ((SELECT 1))"));
    assertEquals(StatementKind.QUERY, StatementKind.of("WITH t AS (SELECT 1) SELECT * FROM t"));
    assertEquals(StatementKind.QUERY, StatementKind.of("VALUES (1)"));
    assertEquals(StatementKind.INSERT, StatementKind.of("insert into t values (1)"));
    assertEquals(StatementKind.UPSERT, StatementKind.of("UPSERT INTO t VALUES (1)"));
    assertEquals(StatementKind.UPDATE, StatementKind.of("/* x */UPDATE t SET a = 1"));
    assertEquals(StatementKind.DELETE, StatementKind.of("DELETE FROM t"));
    assertEquals(StatementKind.DDL, StatementKind.of("CREATE TABLE t"));
    assertEquals(StatementKind.DDL, StatementKind.of("drop table t"));
    assertEquals(StatementKind.OTHER, StatementKind.of("MERGE INTO t"));
    assertEquals(StatementKind.OTHER, StatementKind.of(""));
    assertEquals(StatementKind.OTHER, StatementKind.of("/* never closed SELECT"));
  }

  @Test
  void explainIsTheKindOfTheStatementExplained() {
    assertEquals(StatementKind.DELETE, StatementKind.of("EXPLAIN PLAN FOR DELETE FROM t"));
    assertEquals(StatementKind.QUERY, StatementKind.of("explain plan for select 1"));
    assertEquals(StatementKind.UPDATE, StatementKind.of("EXPLAIN PLAN WITH TYPE FOR UPDATE t SET a = 1"));
    assertEquals(StatementKind.QUERY, StatementKind.of("EXPLAIN"));
    assertEquals(true, StatementKind.UPDATE.readsBeforeWriting());
    assertEquals(false, StatementKind.UPSERT.readsBeforeWriting());
  }
}
