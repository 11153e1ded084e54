package io.tablesql.prepare;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlRowTypeNameSpec;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlShuttle;
import org.apache.calcite.util.Litmus;

/**
 * Set-returning functions of an array in a select list, as pgjdbc's {@code DatabaseMetaData}
 * ({@code SELECT (information_schema._pg_expandarray(i.indkey)).n AS KEY_SEQ,
 * information_schema._pg_expandarray(i.indkey) AS KEYS FROM pg_index i ...}) and SQLAlchemy
 * ({@code SELECT unnest(ix.indkey) attnum, generate_subscripts(ix.indkey, 1) ord FROM pg_index ix})
 * write them: PostgreSQL makes one row per element, and calls of one array advance together.
 * Calcite has set-returning functions only in FROM, so the select becomes {@code ... FROM pg_index
 * i CROSS JOIN UNNEST(i.indkey) WITH ORDINALITY AS "$expanded"("$element", "$position")}:
 * {@code unnest} is the element, {@code generate_subscripts} its position, a field of
 * {@code _pg_expandarray} that column ({@code x}, {@code n}), and {@code _pg_expandarray} itself
 * the composite value, a {@code ROW(x, n)} (so that an outer {@code (KEYS).x} finds its field).
 * Left as written (to fail as before): calls of different arrays, and selects where PostgreSQL
 * would expand after something the rewrite would put after it (grouping, aggregates, windows) or
 * that name every column ({@code *}, which would take the expansion's columns too).
 */
final class SelectListSetFunctions {
  private static final String EXPAND = "_pg_expandarray";
  private static final String UNNEST = "unnest";
  private static final String SUBSCRIPTS = "generate_subscripts";
  private static final String ALIAS = "$expanded";
  private static final String ELEMENT = "$element";
  private static final String POSITION = "$position";

  private SelectListSetFunctions() {
  }

  /** Rewrites {@code select} if its select list expands one array. */
  static void rewrite(SqlSelect select) {
    List<SqlCall> calls = new ArrayList<>();
    boolean[] blocked = {select.getGroup() != null || select.getHaving() != null
        || (select.getWindowList() != null && !select.getWindowList().isEmpty())};
    select.getSelectList().accept(new SqlShuttle() {
      @Override
      public SqlNode visit(SqlIdentifier id) {
        blocked[0] |= id.isStar();
        return id;
      }

      @Override
      public SqlNode visit(SqlCall call) {
        if (call instanceof SqlSelect) {
          return call; // a sub-query's select list is its own
        }
        blocked[0] |= call.getKind() == SqlKind.OVER || call.getOperator().isAggregator();
        if (isExpansion(call)) {
          calls.add(call);
          return call;
        }
        return super.visit(call);
      }
    });
    if (calls.isEmpty() || blocked[0] || calls.stream().anyMatch(call -> call.operandCount() != (named(call, SUBSCRIPTS) ? 2 : 1)
        || !call.operand(0).equalsDeep(calls.get(0).operand(0), Litmus.IGNORE))) {
      return;
    }
    SqlParserPos pos = select.getParserPosition();
    SqlNodeList items = new SqlNodeList(pos);
    for (SqlNode item : select.getSelectList()) {
      items.add(item.accept(new Replacer(pos)));
    }
    select.setSelectList(items);
    // written out again: a function of the array that Calcite's rewrites resolved after PostgresSpellings saw
    // it (string_to_array of a literal) is only now of the kind PostgresSpellings rewrites
    SqlNode array = PostgresSpellings.rewrite(calls.get(0).operand(0));
    SqlNode unnest = SqlStdOperatorTable.UNNEST_WITH_ORDINALITY.createCall(pos, array);
    SqlNode expanded = SqlStdOperatorTable.AS.createCall(pos, unnest, new SqlIdentifier(ALIAS, pos),
        new SqlIdentifier(ELEMENT, pos), new SqlIdentifier(POSITION, pos));
    select.setFrom(select.getFrom() == null ? expanded : new SqlJoin(pos, select.getFrom(),
        SqlLiteral.createBoolean(false, pos), JoinType.CROSS.symbol(pos), expanded,
        JoinConditionType.NONE.symbol(pos), null));
  }

  private static boolean isExpansion(SqlCall call) {
    return named(call, EXPAND) || named(call, UNNEST) || named(call, SUBSCRIPTS);
  }

  private static boolean named(SqlCall call, String name) {
    return call.getOperator() instanceof SqlFunction function && function.getName().equalsIgnoreCase(name);
  }

  private static SqlIdentifier column(String name, SqlParserPos pos) {
    return new SqlIdentifier(List.of(ALIAS, name), pos);
  }

  /** The select list with each call a column of the expansion, or its row. */
  private static final class Replacer extends SqlShuttle {
    private final SqlParserPos pos;

    Replacer(SqlParserPos pos) {
      this.pos = pos;
    }

    @Override
    public SqlNode visit(SqlCall call) {
      if (call instanceof SqlSelect) {
        return call;
      }
      if (call.getKind() == SqlKind.DOT && call.operand(0) instanceof SqlCall target && named(target, EXPAND)
          && call.operand(1) instanceof SqlIdentifier field && field.isSimple()) {
        String name = field.getSimple().toLowerCase(Locale.ROOT);
        if (name.equals("x") || name.equals("n")) {
          return column(name.equals("x") ? ELEMENT : POSITION, pos);
        }
      }
      if (named(call, UNNEST)) {
        return column(ELEMENT, pos);
      }
      if (named(call, SUBSCRIPTS)) {
        return column(POSITION, pos);
      }
      if (named(call, EXPAND)) {
        SqlNode row = SqlStdOperatorTable.ROW.createCall(pos, column(ELEMENT, pos), column(POSITION, pos));
        SqlDataTypeSpec integer = new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.INTEGER, pos), pos);
        SqlRowTypeNameSpec type = new SqlRowTypeNameSpec(pos, List.of(new SqlIdentifier("x", pos),
            new SqlIdentifier("n", pos)), List.of(integer, integer));
        return SqlStdOperatorTable.CAST.createCall(pos, row, new SqlDataTypeSpec(type, pos));
      }
      return super.visit(call);
    }
  }
}
