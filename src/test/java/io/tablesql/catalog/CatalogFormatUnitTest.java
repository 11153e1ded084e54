package io.tablesql.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablesql.catalog.IndexDefinition.IndexColumn;
import io.tablesql.keys.KeyLayout;
import java.util.Arrays;
import java.util.List;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

/**
 * The catalog formats of the last features, with no backend: a table is written in the format
 * its features need (so that earlier drivers refuse only what they would get wrong), and reads
 * back as written.
 */
class CatalogFormatUnitTest {
  private static final Column ID = Column.declared("Id", SqlTypeName.INTEGER, false, -1, -1, false);
  private static final Column DEPT = Column.declared("Dept", SqlTypeName.VARCHAR, false, 20, -1, true);
  private static final Column PAY = Column.declared("Pay", SqlTypeName.INTEGER, false, -1, -1, true);
  private static final TableDefinition STAFF = new TableDefinition("Staff", "Staff", List.of(ID, DEPT, PAY),
      new KeyLayout(List.of(TableDefinition.keyColumn(ID, false)), List.of()));

  private static MaterializedViewDefinition summary(List<String> nullGroups) {
    return new MaterializedViewDefinition("ByDept", List.of("Dept", "N"), List.of(new IndexColumn("Dept", false)),
        List.of(), null, "SELECT Dept, COUNT(*) AS N FROM Staff GROUP BY Dept", "mvStaffByDept", true, null,
        List.of(new MaterializedViewDefinition.Aggregate("N", "COUNT", null)), nullGroups);
  }

  @Test
  void aSummaryWithAGroupOfNullsIsFormat10AndItsKeyHoldsNull() {
    TableDefinition keyed = STAFF.withMaterializedViews(List.of(summary(List.of())));
    assertThat(keyed.format()).isEqualTo(5);
    assertThat(keyed.materializedViews().get(0).entries(keyed).column("Dept").nullable()).isFalse();

    TableDefinition withNulls = STAFF.withMaterializedViews(List.of(summary(List.of("Dept"))));
    assertThat(withNulls.format()).isEqualTo(10);
    TableDefinition read = TableDefinition.fromJson(withNulls.toJson());
    MaterializedViewDefinition view = read.materializedViews().get(0);
    assertThat(view.nullGroups()).containsExactly("Dept");
    TableDefinition entries = view.entries(read);
    assertThat(entries.column("Dept").nullable()).isTrue();
    String nullKey = entries.layout().partitionKey(Arrays.asList((Object) null));
    assertThat(entries.layout().partitionKey(List.of("zzz"))).isLessThan(nullKey);
    assertThat(entries.layout().format(true).decode(nullKey)).containsExactly((Object) null);
  }

  @Test
  void aCoveringIndexBuiltVerifiedIsFormat11OnlyWhileItIsBuilt() {
    IndexDefinition covering = new IndexDefinition("StaffPay", List.of(new IndexColumn("Pay", false)), List.of("Dept"),
        false, "ixStaffPay", null, null, false, null, false).builtVerifiedIfItCan();
    assertThat(covering.keepsPlaceholders()).isTrue();
    TableDefinition building = STAFF.withIndexes(List.of(covering));
    assertThat(building.format()).isEqualTo(11);
    assertThat(TableDefinition.fromJson(building.toJson()).index("StaffPay").keepsPlaceholders()).isTrue();

    TableDefinition ready = STAFF.withIndexes(List.of(covering.withState(true, null)));
    assertThat(ready.index("StaffPay").keepsPlaceholders()).isFalse();
    assertThat(ready.format()).isEqualTo(6);
    assertThat(TableDefinition.fromJson(ready.toJson()).index("StaffPay").keepsPlaceholders()).isFalse();

    // a UNIQUE entry may name another row: no placeholder can stand for it, so it is built unverified
    IndexDefinition unique = new IndexDefinition("StaffPayOnce", List.of(new IndexColumn("Pay", false)),
        List.of("Dept"), true, "ixStaffPayOnce", null, null, false, null, false).builtVerifiedIfItCan();
    assertThat(unique.keepsPlaceholders()).isFalse();
    assertThat(STAFF.withIndexes(List.of(unique)).format()).isEqualTo(6);
  }
}
