package io.tablesql.parser;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlCreate;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.ddl.SqlCheckConstraint;
import org.apache.calcite.sql.ddl.SqlColumnDeclaration;
import org.apache.calcite.sql.ddl.SqlKeyConstraint;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;

/**
 * CREATE TABLE: its columns ({@link SqlColumnDeclaration}), its PRIMARY KEY ({@link TableKeyNode}),
 * UNIQUE ({@link SqlKeyConstraint}) and CHECK constraints, in the order written (a column's own
 * PRIMARY KEY or UNIQUE right after it), the mapping over an existing Azure table, and the query of
 * CREATE TABLE AS.
 */
public final class CreateTableNode extends SqlCreate {
  private static final SqlOperator OPERATOR = new SqlSpecialOperator("CREATE TABLE", SqlKind.CREATE_TABLE);

  public final SqlIdentifier name;
  public final SqlNodeList elements;
  /** The OVER clause, or null. */
  public final TableMappingNode mapping;
  /** The query of CREATE TABLE ... AS, or null. */
  public final SqlNode query;

  CreateTableNode(SqlParserPos pos, boolean replace, boolean ifNotExists, SqlIdentifier name, SqlNodeList elements,
      TableMappingNode mapping, SqlNode query) {
    super(OPERATOR, pos, replace, ifNotExists);
    this.name = name;
    this.elements = elements;
    this.mapping = mapping;
    this.query = query;
  }

  public List<SqlColumnDeclaration> columns() {
    return elementsOf(SqlColumnDeclaration.class);
  }

  /** The columns declared {@code REFERENCES BLOB} (or REFERENCES another thing, refused where it runs). */
  public List<BlobReferenceNode> blobReferences() {
    return elementsOf(BlobReferenceNode.class);
  }

  /** The PRIMARY KEY clauses (a table may have one; more are refused where it runs). */
  public List<TableKeyNode> primaryKeys() {
    return elementsOf(TableKeyNode.class);
  }

  public List<SqlKeyConstraint> uniqueConstraints() {
    return elementsOf(SqlKeyConstraint.class);
  }

  public List<SqlCheckConstraint> checkConstraints() {
    return elementsOf(SqlCheckConstraint.class);
  }

  private <T> List<T> elementsOf(Class<T> type) {
    List<T> found = new ArrayList<>();
    for (SqlNode element : elements) {
      if (type.isInstance(element)) {
        found.add(type.cast(element));
      }
    }
    return found;
  }

  @Override
  public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(name, elements, mapping, query);
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword(getReplace() ? "CREATE OR REPLACE TABLE" : "CREATE TABLE");
    if (ifNotExists) {
      writer.keyword("IF NOT EXISTS");
    }
    name.unparse(writer, leftPrec, rightPrec);
    if (!elements.isEmpty()) {
      SqlWriter.Frame frame = writer.startList("(", ")");
      for (SqlNode element : elements) {
        writer.sep(",");
        element.unparse(writer, 0, 0);
      }
      writer.endList(frame);
    }
    if (mapping != null) {
      mapping.unparse(writer, 0, 0);
    }
    if (query != null) {
      writer.keyword("AS");
      writer.newlineAndIndent();
      query.unparse(writer, 0, 0);
    }
  }
}
