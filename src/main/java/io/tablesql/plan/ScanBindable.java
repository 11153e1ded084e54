package io.tablesql.plan;

import io.tablesql.exec.QueryRunner;
import io.tablesql.query.TableQuery;
import io.tablesql.settings.DriverProperty;
import java.lang.reflect.Type;
import java.util.List;
import java.util.function.Function;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.adapter.enumerable.EnumerableLimit;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexLocalRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.runtime.Bindable;
import org.apache.calcite.runtime.Typed;

/**
 * A plan that is one table access, run without generated code. What Calcite would generate for
 * such a plan calls {@link QueryRunner#enumerable} ({@link EnumerableAzureTableScan#implement}),
 * then at most reorders the columns (a Calc of column references, as the scan reads its columns
 * in name order) and skips and takes rows (a Limit); this does the same without compiling
 * anything. So a query answered by
 * one access (point, multi-point, range, partition or table scan, with its projection, pushed
 * filter and limit) is never compiled, and its executions can skip Calcite's machinery
 * ({@code prepare.DirectPlan}).
 */
public final class ScanBindable implements Bindable<Object>, Typed {
  private static final Object[] NO_CORRELATED_VALUES = new Object[0];

  /** Turns the rows of the plan's input into its own, given the execution's DataContext. */
  private interface Step {
    Enumerable<Object> apply(Enumerable<Object> rows, DataContext root);
  }

  private final TableQuery query;
  private final List<Step> steps;
  private final Type elementType;

  private ScanBindable(TableQuery query, List<Step> steps, Type elementType) {
    this.query = query;
    this.steps = steps;
    this.elementType = elementType;
  }

  /**
   * The bindable of a plan that is one table access with no lookup-join values, under column
   * reorderings and limits, when the connection runs such plans directly ({@code directExecution});
   * null otherwise.
   */
  public static ScanBindable of(RelNode plan, JavaTypeFactory typeFactory) {
    java.util.ArrayList<Step> steps = new java.util.ArrayList<>();
    RelNode node = plan;
    while (!(node instanceof EnumerableAzureTableScan)) {
      Step step = node instanceof EnumerableCalc calc ? reordering(calc)
          : node instanceof EnumerableLimit limit ? limiting(limit) : null;
      if (step == null) {
        return null;
      }
      steps.add(0, step);
      node = node.getInput(0);
    }
    EnumerableAzureTableScan scan = (EnumerableAzureTableScan) node;
    if (!scan.correlated.isEmpty()
        || !scan.query().table().session().settings().getBoolean(DriverProperty.DIRECT_EXECUTION)) {
      return null;
    }
    // the Java row type the generated code would declare: one column is a scalar, more an array
    JavaRowFormat format = plan.getRowType().getFieldCount() == 1 ? JavaRowFormat.SCALAR : JavaRowFormat.ARRAY;
    return new ScanBindable(scan.query(), List.copyOf(steps),
        PhysTypeImpl.of(typeFactory, plan.getRowType(), format).getJavaRowType());
  }

  /**
   * The bindable of {@code query} (a table access without lookup-join values) whose rows give
   * the columns {@code fields} of the query's projection, in that order, as the Calc of column
   * references above a scan does: what the planner would make of a query of those columns that
   * the access answers whole ({@link UnplannedLookup}).
   */
  static ScanBindable reading(TableQuery query, int[] fields) {
    boolean identity = fields.length == query.projection().size();
    for (int i = 0; identity && i < fields.length; i++) {
      identity = fields[i] == i;
    }
    List<Step> steps = identity ? List.of() : List.of(reordering(query.projection().size(), fields));
    // what Calcite reads of the type: one column is a scalar, more an array (Meta.CursorFactory.deduce)
    return new ScanBindable(query, steps, fields.length == 1 ? Object.class : Object[].class);
  }

  /** A Calc with no condition whose every output is an input column; null for any other. */
  private static Step reordering(EnumerableCalc calc) {
    RexProgram program = calc.getProgram();
    if (program.getCondition() != null) {
      return null;
    }
    int inputs = calc.getInput().getRowType().getFieldCount();
    List<RexLocalRef> projects = program.getProjectList();
    int[] fields = new int[projects.size()];
    for (int i = 0; i < fields.length; i++) {
      RexNode expression = program.expandLocalRef(projects.get(i));
      if (!(expression instanceof RexInputRef ref)) {
        return null;
      }
      fields[i] = ref.getIndex();
    }
    return reordering(inputs, fields);
  }

  /** The rows' columns {@code fields} of {@code inputs}, in that order. */
  private static Step reordering(int inputs, int[] fields) {
    // rows of one column are scalars, of more arrays, on both sides
    Function<Object, Object[]> columns = inputs == 1 ? row -> new Object[] {row} : row -> (Object[]) row;
    Function<Object, Object> reorder;
    if (fields.length == 1) {
      int field = fields[0];
      reorder = row -> columns.apply(row)[field];
    } else {
      reorder = row -> {
        Object[] in = columns.apply(row);
        Object[] out = new Object[fields.length];
        for (int i = 0; i < fields.length; i++) {
          out[i] = in[fields[i]];
        }
        return out;
      };
    }
    return (rows, root) -> rows.select(reorder::apply);
  }

  /**
   * A Limit of a literal or parameter OFFSET and FETCH, applied as Calcite 1.41's code for it
   * does: a parameter's value cast to Integer, a literal's int value; null for other Limits.
   */
  private static Step limiting(EnumerableLimit limit) {
    if (!isValue(limit.offset) || !isValue(limit.fetch)) {
      return null;
    }
    RexNode offset = limit.offset;
    RexNode fetch = limit.fetch;
    return (rows, root) -> {
      Enumerable<Object> limited = rows;
      if (offset != null) {
        limited = limited.skip(value(offset, root));
      }
      if (fetch != null) {
        limited = limited.take(value(fetch, root));
      }
      return limited;
    };
  }

  private static boolean isValue(RexNode node) {
    return node == null || node instanceof RexLiteral || node instanceof RexDynamicParam;
  }

  private static int value(RexNode node, DataContext root) {
    return node instanceof RexDynamicParam parameter ? (Integer) root.get("?" + parameter.getIndex())
        : RexLiteral.intValue(node);
  }

  @Override
  public Enumerable<Object> bind(DataContext root) {
    Enumerable<Object> rows = QueryRunner.enumerable(root, query, NO_CORRELATED_VALUES);
    for (Step step : steps) {
      rows = step.apply(rows, root);
    }
    return rows;
  }

  @Override
  public Type getElementType() {
    return elementType;
  }
}
