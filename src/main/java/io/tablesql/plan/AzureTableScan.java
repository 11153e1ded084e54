package io.tablesql.plan;

import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelCollationTraitDef;
import org.apache.calcite.rel.RelNode;
import java.util.List;
import org.apache.calcite.rex.RexNode;

/**
 * The logical table access that {@link AzureRules} rewrite: filters, projections and limits
 * move into its {@link TableQuery}. {@link EnumerableAzureTableScan} runs it.
 */
public final class AzureTableScan extends AbstractAzureScan {
  private AzureTableScan(RelOptCluster cluster, RelTraitSet traits, RelOptTable table, TableQuery query,
      List<RexNode> correlated) {
    super(cluster, traits, table, query, correlated);
  }

  public static AzureTableScan create(RelOptCluster cluster, RelOptTable table, TableQuery query) {
    return create(cluster, table, query, List.of());
  }

  private static AzureTableScan create(RelOptCluster cluster, RelOptTable table, TableQuery query,
      List<RexNode> correlated) {
    RelTraitSet traits = cluster.traitSetOf(Convention.NONE)
        .replaceIf(RelCollationTraitDef.INSTANCE, () -> keyCollation(query));
    return new AzureTableScan(cluster, traits, table, query, correlated);
  }

  public AzureTableScan withQuery(TableQuery newQuery) {
    return create(getCluster(), getTable(), newQuery, correlated);
  }

  /** The scan with a query whose operands refer to a lookup join's values. */
  public AzureTableScan withQuery(TableQuery newQuery, List<RexNode> newCorrelated) {
    return create(getCluster(), getTable(), newQuery, newCorrelated);
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
