package io.tablesql.prepare;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlRowTypeNameSpec;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * Set-returning functions of an array in a select list, as pgjdbc's {@code DatabaseMetaData}
 * ({@code SELECT (information_schema._pg_expandarray(i.indkey)).n AS KEY_SEQ,
 * information_schema._pg_expandarray(i.indkey) AS KEYS FROM pg_index i ...}) and SQLAlchemy
 * ({@code SELECT unnest(ix.indkey) attnum, generate_subscripts(ix.indkey, 1) ord FROM pg_index ix})
 * write them: PostgreSQL makes one row per element, and calls of one array advance together.
 * Calcite has table functions only in FROM, so the select becomes {@code ... FROM pg_index i CROSS
 * JOIN LATERAL TABLE(_pg_expandarray(i.indkey)) AS "$expanded"(x, n)}: {@code unnest} is the
 * element {@code x}, {@code generate_subscripts} its position {@code n}, a field of
 * {@code _pg_expandarray} that column, and {@code _pg_expandarray} itself the composite value, a
 * {@code ROW(x, n)} (so that an outer {@code (KEYS).x} finds its field). Selects whose calls expand
 * different arrays are left to fail as before.
 */
final class SelectListSetFunctions {
  private static final String FUNCTION = "_pg_expandarray";
  private static final String UNNEST = "unnest";
  private static final String SUBSCRIPTS = "generate_subscripts";
  private static final String ALIAS = "$expanded";
  private static final List<String> FIELDS = List.of("x", "n");

  private SelectListSetFunctions() {
  }

  /** Rewrites {@code select} if its select list calls {@code _pg_expandarray} of one argument. */
  static void rewrite(SqlSelect select) {
    List<SqlCall> calls = new ArrayList<>();
    select.getSelectList().accept(new SqlShuttle() {
      @Override
      public SqlNode visit(SqlCall call) {
        if (isExpansion(call)) {
          calls.add(call);
          return call;
        }
        return super.visit(call);
      }
    });
    if (calls.isEmpty() || calls.stream().anyMatch(call -> call.operandCount() != (named(call, SUBSCRIPTS) ? 2 : 1)
        || !call.operand(0).equalsDeep(calls.get(0).operand(0), org.apache.calcite.util.Litmus.IGNORE))) {
      return;
    }
    SqlParserPos pos = select.getParserPosition();
    SqlNodeList items = new SqlNodeList(pos);
    for (SqlNode item : select.getSelectList()) {
      items.add(item.accept(new Replacer(pos)));
    }
    select.setSelectList(items);
    SqlNode function = new SqlUnresolvedFunction(new SqlIdentifier(List.of("pg_catalog", FUNCTION), pos), null, null,
        null, null, SqlFunctionCategory.USER_DEFINED_TABLE_FUNCTION).createCall(pos, (SqlNode) calls.get(0).operand(0));
    SqlNode lateral = SqlStdOperatorTable.LATERAL.createCall(pos,
        SqlStdOperatorTable.COLLECTION_TABLE.createCall(pos, function));
    SqlNode expanded = SqlStdOperatorTable.AS.createCall(pos, lateral, new SqlIdentifier(ALIAS, pos),
        new SqlIdentifier(FIELDS.get(0), pos), new SqlIdentifier(FIELDS.get(1), pos));
    select.setFrom(select.getFrom() == null ? expanded : new SqlJoin(pos, select.getFrom(),
        SqlLiteral.createBoolean(false, pos), JoinType.CROSS.symbol(pos), expanded,
        JoinConditionType.NONE.symbol(pos), null));
  }

  private static boolean isExpansion(SqlCall call) {
    return named(call, FUNCTION) || named(call, UNNEST) || named(call, SUBSCRIPTS);
  }

  private static boolean named(SqlCall call, String name) {
    return call.getOperator() instanceof SqlFunction function && function.getName().equalsIgnoreCase(name);
  }

  /** The select list with each call a column of the expansion, or its row. */
  private static final class Replacer extends SqlShuttle {
    private final SqlParserPos pos;

    Replacer(SqlParserPos pos) {
      this.pos = pos;
    }

    @Override
    public SqlNode visit(SqlCall call) {
      if (call.getKind() == SqlKind.DOT && call.operand(0) instanceof SqlCall target && named(target, FUNCTION)
          && call.operand(1) instanceof SqlIdentifier field && field.isSimple()
          && FIELDS.contains(field.getSimple().toLowerCase(java.util.Locale.ROOT))) {
        return column(field.getSimple().toLowerCase(java.util.Locale.ROOT));
      }
      if (named(call, UNNEST)) {
        return column(FIELDS.get(0));
      }
      if (named(call, SUBSCRIPTS)) {
        return column(FIELDS.get(1));
      }
      if (named(call, FUNCTION)) {
        SqlNode row = SqlStdOperatorTable.ROW.createCall(pos, column(FIELDS.get(0)), column(FIELDS.get(1)));
        SqlDataTypeSpec integer = new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.INTEGER, pos), pos);
        SqlRowTypeNameSpec type = new SqlRowTypeNameSpec(pos, List.of(new SqlIdentifier(FIELDS.get(0), pos),
            new SqlIdentifier(FIELDS.get(1), pos)), List.of(integer, integer));
        return SqlStdOperatorTable.CAST.createCall(pos, row, new SqlDataTypeSpec(type, pos));
      }
      return super.visit(call);
    }

    private SqlIdentifier column(String field) {
      return new SqlIdentifier(List.of(ALIAS, field), pos);
    }
  }
}
