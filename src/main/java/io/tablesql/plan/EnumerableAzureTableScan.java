package io.tablesql.plan;

import io.tablesql.exec.QueryRunner;
import io.tablesql.query.TableQuery;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumUtils;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.Types;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelCollationTraitDef;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexNode;

/** A table access in Calcite's enumerable engine: generated code calls {@link QueryRunner}. */
public final class EnumerableAzureTableScan extends AbstractAzureScan implements EnumerableRel {
  /** What the generated code calls, looked up when the class loads, so that a rename fails at once. */
  private static final Method RUN = Types.lookupMethod(QueryRunner.class, "enumerable", DataContext.class,
      TableQuery.class, Object[].class);

  private EnumerableAzureTableScan(RelOptCluster cluster, RelTraitSet traits, RelOptTable table, TableQuery query,
      List<RexNode> correlated, RelCollation sortAbove, RexNode applied) {
    super(cluster, traits, table, query, correlated, sortAbove, applied);
  }

  static EnumerableAzureTableScan create(AzureTableScan scan) {
    RelTraitSet traits = scan.getCluster().traitSetOf(EnumerableConvention.INSTANCE)
        .replaceIfs(RelCollationTraitDef.INSTANCE, () -> keyCollations(scan.query(), scan.sortAbove));
    return new EnumerableAzureTableScan(scan.getCluster(), traits, scan.getTable(), scan.query(), scan.correlated,
        scan.sortAbove, scan.applied);
  }

  @Override
  public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return this;
  }

  @Override
  public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
    // Volcano compares costs by rows alone: fold the width read and a pushed limit into them so
    // that, between equally selective accesses, the one that transfers less wins.
    double rows = query.estimatedRows();
    double width = (query.projection().size() + 2.0) / (query.shape().columns().size() + 2.0);
    double transferred = rows * (0.5 + 0.5 * width) * (query.limit() != null ? 0.9 : 1.0);
    // The same reads: prefer the scan that knows the ORDER BY above it, whose EXPLAIN says why the client sorts.
    transferred *= sortAbove.getFieldCollations().isEmpty() ? 1.0 : 0.99;
    // A materialized view answers a query of its table only when that reads less (AzureTable.costFactor).
    AzureTable table = getTable().unwrap(AzureTable.class);
    transferred *= table == null ? 1.0 : table.costFactor();
    return planner.getCostFactory().makeCost(transferred, rows * width, query.estimatedRequests());
  }

  @Override
  public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    JavaRowFormat format = query.projection().size() == 1 ? JavaRowFormat.SCALAR : JavaRowFormat.ARRAY;
    PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(), format);
    Expression stashed = implementor.stash(query, TableQuery.class);
    BlockBuilder block = new BlockBuilder();
    // A lookup join's current batch of values, read from the correlation variables in scope.
    List<Expression> values = new ArrayList<>();
    for (RexNode node : correlated) {
      RexFieldAccess access = (RexFieldAccess) node;
      String variable = ((RexCorrelVariable) access.getReferenceExpr()).getName();
      values.add(EnumUtils.convert(implementor.getCorrelVariableGetter(variable)
          .field(block, access.getField().getIndex(), null), Object.class));
    }
    Expression call = Expressions.call(RUN, implementor.getRootExpression(), stashed,
        Expressions.newArrayInit(Object.class, values));
    block.add(Expressions.return_(null, call));
    return implementor.result(physType, block.toBlock());
  }
}
