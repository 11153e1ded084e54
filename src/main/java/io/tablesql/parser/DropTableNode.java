package io.tablesql.parser;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.parser.SqlParserPos;

/** DROP TABLE [IF EXISTS] name [CASCADE | RESTRICT]. */
public final class DropTableNode extends DropRelationNode {
  private static final SqlOperator OPERATOR = new SqlSpecialOperator("DROP TABLE", SqlKind.DROP_TABLE);

  DropTableNode(SqlParserPos pos, boolean ifExists, SqlIdentifier name, DropBehavior behavior) {
    super(OPERATOR, pos, ifExists, name, behavior);
  }
}
