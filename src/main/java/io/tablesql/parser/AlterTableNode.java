package io.tablesql.parser;

import java.util.List;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlDdl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.ddl.SqlColumnDeclaration;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;

/**
 * ALTER TABLE name ADD [COLUMN] column (with its constraints, which follow the column), ALTER
 * TABLE name DROP [COLUMN] column [CASCADE | RESTRICT], ALTER TABLE name ALTER [COLUMN] column
 * [SET DATA] TYPE type (a column of text or binary widened to hold long values), or ALTER TABLE
 * name VERIFY (removes the blobs of long values no row names).
 */
public final class AlterTableNode extends SqlDdl {
  private static final SqlOperator OPERATOR = new SqlSpecialOperator("ALTER TABLE", SqlKind.ALTER_TABLE);

  public final SqlIdentifier table;
  /** ADD COLUMN: the column declared, then any PRIMARY KEY or UNIQUE it carries; empty for DROP. */
  public final List<SqlNode> added;
  /** DROP COLUMN: the column, or null for ADD. */
  public final SqlIdentifier dropped;
  public final DropBehavior behavior;
  /** VERIFY: neither adds nor drops. */
  public final boolean verify;
  /** ALTER COLUMN ... TYPE: the column, or null. */
  public final SqlIdentifier altered;
  /** ALTER COLUMN ... TYPE: its new type, or null. */
  public final SqlDataTypeSpec type;

  private AlterTableNode(SqlParserPos pos, SqlIdentifier table, List<SqlNode> added, SqlIdentifier dropped,
      DropBehavior behavior, boolean verify, SqlIdentifier altered, SqlDataTypeSpec type) {
    super(OPERATOR, pos);
    this.table = table;
    this.added = List.copyOf(added);
    this.dropped = dropped;
    this.behavior = behavior;
    this.verify = verify;
    this.altered = altered;
    this.type = type;
  }

  static AlterTableNode alterColumnType(SqlParserPos pos, SqlIdentifier table, SqlIdentifier column,
      SqlDataTypeSpec type) {
    return new AlterTableNode(pos, table, List.of(), null, DropBehavior.UNSPECIFIED, false, column, type);
  }

  static AlterTableNode verify(SqlParserPos pos, SqlIdentifier table) {
    return new AlterTableNode(pos, table, List.of(), null, DropBehavior.UNSPECIFIED, true, null, null);
  }

  static AlterTableNode addColumn(SqlParserPos pos, SqlIdentifier table, List<SqlNode> declared) {
    return new AlterTableNode(pos, table, declared, null, DropBehavior.UNSPECIFIED, false, null, null);
  }

  static AlterTableNode dropColumn(SqlParserPos pos, SqlIdentifier table, SqlIdentifier column,
      DropBehavior behavior) {
    return new AlterTableNode(pos, table, List.of(), column, behavior, false, null, null);
  }

  /** The column ADD COLUMN declares, or null for the others. */
  public SqlColumnDeclaration addedColumn() {
    return added.isEmpty() ? null : (SqlColumnDeclaration) added.get(0);
  }

  @Override
  public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(table, dropped);
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("ALTER TABLE");
    table.unparse(writer, 0, 0);
    if (verify) {
      writer.keyword("VERIFY");
    } else if (altered != null) {
      writer.keyword("ALTER COLUMN");
      altered.unparse(writer, 0, 0);
      writer.keyword("TYPE");
      type.unparse(writer, 0, 0);
    } else if (dropped != null) {
      writer.keyword("DROP COLUMN");
      dropped.unparse(writer, 0, 0);
      behavior.unparse(writer);
    } else {
      writer.keyword("ADD COLUMN");
      added.get(0).unparse(writer, 0, 0);
    }
  }
}
