package io.tablesql.prepare;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * PostgreSQL's functions in FROM that return one value, as Calcite runs them: in PostgreSQL such
 * a function is a one-row table whose column is named by its alias ({@code FROM
 * string_to_array(current_setting('search_path'), ',') s}, as Grafana's query editor writes it),
 * where Calcite takes any function in FROM for a table function. So, before validation, an aliased
 * function in FROM becomes {@code (SELECT f(...)) AS s(s)}. Calcite's own table functions
 * ({@code TUMBLE}, ...) are left alone; tablesql has no set-returning functions.
 */
final class FromFunctions {
  /** Calcite's table functions, which are written with TABLE(...) and name their own columns. */
  private static final Set<String> CALCITE_TABLE_FUNCTIONS = Set.of("tumble", "hop", "session", "ramp", "dedup");

  private FromFunctions() {
  }

  /** Rewrites the functions in {@code select}'s FROM. */
  static void rewrite(SqlSelect select) {
    if (select.getFrom() != null) {
      select.setFrom(item(select.getFrom()));
    }
  }

  private static SqlNode item(SqlNode from) {
    if (from instanceof SqlJoin join) {
      join.setLeft(item(join.getLeft()));
      join.setRight(item(join.getRight()));
      return join;
    }
    if (from.getKind() != SqlKind.AS || !(from instanceof SqlCall as) || as.operandCount() != 2
        || !(as.operand(1) instanceof SqlIdentifier alias)) {
      return from; // not aliased, or its columns named already
    }
    String name = functionName(as.operand(0));
    if (name == null || CALCITE_TABLE_FUNCTIONS.contains(name)) {
      return from;
    }
    SqlParserPos pos = from.getParserPosition();
    SqlNode value = ((SqlCall) as.operand(0)).operand(0);
    SqlNode row = new SqlSelect(pos, null, SqlNodeList.of(value), null, null, null, null, null, null, null, null, null);
    return SqlStdOperatorTable.AS.createCall(pos, List.of(row, alias, alias));
  }

  /** The name of the function {@code node} calls in FROM ({@code TABLE(f(...))}, as {@code FROM f(...)} parses), lower case; else null. */
  private static String functionName(SqlNode node) {
    if (node.getKind() != SqlKind.COLLECTION_TABLE || !(node instanceof SqlCall table) || table.operandCount() != 1
        || !(table.operand(0) instanceof SqlBasicCall call) || !(call.getOperator() instanceof SqlFunction function)) {
      return null;
    }
    // a function of the catalogs is unresolved until validation; one of Calcite's libraries is resolved by the parser
    SqlIdentifier name = function.getSqlIdentifier();
    return (name == null ? function.getName() : name.names.get(name.names.size() - 1)).toLowerCase(Locale.ROOT);
  }
}
