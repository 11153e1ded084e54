package io.tablesql.prepare;

import java.util.Locale;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Labels for result columns without a name of their own as PostgreSQL gives them (its parser's
 * FigureColname), where Calcite would say {@code EXPR$0}: a function call is named after the
 * function ({@code count}), a CAST after what it converts or else its type, CASE {@code case},
 * anything else {@code ?column?}. Applied to a SELECT's list before validation, as aliases.
 */
final class PostgresLabels {
  private static final String UNNAMED = "?column?";

  private PostgresLabels() {
  }

  /** Gives each select item of {@code select} that has no name its PostgreSQL label, as an alias. */
  static void apply(SqlSelect select) {
    SqlNodeList items = select.getSelectList();
    for (int i = 0; i < items.size(); i++) {
      SqlNode item = items.get(i);
      if (item instanceof SqlIdentifier || item.getKind() == SqlKind.AS) {
        continue; // a column (or *) names itself; an alias is the name written
      }
      SqlParserPos pos = item.getParserPosition();
      items.set(i, SqlStdOperatorTable.AS.createCall(pos, item, new SqlIdentifier(label(item), pos)));
    }
  }

  private static String label(SqlNode node) {
    String name = nameOf(node);
    return name != null ? name : UNNAMED;
  }

  /** A name PostgreSQL would find for the expression; null where it would say ?column?. */
  private static String nameOf(SqlNode node) {
    if (node instanceof SqlIdentifier identifier) {
      return identifier.isStar() ? null : identifier.names.get(identifier.names.size() - 1);
    }
    if (!(node instanceof SqlCall call)) {
      return null;
    }
    if (call.getKind() == SqlKind.CAST && call.operandCount() == 2) {
      String converted = nameOf(call.operand(0));
      return converted != null ? converted : call.operand(1) instanceof SqlDataTypeSpec type
          ? type.getTypeName().getSimple().toLowerCase(Locale.ROOT) : null;
    }
    if (call.getKind() == SqlKind.CASE) {
      return "case";
    }
    if (call instanceof SqlBasicCall basic && basic.getOperator() instanceof SqlFunction function) {
      return function.getName().toLowerCase(Locale.ROOT);
    }
    return null;
  }
}
