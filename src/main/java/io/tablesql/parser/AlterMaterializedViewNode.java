package io.tablesql.parser;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.parser.SqlParserPos;

/** ALTER MATERIALIZED VIEW name VERIFY | REBUILD. */
public final class AlterMaterializedViewNode extends VerifyOrRebuildNode {
  AlterMaterializedViewNode(SqlParserPos pos, SqlIdentifier name, boolean rebuild) {
    super(new SqlSpecialOperator("ALTER MATERIALIZED VIEW", SqlKind.ALTER_MATERIALIZED_VIEW), pos, name, rebuild);
  }
}
