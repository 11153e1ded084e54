package io.tablesql.prepare;

import io.tablesql.catalog.Column;
import io.tablesql.catalog.ShapeCache;
import io.tablesql.catalog.TableShape;
import io.tablesql.plan.AzureSchema;
import io.tablesql.plan.AzureTable;
import io.tablesql.plan.ScanBindable;
import io.tablesql.plan.UnplannedLookup;
import io.tablesql.session.CurrentStatement;
import java.lang.reflect.Type;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.schema.Table;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSelectKeyword;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.NlsString;

/**
 * A query run without Calcite's validator and planner: {@code SELECT} of plain columns (or
 * {@code *}) from one table, WHERE {@code column = 'text'} conjuncts that find one row by the
 * table's whole key ({@link UnplannedLookup}), and nothing else. Calcite's first statement in a
 * JVM loads and initializes thousands of classes (a second of CPU here); a process that looks a
 * row up first gets it without them.
 *
 * <p>It must give what the planned statement gives. So it takes only what resolves exactly one
 * way without Calcite's rules for names and types: the table and columns named in their own
 * case (a name of another case, or one that two columns match ignoring case, is Calcite's to
 * resolve), columns of character type compared with character literals of printable ASCII (no
 * cast, no character set to check), each column once. The access path is the one tablesql's
 * rules make of the same condition; the columns' metadata is made as Calcite's preparation
 * makes it ({@code CalcitePrepareImpl.metaData}); the rows run on the direct path ({@link
 * DirectPlan}). Anything else, and any failure while it is being made, is planned by Calcite as
 * before, so errors keep one source. UnplannedQueryTest runs a corpus both ways.
 */
public final class UnplannedQuery {
  /**
   * Names that, written without quotes or parentheses, Calcite's validator reads as a call of a
   * function rather than a column ({@code SqlValidatorImpl.makeNullaryCall}: the standard
   * operators of syntax FUNCTION_ID and FUNCTION_ID_CONSTANT); UnplannedQueryTest checks the list
   * against Calcite's operator table.
   */
  public static final Set<String> FUNCTION_NAMES = Set.of("CURRENT_CATALOG", "CURRENT_DATE", "CURRENT_PATH",
      "CURRENT_ROLE", "CURRENT_SCHEMA", "CURRENT_TIME", "CURRENT_TIMESTAMP", "CURRENT_USER", "LOCALTIME",
      "LOCALTIMESTAMP", "PI", "SESSION_USER", "SYSTEM_USER", "USER");

  /** Queries this JVM ran unplanned: tests read it. */
  public static final AtomicLong RUNS = new AtomicLong();

  private UnplannedQuery() {
  }

  /**
   * Runs {@code text} for {@code statement} (a statement of {@code calcite}) unplanned, with
   * {@code schema} the connection's default schema named {@code schemaName}; null when Calcite
   * must plan it.
   */
  public static ResultSet run(StatementText text, AzureSchema schema, String schemaName, CalciteConnection calcite,
      Statement statement) throws SQLException {
    CalcitePrepare.CalciteSignature<Object> signature;
    try {
      signature = signature(text, schema, schemaName, calcite.getTypeFactory());
    } catch (RuntimeException e) {
      return null; // planning reports it, as for any other statement
    }
    if (signature == null || CurrentStatement.expired()) {
      return null; // past its query timeout (sampling the table, say), planning reports it as for any statement
    }
    ResultSet rows = DirectPlan.unplanned(signature).execute(statement);
    if (rows != null) {
      RUNS.incrementAndGet();
    }
    return rows;
  }

  private static CalcitePrepare.CalciteSignature<Object> signature(StatementText text, AzureSchema schema,
      String schemaName, JavaTypeFactory typeFactory) {
    if (!(text.query() instanceof SqlSelect select) || !plain(select)
        || !(select.getFrom() instanceof SqlIdentifier from) || from.names.size() != 1 || from.isStar()) {
      return null;
    }
    String tableName = from.getSimple();
    Table found = schema.getTable(tableName);
    if (!(found instanceof AzureTable sampled)) {
      return null;
    }
    AzureTable table = firstLookup(sampled, select);
    RelDataType row = table.getRowType(typeFactory);
    List<Integer> selected = selected(select.getSelectList(), row);
    RexBuilder rexBuilder = new RexBuilder(typeFactory);
    RexNode condition = condition(select.getWhere(), row, rexBuilder);
    if (selected == null || condition == null) {
      return null;
    }
    ScanBindable bindable = UnplannedLookup.bindable(table, condition, selected, rexBuilder);
    if (bindable == null) {
      return null;
    }
    List<RelDataTypeField> fields = row.getFieldList();
    List<RelDataType> types = new ArrayList<>();
    List<String> labels = new ArrayList<>();
    List<ColumnMetaData> columns = new ArrayList<>();
    for (int field : selected) {
      RelDataTypeField column = fields.get(field);
      types.add(column.getType());
      labels.add(column.getName());
      columns.add(metaData(typeFactory, columns.size(), column.getName(), column.getType(),
          List.of(schemaName, tableName, column.getName())));
    }
    // one column's rows are its values, more columns' arrays (Meta.CursorFactory.deduce)
    Meta.CursorFactory cursor = columns.size() == 1 ? Meta.CursorFactory.OBJECT : Meta.CursorFactory.ARRAY;
    return new CalcitePrepare.CalciteSignature<>(text.sql(), List.of(), Map.of(),
        typeFactory.createStructType(types, labels), columns, cursor, null, List.of(), -1, bindable,
        Meta.StatementType.SELECT);
  }

  /**
   * The table, with the shape of the entity the query reads when its columns are not known yet
   * (a sampled table no statement has sampled) and nothing has been planned in the JVM: a first lookup learns them from that entity
   * instead of sampling the table ({@link ShapeCache#provisional}). Only for a list of columns
   * and a WHERE of PartitionKey and RowKey, each compared with text, written in their own case.
   */
  private static AzureTable firstLookup(AzureTable table, SqlSelect select) {
    if (table.definition() != null || PlannerWarmup.planned()
        || ShapeCache.cached(table.session(), table.name()) != null) {
      return table; // a warm JVM samples, once per schema TTL, as the planned statements do
    }
    List<String> columns = new ArrayList<>();
    for (SqlNode item : select.getSelectList()) {
      if (!(item instanceof SqlIdentifier identifier) || identifier.names.size() != 1 || identifier.isStar()) {
        return table;
      }
      columns.add(identifier.getSimple());
    }
    Map<String, String> keys = new java.util.HashMap<>();
    List<SqlNode> conjuncts = new ArrayList<>();
    flattenAnd(select.getWhere(), conjuncts);
    for (SqlNode conjunct : conjuncts) {
      if (conjunct.getKind() != SqlKind.EQUALS || !(conjunct instanceof SqlBasicCall call)
          || !(call.operand(0) instanceof SqlIdentifier column) || column.names.size() != 1
          || !(call.operand(1) instanceof SqlCharStringLiteral literal)) {
        return table;
      }
      keys.put(column.getSimple(), literal.getValueAs(NlsString.class).getValue());
    }
    String partitionKey = keys.get(Column.PARTITION_KEY);
    String rowKey = keys.get(Column.ROW_KEY);
    if (keys.size() != 2 || partitionKey == null || rowKey == null || !printableAscii(partitionKey)
        || !printableAscii(rowKey)) {
      return table;
    }
    TableShape shape = ShapeCache.provisional(table.session(), table.name(), partitionKey, rowKey, columns);
    return shape == null ? table : table.withProvisionalShape(shape);
  }

  /** A SELECT with a FROM and a WHERE and no other clause, keyword or hint. */
  private static boolean plain(SqlSelect select) {
    return select.getWhere() != null && select.getGroup() == null && select.getHaving() == null
        && select.getQualify() == null && (select.getOrderList() == null || select.getOrderList().isEmpty())
        && select.getOffset() == null && select.getFetch() == null && select.getWindowList().isEmpty()
        && !select.hasHints() && select.getModifierNode(SqlSelectKeyword.DISTINCT) == null
        && select.getModifierNode(SqlSelectKeyword.STREAM) == null
        && select.getModifierNode(SqlSelectKeyword.ALL) == null;
  }

  /** The fields a select list names, in its order: {@code *} is every field; null for anything else. */
  private static List<Integer> selected(SqlNodeList list, RelDataType row) {
    List<Integer> selected = new ArrayList<>();
    if (list.size() == 1 && list.get(0) instanceof SqlIdentifier star && star.isStar()) {
      Set<String> names = new HashSet<>();
      for (RelDataTypeField field : row.getFieldList()) {
        if (!names.add(field.getName().toLowerCase(Locale.ROOT))) {
          return null; // Calcite labels the second of two names differing in case apart, and reads the first
        }
      }
      if (star.names.size() != 1) {
        return null; // t.*
      }
      for (int i = 0; i < row.getFieldCount(); i++) {
        selected.add(i);
      }
      return selected;
    }
    for (SqlNode item : list) {
      int field = field(item, row);
      if (field < 0 || selected.contains(field)) {
        return null; // an expression, an alias, or a column twice (Calcite would rename the second)
      }
      selected.add(field);
    }
    return selected;
  }

  /**
   * The conjunction of {@code column = 'text'}, each column once, as the RexNode Calcite's
   * SqlToRel makes of it; null for any other WHERE.
   */
  private static RexNode condition(SqlNode where, RelDataType row, RexBuilder rexBuilder) {
    List<SqlNode> conjuncts = new ArrayList<>();
    flattenAnd(where, conjuncts);
    List<RexNode> comparisons = new ArrayList<>();
    Set<Integer> compared = new HashSet<>();
    for (SqlNode conjunct : conjuncts) {
      if (conjunct.getKind() != SqlKind.EQUALS || !(conjunct instanceof SqlBasicCall call)
          || !(call.operand(1) instanceof SqlCharStringLiteral literal)) {
        return null;
      }
      int field = field(call.operand(0), row);
      if (field < 0 || !compared.add(field) || !SqlTypeName.CHAR_TYPES.contains(
          row.getFieldList().get(field).getType().getSqlTypeName())) {
        return null;
      }
      NlsString value = literal.getValueAs(NlsString.class);
      if (value.getCharsetName() != null || value.getCollation() != null || !printableAscii(value.getValue())) {
        return null;
      }
      comparisons.add(rexBuilder.makeCall(SqlStdOperatorTable.EQUALS,
          rexBuilder.makeInputRef(row, field), rexBuilder.makeCharLiteral(value)));
    }
    return comparisons.isEmpty() ? null : RexUtil.composeConjunction(rexBuilder, comparisons);
  }

  private static void flattenAnd(SqlNode node, List<SqlNode> conjuncts) {
    if (node.getKind() == SqlKind.AND && node instanceof SqlBasicCall call) {
      for (SqlNode operand : call.getOperandList()) {
        flattenAnd(operand, conjuncts);
      }
    } else {
      conjuncts.add(node);
    }
  }

  /**
   * The field a one-part identifier names in its own case, when no other field has the name
   * ignoring case and Calcite would not read it as a function; -1 otherwise.
   */
  private static int field(SqlNode node, RelDataType row) {
    if (!(node instanceof SqlIdentifier identifier) || identifier.names.size() != 1 || identifier.isStar()) {
      return -1;
    }
    String name = identifier.getSimple();
    if (!identifier.isComponentQuoted(0) && FUNCTION_NAMES.contains(name.toUpperCase(Locale.ROOT))) {
      return -1; // a call of the function of that name to Calcite, not the column
    }
    int found = -1;
    for (RelDataTypeField field : row.getFieldList()) {
      if (field.getName().equalsIgnoreCase(name)) {
        if (found >= 0 || !field.getName().equals(name)) {
          return -1;
        }
        found = field.getIndex();
      }
    }
    return found;
  }

  private static boolean printableAscii(String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < 0x20 || c > 0x7e) {
        return false;
      }
    }
    return true;
  }

  /** A result column's metadata as Calcite's preparation makes it for a column of a table. */
  private static ColumnMetaData metaData(JavaTypeFactory typeFactory, int ordinal, String label, RelDataType type,
      List<String> origin) {
    Type javaClass = typeFactory.getJavaClass(type);
    ColumnMetaData.AvaticaType avaticaType = ColumnMetaData.scalar(type.getSqlTypeName().getJdbcOrdinal(),
        type.getSqlTypeName().getName(), ColumnMetaData.Rep.of(javaClass));
    return new ColumnMetaData(ordinal, false, true, false, false,
        type.isNullable() ? DatabaseMetaData.columnNullable : DatabaseMetaData.columnNoNulls,
        !SqlTypeName.UNSIGNED_TYPES.contains(type.getSqlTypeName()), type.getPrecision(), label,
        origin.get(2), origin.get(0), type.getPrecision() == RelDataType.PRECISION_NOT_SPECIFIED ? 0 : type.getPrecision(),
        type.getScale() == RelDataType.SCALE_NOT_SPECIFIED ? 0 : type.getScale(), origin.get(1),
        null, avaticaType, true, false, false, avaticaType.columnClassName());
  }
}
