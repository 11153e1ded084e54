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
import org.apache.calcite.rex.RexNode;

/**
 * The logical table access that {@link AzureRules} rewrite: filters, projections and limits
 * move into its {@link TableQuery}. {@link EnumerableAzureTableScan} runs it.
 */
public final class AzureTableScan extends AbstractAzureScan {
  private AzureTableScan(RelOptCluster cluster, RelTraitSet traits, RelOptTable table, TableQuery query,
      List<RexNode> correlated, RelCollation sortAbove) {
    super(cluster, traits, table, query, correlated, sortAbove);
  }

  public static AzureTableScan create(RelOptCluster cluster, RelOptTable table, TableQuery query) {
    return create(cluster, table, query, List.of(), RelCollations.EMPTY);
  }

  private static AzureTableScan create(RelOptCluster cluster, RelOptTable table, TableQuery query,
      List<RexNode> correlated, RelCollation sortAbove) {
    RelTraitSet traits = cluster.traitSetOf(Convention.NONE)
        .replaceIfs(RelCollationTraitDef.INSTANCE, () -> keyCollations(query, sortAbove));
    return new AzureTableScan(cluster, traits, table, query, correlated, sortAbove);
  }

  public AzureTableScan withQuery(TableQuery newQuery) {
    return withQuery(newQuery, correlated);
  }

  /** The scan with a query whose operands refer to a lookup join's values. */
  public AzureTableScan withQuery(TableQuery newQuery, List<RexNode> newCorrelated) {
    // the order above names fields by position, which a new projection would change
    RelCollation order = newQuery.projection().equals(query.projection()) ? sortAbove : RelCollations.EMPTY;
    return create(getCluster(), getTable(), newQuery, newCorrelated, order);
  }

  /** The scan under an ORDER BY: see {@link AbstractAzureScan#keyCollations}. */
  public AzureTableScan under(RelCollation order) {
    return create(getCluster(), getTable(), query, correlated, order);
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
