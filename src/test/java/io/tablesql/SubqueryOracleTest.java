package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Predicates with NULLs, {@code IN (subquery)}, {@code NOT IN}, {@code EXISTS} and scalar
 * sub-queries under AND, OR and NOT, checked against their meaning in SQL's three-valued logic,
 * evaluated here in Java over the same rows: the pushdown oracle cannot catch a wrong answer of
 * Calcite's own planning, which both sides share.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SubqueryOracleTest {
  private static final String TABLE = "SqOracle";
  private static final String[] COLUMNS = {"c0", "c1", "c2", "c3", "c4"};
  /** Each row: pk, then c0 (INT), c1 (DOUBLE), c2 (INT), c3 (INT), c4 (DOUBLE); null is NULL. */
  private static final Double[][] ROWS = {
      {0d, null, 1.5, 3d, 563d, 30.0},
      {1d, 2d, null, 7d, 442d, 10.0},
      {2d, 0d, 30.0, null, 384d, 90.0},
      {3d, null, 30.0, 3d, null, 95.0},
      {4d, 5d, 7.0, 0d, 658d, null},
      {5d, 6d, 95.0, 7d, 267d, 20.0},
      {6d, 7d, 2.0, null, 563d, 86.9},
      {7d, null, null, 5d, 100d, 2.0},
      {8d, 3d, 10.0, 5d, null, 25.6},
      {9d, 267d, 563.0, 2d, 442d, null},
  };

  private Connection pushed;
  private Connection oracle;

  @BeforeAll
  void setUp() throws SQLException {
    pushed = TestAccount.connect();
    oracle = TestAccount.connect("pushdown=false", "planCacheSize=0");
    try (Statement statement = pushed.createStatement()) {
      statement.execute("CREATE TABLE " + TABLE + " (pk INT PRIMARY KEY, c0 INT, c1 DOUBLE, c2 INT, c3 INT, c4 DOUBLE)");
      // one multi-row VALUES with NULLs among the decimals of DOUBLE columns (once an internal error)
      StringBuilder insert = new StringBuilder("INSERT INTO " + TABLE + " VALUES ");
      for (Double[] row : ROWS) {
        insert.append(row == ROWS[0] ? "(" : ", (").append(row[0].intValue());
        for (int c = 1; c < row.length; c++) {
          insert.append(", ").append(row[c] == null ? "NULL" : c == 2 || c == 5 ? row[c].toString()
              : String.valueOf(row[c].intValue()));
        }
        insert.append(')');
      }
      statement.execute(insert.toString());
    }
  }

  @AfterAll
  void tearDown() throws SQLException {
    pushed.close();
    oracle.close();
  }

  @Test
  void theRowsReadBackAsWritten() throws SQLException {
    try (Statement statement = pushed.createStatement();
        ResultSet rows = statement.executeQuery("SELECT * FROM " + TABLE + " ORDER BY pk")) {
      for (Double[] row : ROWS) {
        assertThat(rows.next()).isTrue();
        for (int c = 0; c < row.length; c++) {
          Object value = rows.getObject(c + 1);
          assertThat(value == null ? null : ((Number) value).doubleValue()).as("row %s column %s", row[0], c)
              .isEqualTo(row[c]);
        }
      }
    }
  }

  @Test
  void theIssuesShapes() throws SQLException {
    check(new Or(new Or(new Or(new Cmp(4, ">", 25.6), new And(new IsNull(0, false),
        new And(new InSubquery(1, false, 4, new Cmp(0, ">", 0)), new Cmp(4, ">", 86.9)))), new Cmp(0, "<", 1)),
        new IsNull(1, false)));
    // a sub-query's COUNT(*) taken for "at least one row": no rows where six are right
    check(new Or(new Cmp(4, "<", 90), new And(new And(new Cmp(4, ">=", 88.5),
        new InSubquery(0, false, 1, new Cmp(2, ">", 61))), new Not(new IsNull(0, true)))));
    // the semi-join rule took a lookup join's per-batch side out of it: "Correlation variable ... should be defined"
    check(new InSubquery(2, false, 1, new IsNull(1, true)));
    // a lookup join over a sub-query's counts, with no key to look up: "Error while compiling generated Java code"
    check(new InSubquery(0, true, 3, new And(new IsNull(0, true), new And(new InSubquery(0, false, 2,
        new Cmp(4, "<=", 79.5)), new IsNull(0, false)))));
    check(new InSubquery(3, false, 0, new Or(new And(new Cmp(0, ">=", 267), new InList(3, false, List.of(563d, 442d, 384d, 658d))),
        new And(new IsNull(0, false), new Cmp(2, ">", 2)))));
  }

  /**
   * Two scalar sub-queries correlated by conditions on the outer row alone (SQLAlchemy's column
   * reflection writes this shape): Calcite's decorrelator throws on it, and the correlated plan
   * answers, the same with and without pushdown.
   */
  @Test
  void scalarSubqueriesCorrelatedByTheOuterRowAloneAnswer() throws SQLException {
    String sql = "SELECT t.pk, (SELECT MAX(u.c3) FROM " + TABLE + " u WHERE t.c0 > 5) AS a, (SELECT MIN(v.pk) FROM "
        + TABLE + " v WHERE t.c2 IS NULL) AS b FROM " + TABLE + " t WHERE t.pk IN (1, 2, 5, 6) ORDER BY t.pk";
    for (Connection connection : List.of(pushed, oracle)) {
      List<String> rows = new java.util.ArrayList<>();
      try (Statement statement = connection.createStatement(); ResultSet result = statement.executeQuery(sql)) {
        while (result.next()) {
          rows.add(result.getInt(1) + ":" + result.getString(2) + ":" + result.getString(3));
        }
      }
      assertThat(rows).as(sql).containsExactly("1:null:null", "2:null:0", "5:658:null", "6:658:0");
    }
  }

  @Test
  void generatedPredicatesAgreeWithThreeValuedLogic() throws SQLException {
    Random random = new Random(20261128);
    SoftAssertions softly = new SoftAssertions();
    for (int i = 0; i < Integer.getInteger("sq.count", 160); i++) {
      Predicate predicate = predicate(random, 0, true);
      softly.assertThatCode(() -> check(predicate)).doesNotThrowAnyException();
    }
    softly.assertAll();
  }

  private void check(Predicate predicate) throws SQLException {
    String sql = "SELECT pk FROM " + TABLE + " WHERE " + predicate.sql();
    TreeSet<Integer> expected = new TreeSet<>();
    for (Double[] row : ROWS) {
      if (Boolean.TRUE.equals(predicate.eval(row))) {
        expected.add(row[0].intValue());
      }
    }
    assertThat(keys(pushed, sql)).as(sql).isEqualTo(expected);
    assertThat(keys(oracle, sql)).as("pushdown=false: " + sql).isEqualTo(expected);
  }

  private static TreeSet<Integer> keys(Connection connection, String sql) throws SQLException {
    TreeSet<Integer> keys = new TreeSet<>();
    try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
      while (rows.next()) {
        assertThat(keys.add(rows.getInt(1))).as("a row twice: " + sql).isTrue();
      }
    } catch (SQLException | RuntimeException | AssertionError e) {
      throw new AssertionError(sql + " failed: " + e, e);
    }
    return keys;
  }

  private static Predicate predicate(Random random, int depth, boolean subqueries) {
    int choice = random.nextInt(depth >= 3 ? 4 : 8);
    int column = random.nextInt(COLUMNS.length);
    switch (choice) {
      case 0:
      case 1:
        return new Cmp(column, List.of("=", "<>", "<", "<=", ">", ">=").get(random.nextInt(6)), literal(random, column));
      case 2:
        return new IsNull(column, random.nextBoolean());
      case 3:
        if (subqueries && random.nextInt(2) == 0) {
          int inner = random.nextInt(COLUMNS.length);
          return switch (random.nextInt(4)) {
            case 0, 1 -> new InSubquery(column, random.nextInt(3) == 0, inner, predicate(random, depth + 1, depth < 1));
            case 2 -> new Exists(random.nextBoolean(), predicate(random, depth + 1, depth < 1));
            default -> new ScalarCompare(column, List.of("=", "<", ">=").get(random.nextInt(3)), inner,
                random.nextBoolean() ? "MAX" : "MIN", predicate(random, depth + 1, depth < 1));
          };
        }
        return new InList(column, random.nextInt(3) == 0,
            List.of(literal(random, column), literal(random, column), literal(random, column)));
      case 4:
      case 5:
        return new And(predicate(random, depth + 1, subqueries), predicate(random, depth + 1, subqueries));
      case 6:
        return new Or(predicate(random, depth + 1, subqueries), predicate(random, depth + 1, subqueries));
      default:
        return new Not(predicate(random, depth + 1, subqueries));
    }
  }

  private static double literal(Random random, int column) {
    Double value = ROWS[random.nextInt(ROWS.length)][column + 1];
    return value != null && random.nextInt(4) != 0 ? value : random.nextInt(100) + (column % 3 == 1 ? 0.5 : 0);
  }

  private static String sqlOf(double value) {
    return value == Math.rint(value) ? String.valueOf((long) value) : String.valueOf(value);
  }

  /** A predicate: its SQL text and its value on a row (null is UNKNOWN). */
  interface Predicate {
    String sql();

    Boolean eval(Double[] row);
  }

  private static Boolean compare(Double left, String op, Double right) {
    if (left == null || right == null) {
      return null;
    }
    int c = Double.compare(left, right);
    return switch (op) {
      case "=" -> c == 0;
      case "<>" -> c != 0;
      case "<" -> c < 0;
      case "<=" -> c <= 0;
      case ">" -> c > 0;
      default -> c >= 0;
    };
  }

  private static Boolean and(Boolean a, Boolean b) {
    if (Boolean.FALSE.equals(a) || Boolean.FALSE.equals(b)) {
      return false;
    }
    return a == null || b == null ? null : true;
  }

  private static Boolean or(Boolean a, Boolean b) {
    if (Boolean.TRUE.equals(a) || Boolean.TRUE.equals(b)) {
      return true;
    }
    return a == null || b == null ? null : false;
  }

  private static Boolean not(Boolean a) {
    return a == null ? null : !a;
  }

  /** SQL's x IN (values): true on an equal value, else unknown if x or a value is NULL, else false. */
  private static Boolean in(Double value, List<Double> values) {
    Boolean result = false;
    for (Double candidate : values) {
      result = or(result, compare(value, "=", candidate));
    }
    return result;
  }

  /** The values of a column in the rows that satisfy a predicate. */
  private static List<Double> selected(int column, Predicate where) {
    List<Double> values = new ArrayList<>();
    for (Double[] row : ROWS) {
      if (Boolean.TRUE.equals(where.eval(row))) {
        values.add(row[column + 1]);
      }
    }
    return values;
  }

  record Cmp(int column, String op, double value) implements Predicate {
    public String sql() {
      return COLUMNS[column] + " " + op + " " + sqlOf(value);
    }

    public Boolean eval(Double[] row) {
      return compare(row[column + 1], op, value);
    }
  }

  record IsNull(int column, boolean negated) implements Predicate {
    public String sql() {
      return COLUMNS[column] + (negated ? " IS NOT NULL" : " IS NULL");
    }

    public Boolean eval(Double[] row) {
      return (row[column + 1] == null) != negated;
    }
  }

  record InList(int column, boolean negated, List<Double> values) implements Predicate {
    public String sql() {
      return COLUMNS[column] + (negated ? " NOT IN (" : " IN (")
          + String.join(", ", values.stream().map(SubqueryOracleTest::sqlOf).toList()) + ")";
    }

    public Boolean eval(Double[] row) {
      Boolean in = in(row[column + 1], values);
      return negated ? not(in) : in;
    }
  }

  record InSubquery(int column, boolean negated, int inner, Predicate where) implements Predicate {
    public String sql() {
      return COLUMNS[column] + (negated ? " NOT IN" : " IN") + " (SELECT " + COLUMNS[inner] + " FROM " + TABLE
          + " WHERE " + where.sql() + ")";
    }

    public Boolean eval(Double[] row) {
      Boolean in = in(row[column + 1], selected(inner, where));
      return negated ? not(in) : in;
    }
  }

  record Exists(boolean negated, Predicate where) implements Predicate {
    public String sql() {
      return (negated ? "NOT EXISTS" : "EXISTS") + " (SELECT 1 FROM " + TABLE + " WHERE " + where.sql() + ")";
    }

    public Boolean eval(Double[] row) {
      return selected(0, where).isEmpty() == negated;
    }
  }

  /** column op (SELECT MAX|MIN(inner) ...): NULL when no row is selected or all are NULL. */
  record ScalarCompare(int column, String op, int inner, String aggregate, Predicate where) implements Predicate {
    public String sql() {
      return COLUMNS[column] + " " + op + " (SELECT " + aggregate + "(" + COLUMNS[inner] + ") FROM " + TABLE
          + " WHERE " + where.sql() + ")";
    }

    public Boolean eval(Double[] row) {
      Double result = null;
      for (Double value : selected(inner, where)) {
        if (value != null) {
          result = result == null ? value : aggregate.equals("MAX") ? Math.max(result, value) : Math.min(result, value);
        }
      }
      return compare(row[column + 1], op, result);
    }
  }

  record And(Predicate left, Predicate right) implements Predicate {
    public String sql() {
      return "(" + left.sql() + " AND " + right.sql() + ")";
    }

    public Boolean eval(Double[] row) {
      return and(left.eval(row), right.eval(row));
    }
  }

  record Or(Predicate left, Predicate right) implements Predicate {
    public String sql() {
      return "(" + left.sql() + " OR " + right.sql() + ")";
    }

    public Boolean eval(Double[] row) {
      return or(left.eval(row), right.eval(row));
    }
  }

  record Not(Predicate inner) implements Predicate {
    public String sql() {
      return "NOT (" + inner.sql() + ")";
    }

    public Boolean eval(Double[] row) {
      return not(inner.eval(row));
    }
  }
}
