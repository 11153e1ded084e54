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
 * [INCLUDE (column, ...)] [GLOBAL | LOCAL].
 */
public final class SqlCreateIndex extends SqlCreate {
  private static final SqlOperator OPERATOR = new SqlSpecialOperator("CREATE INDEX", SqlKind.CREATE_INDEX);

  public final boolean unique;
  public final SqlIdentifier name;
  public final SqlIdentifier table;
  public final List<SqlIdentifier> columns;
  public final List<Boolean> descending;
  /** The INCLUDE list, or null. */
  public final SqlNodeList include;
  public final boolean local;

  SqlCreateIndex(SqlParserPos pos, boolean replace, boolean unique, boolean ifNotExists, SqlIdentifier name,
      SqlIdentifier table, List<SqlIdentifier> columns, List<Boolean> descending, SqlNodeList include, boolean local) {
    super(OPERATOR, pos, replace, ifNotExists);
    this.unique = unique;
    this.name = name;
    this.table = table;
    this.columns = List.copyOf(columns);
    this.descending = List.copyOf(descending);
    this.include = include;
    this.local = local;
  }

  @Override
  public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(name, table, new SqlNodeList(columns, getParserPosition()), include);
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
      writer.keyword("INCLUDE");
      SqlWriter.Frame included = writer.startList("(", ")");
      for (SqlNode column : include) {
        writer.sep(",");
        column.unparse(writer, 0, 0);
      }
      writer.endList(included);
    }
    writer.keyword(local ? "LOCAL" : "GLOBAL");
  }
}
