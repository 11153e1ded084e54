package io.tablesql.parser;

import java.util.List;
import org.apache.calcite.sql.SqlCreate;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * CREATE MATERIALIZED VIEW [IF NOT EXISTS] name PRIMARY KEY (...) AS query: entities tablesql
 * keeps from one table's rows, under the view's own key.
 */
public final class CreateMaterializedViewNode extends SqlCreate {
  private static final SqlOperator OPERATOR = new SqlSpecialOperator("CREATE MATERIALIZED VIEW",
      SqlKind.CREATE_MATERIALIZED_VIEW);

  public final SqlIdentifier name;
  public final TableKeyNode key;
  public final SqlNode query;

  CreateMaterializedViewNode(SqlParserPos pos, boolean replace, boolean ifNotExists, SqlIdentifier name,
      TableKeyNode key, SqlNode query) {
    super(OPERATOR, pos, replace, ifNotExists);
    this.name = name;
    this.key = key != null ? key : TableKeyNode.ofGroups(pos, query);
    this.query = query;
  }

  @Override
  public List<SqlNode> getOperandList() {
    return java.util.Arrays.asList(name, key, query);
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword(getReplace() ? "CREATE OR REPLACE MATERIALIZED VIEW" : "CREATE MATERIALIZED VIEW");
    if (ifNotExists) {
      writer.keyword("IF NOT EXISTS");
    }
    name.unparse(writer, 0, 0);
    if (key != null) {
      key.unparse(writer, 0, 0);
    }
    writer.keyword("AS");
    writer.newlineAndIndent();
    query.unparse(writer, 0, 0);
  }
}
