package io.tablesql.prepare;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablesql.session.StatementKind;
import java.util.List;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlLiteral;
import org.junit.jupiter.api.Test;

/** What the driver reads of a statement comes from its one parse, without a backend. */
class StatementTextUnitTest {
  private static StatementKind kind(String sql) {
    return StatementText.of(sql).kind();
  }

  @Test
  void theKindIsThatOfTheParse() {
    assertThat(kind("select 1")).isEqualTo(StatementKind.QUERY);
    assertThat(kind("  -- note\n/* block */ ((SELECT 1))")).isEqualTo(StatementKind.QUERY);
    assertThat(kind("WITH t AS (SELECT 1) SELECT * FROM t")).isEqualTo(StatementKind.QUERY);
    assertThat(kind("VALUES (1)")).isEqualTo(StatementKind.QUERY);
    assertThat(kind("SELECT 1 UNION SELECT 2 ORDER BY 1")).isEqualTo(StatementKind.QUERY);
    assertThat(kind("insert into t values (1)")).isEqualTo(StatementKind.INSERT);
    assertThat(kind("UPSERT INTO t VALUES (1)")).isEqualTo(StatementKind.UPSERT);
    assertThat(kind("/* x */UPDATE t SET a = 1")).isEqualTo(StatementKind.UPDATE);
    assertThat(kind("DELETE FROM t")).isEqualTo(StatementKind.DELETE);
    assertThat(kind("CREATE TABLE t (a INT PRIMARY KEY)")).isEqualTo(StatementKind.DDL);
    assertThat(kind("drop table t cascade")).isEqualTo(StatementKind.DDL);
    assertThat(kind("ALTER TABLE t ADD COLUMN b INT")).isEqualTo(StatementKind.DDL);
    assertThat(kind("CREATE INDEX i ON t (a)")).isEqualTo(StatementKind.DDL);
    assertThat(kind("MERGE INTO t USING s ON t.a = s.a WHEN MATCHED THEN UPDATE SET b = 1"))
        .isEqualTo(StatementKind.OTHER);
  }

  @Test
  void textThatDoesNotParseIsOtherAndItsErrorGoesToCalcite() {
    assertThat(kind("")).isEqualTo(StatementKind.OTHER);
    assertThat(kind("/* never closed SELECT")).isEqualTo(StatementKind.OTHER);
    assertThat(kind("SELEC 1")).isEqualTo(StatementKind.OTHER);
  }

  @Test
  void explainIsTheKindOfTheStatementExplained() {
    assertThat(kind("EXPLAIN PLAN FOR DELETE FROM t")).isEqualTo(StatementKind.DELETE);
    assertThat(kind("explain plan for select 1")).isEqualTo(StatementKind.QUERY);
    assertThat(kind("EXPLAIN PLAN WITH TYPE FOR UPDATE t SET a = 1")).isEqualTo(StatementKind.UPDATE);
    assertThat(StatementKind.UPDATE.readsBeforeWriting()).isTrue();
    assertThat(StatementKind.UPSERT.readsBeforeWriting()).isFalse();
  }

  @Test
  void anInsertIsReadFromTheSameParse() {
    StatementText text = StatementText.of("INSERT INTO s.\"Orders\" (PartitionKey, RowKey, n) VALUES (?, ?, 5)");
    StatementText.Insert insert = text.insert();
    assertThat(insert.table()).isEqualTo("Orders");
    assertThat(insert.columns()).isEqualTo(List.of("PartitionKey", "RowKey", "n"));
    assertThat(insert.rows()).isEqualTo(1);
    assertThat(insert.firstRow().get(1)).isInstanceOf(SqlDynamicParam.class);
    assertThat(insert.firstRow().get(2)).isInstanceOf(SqlLiteral.class);
    assertThat(text.insertTarget()).isEqualTo("Orders");
    assertThat(StatementText.of("INSERT INTO t VALUES (1)").insertTarget()).isNull(); // no column list
    assertThat(StatementText.of("INSERT INTO t (a) SELECT b FROM u").insert().rows()).isZero();
    assertThat(StatementText.of("SELECT 1").insert()).isNull();
  }

  @Test
  void aStatementIsParsedOnceHoweverOftenItIsRead() {
    long before = StatementText.parses();
    StatementText text = StatementText.of("INSERT INTO t (a) VALUES (1)");
    text.kind();
    text.insert();
    text.insertTarget();
    text.kind();
    assertThat(StatementText.parses()).isEqualTo(before + 1);
  }
}
