package io.tablesql.plan;

import io.tablesql.exec.WriteRunner;
import io.tablesql.query.WritePlan;
import java.lang.reflect.Method;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.Types;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableModify;

/** A write in Calcite's enumerable engine: its input rows go to {@link WriteRunner}. */
public final class EnumerableAzureTableModify extends TableModify implements EnumerableRel {
  /** What the generated code calls, looked up when the class loads, so that a rename fails at once. */
  private static final Method RUN = Types.lookupMethod(WriteRunner.class, "execute", DataContext.class,
      WritePlan.class, Enumerable.class, boolean.class);

  private final WritePlan plan;

  private EnumerableAzureTableModify(RelTraitSet traits, TableModify modify, RelNode input, WritePlan plan) {
    super(modify.getCluster(), traits, modify.getTable(), modify.getCatalogReader(), input, modify.getOperation(),
        modify.getUpdateColumnList(), modify.getSourceExpressionList(), false);
    this.plan = plan;
  }

  static EnumerableAzureTableModify create(TableModify modify, RelNode enumerableInput) {
    AzureTable table = AzureTable.checkWritable(modify.getTable());
    List<String> updated = modify.getUpdateColumnList() == null ? List.of() : List.copyOf(modify.getUpdateColumnList());
    WritePlan plan = new WritePlan(table.stored(), table.shape(), modify.getOperation(), updated);
    return new EnumerableAzureTableModify(modify.getTraitSet().replace(EnumerableConvention.INSTANCE), modify,
        enumerableInput, plan);
  }

  @Override
  public String getRelTypeName() {
    return "AzureTableModify";
  }

  private EnumerableAzureTableModify(EnumerableAzureTableModify other, RelTraitSet traits, RelNode input) {
    super(other.getCluster(), traits, other.getTable(), other.getCatalogReader(), input, other.getOperation(),
        other.getUpdateColumnList(), other.getSourceExpressionList(), false);
    this.plan = other.plan;
  }

  @Override
  public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
    return new EnumerableAzureTableModify(this, traitSet, sole(inputs));
  }

  @Override
  public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
    return callWithRows(this, implementor, RUN, List.of(implementor.getRootExpression(),
        implementor.stash(plan, WritePlan.class)));
  }

  /**
   * The code of a write: {@code method(leading..., rows, scalarRows)} over the rows of the
   * write's input, which returns the count of rows written.
   */
  static <W extends TableModify & EnumerableRel> Result callWithRows(W write, EnumerableRelImplementor implementor,
      Method method, List<Expression> leading) {
    BlockBuilder builder = new BlockBuilder();
    Result input = implementor.visitChild(write, 0, (EnumerableRel) write.getInput(), Prefer.ARRAY);
    List<Expression> arguments = new java.util.ArrayList<>(leading);
    arguments.add(builder.append("rows", input.block));
    arguments.add(Expressions.constant(input.physType.getFormat() == JavaRowFormat.SCALAR));
    builder.add(Expressions.return_(null, Expressions.call(method, arguments)));
    PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), write.getRowType(), JavaRowFormat.SCALAR);
    return implementor.result(physType, builder.toBlock());
  }
}
