package io.tablesql.plan;

import java.lang.reflect.Method;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.Types;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableModify;

/** A write of {@code tablesql.pending_writes} in Calcite's enumerable engine: its rows go to {@link PendingWritesTable#write}. */
public final class EnumerablePendingWritesModify extends TableModify implements EnumerableRel {
  /** What the generated code calls, looked up when the class loads, so that a rename fails at once. */
  private static final Method RUN = Types.lookupMethod(PendingWritesTable.class, "write", PendingWritesTable.class,
      String.class, Enumerable.class, boolean.class);

  private EnumerablePendingWritesModify(RelTraitSet traits, TableModify modify, RelNode input) {
    super(modify.getCluster(), traits, modify.getTable(), modify.getCatalogReader(), input, modify.getOperation(),
        modify.getUpdateColumnList(), modify.getSourceExpressionList(), false);
  }

  static EnumerablePendingWritesModify create(TableModify modify, RelNode enumerableInput) {
    return new EnumerablePendingWritesModify(modify.getTraitSet().replace(EnumerableConvention.INSTANCE), modify,
        enumerableInput);
  }

  @Override
  public String getRelTypeName() {
    return "PendingWritesModify";
  }

  @Override
  public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new EnumerablePendingWritesModify(traitSet, this, sole(inputs));
  }

  @Override
  public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    return EnumerableAzureTableModify.callWithRows(this, implementor, RUN, List.of(
        implementor.stash(getTable().unwrap(PendingWritesTable.class), PendingWritesTable.class),
        Expressions.constant(getOperation().name())));
  }
}
