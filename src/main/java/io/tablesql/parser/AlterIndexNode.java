package io.tablesql.parser;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.parser.SqlParserPos;

/** ALTER INDEX name VERIFY | REBUILD. */
public final class AlterIndexNode extends VerifyOrRebuildNode {
  AlterIndexNode(SqlParserPos pos, SqlIdentifier name, boolean rebuild) {
    super(new SqlSpecialOperator("ALTER INDEX", SqlKind.ALTER_INDEX), pos, name, rebuild);
  }
}
