package io.tablesql.prepare;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablesql.prepare.LiteralScanner.Kind;
import io.tablesql.prepare.LiteralScanner.Literal;
import io.tablesql.prepare.LiteralScanner.Scan;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

/** LiteralScanner alone, without Calcite or the emulator: which text is a literal, its value and position. */
class LiteralScannerUnitTest {
  private static List<Literal> literals(String sql) {
    Scan scan = LiteralScanner.scan(sql);
    assertThat(scan).as("scan of %s", sql).isNotNull();
    return scan.literals();
  }

  private static List<Kind> kinds(String sql) {
    return literals(sql).stream().map(Literal::kind).toList();
  }

  @Test
  void stringsKeepDoubledQuotesAsOneQuote() {
    List<Literal> found = literals("SELECT * FROM t WHERE a = 'it''s' AND b = '' AND c = ''''");
    assertThat(found).extracting(Literal::kind).containsOnly(Kind.STRING);
    assertThat(found).extracting(Literal::text).containsExactly("'it''s'", "''", "''''");
    assertThat(found).extracting(Literal::value).containsExactly("it's", "", "'");
  }

  @Test
  void numbersOfEachKind() {
    List<Literal> found = literals("SELECT * FROM t WHERE a = 42 AND b = 3.50 AND c = .5 AND d = 7. AND e = 1e3 "
        + "AND f = 1.5E-2");
    assertThat(found).extracting(Literal::text).containsExactly("42", "3.50", ".5", "7.", "1e3", "1.5E-2");
    assertThat(found).extracting(Literal::kind).containsExactly(Kind.INTEGER, Kind.DECIMAL, Kind.DECIMAL,
        Kind.DECIMAL, Kind.APPROXIMATE, Kind.APPROXIMATE);
    assertThat(found.get(0).value()).isEqualTo(new BigDecimal("42"));
    assertThat(found.get(1).value()).isEqualTo(new BigDecimal("3.50")); // scale kept, as Calcite's literal has it
    assertThat(found.get(4).value()).isNull(); // approximate numbers are never lifted
  }

  @Test
  void aNegativeNumberIsTheMinusSignThenTheNumber() {
    Scan scan = LiteralScanner.scan("SELECT * FROM t WHERE a = -5 AND b = - 2.5");
    assertThat(scan.literals()).extracting(Literal::text).containsExactly("5", "2.5");
    // the sign stays in the shape: -5 and 5 are statements of different shapes
    assertThat(scan.shape()).isNotEqualTo(LiteralScanner.scan("SELECT * FROM t WHERE a = 5 AND b = - 2.5").shape());
  }

  @Test
  void dateAndTimestampLiteralsAreTheirStrings() {
    List<Literal> found = literals("SELECT * FROM t WHERE d = DATE '2024-01-02' "
        + "AND ts < TIMESTAMP '2024-01-02 10:00:00' AND e = {d '2024-03-04'}");
    assertThat(found).extracting(Literal::kind).containsOnly(Kind.STRING);
    assertThat(found).extracting(Literal::value).containsExactly("2024-01-02", "2024-01-02 10:00:00", "2024-03-04");
  }

  @Test
  void booleansInAnyCaseButNotInsideWords() {
    assertThat(literals("SELECT * FROM t WHERE a = TRUE OR b = false OR truex = 1 OR c_true = 2"))
        .extracting(Literal::text).containsExactly("TRUE", "false", "1", "2");
    assertThat(literals("SELECT * FROM t WHERE a = true").get(0).value()).isEqualTo(true);
  }

  @Test
  void digitsInsideIdentifiersAreNotNumbers() {
    assertThat(literals("SELECT col1, t2.x3 FROM t2 WHERE col1 = 4")).extracting(Literal::text).containsExactly("4");
  }

  @Test
  void nothingInsideCommentsOrQuotedIdentifiersIsALiteral() {
    String sql = "SELECT \"it's 5\", \"say \"\"7\"\"\" -- 'not' 8\n"
        + "FROM t /* 'neither' 9 TRUE */ WHERE a = 'yes' -- trailing 10";
    assertThat(literals(sql)).extracting(Literal::text).containsExactly("'yes'");
  }

  @Test
  void quotesInsideStringsStartNothing() {
    assertThat(literals("SELECT * FROM t WHERE a = '-- not a comment' AND b = '/* nor this */' AND c = '\"x'"))
        .extracting(Literal::value).containsExactly("-- not a comment", "/* nor this */", "\"x");
  }

  @Test
  void unterminatedQuotesOrCommentsScanToNull() {
    assertThat(LiteralScanner.scan("SELECT * FROM t WHERE a = 'open")).isNull();
    assertThat(LiteralScanner.scan("SELECT * FROM t WHERE a = 'it''")).isNull();
    assertThat(LiteralScanner.scan("SELECT \"open FROM t")).isNull();
    assertThat(LiteralScanner.scan("SELECT * FROM t /* open")).isNull();
  }

  @Test
  void positionsAreCalcitesOneBasedLineAndColumnWhateverTheLineBreaks() {
    List<Literal> found = literals("SELECT *\nFROM t\r\nWHERE a = 'x'\rAND b =\n  12");
    assertThat(found).extracting(Literal::line).containsExactly(3, 5);
    assertThat(found).extracting(Literal::column).containsExactly(11, 3);
    // a literal spanning lines moves the ones after it
    assertThat(literals("SELECT 'a\nb', 1")).extracting(Literal::line).containsExactly(1, 2);
    assertThat(literals("SELECT 'a\nb', 1").get(1).column()).isEqualTo(5);
  }

  @Test
  void statementsDifferingOnlyInLiteralsShareAShape() {
    String shape = LiteralScanner.scan("SELECT * FROM t WHERE a = 'x' AND b = 1").shape();
    assertThat(LiteralScanner.scan("SELECT * FROM t WHERE a = 'it''s' AND b = 12345").shape()).isEqualTo(shape);
    // a different kind of literal, or other text, is another shape
    assertThat(LiteralScanner.scan("SELECT * FROM t WHERE a = 1 AND b = 1").shape()).isNotEqualTo(shape);
    assertThat(LiteralScanner.scan("SELECT * FROM t WHERE a = 'x' AND b = 1.0").shape()).isNotEqualTo(shape);
    assertThat(LiteralScanner.scan("SELECT * FROM t WHERE a = 'x' AND c = 1").shape()).isNotEqualTo(shape);
  }

  @Test
  void theShapeKeepsEverythingButTheLiterals() {
    Scan scan = LiteralScanner.scan("SELECT \"q\" FROM t -- c\nWHERE a = 'x'");
    assertThat(scan.shape()).startsWith("SELECT \"q\" FROM t -- c\nWHERE a = ").doesNotContain("'x'");
    assertThat(kinds("SELECT 1")).containsExactly(Kind.INTEGER);
  }
}
