package io.tablesql.plan;

import java.util.List;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rex.RexNode;

/**
 * An INSERT, UPDATE or DELETE of an Azure table (or of {@code tablesql.pending_writes}), before
 * it is made executable. Calcite creates it
 * through {@code ModifiableTable}; it exists so that an INSERT of literal rows, which reads no
 * table, still brings the rule that executes writes. (UPDATE and DELETE read the table, whose
 * scan brings it too.)
 */
public final class AzureTableModify extends TableModify {
  private AzureTableModify(RelTraitSet traits, RelOptTable table, Prepare.CatalogReader catalogReader, RelNode input,
      Operation operation, List<String> updateColumns, List<RexNode> sourceExpressions) {
    super(input.getCluster(), traits, table, catalogReader, input, operation, updateColumns, sourceExpressions, false);
  }

  public static AzureTableModify create(RelOptTable table, Prepare.CatalogReader catalogReader, RelNode input,
      Operation operation, List<String> updateColumns, List<RexNode> sourceExpressions) {
    return new AzureTableModify(input.getCluster().traitSetOf(Convention.NONE), table, catalogReader, input,
        operation, updateColumns, sourceExpressions);
  }

  @Override
  public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new AzureTableModify(traitSet, getTable(), getCatalogReader(), sole(inputs), getOperation(),
        getUpdateColumnList(), getSourceExpressionList());
  }

  @Override
  public void register(RelOptPlanner planner) {
    AzureRules.registerWrites(planner);
  }
}
