package io.tablesql.prepare;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.validate.SqlValidatorUtil;

/**
 * Unique column names for a UNION (INTERSECT, EXCEPT) that is ordered or limited. Calcite validates
 * {@code a UNION b ORDER BY 1} as {@code SELECT * FROM (a UNION b) ORDER BY 1}, and that star finds
 * two columns of one name ambiguous, where PostgreSQL (and psql's {@code SELECT pubname, NULL, NULL
 * ... UNION ... ORDER BY 1}) allows them. The first branch names the columns, so a repeated name
 * there becomes unique ({@code ?column?0}), as Calcite makes the names it derives.
 */
final class SetOperationLabels {
  /** The first branches of the ordered set operations met, until each is rewritten. */
  private final Set<SqlSelect> orderedFirstBranches = Collections.newSetFromMap(new IdentityHashMap<>());

  void markOrdered(SqlOrderBy orderBy) {
    SqlNode query = orderBy.query;
    if (!query.getKind().belongsTo(SqlKind.SET_QUERY)) {
      return;
    }
    while (query.getKind().belongsTo(SqlKind.SET_QUERY)) {
      query = ((SqlCall) query).operand(0);
    }
    if (query instanceof SqlSelect first) {
      orderedFirstBranches.add(first);
    }
  }

  void uniquifyIfOrdered(SqlSelect select) {
    if (!orderedFirstBranches.remove(select)) {
      return;
    }
    SqlNodeList items = select.getSelectList();
    List<String> names = new ArrayList<>();
    for (SqlNode item : items) {
      if (item instanceof SqlIdentifier identifier && identifier.isStar()) {
        return; // the star's columns are not known here
      }
      String name = SqlValidatorUtil.alias(item);
      names.add(name == null ? "EXPR$" + names.size() : name);
    }
    List<String> unique = SqlValidatorUtil.uniquify(names, false);
    for (int i = 0; i < items.size(); i++) {
      if (!unique.get(i).equals(names.get(i))) {
        SqlNode item = items.get(i);
        SqlNode value = item.getKind() == SqlKind.AS ? ((SqlCall) item).operand(0) : item;
        SqlParserPos pos = item.getParserPosition();
        items.set(i, SqlStdOperatorTable.AS.createCall(pos, value, new SqlIdentifier(unique.get(i), pos)));
      }
    }
  }
}
