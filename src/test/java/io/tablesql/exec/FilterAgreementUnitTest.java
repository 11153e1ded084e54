package io.tablesql.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.data.tables.models.TableEntity;
import io.tablesql.catalog.Column;
import io.tablesql.catalog.TableShape;
import io.tablesql.plan.AzureTable;
import io.tablesql.plan.FilterTranslator;
import io.tablesql.plan.FullScans;
import io.tablesql.query.AccessScope;
import io.tablesql.query.ServiceFilter;
import io.tablesql.query.TableQuery;
import io.tablesql.store.EdmType;
import io.tablesql.store.ODataLiteral;
import io.tablesql.testing.UnicodeCalcite;
import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlCollation;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.NlsString;
import org.apache.calcite.util.TimestampString;
import org.junit.jupiter.api.Test;

/**
 * Agreement, with no backend, between SQL's answer for a WHERE condition and what the driver
 * makes of it: for random conditions and random entities (missing properties, values of another
 * Edm type, quotes, sub-millisecond DateTimes), an entity satisfies the condition exactly when the
 * translated access ({@link AccessScope}: keys, partitions, {@link ServiceFilter#matches}) selects
 * it and the residual condition holds. The matcher is what serves cached lookup tables and
 * pending writes, so this is the agreement of those with the oracle's semantics; and every value
 * in the rendered {@code $filter} is one literal of {@link ODataLiteral}.
 */
class FilterAgreementUnitTest {

  static {
    UnicodeCalcite.ensure();
  }

  static final TableShape SHAPE = new TableShape("T", List.of(
      Column.of(Column.PARTITION_KEY, Set.of(EdmType.STRING)),
      Column.of(Column.ROW_KEY, Set.of(EdmType.STRING)),
      Column.of(Column.TIMESTAMP, Set.of(EdmType.DATETIME)),
      Column.of("Active", Set.of(EdmType.BOOLEAN)),
      Column.of("Age", Set.of(EdmType.INT32)),
      Column.of("Big", Set.of(EdmType.INT64)),
      Column.of("HireDate", Set.of(EdmType.DATETIME)),
      Column.of("Mixed", Set.of(EdmType.INT32, EdmType.STRING)),
      Column.of("Name", Set.of(EdmType.STRING)),
      Column.of("Score", Set.of(EdmType.DOUBLE))), 10, true);
  static final String[] KEYS = {"p1", "p2", "p3"};
  static final String[] TEXTS = {"", "a", "ab", "abc", "b", "O'Neil", "x' or Name eq 'y", "é", "\uffff"};
  static final OffsetDateTime BASE = OffsetDateTime.of(2024, 1, 1, 10, 0, 0, 0, ZoneOffset.UTC);

  final JavaTypeFactoryImpl typeFactory = new JavaTypeFactoryImpl();
  final RexBuilder rex = new RexBuilder(typeFactory);
  final RelDataType rowType = AzureTable.rowType(typeFactory, SHAPE.columns());
  final Random random = new Random(20240601);

  @Test
  void theTranslatedAccessAndResidualSelectExactlyTheEntitiesSqlSelects() {
    List<TableEntity> entities = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      entities.add(entity());
    }
    int selected = 0;
    int pushed = 0;
    for (int round = 0; round < 1500; round++) {
      RexNode condition = condition(3);
      FilterTranslator.Result result = new FilterTranslator(FullScans.fullScan(null, SHAPE, false), rex).translate(condition);
      TableQuery query = result.query();
      if (query.filter() != null) {
        pushed++;
        assertTrue(query.filter().comparisons() <= ServiceFilter.MAX_COMPARISONS, condition.toString());
        checkLiterals(query.filter(), condition);
      }
      for (TableEntity entity : entities) {
        Object[] row = row(entity);
        boolean sql = Boolean.TRUE.equals(evaluate(condition, row));
        boolean scoped = AccessScope.contains(query, entity, operand -> operand.literal());
        boolean driver = scoped && (result.residual() == null || Boolean.TRUE.equals(evaluate(result.residual(), row)));
        assertEquals(sql, driver, () -> condition + " on " + entity.getProperties() + " via " + query.accessLabel()
            + " " + (query.filter() == null ? "" : query.filter().render(null)) + " residual " + result.residual());
        if (sql) {
          selected++;
        }
      }
    }
    assertTrue(selected > 5000 && pushed > 1000, selected + " rows selected, " + pushed + " filters pushed");
  }

  /** Every value in the text is a whole OData literal: a quote in a string can add no comparison. */
  private static void checkLiterals(ServiceFilter filter, RexNode condition) {
    String text = filter.render(null);
    Matcher comparisons = Pattern.compile("(\\w+) (eq|ne|lt|le|gt|ge) ('(?:[^']|'')*'|datetime'[^']*'|[-\\w.]+)")
        .matcher(text);
    int count = 0;
    int end = 0;
    while (comparisons.find()) {
      String between = text.substring(end, comparisons.start()).replaceAll("[() ]|and|or", "");
      assertEquals("", between, () -> "stray text in " + text + " for " + condition);
      count++;
      end = comparisons.end();
    }
    assertEquals("", text.substring(end).replaceAll("[) ]", ""), text);
    assertEquals(filter.comparisons(), count, () -> text + " for " + condition);
  }

  @Test
  void stringLiteralsDoubleTheirQuotesAndOtherTypesAreTyped() {
    assertEquals("'x'' or Name eq ''y'", ODataLiteral.render(EdmType.STRING, "x' or Name eq 'y", false));
    assertEquals("5", ODataLiteral.render(EdmType.INT32, 5, false));
    assertEquals("5L", ODataLiteral.render(EdmType.INT64, 5L, false));
    assertEquals("2.0", ODataLiteral.render(EdmType.DOUBLE, 2.0, false));
    assertEquals("datetime'2024-01-01T10:00:00.001Z'",
        ODataLiteral.render(EdmType.DATETIME, BASE.toInstant().toEpochMilli(), true));
    for (Object bad : new Object[] {Double.NaN, Double.POSITIVE_INFINITY}) {
      try {
        ODataLiteral.render(EdmType.DOUBLE, bad, false);
        throw new AssertionError("rendered " + bad);
      } catch (IllegalArgumentException expected) {
        // NaN and infinities have no literal
      }
    }
    try {
      ODataLiteral.render(EdmType.GUID, "not-a-guid' or PartitionKey ne '", false);
      throw new AssertionError("rendered a non-GUID");
    } catch (IllegalArgumentException expected) {
      assertTrue(expected.getMessage().contains("canonical"));
    }
  }

  // --- random entities ---

  private TableEntity entity() {
    TableEntity entity = new TableEntity(KEYS[random.nextInt(3)], "r" + random.nextInt(4));
    maybe(entity, "Active", random.nextBoolean());
    maybe(entity, "Age", random.nextInt(5) == 0 ? (Object) "3" : Integer.valueOf(random.nextInt(7) - 1));
    maybe(entity, "Big", random.nextInt(6) == 0 ? (Object) 3 : Long.valueOf(random.nextInt(7) - 1));
    maybe(entity, "HireDate", BASE.plusNanos(random.nextInt(4) * 500_000L));
    maybe(entity, "Mixed", random.nextBoolean() ? (Object) random.nextInt(3) : String.valueOf(random.nextInt(3)));
    maybe(entity, "Name", TEXTS[random.nextInt(TEXTS.length)]);
    maybe(entity, "Score", random.nextInt(6) == 0 ? (Object) 2 : Double.valueOf(random.nextInt(5) * 0.5));
    return entity;
  }

  private void maybe(TableEntity entity, String name, Object value) {
    if (random.nextInt(5) != 0) {
      entity.addProperty(name, value);
    }
  }

  /** The row Calcite sees: each property converted by its column, another type reading as NULL. */
  private static Object[] row(TableEntity entity) {
    Object[] row = new Object[SHAPE.columns().size()];
    for (int i = 0; i < row.length; i++) {
      Column column = SHAPE.columns().get(i);
      Object value = switch (column.name()) {
        case Column.PARTITION_KEY -> entity.getPartitionKey();
        case Column.ROW_KEY -> entity.getRowKey();
        default -> entity.getProperty(column.name());
      };
      row[i] = value == null ? null : column.toInternal(value);
    }
    return row;
  }

  // --- random conditions ---

  private RexNode condition(int depth) {
    int choice = random.nextInt(depth > 0 ? 10 : 7);
    switch (choice) {
      case 7: return call(SqlStdOperatorTable.AND, condition(depth - 1), condition(depth - 1));
      case 8: return call(SqlStdOperatorTable.OR, condition(depth - 1), condition(depth - 1));
      case 9: return call(SqlStdOperatorTable.NOT, condition(depth - 1));
      case 0:
        return call(random.nextBoolean() ? SqlStdOperatorTable.IS_NULL : SqlStdOperatorTable.IS_NOT_NULL,
            ref(column()));
      case 1: {
        String prefix = TEXTS[random.nextInt(TEXTS.length)];
        String pattern = random.nextInt(4) == 0 ? prefix : random.nextInt(5) == 0 ? prefix + "_%" : prefix + "%";
        return call(SqlStdOperatorTable.LIKE, ref(random.nextBoolean() ? "Name" : "RowKey"), text(pattern));
      }
      case 2: return ref("Active");
      default: {
        String column = column();
        RexNode comparison = call(comparisonOperator(), ref(column), literal(column));
        return random.nextInt(4) == 0 ? call(((RexCall) comparison).getOperator().reverse(), literal(column),
            ref(column)) : comparison;
      }
    }
  }

  private String column() {
    String[] names = {"PartitionKey", "RowKey", "Active", "Age", "Big", "HireDate", "Mixed", "Name", "Score"};
    return names[random.nextInt(names.length)];
  }

  private SqlOperator comparisonOperator() {
    SqlOperator[] operators = {SqlStdOperatorTable.EQUALS, SqlStdOperatorTable.NOT_EQUALS,
        SqlStdOperatorTable.LESS_THAN, SqlStdOperatorTable.LESS_THAN_OR_EQUAL, SqlStdOperatorTable.GREATER_THAN,
        SqlStdOperatorTable.GREATER_THAN_OR_EQUAL};
    return operators[random.nextInt(operators.length)];
  }

  private RexNode literal(String column) {
    switch (column) {
      case "PartitionKey": return text(KEYS[random.nextInt(3)]);
      case "RowKey": return text("r" + random.nextInt(4));
      case "Active": return rex.makeLiteral(random.nextBoolean());
      case "Age":
      case "Big": return rex.makeExactLiteral(BigDecimal.valueOf(random.nextInt(7) - 1));
      case "HireDate":
        return rex.makeTimestampLiteral(new TimestampString("2024-01-01 10:00:00").withMillis(random.nextInt(3)), 3);
      case "Score": return rex.makeLiteral(BigDecimal.valueOf(random.nextInt(5) * 0.5),
          typeFactory.createSqlType(SqlTypeName.DOUBLE));
      case "Mixed": return text(String.valueOf(random.nextInt(3)));
      default: return text(TEXTS[random.nextInt(TEXTS.length)]);
    }
  }

  private RexNode ref(String column) {
    int index = SHAPE.indexOf(column);
    return rex.makeInputRef(rowType.getFieldList().get(index).getType(), index);
  }

  private RexNode text(String value) {
    return rex.makeCharLiteral(new NlsString(value, "UTF-16LE", SqlCollation.IMPLICIT));
  }

  private RexNode call(SqlOperator operator, RexNode... operands) {
    return rex.makeCall(operator, operands);
  }

  // --- SQL's three-valued logic, the oracle ---

  /** TRUE, FALSE or null (UNKNOWN), as SQL evaluates the condition on the row. */
  static Boolean evaluate(RexNode node, Object[] row) {
    if (node instanceof RexInputRef ref) {
      return (Boolean) row[ref.getIndex()];
    }
    RexCall call = (RexCall) node;
    List<RexNode> operands = call.getOperands();
    switch (call.getKind()) {
      case AND: {
        Boolean result = true;
        for (RexNode operand : operands) {
          Boolean value = evaluate(operand, row);
          if (Boolean.FALSE.equals(value)) {
            return false;
          }
          result = value == null ? null : result;
        }
        return result;
      }
      case OR: {
        Boolean result = false;
        for (RexNode operand : operands) {
          Boolean value = evaluate(operand, row);
          if (Boolean.TRUE.equals(value)) {
            return true;
          }
          result = value == null ? null : result;
        }
        return result;
      }
      case NOT: {
        Boolean value = evaluate(operands.get(0), row);
        return value == null ? null : !value;
      }
      case IS_NULL: return value(operands.get(0), row) == null;
      case IS_NOT_NULL: return value(operands.get(0), row) != null;
      case LIKE: {
        Object text = value(operands.get(0), row);
        Object pattern = value(operands.get(1), row);
        return text == null ? null : ((String) text).matches(likeRegex((String) pattern));
      }
      default: {
        Comparable<Object> left = value(operands.get(0), row);
        Comparable<Object> right = value(operands.get(1), row);
        if (left == null || right == null) {
          return null;
        }
        int order = left.compareTo(right);
        switch (call.getKind()) {
          case EQUALS: return order == 0;
          case NOT_EQUALS: return order != 0;
          case LESS_THAN: return order < 0;
          case LESS_THAN_OR_EQUAL: return order <= 0;
          case GREATER_THAN: return order > 0;
          case GREATER_THAN_OR_EQUAL: return order >= 0;
          default: throw new AssertionError(call);
        }
      }
    }
  }

  /** A value as a Comparable: numbers as BigDecimal, timestamps as millis, text, booleans. */
  @SuppressWarnings("unchecked")
  private static Comparable<Object> value(RexNode node, Object[] row) {
    Object value;
    if (node instanceof RexInputRef ref) {
      value = row[ref.getIndex()];
    } else {
      RexLiteral literal = (RexLiteral) node;
      value = switch (literal.getType().getSqlTypeName()) {
        case CHAR, VARCHAR -> literal.getValueAs(String.class);
        case BOOLEAN -> literal.getValueAs(Boolean.class);
        case TIMESTAMP -> literal.getValueAs(Long.class);
        default -> literal.getValueAs(BigDecimal.class);
      };
    }
    if (value instanceof Number number && !(node instanceof RexLiteral literal
        && literal.getType().getSqlTypeName() == SqlTypeName.TIMESTAMP)) {
      value = value instanceof Long && isTimestamp(node) ? value : new BigDecimal(number.toString());
    }
    return (Comparable<Object>) value;
  }

  private static boolean isTimestamp(RexNode node) {
    return node.getType().getSqlTypeName() == SqlTypeName.TIMESTAMP;
  }

  private static String likeRegex(String pattern) {
    StringBuilder regex = new StringBuilder();
    for (char c : pattern.toCharArray()) {
      regex.append(c == '%' ? "(?s).*" : c == '_' ? "(?s)." : Pattern.quote(String.valueOf(c)));
    }
    return regex.toString();
  }
}
