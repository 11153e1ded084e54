package io.tablesql.prepare;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Labels of columns named in another case than stored, as stored: names match regardless of case,
 * so {@code SELECT entitytype} reads the property {@code EntityType} and is labelled so, as a
 * declared column is. Only Calcite's own labels change (the alias it adds to an expanded column,
 * at no position in the text): an alias written in the statement ({@code AS "NAME"}) is kept.
 */
final class StoredCaseLabels {
  private StoredCaseLabels() {
  }

  /** The validated row type of {@code select} with such labels as stored; its select list's aliases too. */
  static RelDataType apply(SqlSelect select, RelDataType rowType, RelDataTypeFactory types) {
    List<SqlNode> items = select.getSelectList().getList();
    if (items.size() != rowType.getFieldCount()) {
      return rowType;
    }
    List<String> names = new ArrayList<>(rowType.getFieldNames());
    boolean changed = false;
    for (int i = 0; i < items.size(); i++) {
      if (items.get(i) instanceof SqlCall as && as.getKind() == SqlKind.AS && as.operandCount() == 2
          && as.operand(0) instanceof SqlIdentifier column && !column.isStar()
          && as.operand(1) instanceof SqlIdentifier alias && alias.getParserPosition().equals(SqlParserPos.ZERO)) {
        String stored = column.names.get(column.names.size() - 1);
        String label = alias.getSimple();
        if (!stored.equals(label) && stored.equalsIgnoreCase(label) && !names.contains(stored)) {
          as.setOperand(1, new SqlIdentifier(stored, SqlParserPos.ZERO));
          names.set(i, stored);
          changed = true;
        }
      }
    }
    if (!changed) {
      return rowType;
    }
    return types.createStructType(rowType.getFieldList().stream().map(RelDataTypeField::getType).toList(), names);
  }
}
