package io.tablesql.parser;

import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSpecialOperator;
import org.apache.calcite.sql.SqlWriter;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.util.ImmutableNullableList;

/**
 * The clause that maps a table over an existing Azure table: {@code OVER Employees PARTITION KEY
 * '{Department}' ROW KEY 'empid_{EmployeeId:6}' WHERE EntityType = 'Employee'}.
 */
public final class TableMappingNode extends SqlCall {
  private static final SqlOperator OPERATOR = new SqlSpecialOperator("OVER", SqlKind.OTHER);

  public final SqlIdentifier table;
  private final SqlNode partitionKey;
  private final SqlNode rowKey;
  private final SqlNodeList keyProperties;
  private final SqlIdentifier property;
  private final SqlNode value;

  TableMappingNode(SqlParserPos pos, SqlIdentifier table, SqlNode partitionKey, SqlNode rowKey,
      SqlNodeList keyProperties, SqlIdentifier property, SqlNode value) {
    super(pos);
    this.table = table;
    this.partitionKey = partitionKey;
    this.rowKey = rowKey;
    this.keyProperties = keyProperties;
    this.property = property;
    this.value = value;
  }

  /** The Azure table's name, as written. */
  public String tableName() {
    return table.getSimple();
  }

  /** The PARTITION KEY template, or null if not given. */
  public String partitionKeyTemplate() {
    return text(partitionKey);
  }

  /** The ROW KEY template, or null if not given. */
  public String rowKeyTemplate() {
    return text(rowKey);
  }

  /** The key fields the entities also hold as properties of their names (KEY PROPERTIES), as written. */
  public List<String> keyProperties() {
    return keyProperties.stream().map(node -> ((SqlIdentifier) node).getSimple()).toList();
  }

  /** The discriminator's property, or null without a WHERE. */
  public String property() {
    return property == null ? null : property.getSimple();
  }

  /** The discriminator's value, or null without a WHERE. */
  public String value() {
    return text(value);
  }

  private static String text(SqlNode literal) {
    return literal == null ? null : ((SqlLiteral) literal).getValueAs(String.class);
  }

  @Override
  public SqlOperator getOperator() {
    return OPERATOR;
  }

  @Override
  public List<SqlNode> getOperandList() {
    return ImmutableNullableList.of(table, partitionKey, rowKey, keyProperties, property, value);
  }

  @Override
  public void unparse(SqlWriter writer, int leftPrec, int rightPrec) {
    writer.keyword("OVER");
    table.unparse(writer, 0, 0);
    if (partitionKey != null) {
      writer.keyword("PARTITION KEY");
      partitionKey.unparse(writer, 0, 0);
    }
    if (rowKey != null) {
      writer.keyword("ROW KEY");
      rowKey.unparse(writer, 0, 0);
    }
    if (!keyProperties.isEmpty()) {
      Unparse.keywordAndList(writer, "KEY PROPERTIES", keyProperties);
    }
    if (property != null) {
      writer.keyword("WHERE");
      property.unparse(writer, 0, 0);
      writer.keyword("=");
      value.unparse(writer, 0, 0);
    }
  }
}
