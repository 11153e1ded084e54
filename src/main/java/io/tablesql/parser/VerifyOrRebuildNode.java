package io.tablesql.parser;

import java.util.List;
import org.apache.calcite.sql.SqlDdl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/** ALTER (INDEX | MATERIALIZED VIEW) name VERIFY | REBUILD: derived data checked against its table. */
public abstract class VerifyOrRebuildNode extends SqlDdl {
  public final SqlIdentifier name;
  /** REBUILD (true) or VERIFY (false). */
  public final boolean rebuild;

  VerifyOrRebuildNode(SqlOperator operator, SqlParserPos pos, SqlIdentifier name, boolean rebuild) {
    super(operator, pos);
    this.name = name;
    this.rebuild = rebuild;
  }

  @Override
  public List<SqlNode> getOperandList() {
    return List.of(name);
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword(getOperator().getName());
    name.unparse(writer, leftPrec, rightPrec);
    writer.keyword(rebuild ? "REBUILD" : "VERIFY");
  }
}
