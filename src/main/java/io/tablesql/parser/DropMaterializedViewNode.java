package io.tablesql.parser;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.parser.SqlParserPos;

/** DROP MATERIALIZED VIEW [IF EXISTS] name. */
public final class DropMaterializedViewNode extends DropByNameNode {
  DropMaterializedViewNode(SqlParserPos pos, boolean ifExists, SqlIdentifier name) {
    super(new SqlSpecialOperator("DROP MATERIALIZED VIEW", SqlKind.DROP_MATERIALIZED_VIEW), pos, ifExists, name);
  }
}
