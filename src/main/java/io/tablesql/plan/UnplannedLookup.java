package io.tablesql.plan;

import io.tablesql.query.AccessPath;
import io.tablesql.query.TableQuery;
import io.tablesql.settings.DriverProperty;
import java.util.List;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * The plan of a query that reads one row of a table by its whole key, made without the planner:
 * the full scan the table gives the planner ({@link AzureTable#fullScan}), narrowed by the same
 * translation of the WHERE that the filter rule makes ({@link AzureRules#FILTER}), and its
 * columns as the projection rule narrows them ({@link AzureRules#PROJECT}). It is kept only when
 * that translation is one point lookup that the service answers whole: then no plan of the
 * statement reads fewer entities or sends fewer requests, so it is the plan the planner keeps.
 */
public final class UnplannedLookup {
  private UnplannedLookup() {
  }

  /**
   * The bindable reading {@code selected} (fields of the table's row, in the query's order) of
   * the row {@code condition} finds; null when the condition is not one point lookup answered
   * whole, or the connection plans such queries otherwise (pushdown or direct execution off,
   * materialized views that the planner might read instead).
   */
  public static ScanBindable bindable(AzureTable table, RexNode condition, List<Integer> selected,
      RexBuilder rexBuilder) {
    if (table.viewOf() != null || !table.session().settings().getBoolean(DriverProperty.PUSHDOWN)
        || !table.session().settings().getBoolean(DriverProperty.DIRECT_EXECUTION)
        || table.definition() != null && !table.definition().materializedViews().isEmpty()) {
      return null;
    }
    TableQuery base = table.fullScan();
    FilterTranslator.Result result = IndexPaths.cheapest(base, condition, rexBuilder,
        new FilterTranslator(base, rexBuilder).translate(condition));
    if (result.residual() != null || !result.correlated().isEmpty()
        || result.query().path() != AccessPath.POINT_LOOKUP) {
      return null;
    }
    // the projection rule's narrowing: the fields used, in the row's order; a Calc above orders them
    ImmutableBitSet usedFields = ImmutableBitSet.of(selected);
    TableQuery narrowed = AzureRules.narrowed(result.query(), usedFields);
    TableQuery query = narrowed != null ? narrowed : result.query();
    List<Integer> used = usedFields.asList();
    int[] fields = new int[selected.size()];
    for (int i = 0; i < fields.length; i++) {
      fields[i] = used.indexOf(selected.get(i));
    }
    return ScanBindable.reading(query, fields);
  }
}
