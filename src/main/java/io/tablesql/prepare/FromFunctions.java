package io.tablesql.prepare;

import java.util.List;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlTableFunction;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * PostgreSQL's functions in FROM that return one value, as Calcite runs them: in PostgreSQL such
 * a function is a one-row table whose column is named by its alias ({@code FROM
 * string_to_array(current_setting('search_path'), ',') s}, as Grafana's query editor writes it),
 * where Calcite takes any function in FROM for a table function. So, before validation, an aliased
 * call of one of Calcite's scalar functions (which the parser has resolved already) in FROM
 * becomes {@code (SELECT f(...)) AS s(s)}. Functions resolved at validation (the catalogs' and
 * {@code tablesql.suggest_tables}, a table function) and table functions are left alone.
 */
final class FromFunctions {

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
    if (!callsScalarFunction(as.operand(0))) {
      return from;
    }
    SqlParserPos pos = from.getParserPosition();
    // Calcite's rewrites do not reach into a table function's call: PostgreSQL's spellings are written out here
    SqlNode value = PostgresSpellings.rewrite(((SqlCall) as.operand(0)).operand(0));
    SqlNode row = new SqlSelect(pos, null, SqlNodeList.of(value), null, null, null, null, null, null, null, null, null);
    return SqlStdOperatorTable.AS.createCall(pos, List.of(row, alias, alias));
  }

  /** Whether {@code node} is {@code TABLE(f(...))}, as {@code FROM f(...)} parses, of one of Calcite's scalar functions. */
  private static boolean callsScalarFunction(SqlNode node) {
    return node.getKind() == SqlKind.COLLECTION_TABLE && node instanceof SqlCall table && table.operandCount() == 1
        && table.operand(0) instanceof SqlBasicCall call && call.getOperator() instanceof SqlFunction function
        && !(function instanceof SqlUnresolvedFunction) && !(function instanceof SqlTableFunction)
        && !function.getFunctionType().isTableFunction();
  }
}
