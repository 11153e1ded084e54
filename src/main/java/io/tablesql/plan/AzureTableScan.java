package io.tablesql.plan;

import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelCollationTraitDef;
import org.apache.calcite.rel.RelNode;
import java.util.List;

/**
 * The logical table access that {@link AzureRules} rewrite: filters, projections and limits
 * move into its {@link TableQuery}. {@link EnumerableAzureTableScan} runs it.
 */
public final class AzureTableScan extends AbstractAzureScan {
  private AzureTableScan(RelOptCluster cluster, RelTraitSet traits, RelOptTable table, TableQuery query) {
    super(cluster, traits, table, query);
  }

  public static AzureTableScan create(RelOptCluster cluster, RelOptTable table, TableQuery query) {
    RelTraitSet traits = cluster.traitSetOf(Convention.NONE)
        .replaceIf(RelCollationTraitDef.INSTANCE, () -> keyCollation(query));
    return new AzureTableScan(cluster, traits, table, query);
  }

  public AzureTableScan withQuery(TableQuery newQuery) {
    return create(getCluster(), getTable(), newQuery);
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
