package io.tablesql.parser;

import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * {@code column type REFERENCES BLOB} in a table mapped over existing data: the column's property
 * holds the name of a blob the application wrote (the design guide's large-entities pattern), and
 * the column reads the blob's content. Added after its column, as its constraints are.
 */
public final class BlobReferenceNode extends SqlCall {
  private static final SqlOperator OPERATOR = new SqlSpecialOperator("REFERENCES BLOB", SqlKind.OTHER);

  public final SqlIdentifier column;
  /** What follows REFERENCES: BLOB, or a table (a foreign key, which the statement refuses). */
  public final SqlIdentifier referenced;

  BlobReferenceNode(SqlParserPos pos, SqlIdentifier column, SqlIdentifier referenced) {
    super(pos);
    this.column = column;
    this.referenced = referenced;
  }

  /** Whether it references a blob, not a table. */
  public boolean referencesBlob() {
    return referenced.isSimple() && referenced.getSimple().equalsIgnoreCase("BLOB");
  }

  @Override
  public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override
  public List<SqlNode> getOperandList() {
    return List.of(column);
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("REFERENCES BLOB");
  }
}
