package io.tablesql.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.tablesql.catalog.Column;
import io.tablesql.catalog.TableDefinition;
import io.tablesql.catalog.TableShape;
import io.tablesql.keys.KeyLayout;
import io.tablesql.query.AccessPath;
import io.tablesql.testing.UnicodeCalcite;
import java.math.BigDecimal;
import java.util.List;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlCollation;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.NlsString;
import org.junit.jupiter.api.Test;

/**
 * The access paths of conditions over a declared key, with no backend (as
 * {@link FilterTranslatorUnitTest} does for sampled tables): RexNodes over the table's row type,
 * checked for the path, the keys or key bounds in tablesql's encoding, the {@code $filter} and
 * what the client checks again.
 */
class DeclaredTablePathsUnitTest {
  static {
    UnicodeCalcite.ensure();
  }

  private static final Column REGION = Column.declared("Region", SqlTypeName.VARCHAR, false, 10, -1, false);
  private static final Column DEPT = Column.declared("Dept", SqlTypeName.VARCHAR, false, 20, -1, false);
  private static final Column ID = Column.declared("Id", SqlTypeName.INTEGER, false, -1, -1, false);
  private static final Column SCORE = Column.declared("Score", SqlTypeName.DOUBLE, false, -1, -1, false);
  private static final Column NAME = Column.declared("Name", SqlTypeName.VARCHAR, false, 20, -1, true);

  /** PRIMARY KEY ((Region, Dept), Id [DESC]), and a table keyed by a DOUBLE. */
  private static final TableShape STAFF = shape(false);
  private static final TableShape STAFF_DESC = shape(true);
  private static final TableShape SCORES = new TableDefinition("Scores", "Scores", List.of(SCORE, NAME),
      new KeyLayout(List.of(TableDefinition.keyColumn(SCORE, false)), List.of())).shape();

  private final JavaTypeFactoryImpl typeFactory = new JavaTypeFactoryImpl();
  private final RexBuilder rex = new RexBuilder(typeFactory);

  private static TableShape shape(boolean idDescending) {
    return new TableDefinition("Staff", "Staff", List.of(REGION, DEPT, ID, NAME), new KeyLayout(
        List.of(TableDefinition.keyColumn(REGION, false), TableDefinition.keyColumn(DEPT, false)),
        List.of(TableDefinition.keyColumn(ID, idDescending)))).shape();
  }

  private RexNode ref(TableShape shape, String column) {
    RelDataType rowType = AzureTable.rowType(typeFactory, shape.columns());
    return rex.makeInputRef(rowType.getFieldList().get(shape.indexOf(column)).getType(), shape.indexOf(column));
  }

  private RexNode text(String value) {
    return rex.makeCharLiteral(new NlsString(value, "UTF-16LE", SqlCollation.IMPLICIT));
  }

  private RexNode number(double value) {
    return rex.makeExactLiteral(BigDecimal.valueOf(value));
  }

  private RexNode call(SqlOperator operator, RexNode... operands) {
    return rex.makeCall(operator, operands);
  }

  private RexNode eq(TableShape shape, String column, RexNode value) {
    return call(SqlStdOperatorTable.EQUALS, ref(shape, column), value);
  }

  private RexNode and(RexNode... operands) {
    return call(SqlStdOperatorTable.AND, operands);
  }

  private FilterTranslator.Result translate(TableShape shape, RexNode condition) {
    return new FilterTranslator(FullScans.fullScan(null, shape, false), rex).translate(condition);
  }

  private static String filter(FilterTranslator.Result result) {
    return result.query().filter() == null ? null : result.query().filter().render(null);
  }

  private static List<String> keys(FilterTranslator.Result result) {
    return result.query().keys().stream()
        .map(key -> key.partitionKey().literal() + "|" + key.rowKey().literal()).toList();
  }

  private RexNode north() {
    return eq(STAFF, "Region", text("north"));
  }

  private RexNode sales() {
    return eq(STAFF, "Dept", text("Sales"));
  }

  @Test
  void theWholeKeyIsOnePointLookupOfItsEncodedKeys() {
    FilterTranslator.Result result = translate(STAFF, and(north(), sales(), eq(STAFF, "Id", number(5))));
    assertEquals(AccessPath.POINT_LOOKUP, result.query().path());
    assertEquals(List.of("north!Sales!|P0000000005!"), keys(result));
    assertNull(result.residual());
  }

  @Test
  void inListsOfKeyColumnsAreTheirCrossProduct() {
    RexNode regions = call(SqlStdOperatorTable.OR, north(), eq(STAFF, "Region", text("south")));
    FilterTranslator.Result lookups = translate(STAFF, and(regions, sales(), eq(STAFF, "Id", number(5))));
    assertEquals(AccessPath.MULTI_POINT_LOOKUP, lookups.query().path());
    assertEquals(List.of("north!Sales!|P0000000005!", "south!Sales!|P0000000005!"), keys(lookups));
    FilterTranslator.Result partitions = translate(STAFF, and(regions, sales()));
    assertEquals(AccessPath.MULTI_PARTITION_SCAN, partitions.query().path());
    assertEquals(List.of("north!Sales!", "south!Sales!"),
        partitions.query().partitions().stream().map(operand -> operand.literal()).toList());
    assertNull(partitions.residual());
  }

  @Test
  void aFixedPartitionIsAPartitionScanAndARowRangeWithinItARangeScan() {
    FilterTranslator.Result partition = translate(STAFF, and(north(), sales()));
    assertEquals(AccessPath.PARTITION_SCAN, partition.query().path());
    assertEquals("PartitionKey eq 'north!Sales!'", filter(partition));
    FilterTranslator.Result range = translate(STAFF, and(north(), sales(),
        call(SqlStdOperatorTable.GREATER_THAN, ref(STAFF, "Id"), number(5)), eq(STAFF, "Name", text("Ann"))));
    assertEquals(AccessPath.RANGE_SCAN, range.query().path());
    // after every key starting with 5's (its successor), and the property compared as any property
    assertEquals("PartitionKey eq 'north!Sales!' and RowKey ge 'P0000000005\"' and Name eq 'Ann'", filter(range));
    assertNull(range.residual(), "an INTEGER range is exact");
  }

  @Test
  void leadingPartitionColumnsAreAKeyPrefixAndALaterOneAloneIsNoRange() {
    FilterTranslator.Result prefix = translate(STAFF, north());
    assertEquals(AccessPath.RANGE_SCAN, prefix.query().path());
    assertEquals("PartitionKey ge 'north!' and PartitionKey lt 'north\"'", filter(prefix));
    FilterTranslator.Result after = translate(STAFF, call(SqlStdOperatorTable.GREATER_THAN, ref(STAFF, "Region"),
        text("m")));
    assertEquals("PartitionKey ge 'm\"'", filter(after));
    assertNull(after.residual());
    // a key column is no property: Dept alone is checked in the client over a table scan
    FilterTranslator.Result later = translate(STAFF, sales());
    assertEquals(AccessPath.TABLE_SCAN, later.query().path());
    assertNull(later.query().filter());
    assertEquals("=(Dept, _UTF-16LE'Sales')", later.query().clientPredicate());
  }

  @Test
  void aDescendingColumnsRangeIsMirrored() {
    FilterTranslator.Result result = translate(STAFF_DESC, and(north(), sales(),
        call(SqlStdOperatorTable.GREATER_THAN_OR_EQUAL, ref(STAFF_DESC, "Id"), number(5))));
    assertEquals(AccessPath.RANGE_SCAN, result.query().path());
    // ids of 5 and above come first: every key up to and with 5's mirrored key
    assertEquals("PartitionKey eq 'north!Sales!' and RowKey lt 'Qqqqqqqqqql\u007f'", filter(result));
    assertNull(result.residual());
  }

  @Test
  void aValueTheKeyCannotHoldMakesNoKeyAndTheClientDecides() {
    FilterTranslator.Result result = translate(STAFF, and(north(), sales(), eq(STAFF, "Id", number(1.5))));
    assertEquals(AccessPath.PARTITION_SCAN, result.query().path());
    assertEquals("=(Id, 1.5:DECIMAL(2, 1))", result.query().clientPredicate());
  }

  @Test
  void aDoubleKeysRangeIsCheckedAgainInTheClient() {
    FilterTranslator.Result result = translate(SCORES, call(SqlStdOperatorTable.GREATER_THAN, ref(SCORES, "Score"),
        number(2.5)));
    assertEquals(AccessPath.RANGE_SCAN, result.query().path());
    assertEquals("PartitionKey ge 'C004000000000000\"'", filter(result));
    assertEquals(">(Score, 2.5:DECIMAL(2, 1))", result.query().clientPredicate(), "SQL holds -0.0 equal to 0.0");
  }

  @Test
  void aParameterIsABoundKnownWhenItIsBound() {
    FilterTranslator.Result result = translate(STAFF, and(north(), sales(), call(SqlStdOperatorTable.GREATER_THAN,
        ref(STAFF, "Id"), rex.makeDynamicParam(typeFactory.createSqlType(SqlTypeName.INTEGER), 0))));
    assertEquals(AccessPath.RANGE_SCAN, result.query().path());
    assertEquals("PartitionKey eq 'north!Sales!' and RowKey ge after key(Id=?0)", filter(result));
    assertNull(result.residual(), "every INTEGER encodes: the bound is exact");
  }
}
