package io.tablesql.parser;

import java.util.List;
import org.apache.calcite.sql.SqlCreate;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;

/**
 * CREATE [UNIQUE] INDEX [IF NOT EXISTS] name ON table (column [ASC | DESC], ...)
 * [INCLUDE (column, ...)] [GLOBAL | LOCAL] [ROW KEY 'template']: with ROW KEY, the index adopts the
 * entities an application keeps under that RowKey template as its entries.
 */
public final class CreateIndexNode extends SqlCreate {
  private static final SqlOperator OPERATOR = new SqlSpecialOperator("CREATE INDEX", SqlKind.CREATE_INDEX);

  public final boolean unique;
  public final SqlIdentifier name;
  public final SqlIdentifier table;
  public final List<SqlIdentifier> columns;
  public final List<Boolean> descending;
  /** The INCLUDE list, or null. */
  public final SqlNodeList include;
  public final boolean local;
  /** The ROW KEY template of adopted entries, or null. */
  private final SqlNode rowKey;

  CreateIndexNode(SqlParserPos pos, boolean replace, boolean unique, boolean ifNotExists, SqlIdentifier name,
      SqlIdentifier table, List<SqlIdentifier> columns, List<Boolean> descending, SqlNodeList include, boolean local,
      SqlNode rowKey) {
    super(OPERATOR, pos, replace, ifNotExists);
    this.unique = unique;
    this.name = name;
    this.table = table;
    this.columns = List.copyOf(columns);
    this.descending = List.copyOf(descending);
    this.include = include;
    this.local = local;
    this.rowKey = rowKey;
  }

  /** The ROW KEY template of the entries an application keeps, to adopt; null for tablesql's own entries. */
  public String rowKeyTemplate() {
    return rowKey == null ? null : ((org.apache.calcite.sql.SqlLiteral) rowKey).getValueAs(String.class);
  }

  @Override
  public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(name, table, new SqlNodeList(columns, getParserPosition()), include, rowKey);
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword(unique ? "CREATE UNIQUE INDEX" : "CREATE INDEX");
    if (ifNotExists) {
      writer.keyword("IF NOT EXISTS");
    }
    name.unparse(writer, 0, 0);
    writer.keyword("ON");
    table.unparse(writer, 0, 0);
    SqlWriter.Frame frame = writer.startList("(", ")");
    for (int i = 0; i < columns.size(); i++) {
      writer.sep(",");
      columns.get(i).unparse(writer, 0, 0);
      if (descending.get(i)) {
        writer.keyword("DESC");
      }
    }
    writer.endList(frame);
    if (include != null) {
      Unparse.keywordAndList(writer, "INCLUDE", include);
    }
    writer.keyword(local ? "LOCAL" : "GLOBAL");
    if (rowKey != null) {
      writer.keyword("ROW KEY");
      rowKey.unparse(writer, 0, 0);
    }
  }
}
