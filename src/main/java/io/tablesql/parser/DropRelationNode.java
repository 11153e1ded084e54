package io.tablesql.parser;

import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/** DROP TABLE or DROP VIEW: [IF EXISTS] name [CASCADE | RESTRICT]. */
public abstract class DropRelationNode extends DropByNameNode {
  public final DropBehavior behavior;

  DropRelationNode(SqlOperator operator, SqlParserPos pos, boolean ifExists, SqlIdentifier name,
      DropBehavior behavior) {
    super(operator, pos, ifExists, name);
    this.behavior = behavior;
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    super.unparse(writer, leftPrec, rightPrec);
    behavior.unparse(writer);
  }
}
