package io.tablesql.prepare;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.dialect.CalciteSqlDialect;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlBasicVisitor;
import org.apache.calcite.util.Util;

/**
 * Rewrites a query so that the literals it compares with (in WHERE and ON) become parameters:
 * {@code ... WHERE PartitionKey = 'a' AND RowKey = 'b'} and {@code ... = 'c' AND ... = 'd'} are
 * the same statement, planned once. Literals elsewhere (select list, LIKE patterns, LIMIT,
 * ORDER BY ordinals, inside functions) stay, as they shape the plan.
 */
public final class LiteralLifter {
  /**
   * A parameterized query and the values lifted out of it, in parameter order, with where each
   * was written (Calcite's 1-based line and column).
   */
  public record Lifted(String sql, List<Object> values, List<SqlParserPos> positions) {
  }

  private final List<Object> values = new ArrayList<>();
  private final List<SqlParserPos> positions = new ArrayList<>();

  private LiteralLifter() {
  }

  /** {@link #lift(SqlNode)} of a text: null also when it does not parse. */
  public static Lifted lift(String sql) {
    return StatementText.of(sql).lifted();
  }

  /**
   * The lifted form of a parsed query (with no values if it has no literal to lift), or null if
   * it is not a plain query or has parameter markers of its own. The tree's literals are
   * replaced where they are lifted; a tree with none is left as it was.
   */
  static Lifted lift(SqlNode node) {
    if (hasParameters(node)) {
      return null; // its own parameters would be numbered apart from the lifted ones: as written
    }
    LiteralLifter lifter = new LiteralLifter();
    if (!lifter.query(node)) {
      return null;
    }
    return new Lifted(node.toSqlString(CalciteSqlDialect.DEFAULT).getSql(), List.copyOf(lifter.values),
        List.copyOf(lifter.positions));
  }

  private static boolean hasParameters(SqlNode node) {
    try {
      node.accept(new SqlBasicVisitor<Void>() {
        @Override
        public Void visit(SqlDynamicParam param) {
          throw Util.FoundOne.NULL;
        }
      });
      return false;
    } catch (Util.FoundOne found) {
      return true;
    }
  }

  private boolean query(SqlNode node) {
    if (node instanceof SqlOrderBy orderBy) {
      return query(orderBy.query);
    }
    if (!(node instanceof SqlSelect select)) {
      return false;
    }
    from(select.getFrom());
    if (select.getWhere() != null) {
      select.setWhere(predicate(select.getWhere()));
    }
    return true;
  }

  private void from(SqlNode from) {
    if (from instanceof SqlJoin join) {
      from(join.getLeft());
      from(join.getRight());
      if (join.getCondition() != null) {
        join.setOperand(5, predicate(join.getCondition()));
      }
    }
  }

  /** Lifts the literals compared with in a predicate; leaves any other expression alone. */
  private SqlNode predicate(SqlNode node) {
    if (node instanceof SqlSelect || node instanceof SqlOrderBy) {
      query(node);
      return node;
    }
    if (!(node instanceof SqlBasicCall call)) {
      return node;
    }
    SqlKind kind = call.getKind();
    boolean logical = kind == SqlKind.AND || kind == SqlKind.OR || kind == SqlKind.NOT;
    // Not inside ROW(...): Calcite cannot type a row of parameters, (a, b) IN ((?, ?), ...).
    boolean comparison = SqlKind.BINARY_COMPARISON.contains(kind) || kind == SqlKind.BETWEEN
        || kind == SqlKind.IN || kind == SqlKind.NOT_IN;
    if (!logical && !comparison) {
      return node;
    }
    for (int i = 0; i < call.operandCount(); i++) {
      SqlNode operand = call.operand(i);
      if (operand instanceof SqlNodeList list) {
        for (int j = 0; j < list.size(); j++) {
          list.set(j, comparison ? lifted(list.get(j)) : predicate(list.get(j)));
        }
      } else {
        call.setOperand(i, comparison ? lifted(operand) : predicate(operand));
      }
    }
    return call;
  }

  /** A comparison's operand: a liftable literal becomes a parameter. */
  private SqlNode lifted(SqlNode operand) {
    if (operand instanceof SqlCharStringLiteral text) {
      values.add(text.getValueAs(String.class));
    } else if (operand instanceof SqlNumericLiteral number && number.isExact()) {
      values.add(number.getValueAs(java.math.BigDecimal.class));
    } else if (operand instanceof SqlLiteral literal && literal.getTypeName() == SqlTypeName.BOOLEAN
        && literal.getValue() != null) {
      values.add(literal.booleanValue());
    } else {
      return predicate(operand);
    }
    positions.add(operand.getParserPosition());
    return new SqlDynamicParam(values.size() - 1, operand.getParserPosition());
  }

}
