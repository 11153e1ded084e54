package io.tablesql.plan;

import io.tablesql.exec.WriteRunner;
import io.tablesql.query.WritePlan;
import com.google.common.collect.ImmutableList;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.EnumerableValues;
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
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.sql.type.SqlTypeUtil;

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
    EnumerableRel rows = write.getInput() instanceof EnumerableValues values ? typed(values)
        : (EnumerableRel) write.getInput();
    RelNode parent = rows == write.getInput() ? write : write.copy(write.getTraitSet(), List.of(rows));
    Result input = implementor.visitChild((EnumerableRel) parent, 0, rows, Prefer.ARRAY);
    List<Expression> arguments = new java.util.ArrayList<>(leading);
    arguments.add(builder.append("rows", input.block));
    arguments.add(Expressions.constant(input.physType.getFormat() == JavaRowFormat.SCALAR));
    builder.add(Expressions.return_(null, Expressions.call(method, arguments)));
    PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), write.getRowType(), JavaRowFormat.SCALAR);
    return implementor.result(physType, builder.toBlock());
  }

  /**
   * The VALUES of an INSERT with each exact number written for an approximate column as a literal
   * of the column's type. Calcite keeps {@code 1.5} a DECIMAL literal in a row of DOUBLE when
   * another row has NULL there, and its code generation cannot make a boxed Double of it.
   */
  private static EnumerableRel typed(EnumerableValues values) {
    RexBuilder rexBuilder = values.getCluster().getRexBuilder();
    List<RelDataTypeField> fields = values.getRowType().getFieldList();
    boolean changed = false;
    ImmutableList.Builder<ImmutableList<RexLiteral>> tuples = ImmutableList.builder();
    for (List<RexLiteral> tuple : values.getTuples()) {
      ImmutableList.Builder<RexLiteral> row = ImmutableList.builder();
      for (int i = 0; i < tuple.size(); i++) {
        RexLiteral literal = tuple.get(i);
        RelDataType type = fields.get(i).getType();
        if (!literal.isNull() && SqlTypeUtil.isExactNumeric(literal.getType()) && SqlTypeUtil.isApproximateNumeric(type)) {
          literal = (RexLiteral) rexBuilder.makeLiteral(literal.getValueAs(BigDecimal.class), type, false);
          changed = true;
        }
        row.add(literal);
      }
      tuples.add(row.build());
    }
    return changed ? EnumerableValues.create(values.getCluster(), values.getRowType(), tuples.build()) : values;
  }
}
