package io.tablesql.plan;

import io.tablesql.catalog.Column;
import io.tablesql.query.AccessPath;
import io.tablesql.query.Operand;
import io.tablesql.query.ServiceFilter.SequentialRanges;
import io.tablesql.query.ServiceFilter;
import io.tablesql.query.TableQuery;
import io.tablesql.store.EdmType;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;

/**
 * The access path of a condition over a table without a declared key (sampled, or created
 * without one), one role of {@link FilterTranslator}: whole keys are point lookups, PartitionKey
 * IN a multi-partition scan, keyset comparisons ranges, and the rest one query whose
 * {@code $filter} holds the key comparisons first.
 */
final class SampledTablePaths {
  private final FilterTranslator translator;
  private final TableQuery query;

  SampledTablePaths(FilterTranslator translator) {
    this.translator = translator;
    this.query = translator.query;
  }

  FilterTranslator.Result translate(List<RexNode> conjuncts) {
    List<RexNode> residual = new ArrayList<>();

    List<Operand> partitionPoints = null;
    List<Operand> rowPoints = null;
    RexNode partitionConjunct = null;
    RexNode rowConjunct = null;
    for (RexNode conjunct : conjuncts) {
      if (partitionPoints == null && (partitionPoints = equalities(conjunct, Column.PARTITION_KEY)) != null) {
        partitionConjunct = conjunct;
      } else if (rowPoints == null && (rowPoints = equalities(conjunct, Column.ROW_KEY)) != null) {
        rowConjunct = conjunct;
      }
    }

    // Full keys: one GET per key; a GET cannot filter, so everything else stays in the client.
    if (partitionPoints != null && rowPoints != null
        && partitionPoints.size() * rowPoints.size() <= FilterTranslator.MAX_POINTS) {
      List<TableQuery.Key> keys = new ArrayList<>();
      for (Operand partition : partitionPoints) {
        for (Operand row : rowPoints) {
          keys.add(new TableQuery.Key(partition, row));
        }
      }
      for (RexNode conjunct : conjuncts) {
        if (conjunct != partitionConjunct && conjunct != rowConjunct) {
          residual.add(conjunct);
        }
      }
      return translator.pointLookups(keys, residual);
    }
    for (RexNode conjunct : conjuncts) {
      List<TableQuery.Key> keys = keyPairs(conjunct);
      if (keys != null) {
        for (RexNode other : conjuncts) {
          if (other != conjunct) {
            residual.add(other);
          }
        }
        return translator.pointLookups(keys, residual);
      }
    }

    if (partitionPoints != null && partitionPoints.size() > 1
        && partitionPoints.size() <= FilterTranslator.MAX_POINTS) {
      List<RexNode> rest = new ArrayList<>(conjuncts);
      rest.remove(partitionConjunct);
      ServiceFilter filter = translator.pushConjuncts(rest, ServiceFilter.MAX_COMPARISONS - 1, residual);
      return translator.result(AccessPath.MULTI_PARTITION_SCAN, List.of(), partitionPoints, filter, residual);
    }

    // One query: key comparisons first, so that they are the ones that fit in the filter.
    SequentialRanges keyRanges = null;
    RexNode keysetConjunct = null; // its ranges hold exactly its rows: nothing for the client to check
    for (RexNode conjunct : conjuncts) {
      KeysetRanges.Ranges found = translator.keysets().overProperties(conjunct);
      if (found != null) {
        keyRanges = found.filter();
        keysetConjunct = conjunct;
        break;
      }
    }
    List<RexNode> ordered = new ArrayList<>();
    for (RexNode conjunct : conjuncts) {
      if (conjunct != keysetConjunct && constrainsKey(conjunct)) {
        ordered.add(conjunct);
      }
    }
    for (RexNode conjunct : conjuncts) {
      if (conjunct != keysetConjunct && !constrainsKey(conjunct)) {
        ordered.add(conjunct);
      }
    }
    int budget = ServiceFilter.MAX_COMPARISONS - (keyRanges == null ? 0 : keyRanges.comparisons());
    ServiceFilter filter = translator.pushConjuncts(ordered, budget, residual);
    AccessPath path = FilterTranslator.scanPath(filter);
    if (keyRanges != null) {
      filter = filter == null ? keyRanges : FilterTranslator.and(List.of(filter, keyRanges));
      path = AccessPath.RANGE_SCAN;
    }
    return translator.result(path, List.of(), List.of(), filter, residual);
  }

  private boolean constrainsKey(RexNode node) {
    if (node instanceof RexCall call && !call.getOperands().isEmpty()) {
      Column column = translator.conditions.column(call.getOperands().get(0));
      return column != null && column.isKey();
    }
    return false;
  }

  /** {@code column = v}, or an OR of such: the values; otherwise null. */
  private List<Operand> equalities(RexNode node, String keyColumn) {
    List<Operand> values = new ArrayList<>();
    for (RexNode disjunct : RelOptUtil.disjunctions(node)) {
      Operand value = keyEquality(disjunct, keyColumn);
      if (value == null) {
        return null;
      }
      values.add(value);
    }
    return values;
  }

  /** An OR of branches that each fix PartitionKey and RowKey and nothing else: the keys. */
  private List<TableQuery.Key> keyPairs(RexNode node) {
    List<RexNode> disjuncts = RelOptUtil.disjunctions(node);
    if (disjuncts.size() > FilterTranslator.MAX_POINTS) {
      return null;
    }
    List<TableQuery.Key> keys = new ArrayList<>();
    for (RexNode disjunct : disjuncts) {
      List<RexNode> parts = RelOptUtil.conjunctions(disjunct);
      if (parts.size() != 2) {
        return null;
      }
      Operand partition = keyEquality(parts.get(0), Column.PARTITION_KEY);
      Operand row = keyEquality(parts.get(1), Column.ROW_KEY);
      if (partition == null || row == null) {
        partition = keyEquality(parts.get(1), Column.PARTITION_KEY);
        row = keyEquality(parts.get(0), Column.ROW_KEY);
      }
      if (partition == null || row == null) {
        return null;
      }
      keys.add(new TableQuery.Key(partition, row));
    }
    return keys;
  }

  private Operand keyEquality(RexNode node, String keyColumn) {
    if (node.getKind() != SqlKind.EQUALS) {
      return null;
    }
    List<RexNode> operands = ((RexCall) node).getOperands();
    for (int i = 0; i < 2; i++) {
      Column column = translator.conditions.column(operands.get(i));
      if (column != null && column.name().equals(keyColumn)) {
        return translator.operands.property(operands.get(1 - i), column, EdmType.STRING);
      }
    }
    return null;
  }
}
