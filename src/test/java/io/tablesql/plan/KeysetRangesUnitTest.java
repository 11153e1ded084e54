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
 * Keyset paging over a declared key with no backend: a row-value comparison of leading key
 * columns becomes ranges of encoded keys read in key order, exact (nothing left for the client)
 * where the key holds every value compared, and checked again in the client where it may not.
 */
class KeysetRangesUnitTest {
  static {
    UnicodeCalcite.ensure();
  }

  private static final Column DEPT = Column.declared("Dept", SqlTypeName.VARCHAR, false, 20, -1, false);
  private static final Column ID = Column.declared("Id", SqlTypeName.INTEGER, false, -1, -1, false);
  private static final Column NAME = Column.declared("Name", SqlTypeName.VARCHAR, false, 20, -1, true);

  private final JavaTypeFactoryImpl typeFactory = new JavaTypeFactoryImpl();
  private final RexBuilder rex = new RexBuilder(typeFactory);

  private static TableShape shape(boolean idDescending, boolean deptHoldsNull) {
    KeyLayout layout = new KeyLayout(List.of(TableDefinition.keyColumn(DEPT, false, deptHoldsNull)),
        List.of(TableDefinition.keyColumn(ID, idDescending)));
    return new TableDefinition("Staff", "Staff", List.of(DEPT, ID, NAME), layout).shape();
  }

  private FilterTranslator.Result translate(TableShape shape, SqlOperator comparison, String dept, int id) {
    RelDataType rowType = AzureTable.rowType(typeFactory, shape.columns());
    RexNode columns = rex.makeCall(SqlStdOperatorTable.ROW,
        rex.makeInputRef(rowType.getFieldList().get(shape.indexOf("Dept")).getType(), shape.indexOf("Dept")),
        rex.makeInputRef(rowType.getFieldList().get(shape.indexOf("Id")).getType(), shape.indexOf("Id")));
    RexNode values = rex.makeCall(SqlStdOperatorTable.ROW,
        rex.makeCharLiteral(new NlsString(dept, "UTF-16LE", SqlCollation.IMPLICIT)),
        rex.makeExactLiteral(BigDecimal.valueOf(id)));
    return new FilterTranslator(FullScans.fullScan(null, shape, false), rex)
        .translate(rex.makeCall(comparison, columns, values));
  }

  private static String filter(FilterTranslator.Result result) {
    return result.query().filter().render(null);
  }

  @Test
  void aComparisonOfTheWholeKeyIsTheRestOfItsPartitionThenTheLaterPartitions() {
    FilterTranslator.Result after = translate(shape(false, false), SqlStdOperatorTable.GREATER_THAN, "Sales", 5);
    assertEquals(AccessPath.RANGE_SCAN, after.query().path());
    assertEquals("(PartitionKey eq 'Sales!' and RowKey ge 'P0000000005\"') then (PartitionKey ge 'Sales\"')",
        filter(after));
    assertNull(after.residual(), "every value compared is one the key holds: the ranges are exact");
  }

  @Test
  void lessThanReadsTheEarlierPartitionsFirst() {
    FilterTranslator.Result before = translate(shape(false, false), SqlStdOperatorTable.LESS_THAN_OR_EQUAL,
        "Sales", 5);
    assertEquals("(PartitionKey lt 'Sales!') then (PartitionKey eq 'Sales!' and RowKey lt 'P0000000005\"')",
        filter(before));
    assertNull(before.residual());
  }

  /** Greater ids come first in a DESC column's keys: "after 5" is the RowKeys below 5's mirrored key. */
  @Test
  void aDescendingColumnTurnsItsBoundAround() {
    FilterTranslator.Result descending = translate(shape(true, false), SqlStdOperatorTable.GREATER_THAN, "Sales", 5);
    assertEquals("(PartitionKey eq 'Sales!' and RowKey lt 'Qqqqqqqqqql~') then (PartitionKey ge 'Sales\"')",
        filter(descending));
    assertNull(descending.residual());
  }

  /** A summary's group column that holds NULL: its NULL key sorts after every value, inside the ranges. */
  @Test
  void aKeyColumnThatHoldsNullIsCheckedAgainInTheClient() {
    FilterTranslator.Result nullable = translate(shape(false, true), SqlStdOperatorTable.GREATER_THAN, "Sales", 5);
    assertEquals("(PartitionKey eq 'Sales!' and RowKey ge 'P0000000005\"') then (PartitionKey ge 'Sales\"')",
        filter(nullable));
    assertEquals(">(ROW($0, $1), ROW(_UTF-16LE'Sales', 5))", String.valueOf(nullable.residual()));
  }
}
