package io.tablesql.parser;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.parser.SqlParserPos;

/** DROP INDEX [IF EXISTS] name. */
public final class DropIndexNode extends DropByNameNode {
  DropIndexNode(SqlParserPos pos, boolean ifExists, SqlIdentifier name) {
    super(new SqlSpecialOperator("DROP INDEX", SqlKind.DROP_INDEX), pos, ifExists, name);
  }
}
