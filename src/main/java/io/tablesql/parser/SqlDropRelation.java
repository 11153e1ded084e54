package io.tablesql.parser;

import java.util.List;
import org.apache.calcite.sql.SqlDrop;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/** DROP TABLE or DROP VIEW: [IF EXISTS] name [CASCADE | RESTRICT]. */
public abstract class SqlDropRelation extends SqlDrop {
  public final SqlIdentifier name;
  public final DropBehavior behavior;

  SqlDropRelation(SqlOperator operator, SqlParserPos pos, boolean ifExists, SqlIdentifier name,
      DropBehavior behavior) {
    super(operator, pos, ifExists);
    this.name = name;
    this.behavior = behavior;
  }

  @Override
  public List<SqlNode> getOperandList() {
    return List.of(name);
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword(getOperator().getName());
    if (ifExists) {
      writer.keyword("IF EXISTS");
    }
    name.unparse(writer, leftPrec, rightPrec);
    behavior.unparse(writer);
  }
}
