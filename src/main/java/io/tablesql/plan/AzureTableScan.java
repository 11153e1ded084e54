package io.tablesql.plan;

import io.tablesql.query.TableQuery;
import java.util.List;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelCollationTraitDef;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;

/**
 * The logical table access that {@link AzureRules} rewrite: filters, projections and limits
 * move into its {@link TableQuery}. {@link EnumerableAzureTableScan} runs it.
 */
public final class AzureTableScan extends AbstractAzureScan {
  private AzureTableScan(RelOptCluster cluster, RelTraitSet traits, RelOptTable table, TableQuery query,
      List<RexNode> correlated, RelCollation sortAbove, RexNode applied) {
    super(cluster, traits, table, query, correlated, sortAbove, applied);
  }

  public static AzureTableScan create(RelOptCluster cluster, RelOptTable table, TableQuery query) {
    return create(cluster, table, query, List.of(), RelCollations.EMPTY, null);
  }

  private static AzureTableScan create(RelOptCluster cluster, RelOptTable table, TableQuery query,
      List<RexNode> correlated, RelCollation sortAbove, RexNode applied) {
    RelTraitSet traits = cluster.traitSetOf(Convention.NONE)
        .replaceIfs(RelCollationTraitDef.INSTANCE, () -> keyCollations(query, sortAbove));
    return new AzureTableScan(cluster, traits, table, query, correlated, sortAbove, applied);
  }

  /** The scan with another projection or limit: it still applies the same WHERE. */
  public AzureTableScan withQuery(TableQuery newQuery) {
    // the order above names fields by position, which a new projection would change
    RelCollation order = newQuery.projection().equals(query.projection()) ? sortAbove : RelCollations.EMPTY;
    return create(getCluster(), getTable(), newQuery, correlated, order, applied);
  }

  /**
   * The scan with a WHERE pushed into its query: {@code condition} over this scan's fields, and
   * whether the query applies it exactly (no residual Filter above); operands may refer to a
   * lookup join's values.
   */
  public AzureTableScan filtered(TableQuery newQuery, List<RexNode> newCorrelated, RexNode condition, boolean exact) {
    RexNode over = exact && newCorrelated.isEmpty() ? overTableColumns(condition) : null;
    RelCollation order = newQuery.projection().equals(query.projection()) ? sortAbove : RelCollations.EMPTY;
    return create(getCluster(), getTable(), newQuery, newCorrelated, order, over);
  }

  /** The scan under an ORDER BY: see {@link AbstractAzureScan#keyCollations}. */
  public AzureTableScan under(RelCollation order) {
    return create(getCluster(), getTable(), query, correlated, order, applied);
  }

  /** {@code condition} with each of this scan's fields renamed to the table column it reads. */
  private RexNode overTableColumns(RexNode condition) {
    List<RelDataTypeField> columns = getTable().getRowType().getFieldList();
    return condition.accept(new RexShuttle() {
      @Override
      public RexNode visitInputRef(RexInputRef ref) {
        return RexInputRef.of(query.projection().get(ref.getIndex()), columns);
      }
    });
  }

  @Override
  public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return this;
  }

  @Override
  public void register(RelOptPlanner planner) {
    planner.addRule(AzureRules.TO_ENUMERABLE);
    AzureRules.registerWrites(planner);
    if (query.table().session().pushdown()) {
      AzureRules.PUSHDOWN.forEach(planner::addRule);
    }
  }
}
