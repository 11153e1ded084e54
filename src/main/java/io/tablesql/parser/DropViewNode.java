package io.tablesql.parser;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.parser.SqlParserPos;

/** DROP VIEW [IF EXISTS] name [CASCADE | RESTRICT]. */
public final class DropViewNode extends DropRelationNode {
  private static final SqlOperator OPERATOR = new SqlSpecialOperator("DROP VIEW", SqlKind.DROP_VIEW);

  DropViewNode(SqlParserPos pos, boolean ifExists, SqlIdentifier name, DropBehavior behavior) {
    super(OPERATOR, pos, ifExists, name, behavior);
  }
}
