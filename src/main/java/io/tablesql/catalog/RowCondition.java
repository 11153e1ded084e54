package io.tablesql.catalog;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.dialect.CalciteSqlDialect;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * A materialized view's WHERE, evaluated on one row in the client with SQL's three-valued logic:
 * whether a row belongs to the view is a function of that row alone. Only what it evaluates
 * exactly as the SQL engine does is accepted: AND, OR, NOT, comparisons, IN and IS [NOT] NULL
 * between columns of text, numbers and booleans and literals of their kind.
 */
public final class RowCondition {
  /** Evaluates to TRUE, FALSE, or null (UNKNOWN); a value node to its value. */
  private interface Node {
    Object eval(Map<String, Object> row);
  }

  /** Why a condition is refused: the message names the part. */
  public static final class Refused extends IllegalArgumentException {
    Refused(String message) {
      super(message);
    }
  }

  private final Node root;
  private final String text;
  /** The columns it reads, as declared. */
  private final java.util.Set<String> columns;

  private RowCondition(Node root, String text, java.util.Set<String> columns) {
    this.root = root;
    this.text = text;
    this.columns = java.util.Set.copyOf(columns);
  }

  /** The condition over {@code base}'s columns, or throws {@link Refused} naming what it cannot evaluate. */
  public static RowCondition of(SqlNode condition, TableDefinition base) {
    Compiler compiler = new Compiler(base);
    return new RowCondition(compiler.predicate(condition), condition.toSqlString(CalciteSqlDialect.DEFAULT).getSql(),
        compiler.read);
  }

  /** A condition as the catalog keeps it ({@link #text()}). */
  public static RowCondition parse(String text, TableDefinition base) {
    try {
      SqlNode node = SqlParser.create(text, SqlParser.config().withQuoting(Quoting.DOUBLE_QUOTE)
          .withUnquotedCasing(Casing.UNCHANGED).withQuotedCasing(Casing.UNCHANGED)).parseExpression();
      return of(node, base);
    } catch (SqlParseException e) {
      throw new IllegalArgumentException("unreadable view condition " + text + ": " + e.getMessage(), e);
    }
  }

  /** The condition as SQL text with every name quoted. */
  public String text() {
    return text;
  }

  /** Whether it reads a column (its name as declared). */
  public boolean reads(String column) {
    return columns.contains(column);
  }

  /** Whether a row (values by column name, in Calcite's representation) meets the condition (TRUE). */
  public boolean holds(Map<String, Object> row) {
    return Boolean.TRUE.equals(root.eval(row));
  }

  private enum Kind { TEXT, EXACT, APPROXIMATE, BOOLEAN }

  private static Kind kind(SqlTypeName type) {
    return switch (type) {
      case VARCHAR -> Kind.TEXT;
      case TINYINT, SMALLINT, INTEGER, BIGINT, DECIMAL -> Kind.EXACT;
      case DOUBLE, FLOAT, REAL -> Kind.APPROXIMATE;
      case BOOLEAN -> Kind.BOOLEAN;
      default -> null;
    };
  }

  /** Turns a SqlNode into nodes, refusing what it does not evaluate exactly. */
  private static final class Compiler {
    private final TableDefinition base;
    private final java.util.Set<String> read = new java.util.HashSet<>();

    Compiler(TableDefinition base) {
      this.base = base;
    }

    Node predicate(SqlNode node) {
      if (!(node instanceof SqlCall call)) {
        if (node instanceof SqlIdentifier id && column(id).sqlType() == SqlTypeName.BOOLEAN) {
          String name = column(id).name();
          return row -> row.get(name);
        }
        throw refused(node, "is not a condition");
      }
      SqlKind kind = call.getKind();
      switch (kind) {
        case AND, OR: {
          List<Node> operands = new ArrayList<>();
          call.getOperandList().forEach(operand -> operands.add(predicate(operand)));
          boolean and = kind == SqlKind.AND;
          return row -> {
            boolean unknown = false;
            for (Node operand : operands) {
              Object value = operand.eval(row);
              if (value == null) {
                unknown = true;
              } else if ((Boolean) value != and) {
                return !and;
              }
            }
            return unknown ? null : and;
          };
        }
        case NOT: {
          Node operand = predicate(call.operand(0));
          return row -> {
            Object value = operand.eval(row);
            return value == null ? null : !(Boolean) value;
          };
        }
        case IS_NULL, IS_NOT_NULL: {
          String name = column(identifier(call.operand(0))).name();
          boolean isNull = kind == SqlKind.IS_NULL;
          return row -> (row.get(name) == null) == isNull;
        }
        case EQUALS, NOT_EQUALS, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL:
          return comparison(call, kind);
        case IN, NOT_IN:
          return in(call, kind == SqlKind.NOT_IN);
        default:
          throw refused(node, "is not evaluated on a view's rows (AND, OR, NOT, comparisons, IN and IS NULL are)");
      }
    }

    private Node comparison(SqlCall call, SqlKind kind) {
      SqlNode left = call.operand(0);
      SqlNode right = call.operand(1);
      Kind type = left instanceof SqlIdentifier id ? kind(column(id).sqlType())
          : right instanceof SqlIdentifier id ? kind(column(id).sqlType()) : null;
      if (type == null) {
        throw refused(call, "compares no column of text, numbers or booleans");
      }
      Node l = value(left, type);
      Node r = value(right, type);
      return row -> {
        Object a = l.eval(row);
        Object b = r.eval(row);
        if (a == null || b == null) {
          return null;
        }
        if (isNaN(a) || isNaN(b)) { // as SQL compares a DOUBLE NaN: equal to nothing, different from everything
          return kind == SqlKind.NOT_EQUALS;
        }
        int c = compare(a, b);
        return switch (kind) {
          case EQUALS -> c == 0;
          case NOT_EQUALS -> c != 0;
          case LESS_THAN -> c < 0;
          case LESS_THAN_OR_EQUAL -> c <= 0;
          case GREATER_THAN -> c > 0;
          default -> c >= 0;
        };
      };
    }

    private Node in(SqlCall call, boolean negated) {
      SqlIdentifier id = identifier(call.operand(0));
      Kind type = kind(column(id).sqlType());
      if (type == null || !(call.operand(1) instanceof SqlNodeList list)) {
        throw refused(call, "is not an IN list of literals over a column of text, numbers or booleans");
      }
      Node tested = value(id, type);
      List<Node> values = new ArrayList<>();
      list.forEach(item -> values.add(value(item, type)));
      return row -> {
        Object a = tested.eval(row);
        if (a == null) {
          return null;
        }
        boolean unknown = false;
        for (Node value : values) {
          Object b = value.eval(row);
          if (b == null) {
            unknown = true;
          } else if (!isNaN(a) && !isNaN(b) && compare(a, b) == 0) {
            return !negated;
          }
        }
        return unknown ? null : negated;
      };
    }

    /** A column's value or a literal, as {@code type} compares it. */
    private Node value(SqlNode node, Kind type) {
      if (node instanceof SqlIdentifier id) {
        Column column = column(id);
        if (kind(column.sqlType()) != type) {
          throw refused(node, "compares values of different types");
        }
        String name = column.name();
        return row -> normal(row.get(name), type);
      }
      if (node instanceof SqlLiteral literal) {
        Object value = literal(literal, type);
        return row -> value;
      }
      if (node instanceof SqlBasicCall call && call.getKind() == SqlKind.MINUS_PREFIX
          && call.operand(0) instanceof SqlNumericLiteral number && type != Kind.TEXT && type != Kind.BOOLEAN) {
        Object value = negate(literal(number, type));
        return row -> value;
      }
      throw refused(node, "is neither a column nor a literal");
    }

    private Object literal(SqlLiteral literal, Kind type) {
      if (literal.getTypeName() == SqlTypeName.NULL || literal.getValue() == null) {
        return null; // NULL, and UNKNOWN (a BOOLEAN literal without a value)
      }
      switch (type) {
        case TEXT:
          if (literal instanceof SqlCharStringLiteral text) {
            return text.getValueAs(String.class);
          }
          break;
        case EXACT:
          if (literal instanceof SqlNumericLiteral number && number.isExact()) {
            return number.getValueAs(BigDecimal.class);
          }
          break;
        case APPROXIMATE:
          if (literal instanceof SqlNumericLiteral number) {
            return number.getValueAs(BigDecimal.class).doubleValue(); // the literal as a DOUBLE, as SQL casts it
          }
          break;
        default:
          if (literal.getTypeName() == SqlTypeName.BOOLEAN) {
            return literal.booleanValue();
          }
      }
      throw refused(literal, "is not a literal of the compared column's type");
    }

    private Column column(SqlIdentifier id) {
      String name = id.names.get(id.names.size() - 1);
      Column column = base.columns().stream().filter(c -> c.name().equals(name)).findFirst()
          .or(() -> base.columns().stream().filter(c -> c.name().equalsIgnoreCase(name)).findFirst())
          .orElseThrow(() -> new Refused("Column " + name + " of the view's condition is not a column of "
              + base.name() + "."));
      read.add(column.name());
      return column;
    }

    private SqlIdentifier identifier(SqlNode node) {
      if (node instanceof SqlIdentifier id) {
        return id;
      }
      throw refused(node, "is not a column");
    }
  }

  private static boolean isNaN(Object value) {
    return value instanceof Double d && d.isNaN();
  }

  private static Object negate(Object value) {
    return value instanceof BigDecimal d ? d.negate() : -(Double) value;
  }

  /** A column's value as its kind compares it: exact numbers as BigDecimal, approximate ones as Double. */
  private static Object normal(Object value, Kind type) {
    if (value == null) {
      return null;
    }
    return switch (type) {
      case EXACT -> value instanceof BigDecimal d ? d : BigDecimal.valueOf(((Number) value).longValue());
      case APPROXIMATE -> ((Number) value).doubleValue();
      default -> value;
    };
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static int compare(Object a, Object b) {
    if (a instanceof Double x && b instanceof Double y) {
      return x < y ? -1 : x > y ? 1 : 0; // as SQL compares: -0.0 equals 0.0
    }
    return ((Comparable) a).compareTo(b);
  }

  private static Refused refused(SqlNode node, String why) {
    return new Refused("The view's condition " + node.toSqlString(CalciteSqlDialect.DEFAULT).getSql() + " " + why
        + ": a materialized view's WHERE is evaluated on each row as it is written.");
  }
}
