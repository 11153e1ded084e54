package io.tablesql.parser;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;

/**
 * A table's PRIMARY KEY: its columns in key order, the number of leading ones that make up the
 * PartitionKey (the rest make up the RowKey), and each column's direction. Written
 * {@code PRIMARY KEY ((p1, p2), r1, r2 DESC)}, {@code PRIMARY KEY (a, b)} (the first column is the
 * PartitionKey) or {@code a INT PRIMARY KEY}.
 */
public final class TableKeyNode extends SqlCall {
  private static final SqlOperator OPERATOR = new SqlSpecialOperator("PRIMARY KEY", SqlKind.PRIMARY_KEY);

  /** The constraint's name, or null. */
  public final SqlIdentifier constraintName;
  public final List<SqlIdentifier> columns;
  public final List<Boolean> descending;
  public final int partitionColumns;
  /** Whether the partition columns were written in inner parentheses. */
  public final boolean partitionWritten;

  TableKeyNode(SqlParserPos pos, SqlIdentifier constraintName, List<SqlIdentifier> columns, List<Boolean> descending,
      int partitionColumns, boolean partitionWritten) {
    super(pos);
    this.constraintName = constraintName;
    this.columns = List.copyOf(columns);
    this.descending = List.copyOf(descending);
    this.partitionColumns = partitionColumns;
    this.partitionWritten = partitionWritten;
  }

  /** {@code column type PRIMARY KEY}: the column alone, ascending, as the PartitionKey. */
  static TableKeyNode ofColumn(SqlParserPos pos, SqlIdentifier column) {
    return new TableKeyNode(pos, null, List.of(column), List.of(false), 1, false);
  }

  /**
   * The key of a summary written without one: its GROUP BY columns, all of them the PartitionKey
   * (one partition per group); null if the query groups by no plain columns.
   */
  static TableKeyNode ofGroups(SqlParserPos pos, SqlNode query) {
    if (!(query instanceof SqlSelect select) || select.getGroup() == null
        || select.getGroup().isEmpty()) {
      return null;
    }
    List<SqlIdentifier> columns = new ArrayList<>();
    for (SqlNode group : select.getGroup()) {
      if (!(group instanceof SqlIdentifier column)) {
        return null;
      }
      columns.add(column);
    }
    return new TableKeyNode(pos, null, columns, Collections.nCopies(columns.size(), Boolean.FALSE), columns.size(), true);
  }

  /** The key's column names as written. */
  public List<String> columnNames() {
    List<String> names = new ArrayList<>();
    columns.forEach(column -> names.add(column.getSimple()));
    return names;
  }

  @Override
  public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override
  public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(constraintName, new SqlNodeList(columns, getParserPosition()));
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    if (constraintName != null) {
      writer.keyword("CONSTRAINT");
      constraintName.unparse(writer, 0, 0);
    }
    writer.keyword("PRIMARY KEY");
    SqlWriter.Frame frame = writer.startList("(", ")");
    for (int i = 0; i < columns.size(); i++) {
      if (i == 0 && partitionWritten) {
        writer.sep(",");
        SqlWriter.Frame partition = writer.startList("(", ")");
        for (int j = 0; j < partitionColumns; j++) {
          writer.sep(",");
          columns.get(j).unparse(writer, 0, 0);
        }
        writer.endList(partition);
        i = partitionColumns - 1;
        continue;
      }
      writer.sep(",");
      columns.get(i).unparse(writer, 0, 0);
      if (descending.get(i)) {
        writer.keyword("DESC");
      }
    }
    writer.endList(frame);
  }
}
