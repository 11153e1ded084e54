package io.tablesql.plan;

import io.tablesql.catalog.Column;
import io.tablesql.query.AccessPath;
import io.tablesql.query.ServiceFilter.And;
import io.tablesql.query.ServiceFilter.Comparison;
import io.tablesql.query.ServiceFilter.Op;
import io.tablesql.query.Operand;
import io.tablesql.query.ServiceFilter;
import io.tablesql.query.TableQuery;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;

/**
 * Turns a WHERE condition over a table into the cheapest access path plus a {@code $filter},
 * and what the service cannot evaluate exactly like SQL into a residual condition for the client.
 *
 * <p>Exactness rests on three facts: the service compares type-strictly, a missing property (or
 * one of another type, which reads as NULL here) matches no {@code eq/lt/le/gt/ge} comparison,
 * and strings compare by ordinal order like Java's. So SQL's three-valued logic is kept by never
 * sending {@code ne} or {@code not} on properties: {@code x <> v} becomes
 * {@code x lt v or x gt v}, and NOT is pushed into the comparisons.
 *
 * <p>It holds what one translation shares (the query, the operands of its key comparisons, the
 * lookup join's values it takes) and assembles the result; its roles choose the path
 * ({@link SampledTablePaths}, {@link DeclaredTablePaths}), translate conditions on properties
 * ({@link PropertyConditions}) and keyset comparisons ({@link KeysetRanges}).
 */
public final class FilterTranslator {
  /** More keys than this are read by scans rather than by one GET each. */
  static final int MAX_POINTS = 100;

  final TableQuery query;
  private final RexBuilder rexBuilder;

  /**
   * The result: the new query, the condition left to the client (null if none), and the values
   * of the other side of a lookup join its operands refer to, by slot.
   */
  public record Result(TableQuery query, RexNode residual, List<RexNode> correlated) {
  }

  /** The operands of key comparisons, and the lookup join's values the query takes. */
  final ComparisonOperands operands = new ComparisonOperands();
  /** The conditions on properties, as {@code $filter} comparisons. */
  final PropertyConditions conditions;

  public FilterTranslator(TableQuery query, RexBuilder rexBuilder) {
    this.query = query;
    this.rexBuilder = rexBuilder;
    this.conditions = new PropertyConditions(query, operands);
  }

  public Result translate(RexNode condition) {
    List<RexNode> conjuncts = RelOptUtil.conjunctions(RexUtil.expandSearch(rexBuilder, null, condition));
    if (query.shape().layout() != null) {
      return new DeclaredTablePaths(this).translate(conjuncts);
    }
    return new SampledTablePaths(this).translate(conjuncts);
  }

  KeysetRanges keysets() {
    return new KeysetRanges(query, rexBuilder, operands::property, operands::key);
  }

  static ServiceFilter and(List<ServiceFilter> parts) {
    return parts.isEmpty() ? null : parts.size() == 1 ? parts.get(0) : new And(List.copyOf(parts));
  }

  Result pointLookups(List<TableQuery.Key> keys, List<RexNode> residual) {
    return result(keys.size() == 1 ? AccessPath.POINT_LOOKUP : AccessPath.MULTI_POINT_LOOKUP, keys, List.of(), null,
        residual);
  }

  /** The query read by this path, with what the client checks of the condition. */
  Result result(AccessPath path, List<TableQuery.Key> keys, List<Operand> partitions, ServiceFilter filter,
      List<RexNode> residual) {
    RexNode client = compose(residual);
    return new Result(query.withAccess(path, keys, partitions, filter, describe(client)), client,
        operands.correlated());
  }

  /** The client's part of the condition with column names for field references, for EXPLAIN. */
  String describe(RexNode client) {
    return client == null ? null : ExplainText.of(client, query.columns());
  }

  RexNode compose(List<RexNode> residual) {
    return residual.isEmpty() ? null : RexUtil.composeConjunction(rexBuilder, residual);
  }

  /** Pushes the conjuncts that translate, within the comparison budget; the rest go to the residual. */
  ServiceFilter pushConjuncts(List<RexNode> conjuncts, int budget, List<RexNode> residual) {
    List<ServiceFilter> pushed = new ArrayList<>();
    int used = 0;
    for (RexNode conjunct : conjuncts) {
      PropertyConditions.Translation translation = conditions.translate(conjunct, false);
      if (translation != null && used + translation.filter().comparisons() <= budget) {
        pushed.add(translation.filter());
        used += translation.filter().comparisons();
        if (!translation.exact()) {
          residual.add(conjunct);
        }
      } else {
        residual.add(conjunct);
      }
    }
    return pushed.isEmpty() ? null : pushed.size() == 1 ? pushed.get(0) : new And(List.copyOf(pushed));
  }

  static AccessPath scanPath(ServiceFilter filter) {
    boolean partitionEquality = false;
    boolean partitionRange = false;
    boolean rowKey = false;
    for (ServiceFilter part : ServiceFilter.topLevelComparisons(filter)) {
      if (part instanceof Comparison c) {
        if (c.property().equals(Column.PARTITION_KEY)) {
          partitionEquality |= c.op() == Op.EQ;
          partitionRange |= c.op() != Op.EQ && c.op() != Op.NE;
        } else if (c.property().equals(Column.ROW_KEY)) {
          rowKey |= c.op() != Op.NE;
        }
      }
    }
    if (partitionEquality) {
      return rowKey ? AccessPath.RANGE_SCAN : AccessPath.PARTITION_SCAN;
    }
    return partitionRange ? AccessPath.RANGE_SCAN : AccessPath.TABLE_SCAN;
  }
}
