package io.tablesql.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tablesql.catalog.Column;
import io.tablesql.catalog.TableShape;
import io.tablesql.query.AccessPath;
import io.tablesql.query.KeyBound;
import io.tablesql.query.Operand;
import io.tablesql.query.ServiceFilter;
import io.tablesql.query.TableQuery;
import io.tablesql.store.EdmType;
import io.tablesql.testing.UnicodeCalcite;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlCollation;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.NlsString;
import org.apache.calcite.util.TimestampString;
import org.junit.jupiter.api.Test;

/**
 * The filter translator with no backend: RexNodes built over a table's row type (as Calcite's
 * CassandraFilterTranslatorTest does), checked for the access path chosen, the {@code $filter}
 * rendered, and what is left to the client.
 */
class FilterTranslatorUnitTest {

  static {
    UnicodeCalcite.ensure();
  }

  /** A table with one column of each Edm type, and one of mixed types. */
  static final TableShape SHAPE = new TableShape("People", List.of(
      Column.of(Column.PARTITION_KEY, Set.of(EdmType.STRING)),
      Column.of(Column.ROW_KEY, Set.of(EdmType.STRING)),
      Column.of(Column.TIMESTAMP, Set.of(EdmType.DATETIME)),
      Column.of("Active", Set.of(EdmType.BOOLEAN)),
      Column.of("Age", Set.of(EdmType.INT32)),
      Column.of("Big", Set.of(EdmType.INT64)),
      Column.of("Data", Set.of(EdmType.BINARY)),
      Column.of("HireDate", Set.of(EdmType.DATETIME)),
      new Column("Id", SqlTypeName.VARCHAR, Set.of(EdmType.GUID)),
      Column.of("Mixed", Set.of(EdmType.INT32, EdmType.STRING)),
      Column.of("Name", Set.of(EdmType.STRING)),
      Column.of("Score", Set.of(EdmType.DOUBLE))), 10, true);

  final JavaTypeFactoryImpl typeFactory = new JavaTypeFactoryImpl();
  final RexBuilder rex = new RexBuilder(typeFactory);
  final RelDataType rowType = AzureTable.rowType(typeFactory, SHAPE.columns());

  RexNode ref(String column) {
    int index = SHAPE.indexOf(column);
    return rex.makeInputRef(rowType.getFieldList().get(index).getType(), index);
  }

  RexNode text(String value) {
    return rex.makeCharLiteral(new NlsString(value, "UTF-16LE", SqlCollation.IMPLICIT));
  }

  RexNode integer(long value) {
    return rex.makeExactLiteral(BigDecimal.valueOf(value));
  }

  RexNode timestamp(String text) {
    return rex.makeTimestampLiteral(new TimestampString(text), 3);
  }

  RexNode call(SqlOperator operator, RexNode... operands) {
    return rex.makeCall(operator, operands);
  }

  RexNode eq(String column, RexNode value) {
    return call(SqlStdOperatorTable.EQUALS, ref(column), value);
  }

  RexNode and(RexNode... operands) {
    return call(SqlStdOperatorTable.AND, operands);
  }

  RexNode or(RexNode... operands) {
    return call(SqlStdOperatorTable.OR, operands);
  }

  FilterTranslator.Result translate(RexNode condition) {
    return new FilterTranslator(FullScans.fullScan(null, SHAPE, false), rex).translate(condition);
  }

  static String filter(FilterTranslator.Result result) {
    return result.query().filter() == null ? null : result.query().filter().render(null);
  }

  // --- access paths ---

  @Test
  void bothKeysFixedIsOnePointLookupAndEverythingElseStaysInTheClient() {
    FilterTranslator.Result result = translate(and(eq("PartitionKey", text("Sales")), eq("RowKey", text("e1")),
        call(SqlStdOperatorTable.GREATER_THAN, ref("Age"), integer(30))));
    assertEquals(AccessPath.POINT_LOOKUP, result.query().path());
    assertEquals(List.of(new TableQuery.Key(Operand.literal("Sales"), Operand.literal("e1"))), result.query().keys());
    assertNull(result.query().filter(), "a GET cannot filter");
    assertEquals(">(Age, 30)", result.query().clientPredicate());
    assertNotNull(result.residual());
  }

  @Test
  void keyEqualitiesUnderOrAreTheirCrossProductOfPointLookups() {
    FilterTranslator.Result result = translate(and(
        or(eq("PartitionKey", text("a")), eq("PartitionKey", text("b"))),
        or(eq("RowKey", text("1")), eq("RowKey", text("2")), eq("RowKey", text("3")))));
    assertEquals(AccessPath.MULTI_POINT_LOOKUP, result.query().path());
    assertEquals("MULTI-POINT LOOKUP ON 6 KEYS", result.query().accessLabel());
    assertNull(result.residual());
  }

  @Test
  void anOrOfFullKeysIsAMultiPointLookup() {
    FilterTranslator.Result result = translate(or(
        and(eq("PartitionKey", text("a")), eq("RowKey", text("1"))),
        and(eq("RowKey", text("2")), eq("PartitionKey", text("b")))));
    assertEquals(AccessPath.MULTI_POINT_LOOKUP, result.query().path());
    assertEquals(List.of(new TableQuery.Key(Operand.literal("a"), Operand.literal("1")),
        new TableQuery.Key(Operand.literal("b"), Operand.literal("2"))), result.query().keys());
  }

  @Test
  void moreThanAHundredKeysAreReadByScansInstead() {
    List<RexNode> partitions = new ArrayList<>();
    List<RexNode> rows = new ArrayList<>();
    for (int i = 0; i < 11; i++) {
      partitions.add(eq("PartitionKey", text("p" + i)));
      rows.add(eq("RowKey", text("r" + i)));
    }
    FilterTranslator.Result result = translate(and(or(partitions.toArray(RexNode[]::new)),
        or(rows.toArray(RexNode[]::new))));
    assertEquals(AccessPath.MULTI_PARTITION_SCAN, result.query().path(), "121 keys");
    assertEquals(11, result.query().partitions().size());
    assertTrue(filter(result).startsWith("RowKey eq 'r0' or RowKey eq 'r1'"), filter(result));
  }

  @Test
  void partitionKeyInListIsAMultiPartitionScanWhoseFilterLacksThePartitionKey() {
    FilterTranslator.Result result = translate(and(
        or(eq("PartitionKey", text("a")), eq("PartitionKey", text("b"))),
        call(SqlStdOperatorTable.GREATER_THAN_OR_EQUAL, ref("Age"), integer(18))));
    assertEquals(AccessPath.MULTI_PARTITION_SCAN, result.query().path());
    assertEquals(List.of(Operand.literal("a"), Operand.literal("b")), result.query().partitions());
    assertEquals("Age ge 18", filter(result));
    assertNull(result.residual());
  }

  @Test
  void partitionEqualityAloneIsAPartitionScanAndWithRowKeyBoundsARangeScan() {
    FilterTranslator.Result partition = translate(and(eq("PartitionKey", text("Sales")),
        eq("Name", text("Ann"))));
    assertEquals(AccessPath.PARTITION_SCAN, partition.query().path());
    assertEquals("PartitionKey eq 'Sales' and Name eq 'Ann'", filter(partition));

    FilterTranslator.Result range = translate(and(eq("PartitionKey", text("Sales")),
        call(SqlStdOperatorTable.GREATER_THAN_OR_EQUAL, ref("RowKey"), text("e100")),
        call(SqlStdOperatorTable.LESS_THAN, ref("RowKey"), text("e200"))));
    assertEquals(AccessPath.RANGE_SCAN, range.query().path());
    assertEquals("PartitionKey eq 'Sales' and RowKey ge 'e100' and RowKey lt 'e200'", filter(range));
    assertTrue(range.query().fixesPartition());
  }

  @Test
  void boundsOnPartitionKeyAreARangeScanAndNoKeyATableScan() {
    assertEquals(AccessPath.RANGE_SCAN, translate(
        call(SqlStdOperatorTable.LESS_THAN, ref("PartitionKey"), text("m"))).query().path());
    FilterTranslator.Result table = translate(eq("Name", text("Ann")));
    assertEquals(AccessPath.TABLE_SCAN, table.query().path());
    assertEquals("Name eq 'Ann'", filter(table));
    assertEquals(AccessPath.TABLE_SCAN, translate(
        call(SqlStdOperatorTable.NOT_EQUALS, ref("PartitionKey"), text("a"))).query().path(),
        "PartitionKey ne 'a' is no range");
  }

  // --- exactness ---

  @Test
  void notEqualsOnAPropertyExcludesEntitiesLackingIt() {
    assertEquals("Age lt 5 or Age gt 5",
        filter(translate(call(SqlStdOperatorTable.NOT_EQUALS, ref("Age"), integer(5)))));
    assertEquals("RowKey ne 'x'", filter(translate(call(SqlStdOperatorTable.NOT_EQUALS, ref("RowKey"), text("x")))),
        "keys are never missing");
  }

  @Test
  void notIsPushedIntoTheComparisonsNeverSentAsNot() {
    FilterTranslator.Result result = translate(call(SqlStdOperatorTable.NOT,
        or(call(SqlStdOperatorTable.LESS_THAN, ref("Age"), integer(18)), eq("Name", text("Ann")))));
    assertEquals("Age ge 18 and (Name lt 'Ann' or Name gt 'Ann')", filter(result));
    assertNull(result.residual());
    assertTrue(!filter(result).contains("not"));
  }

  @Test
  void mixedTypedPropertiesFunctionsAndIsNullStayInTheClient() {
    for (RexNode condition : List.of(
        eq("Mixed", text("7")),
        call(SqlStdOperatorTable.IS_NULL, ref("Age")),
        call(SqlStdOperatorTable.EQUALS, call(SqlStdOperatorTable.UPPER, ref("Name")), text("ANN")),
        call(SqlStdOperatorTable.GREATER_THAN, ref("Score"), ref("Age")))) {
      FilterTranslator.Result result = translate(condition);
      assertNull(result.query().filter(), condition.toString());
      assertEquals(AccessPath.TABLE_SCAN, result.query().path());
      assertNotNull(result.residual(), condition.toString());
    }
  }

  /** EXPLAIN names the columns the client checks; a literal that looks like a position stays as written. */
  @Test
  void theClientsConditionIsShownWithColumnNames() {
    FilterTranslator.Result result = translate(and(
        call(SqlStdOperatorTable.EQUALS, call(SqlStdOperatorTable.UPPER, ref("Name")), text("$1 and $2")),
        call(SqlStdOperatorTable.GREATER_THAN, ref("Score"), ref("Age"))));
    assertEquals("AND(=(UPPER(Name), _UTF-16LE'$1 and $2'), >(Score, Age))", result.query().clientPredicate());
  }

  @Test
  void anAndWithAnUntranslatablePartSendsTheRestAndRechecksTheWholeInTheClient() {
    RexNode upper = call(SqlStdOperatorTable.EQUALS, call(SqlStdOperatorTable.UPPER, ref("Name")), text("ANN"));
    RexNode condition = or(and(eq("Age", integer(1)), upper), eq("Age", integer(2)));
    FilterTranslator.Result result = translate(condition);
    assertEquals("Age eq 1 or Age eq 2", filter(result));
    assertNotNull(result.residual(), "the filter selects a superset");

    FilterTranslator.Result orWithUnknown = translate(or(eq("Age", integer(1)), upper));
    assertNull(orWithUnknown.query().filter(), "an OR with an untranslatable branch cannot be narrowed");
  }

  @Test
  void literalsMustFitTheColumnsEdmType() {
    assertNull(translate(eq("Age", integer(1L << 40))).query().filter(), "no Int32 equals 2^40");
    assertEquals("Big eq 1099511627776L", filter(translate(eq("Big", integer(1L << 40)))));
    assertNull(translate(call(SqlStdOperatorTable.EQUALS, ref("Age"),
        rex.makeExactLiteral(new BigDecimal("2.5")))).query().filter(), "a decimal is not an Int32");
    assertEquals("Active eq true", filter(translate(ref("Active"))));
    assertEquals("Active eq false", filter(translate(call(SqlStdOperatorTable.NOT, ref("Active")))));
    assertEquals("Active eq false", filter(translate(call(SqlStdOperatorTable.NOT_EQUALS, ref("Active"),
        rex.makeLiteral(true)))));
  }

  @Test
  void doublesArePushedWithTheLiteralCalciteMakesForThem() {
    // Calcite 1.41 holds an approximate literal (and CAST(2.5 AS DOUBLE) reduced) as a Double
    RexNode literal = rex.makeLiteral(new BigDecimal("2.5"), typeFactory.createSqlType(SqlTypeName.DOUBLE));
    assertEquals("Score gt 2.5", filter(translate(call(SqlStdOperatorTable.GREATER_THAN, ref("Score"), literal))));
    assertEquals("Score eq 2.0", filter(translate(eq("Score", rex.makeApproxLiteral(new BigDecimal("2"))))));
    assertNull(translate(eq("Score", integer(2))).query().filter(), "an INTEGER literal is cast by Calcite first");
  }

  @Test
  void guidsAndBinariesArePushedOnlyAsEquality() {
    String guid = "0f8fad5b-d9cb-469f-a165-70867728950e";
    assertEquals("Id eq guid'" + guid + "'", filter(translate(eq("Id", text(guid)))));
    assertNull(translate(eq("Id", text(guid.toUpperCase()))).query().filter(),
        "upper-case text equals no GUID as the driver shows them");
    assertNull(translate(call(SqlStdOperatorTable.LESS_THAN, ref("Id"), text(guid))).query().filter());
    RexNode bytes = rex.makeBinaryLiteral(new ByteString(new byte[] {0x0a, 0x1b}));
    assertEquals("Data eq X'0a1b'", filter(translate(eq("Data", bytes))));
    assertNull(translate(call(SqlStdOperatorTable.GREATER_THAN, ref("Data"), bytes)).query().filter());
  }

  @Test
  void isNotNullIsAComparisonEveryValueOfTheTypePasses() {
    assertEquals("Name ge ''", filter(translate(call(SqlStdOperatorTable.IS_NOT_NULL, ref("Name")))));
    assertEquals("Age ge -2147483648", filter(translate(call(SqlStdOperatorTable.IS_NOT_NULL, ref("Age")))));
    assertEquals("Big ge -9223372036854775808L", filter(translate(call(SqlStdOperatorTable.IS_NOT_NULL, ref("Big")))));
    assertEquals("Active eq true or Active eq false",
        filter(translate(call(SqlStdOperatorTable.IS_NOT_NULL, ref("Active")))));
    assertNull(translate(call(SqlStdOperatorTable.IS_NOT_NULL, ref("Score"))).query().filter(),
        "NaN is below every comparison");
  }

  // --- the 15-comparison budget ---

  @Test
  void aFilterNeverHoldsMoreThanFifteenComparisonsAndKeysComeFirst() {
    List<RexNode> conjuncts = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      conjuncts.add(call(SqlStdOperatorTable.NOT_EQUALS, ref("Age"), integer(i))); // 2 comparisons each
    }
    conjuncts.add(eq("PartitionKey", text("p")));
    FilterTranslator.Result result = translate(and(conjuncts.toArray(RexNode[]::new)));
    ServiceFilter filter = result.query().filter();
    assertEquals(15, filter.comparisons());
    assertEquals(AccessPath.PARTITION_SCAN, result.query().path(), "the key equality is pushed first");
    assertTrue(filter.render(null).startsWith("PartitionKey eq 'p' and "));
    assertNotNull(result.residual(), "the comparisons that did not fit are checked in the client");
    assertTrue(result.query().clientPredicate().contains("<>(Age, 7)"), result.query().clientPredicate());
  }

  @Test
  void aMultiPartitionScanKeepsOneComparisonForThePartitionKey() {
    List<RexNode> conjuncts = new ArrayList<>();
    conjuncts.add(or(eq("PartitionKey", text("a")), eq("PartitionKey", text("b"))));
    for (int i = 0; i < 16; i++) {
      conjuncts.add(eq("Name", text("n" + i)));
    }
    FilterTranslator.Result result = translate(and(conjuncts.toArray(RexNode[]::new)));
    assertEquals(AccessPath.MULTI_PARTITION_SCAN, result.query().path());
    assertEquals(14, result.query().filter().comparisons(), "each partition's request adds PartitionKey eq");
  }

  @Test
  void aDisjunctionLargerThanTheBudgetStaysInTheClient() {
    List<RexNode> disjuncts = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      disjuncts.add(eq("Age", integer(i)));
    }
    FilterTranslator.Result result = translate(or(disjuncts.toArray(RexNode[]::new)));
    assertNull(result.query().filter());
    assertNotNull(result.residual());
  }

  // --- LIKE ---

  RexNode like(String column, String pattern) {
    return call(SqlStdOperatorTable.LIKE, ref(column), text(pattern));
  }

  @Test
  void likeAPrefixIsARange() {
    assertEquals("Name ge 'Jo' and Name lt 'Jp'", filter(translate(like("Name", "Jo%"))));
    FilterTranslator.Result range = translate(and(eq("PartitionKey", text("Sales")), like("RowKey", "empid_%")));
    assertEquals(AccessPath.PARTITION_SCAN, range.query().path(),
        "'_' is a wildcard: not a prefix, checked in the client");
    assertNotNull(range.residual());
    FilterTranslator.Result prefix = translate(and(eq("PartitionKey", text("Sales")), like("RowKey", "empid%")));
    assertEquals(AccessPath.RANGE_SCAN, prefix.query().path());
    assertEquals("PartitionKey eq 'Sales' and RowKey ge 'empid' and RowKey lt 'empie'", filter(prefix));
    assertNull(prefix.residual());
  }

  @Test
  void likeWithoutWildcardsIsEqualityAndOtherPatternsStayInTheClient() {
    assertEquals("Name eq 'Ann'", filter(translate(like("Name", "Ann"))));
    for (String pattern : List.of("%nn", "A%n", "A_n", "A%%")) {
      assertNull(translate(like("Name", pattern)).query().filter(), pattern);
    }
    assertNull(translate(call(SqlStdOperatorTable.NOT, like("Name", "A%"))).query().filter());
    assertNull(translate(like("Age", "1%")).query().filter());
  }

  @Test
  void iLikeIgnoresCaseSoItStaysInTheClient() {
    for (String pattern : List.of("Ann", "Jo%")) {
      FilterTranslator.Result result = translate(call(SqlLibraryOperators.ILIKE, ref("Name"), text(pattern)));
      assertNull(result.query().filter(), pattern);
      assertNotNull(result.residual(), pattern);
    }
  }

  @Test
  void likeEscapesMakeWildcardsLiteral() {
    RexNode escaped = call(SqlStdOperatorTable.LIKE, ref("Name"), text("a\\_b%"), text("\\"));
    assertEquals("Name ge 'a_b' and Name lt 'a_c'", filter(translate(escaped)));
    assertEquals(new PropertyConditions.LikePrefix("100%", false), PropertyConditions.LikePrefix.of("100!%", '!'));
    assertNull(PropertyConditions.LikePrefix.of("abc!", '!'), "an escape at the end is malformed");
  }

  @Test
  void thePrefixSuccessorIsTheLeastStringAboveEveryExtension() {
    assertEquals("abd", KeyBound.successorOfPrefix("abc"));
    assertEquals("b", KeyBound.successorOfPrefix("a\uffff"));
    assertNull(KeyBound.successorOfPrefix("\uffff\uffff"));
    assertNull(KeyBound.successorOfPrefix(""));
    assertEquals("Name ge 'a\uffff' and Name lt 'b'", filter(translate(like("Name", "a\uffff%"))));
    assertEquals("Name ge '\uffff'", filter(translate(like("Name", "\uffff%"))), "no upper bound exists");
    assertEquals("Name ge ''", filter(translate(like("Name", "%"))));
  }

  // --- DateTime bounds ---

  @Test
  void dateTimeComparisonsAccountForTheMillisecondTheClientSees() {
    RexNode t = timestamp("2024-01-01 10:00:00.123");
    assertEquals("HireDate ge datetime'2024-01-01T10:00:00.123Z' and HireDate lt datetime'2024-01-01T10:00:00.124Z'",
        filter(translate(eq("HireDate", t))));
    assertEquals("HireDate lt datetime'2024-01-01T10:00:00.124Z'",
        filter(translate(call(SqlStdOperatorTable.LESS_THAN_OR_EQUAL, ref("HireDate"), t))));
    assertEquals("HireDate ge datetime'2024-01-01T10:00:00.124Z'",
        filter(translate(call(SqlStdOperatorTable.GREATER_THAN, ref("HireDate"), t))));
    assertEquals("HireDate lt datetime'2024-01-01T10:00:00.123Z'",
        filter(translate(call(SqlStdOperatorTable.LESS_THAN, ref("HireDate"), t))));
    assertEquals("HireDate ge datetime'2024-01-01T10:00:00.123Z'",
        filter(translate(call(SqlStdOperatorTable.GREATER_THAN_OR_EQUAL, ref("HireDate"), t))));
    assertEquals("HireDate lt datetime'2024-01-01T10:00:00.123Z' or HireDate ge datetime'2024-01-01T10:00:00.124Z'",
        filter(translate(call(SqlStdOperatorTable.NOT_EQUALS, ref("HireDate"), t))));
    assertEquals("HireDate ge datetime'2024-01-01T10:00:00.124Z'",
        filter(translate(call(SqlStdOperatorTable.LESS_THAN, t, ref("HireDate")))), "literal on the left");
  }

  // --- parameters ---

  @Test
  void parametersArePushedLikeLiteralsOfTheColumnsType() {
    RexNode param = rex.makeDynamicParam(typeFactory.createSqlType(SqlTypeName.INTEGER), 0);
    FilterTranslator.Result result = translate(call(SqlStdOperatorTable.GREATER_THAN, ref("Age"), param));
    assertEquals("Age gt ?0", filter(result));
    assertEquals("Age gt 41", result.query().filter().render(operand -> 41));
    assertEquals("PartitionKey lt ''", result.query().filter().render(operand -> null),
        "a comparison with NULL matches nothing");
    RexNode textParam = rex.makeDynamicParam(typeFactory.createSqlType(SqlTypeName.VARCHAR), 0);
    assertNull(translate(call(SqlStdOperatorTable.GREATER_THAN, ref("Age"), textParam)).query().filter(),
        "a parameter of another type is converted by Calcite: checked in the client");
    RexNode time = rex.makeDynamicParam(typeFactory.createSqlType(SqlTypeName.TIMESTAMP, 3), 1);
    assertEquals("HireDate lt ?1 + 1 ms", filter(translate(call(SqlStdOperatorTable.LESS_THAN_OR_EQUAL,
        ref("HireDate"), time))));
  }
}
