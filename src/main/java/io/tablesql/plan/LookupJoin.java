package io.tablesql.plan;

import java.util.List;
import java.util.Set;
import org.apache.calcite.adapter.enumerable.EnumerableBatchNestedLoopJoin;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelCollationTraitDef;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.metadata.RelMdCollation;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * A join that reads its right side by key: the left side's rows are taken in batches, and for
 * each batch the right side is read for exactly the keys the batch holds (a multi-point lookup
 * or multi-partition scan with those keys as operands), instead of reading it whole. Calcite's
 * batch nested-loop join does the batching and joining; this class gives it its name in EXPLAIN.
 */
public final class LookupJoin extends EnumerableBatchNestedLoopJoin {
  private final ImmutableBitSet requiredColumns;

  private LookupJoin(RelOptCluster cluster, RelTraitSet traits, RelNode left, RelNode right, RexNode condition,
      Set<CorrelationId> variables, ImmutableBitSet requiredColumns, JoinRelType joinType) {
    super(cluster, traits, left, right, condition, variables, requiredColumns, joinType);
    this.requiredColumns = requiredColumns;
  }

  static LookupJoin lookup(RelNode left, RelNode right, RexNode condition, ImmutableBitSet requiredColumns,
      Set<CorrelationId> variables, JoinRelType joinType) {
    RelOptCluster cluster = left.getCluster();
    List<RelCollation> collations =
        RelMdCollation.enumerableBatchNestedLoopJoin(cluster.getMetadataQuery(), left, right, joinType);
    RelTraitSet traits = cluster.traitSetOf(EnumerableConvention.INSTANCE)
        .replaceIfs(RelCollationTraitDef.INSTANCE, () -> collations == null ? List.of() : collations);
    return new LookupJoin(cluster, traits, left, right, condition, variables, requiredColumns, joinType);
  }

  @Override
  public EnumerableBatchNestedLoopJoin copy(RelTraitSet traitSet, RexNode condition, RelNode left, RelNode right,
      JoinRelType joinType, boolean semiJoinDone) {
    return new LookupJoin(getCluster(), traitSet, left, right, condition, variablesSet, requiredColumns, joinType);
  }

  /**
   * A request costs about as much as receiving this many entities (BENCHMARKS.md: a GET takes
   * ~2 ms, a page of 1,000 entities ~15 ms).
   */
  private static final double ENTITIES_PER_REQUEST = 100;

  /**
   * Calcite's cost of the batches, plus a GET for each left row: the planner weighs the left
   * side's keys against reading the right side whole.
   */
  @Override
  public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
    RelOptCost batches = super.computeSelfCost(planner, mq);
    double leftRows = mq.getRowCount(left);
    return batches == null ? null
        : batches.plus(planner.getCostFactory().makeCost(leftRows * ENTITIES_PER_REQUEST, 0, leftRows));
  }

  @Override
  public String getRelTypeName() {
    return "LookupJoin";
  }

  /** Names the join, not its hundred correlation variables. */
  @Override
  public RelWriter explainTerms(RelWriter pw) {
    return pw.input("left", left).input("right", right)
        .item("condition", condition)
        .item("joinType", joinType.lowerName)
        .item("batch", variablesSet.size());
  }
}
