package io.tablesql.prepare;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.Iterator;
import java.util.List;
import org.apache.calcite.sql.dialect.CalciteSqlDialect;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.junit.jupiter.api.Test;

/**
 * LiteralLifter and LiftTemplates without the emulator: the lifted text with its values put back
 * is the statement as written, and a template gives exactly what lifting by parsing gives.
 */
class LiftTemplatesUnitTest {
  /** The statement as Calcite reads it, so that texts differing only in layout compare equal. */
  private static String canonical(String sql) {
    try {
      return SqlParser.create(sql, ParserSettings.PARSER).parseQuery().toSqlString(CalciteSqlDialect.DEFAULT).getSql();
    } catch (SqlParseException e) {
      throw new AssertionError(sql, e);
    }
  }

  /** The lifted text with each parameter marker (outside quotes) replaced by its value as a literal. */
  private static String filled(LiteralLifter.Lifted lifted) {
    StringBuilder sql = new StringBuilder();
    Iterator<Object> values = lifted.values().iterator();
    char quote = 0; // a doubled quote closes and reopens, which leaves it inside
    for (char c : lifted.sql().toCharArray()) {
      if (quote != 0) {
        quote = c == quote ? 0 : quote;
        sql.append(c);
      } else if (c == '?') {
        sql.append(literal(values.next()));
      } else {
        quote = c == '\'' || c == '"' ? c : 0;
        sql.append(c);
      }
    }
    assertThat(values.hasNext()).as("more values than markers in %s", lifted.sql()).isFalse();
    return sql.toString();
  }

  private static String literal(Object value) {
    if (value instanceof String text) {
      return "'" + text.replace("'", "''") + "'";
    }
    if (value instanceof BigDecimal number) {
      return number.toPlainString();
    }
    return value.toString().toUpperCase(); // a Boolean
  }

  private static LiteralLifter.Lifted assertReproduces(LiteralLifter.Lifted lifted, String sql) {
    assertThat(lifted).as("lifted %s", sql).isNotNull();
    assertThat(canonical(filled(lifted))).isEqualTo(canonical(sql));
    return lifted;
  }

  @Test
  void comparedLiteralsOfEachKindAreLifted() {
    String sql = "SELECT * FROM t WHERE PartitionKey = 'it''s' AND N >= 42 AND D BETWEEN 1.50 AND 3 "
        + "AND Active = TRUE OR RowKey IN ('a', 'b')";
    LiteralLifter.Lifted lifted = assertReproduces(LiteralLifter.lift(sql), sql);
    assertThat(lifted.values()).containsExactly("it's", new BigDecimal("42"), new BigDecimal("1.50"),
        new BigDecimal("3"), true, "a", "b");
    assertThat(lifted.sql()).doesNotContain("it''s", "42", "TRUE");
  }

  @Test
  void literalsThatShapeThePlanStay() {
    String sql = "SELECT 'label', N + 1 FROM t WHERE Name LIKE 'a%' AND UPPER(Name) = 'B' AND N = 3 "
        + "AND Born > TIMESTAMP '2024-01-02 10:00:00' AND D = DATE '2024-01-02' AND F = 1.5e0 ORDER BY 1 LIMIT 10";
    LiteralLifter.Lifted lifted = assertReproduces(LiteralLifter.lift(sql), sql);
    // UPPER(Name) = 'B' is a comparison, so 'B' goes; the function's argument would stay
    assertThat(lifted.values()).containsExactly("B", new BigDecimal("3"));
    assertThat(lifted.sql()).contains("'label'", "'a%'", "2024-01-02 10:00:00", "DATE '2024-01-02'", "10");
  }

  @Test
  void negativeNumbersAndJoinConditions() {
    String sql = "SELECT * FROM a JOIN b ON a.x = b.x AND b.y = -5 WHERE a.z = - 2.5";
    LiteralLifter.Lifted lifted = assertReproduces(LiteralLifter.lift(sql), sql);
    // Calcite reads the sign with the number (-5 is one literal), whereas the scanner cannot
    assertThat(lifted.values()).containsExactly(new BigDecimal("-5"), new BigDecimal("-2.5"));
  }

  @Test
  void commentsAndQuotedIdentifiersAreNotLifted() {
    String sql = "SELECT \"it's 5\" FROM t /* WHERE a = 'c' */ WHERE \"A = 'b'\" = 'v' -- AND x = 'z'";
    LiteralLifter.Lifted lifted = assertReproduces(LiteralLifter.lift(sql), sql);
    assertThat(lifted.values()).containsExactly("v");
  }

  @Test
  void onlyPlainQueriesAreLifted() {
    assertThat(LiteralLifter.lift("INSERT INTO t (PartitionKey, RowKey) VALUES ('a', 'b')")).isNull();
    assertThat(LiteralLifter.lift("SELECT * FROM t WHERE a = 'open")).isNull();
    assertThat(new LiftTemplates(10).lift("SELECT * FROM t /* open")).isNull();
  }

  /** Statements of one shape: after the first, each is lifted from its template, as parsing would lift it. */
  @Test
  void aTemplateGivesWhatParsingGives() {
    LiftTemplates templates = new LiftTemplates(10);
    List<String> statements = List.of(
        "SELECT 'label', N FROM t WHERE PartitionKey = 'p1' AND N > 5 AND Active = TRUE LIMIT 10",
        "SELECT 'label', N FROM t WHERE PartitionKey = 'it''s' AND N > 70 AND Active = false LIMIT 10",
        "SELECT 'label', N\nFROM t WHERE PartitionKey = '' AND N > 0 AND Active = TRUE LIMIT 10");
    for (String sql : statements) {
      LiteralLifter.Lifted fromTemplates = assertReproduces(templates.lift(sql), sql);
      LiteralLifter.Lifted parsed = LiteralLifter.lift(sql);
      assertThat(fromTemplates.sql()).isEqualTo(parsed.sql());
      assertThat(fromTemplates.values()).isEqualTo(parsed.values());
    }
    assertThat(templates.hits()).isEqualTo(1); // the third has a line break: another shape, so parsed
    LiteralLifter.Lifted third = templates.lift(statements.get(1));
    assertThat(third.values()).containsExactly("it's", new BigDecimal("70"), false);
    assertThat(templates.hits()).isEqualTo(2);
  }

  /** A literal the template keeps (select list, LIMIT, a date) must match, or the statement is parsed anew. */
  @Test
  void aTemplateIsNotUsedWhenAKeptLiteralDiffers() {
    LiftTemplates templates = new LiftTemplates(10);
    String first = "SELECT 'label' FROM t WHERE PartitionKey = 'a' AND Born > TIMESTAMP '2024-01-02 10:00:00' LIMIT 10";
    String[] others = {
        "SELECT 'other' FROM t WHERE PartitionKey = 'b' AND Born > TIMESTAMP '2024-01-02 10:00:00' LIMIT 10",
        "SELECT 'label' FROM t WHERE PartitionKey = 'b' AND Born > TIMESTAMP '2025-06-07 08:00:00' LIMIT 10",
        "SELECT 'label' FROM t WHERE PartitionKey = 'b' AND Born > TIMESTAMP '2024-01-02 10:00:00' LIMIT 20"};
    assertReproduces(templates.lift(first), first);
    for (String sql : others) {
      assertReproduces(templates.lift(sql), sql);
    }
    assertThat(templates.hits()).isZero();
  }

  /** -5 is lifted by Calcite as one value, which no scanned literal has: no template, each statement parsed. */
  @Test
  void negativeNumbersNeverComeFromATemplate() {
    LiftTemplates templates = new LiftTemplates(10);
    for (String sql : new String[] {"SELECT * FROM t WHERE N = -5", "SELECT * FROM t WHERE N = -7"}) {
      LiteralLifter.Lifted lifted = assertReproduces(templates.lift(sql), sql);
      assertThat(lifted.values()).isEqualTo(LiteralLifter.lift(sql).values());
    }
    assertThat(templates.hits()).isZero();
  }
}
