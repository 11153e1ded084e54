package io.tablesql.plan;

import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.metadata.RelMetadataQuery;

/**
 * The right side of a {@link LookupJoin}: its rows as they are, read once per batch. It keeps the
 * right side, whose filter names the batch's correlation variables, out of reach of Calcite's join
 * rules: those match any {@code Join} with a given input below (a semi-join rule takes the input of
 * an aggregate there), and would move that correlated filter into a join that does not define its
 * variables (an internal error, or a wrong answer).
 */
final class LookupSide extends SingleRel implements EnumerableRel {
  LookupSide(RelNode input) {
    super(input.getCluster(), input.getTraitSet(), input);
  }

  @Override
  public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new LookupSide(sole(inputs));
  }

  @Override
  public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
    return planner.getCostFactory().makeTinyCost();
  }

  @Override
  public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    return implementor.visitChild(this, 0, (EnumerableRel) getInput(), pref);
  }
}
