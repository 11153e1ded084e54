package io.tablesql.parser;

import java.util.List;
import org.apache.calcite.sql.SqlDdl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/** ALTER INDEX name VERIFY | REBUILD. */
public final class SqlAlterIndex extends SqlDdl {
  private static final SqlOperator OPERATOR = new SqlSpecialOperator("ALTER INDEX", SqlKind.ALTER_INDEX);

  public final SqlIdentifier name;
  /** REBUILD (true) or VERIFY (false). */
  public final boolean rebuild;

  SqlAlterIndex(SqlParserPos pos, SqlIdentifier name, boolean rebuild) {
    super(OPERATOR, pos);
    this.name = name;
    this.rebuild = rebuild;
  }

  @Override
  public List<SqlNode> getOperandList() {
    return List.of(name);
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("ALTER INDEX");
    name.unparse(writer, leftPrec, rightPrec);
    writer.keyword(rebuild ? "REBUILD" : "VERIFY");
  }
}
