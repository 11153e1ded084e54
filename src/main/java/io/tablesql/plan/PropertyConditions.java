package io.tablesql.plan;

import io.tablesql.catalog.Column;
import io.tablesql.catalog.ValueParts;
import io.tablesql.query.KeyBound;
import io.tablesql.query.Operand;
import io.tablesql.query.ServiceFilter.And;
import io.tablesql.query.ServiceFilter.Comparison;
import io.tablesql.query.ServiceFilter.Op;
import io.tablesql.query.ServiceFilter.Or;
import io.tablesql.query.ServiceFilter;
import io.tablesql.query.TableQuery;
import io.tablesql.store.EdmType;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlLikeOperator;

/**
 * Conditions on a table's properties as the service's {@code $filter} comparisons, one job of the
 * filter translation ({@link FilterTranslator}): comparisons, IS NOT NULL, LIKE prefixes, AND and
 * OR of them (NOT pushed into them), each exact or a superset the client checks again. The
 * compared values' operands come from {@link ComparisonOperands}.
 */
final class PropertyConditions {
  /** A condition as a $filter, and whether it selects exactly its rows (or a superset). */
  record Translation(ServiceFilter filter, boolean exact) {
  }

  private final TableQuery query;
  private final ComparisonOperands operands;

  PropertyConditions(TableQuery query, ComparisonOperands operands) {
    this.query = query;
    this.operands = operands;
  }

  /**
   * The column an expression reads directly, if the service compares its stored values as SQL
   * compares the column (not a declared table's key column, nor a DECIMAL stored as text); else null.
   */
  Column column(RexNode node) {
    if (node instanceof RexInputRef ref) {
      Column column = query.columns().get(ref.getIndex());
      return column.comparableAtService() && query.shape().keyPosition(column) < 0 ? column : null;
    }
    return null;
  }

  Translation translate(RexNode node, boolean negated) {
    switch (node.getKind()) {
      case AND:
      case OR: {
        boolean and = (node.getKind() == SqlKind.AND) != negated;
        List<ServiceFilter> parts = new ArrayList<>();
        boolean exact = true;
        for (RexNode operand : ((RexCall) node).getOperands()) {
          Translation part = translate(operand, negated);
          if (part == null) {
            if (!and) {
              return null;
            }
            exact = false; // a weaker AND still selects a superset; the client re-checks
            continue;
          }
          parts.add(part.filter());
          exact &= part.exact();
        }
        if (parts.isEmpty()) {
          return null;
        }
        ServiceFilter filter = parts.size() == 1 ? parts.get(0) : and ? new And(parts) : new Or(parts);
        return new Translation(filter, exact);
      }
      case NOT:
        return translate(((RexCall) node).getOperands().get(0), !negated);
      case EQUALS:
      case NOT_EQUALS:
      case LESS_THAN:
      case LESS_THAN_OR_EQUAL:
      case GREATER_THAN:
      case GREATER_THAN_OR_EQUAL:
        return onFirstParts(comparison((RexCall) node, negated));
      case IS_NOT_NULL:
      case IS_NULL: {
        boolean notNull = (node.getKind() == SqlKind.IS_NOT_NULL) != negated;
        Column column = column(((RexCall) node).getOperands().get(0));
        return notNull && column != null ? isNotNull(column) : null;
      }
      case LIKE: {
        // ILIKE is a LIKE too, one the service cannot judge: its comparisons are case-sensitive
        SqlLikeOperator like = (SqlLikeOperator) ((RexCall) node).getOperator();
        return negated || like.isNegated() || !like.isCaseSensitive() ? null : onFirstParts(like((RexCall) node));
      }
      case INPUT_REF: {
        Column column = column(node);
        if (column != null && column.singleEdmType() == EdmType.BOOLEAN) {
          return exact(new Comparison(column.name(), Op.EQ, EdmType.BOOLEAN, Operand.literal(!negated), false));
        }
        return null;
      }
      default:
        return null;
    }
  }

  /**
   * A comparison on a large column as the service can judge it, on the first part of a long
   * value (ServiceFilter.FirstPart): never exact, so the client checks it again; binary values,
   * whose first part no comparison is written for, are left to the client.
   */
  private Translation onFirstParts(Translation translation) {
    if (translation == null || !onLargeColumn(translation.filter())) {
      return translation;
    }
    ServiceFilter filter = firstParts(translation.filter());
    return filter == null ? null : new Translation(filter, false);
  }

  private boolean onLargeColumn(ServiceFilter filter) {
    if (filter instanceof Comparison comparison) {
      return query.shape().columns().stream().anyMatch(c -> c.large() && c.name().equals(comparison.property()));
    }
    List<ServiceFilter> parts = filter instanceof And and ? and.operands() : ((Or) filter).operands();
    return parts.stream().anyMatch(this::onLargeColumn);
  }

  private static ServiceFilter firstParts(ServiceFilter filter) {
    if (filter instanceof Comparison comparison) {
      return comparison.type() == EdmType.STRING
          ? new ServiceFilter.FirstPart(comparison, ValueParts.SHORTEST_FIRST_TEXT) : null;
    }
    boolean and = filter instanceof And;
    List<ServiceFilter> parts = new ArrayList<>();
    for (ServiceFilter part : and ? ((And) filter).operands() : ((Or) filter).operands()) {
      ServiceFilter wrapped = firstParts(part);
      if (wrapped == null) {
        return null;
      }
      parts.add(wrapped);
    }
    return and ? new And(parts) : new Or(parts);
  }

  private static Translation exact(ServiceFilter filter) {
    return new Translation(filter, true);
  }

  private Translation comparison(RexCall call, boolean negated) {
    SqlKind kind = negated ? call.getKind().negateNullSafe() : call.getKind();
    Column column = column(call.getOperands().get(0));
    RexNode other = call.getOperands().get(1);
    if (column == null) {
      column = column(call.getOperands().get(1));
      other = call.getOperands().get(0);
      kind = kind.reverse();
    }
    if (column == null) {
      return null;
    }
    EdmType type = column.singleEdmType();
    Operand value = type == null ? null : operands.property(other, column, type);
    if (value == null) {
      return null;
    }
    String name = column.name();
    switch (type) {
      case GUID:
      case BINARY:
        return kind == SqlKind.EQUALS ? exact(new Comparison(name, Op.EQ, type, value, false)) : null;
      case DATETIME:
        return dateTime(name, kind, value);
      case BOOLEAN:
        if (kind == SqlKind.EQUALS) {
          return exact(new Comparison(name, Op.EQ, type, value, false));
        }
        if (kind == SqlKind.NOT_EQUALS && !value.isParameter()) {
          return exact(new Comparison(name, Op.EQ, type, Operand.literal(!(Boolean) value.literal()), false));
        }
        return null;
      default:
        break;
    }
    switch (kind) {
      case EQUALS: return exact(new Comparison(name, Op.EQ, type, value, false));
      case LESS_THAN: return exact(new Comparison(name, Op.LT, type, value, false));
      case LESS_THAN_OR_EQUAL: return exact(new Comparison(name, Op.LE, type, value, false));
      case GREATER_THAN: return exact(new Comparison(name, Op.GT, type, value, false));
      case GREATER_THAN_OR_EQUAL: return exact(new Comparison(name, Op.GE, type, value, false));
      case NOT_EQUALS:
        if (column.isKey()) {
          return exact(new Comparison(name, Op.NE, type, value, false)); // keys are never missing
        }
        return exact(new Or(List.of(new Comparison(name, Op.LT, type, value, false),
            new Comparison(name, Op.GT, type, value, false))));
      default:
        return null;
    }
  }

  /**
   * The client sees DateTimes floored to the millisecond, so {@code t <= X} is {@code t lt X+1ms}
   * at the service, {@code t = X} is {@code t ge X and t lt X+1ms}, and so on: exact either way.
   */
  private static Translation dateTime(String name, SqlKind kind, Operand value) {
    EdmType type = EdmType.DATETIME;
    Comparison atLeastX = new Comparison(name, Op.GE, type, value, false);
    Comparison belowX = new Comparison(name, Op.LT, type, value, false);
    Comparison atLeastNext = new Comparison(name, Op.GE, type, value, true);
    Comparison belowNext = new Comparison(name, Op.LT, type, value, true);
    switch (kind) {
      case EQUALS: return exact(new And(List.of(atLeastX, belowNext)));
      case NOT_EQUALS: return exact(new Or(List.of(belowX, atLeastNext)));
      case LESS_THAN: return exact(belowX);
      case LESS_THAN_OR_EQUAL: return exact(belowNext);
      case GREATER_THAN: return exact(atLeastNext);
      case GREATER_THAN_OR_EQUAL: return exact(atLeastX);
      default: return null;
    }
  }

  /** Present with the column's type, as a comparison every such value passes. */
  private static Translation isNotNull(Column column) {
    EdmType type = column.singleEdmType();
    if (type == null) {
      return null;
    }
    String name = column.name();
    switch (type) {
      case STRING: return exact(new Comparison(name, Op.GE, type, Operand.literal(""), false));
      case INT32: return exact(new Comparison(name, Op.GE, type, Operand.literal(Integer.MIN_VALUE), false));
      case INT64: return exact(new Comparison(name, Op.GE, type, Operand.literal(Long.MIN_VALUE), false));
      case BOOLEAN:
        return exact(new Or(List.of(new Comparison(name, Op.EQ, type, Operand.literal(true), false),
            new Comparison(name, Op.EQ, type, Operand.literal(false), false))));
      default: return null;
    }
  }

  /** {@code LIKE 'prefix%'} is the range [prefix, next string after every prefix). */
  private Translation like(RexCall call) {
    Column column = column(call.getOperands().get(0));
    if (column == null || column.singleEdmType() != EdmType.STRING
        || !(call.getOperands().get(1) instanceof RexLiteral literal)) {
      return null;
    }
    Character escape = null;
    if (call.getOperands().size() == 3) {
      String text = call.getOperands().get(2) instanceof RexLiteral e ? e.getValueAs(String.class) : null;
      if (text == null || text.length() != 1) {
        return null;
      }
      escape = text.charAt(0);
    }
    String pattern = literal.getValueAs(String.class);
    LikePrefix prefix = pattern == null ? null : LikePrefix.of(pattern, escape);
    if (prefix == null) {
      return null;
    }
    String name = column.name();
    if (!prefix.open()) {
      return exact(new Comparison(name, Op.EQ, EdmType.STRING, Operand.literal(prefix.text()), false));
    }
    Comparison lower = new Comparison(name, Op.GE, EdmType.STRING, Operand.literal(prefix.text()), false);
    String upper = KeyBound.successorOfPrefix(prefix.text());
    if (upper == null) {
      return exact(lower);
    }
    return exact(new And(List.of(lower, new Comparison(name, Op.LT, EdmType.STRING, Operand.literal(upper), false))));
  }

  /**
   * A LIKE pattern that is literal text, optionally followed by one final {@code %}
   * ({@code open}); null for any other pattern.
   */
  record LikePrefix(String text, boolean open) {
    static LikePrefix of(String pattern, Character escape) {
      StringBuilder text = new StringBuilder();
      for (int i = 0; i < pattern.length(); i++) {
        char c = pattern.charAt(i);
        if (escape != null && c == escape) {
          if (++i == pattern.length()) {
            return null;
          }
          text.append(pattern.charAt(i));
        } else if (c == '%' && i == pattern.length() - 1) {
          return new LikePrefix(text.toString(), true);
        } else if (c == '%' || c == '_') {
          return null;
        } else {
          text.append(c);
        }
      }
      return new LikePrefix(text.toString(), false);
    }
  }
}
