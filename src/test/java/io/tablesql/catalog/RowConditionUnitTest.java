package io.tablesql.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablesql.keys.EncodedKey;
import io.tablesql.keys.KeyLayout;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

/** A materialized view's WHERE on one row: SQL's three-valued logic and comparisons, and what is refused. */
class RowConditionUnitTest {
  private static final TableDefinition TABLE = new TableDefinition("T", "t", List.of(
      Column.declared("K", SqlTypeName.INTEGER, false, -1, -1, false),
      Column.declared("Name", SqlTypeName.VARCHAR, false, -1, -1, true),
      Column.declared("Price", SqlTypeName.DECIMAL, false, 10, 2, true),
      Column.declared("Ratio", SqlTypeName.DOUBLE, false, -1, -1, true),
      Column.declared("Active", SqlTypeName.BOOLEAN, false, -1, -1, true),
      Column.declared("Day", SqlTypeName.DATE, false, -1, -1, true)),
      new KeyLayout(new EncodedKey(List.of()), new EncodedKey(List.of()), null));

  private static Map<String, Object> row(Object name, Object price, Object ratio, Object active) {
    Map<String, Object> row = new HashMap<>();
    row.put("K", 1);
    row.put("Name", name);
    row.put("Price", price);
    row.put("Ratio", ratio);
    row.put("Active", active);
    return row;
  }

  private static boolean holds(String condition, Map<String, Object> row) {
    return RowCondition.parse(condition, TABLE).holds(row);
  }

  @Test
  void unknownIsNotTrue() {
    Map<String, Object> nulls = row(null, null, null, null);
    assertThat(holds("\"Name\" = 'a' OR NOT (\"Name\" = 'a')", nulls)).isFalse();
    assertThat(holds("\"Name\" IS NULL", nulls)).isTrue();
    assertThat(holds("NOT (\"Price\" > 1 AND FALSE = \"Active\")", row("a", null, 1.0, true))).isTrue();
    assertThat(holds("\"Name\" NOT IN ('a', NULL)", row("b", null, null, null))).isFalse();
    assertThat(holds("\"Name\" IN ('a', NULL)", row("a", null, null, null))).isTrue();
  }

  @Test
  void numbersCompareAsSqlComparesThem() {
    assertThat(holds("\"Price\" = 2.5", row("a", new BigDecimal("2.50"), null, null))).isTrue();
    assertThat(holds("\"Price\" > -1", row("a", new BigDecimal("-0.5"), null, null))).isTrue();
    assertThat(holds("\"Ratio\" > 0.1", row("a", null, 0.1, null))).isFalse(); // the literal as a DOUBLE
    assertThat(holds("\"Ratio\" = 0", row("a", null, -0.0, null))).isTrue();
    assertThat(holds("\"K\" >= 1 AND \"K\" < 2", row("a", null, null, null))).isTrue();
    Map<String, Object> nan = row("a", null, Double.NaN, null);
    assertThat(holds("\"Ratio\" = 5.0 OR \"Ratio\" <= 5.0 OR \"Ratio\" >= 5.0 OR \"Ratio\" IN (1.0)", nan)).isFalse();
    assertThat(holds("\"Ratio\" <> 5.0", nan)).isTrue();
    assertThat(holds("\"Active\" = UNKNOWN OR \"Active\" IN (TRUE, UNKNOWN)", row("a", null, null, false)))
        .isFalse();
  }

  @Test
  void whatItCannotEvaluateExactlyIsRefused() {
    assertThatThrownBy(() -> RowCondition.parse("UPPER(\"Name\") = 'A'", TABLE))
        .isInstanceOf(RowCondition.Refused.class).hasMessageContaining("UPPER");
    assertThatThrownBy(() -> RowCondition.parse("\"Day\" > DATE '2020-01-01'", TABLE))
        .isInstanceOf(RowCondition.Refused.class);
    assertThatThrownBy(() -> RowCondition.parse("\"Name\" = 1", TABLE)).isInstanceOf(RowCondition.Refused.class);
    assertThatThrownBy(() -> RowCondition.parse("\"Nope\" = 1", TABLE)).hasMessageContaining("Nope");
  }
}
