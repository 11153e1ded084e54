package io.tablesql.plan;

import io.tablesql.catalog.Column;
import io.tablesql.query.Operand;
import io.tablesql.store.EdmType;
import io.tablesql.store.ODataLiteral;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.NlsString;

/**
 * The operands of one query's comparisons ({@link FilterTranslator}): a value compared with a
 * declared key column, in Calcite's representation of its type; a value compared with a
 * property, as the service compares it; and the values of a lookup join's other side the query
 * takes, each in its slot.
 */
final class ComparisonOperands {
  private final List<RexNode> correlated = new ArrayList<>();

  /** The lookup join's values the query takes, by slot. */
  List<RexNode> correlated() {
    return List.copyOf(correlated);
  }

  /**
   * The value a declared key column is compared with, in Calcite's representation of the
   * column's type: a literal, parameter or lookup-join value of that type; otherwise null.
   */
  Operand key(RexNode node, Column column) {
    SqlTypeName type = column.sqlType();
    if (node instanceof RexFieldAccess access && access.getReferenceExpr() instanceof RexCorrelVariable) {
      return sameType(access.getType().getSqlTypeName(), type) ? correlated(access) : null;
    }
    if (node instanceof RexDynamicParam param) {
      return sameType(param.getType().getSqlTypeName(), type) ? Operand.parameter(param.getIndex()) : null;
    }
    if (!(node instanceof RexLiteral literal) || literal.isNull()) {
      return null;
    }
    SqlTypeName literalType = literal.getType().getSqlTypeName();
    try {
      switch (type) {
        case VARCHAR:
          return literal.getValue() instanceof NlsString ? Operand.literal(literal.getValueAs(String.class)) : null;
        case SMALLINT:
        case INTEGER:
        case BIGINT: {
          if (!(literal.getValue() instanceof BigDecimal decimal)) {
            return null;
          }
          long value = decimal.longValueExact();
          return Operand.literal(type == SqlTypeName.BIGINT ? (Object) value
              : type == SqlTypeName.INTEGER ? (Object) Math.toIntExact(value) : (Object) (short) value);
        }
        case DOUBLE:
        case REAL:
          if (!SqlTypeName.NUMERIC_TYPES.contains(literalType)) {
            return null;
          }
          double value = literal.getValueAs(Double.class);
          return Operand.literal(type == SqlTypeName.REAL ? (Object) (float) value : (Object) value);
        case DECIMAL:
          return literal.getValue() instanceof BigDecimal decimal
              ? Operand.literal(decimal.setScale(Math.max(0, column.scale()))) : null;
        case BOOLEAN:
          return literal.getValue() instanceof Boolean b ? Operand.literal(b) : null;
        case DATE:
          return literalType == SqlTypeName.DATE ? Operand.literal(literal.getValueAs(Integer.class)) : null;
        case TIMESTAMP:
          return literalType == SqlTypeName.TIMESTAMP ? Operand.literal(literal.getValueAs(Long.class)) : null;
        case VARBINARY:
          return literal.getValue() instanceof ByteString ? Operand.literal(literal.getValue()) : null;
        default:
          return null;
      }
    } catch (ArithmeticException e) {
      return null; // a value no key of the column's type equals (1.5 for an INTEGER)
    }
  }

  /** A value of the lookup join's other side, in the slot it has (or gets) in this query. */
  Operand correlated(RexFieldAccess access) {
    int slot = correlated.indexOf(access);
    if (slot < 0) {
      correlated.add(access);
      slot = correlated.size() - 1;
    }
    return Operand.correlated(slot, access.toString());
  }

  private static boolean sameType(SqlTypeName given, SqlTypeName column) {
    return given == column || column == SqlTypeName.VARCHAR && given == SqlTypeName.CHAR;
  }

  /**
   * A literal or parameter that can be compared with {@code column} at the service with SQL's
   * result, as an operand of Edm type {@code type}; otherwise null.
   */
  Operand property(RexNode node, Column column, EdmType type) {
    if (node instanceof RexFieldAccess access && access.getReferenceExpr() instanceof RexCorrelVariable) {
      boolean sameType = access.getType().getSqlTypeName() == column.sqlType()
          || (type == EdmType.STRING && access.getType().getSqlTypeName() == SqlTypeName.CHAR);
      return sameType && type != EdmType.GUID && type != EdmType.BINARY ? correlated(access) : null;
    }
    if (node instanceof RexDynamicParam param) {
      boolean sameType = param.getType().getSqlTypeName() == column.sqlType()
          || (type == EdmType.STRING && param.getType().getSqlTypeName() == SqlTypeName.CHAR);
      return sameType && type != EdmType.GUID && type != EdmType.BINARY ? Operand.parameter(param.getIndex()) : null;
    }
    if (!(node instanceof RexLiteral literal) || literal.isNull()) {
      return null;
    }
    Object value = literal.getValue();
    switch (type) {
      case STRING:
        return value instanceof NlsString ? Operand.literal(literal.getValueAs(String.class)) : null;
      case GUID: {
        String text = value instanceof NlsString ? literal.getValueAs(String.class) : null;
        return text != null && ODataLiteral.isCanonicalGuid(text) ? Operand.literal(text) : null;
      }
      case INT32:
      case INT64: {
        if (!(value instanceof BigDecimal decimal) || !isExactNumeric(literal)) {
          return null;
        }
        try {
          long integral = decimal.longValueExact();
          if (type == EdmType.INT32) {
            return Operand.literal(Math.toIntExact(integral));
          }
          return Operand.literal(integral);
        } catch (ArithmeticException e) {
          return null;
        }
      }
      case DOUBLE:
        // Calcite 1.41 holds approximate literals as Double (earlier versions as BigDecimal)
        return (value instanceof BigDecimal || value instanceof Double) && column.sqlType() == SqlTypeName.DOUBLE
            && literal.getType().getSqlTypeName() == SqlTypeName.DOUBLE
            ? Operand.literal(literal.getValueAs(Double.class)) : null;
      case BOOLEAN:
        return value instanceof Boolean b ? Operand.literal(b) : null;
      case DATETIME:
        return literal.getType().getSqlTypeName() == SqlTypeName.TIMESTAMP
            ? Operand.literal(literal.getValueAs(Long.class)) : null;
      case BINARY:
        return value instanceof ByteString ? Operand.literal(value) : null;
      default:
        return null;
    }
  }

  private static boolean isExactNumeric(RexLiteral literal) {
    switch (literal.getType().getSqlTypeName()) {
      case TINYINT:
      case SMALLINT:
      case INTEGER:
      case BIGINT:
        return true;
      case DECIMAL:
        return literal.getType().getScale() == 0;
      default:
        return false;
    }
  }
}
