package io.tablesql.plan;

import io.tablesql.catalog.Column;
import io.tablesql.catalog.IndexDefinition;
import io.tablesql.catalog.TableDefinition;
import io.tablesql.catalog.TableShape;
import io.tablesql.keys.KeyLayout;
import io.tablesql.query.AccessPath;
import io.tablesql.query.Operand;
import io.tablesql.query.ServiceFilter.And;
import io.tablesql.query.ServiceFilter.Comparison;
import io.tablesql.query.ServiceFilter.SequentialRanges;
import io.tablesql.query.ServiceFilter.Op;
import io.tablesql.query.ServiceFilter;
import io.tablesql.query.StoredTable;
import io.tablesql.query.TableQuery;
import io.tablesql.session.Session;
import io.tablesql.store.EdmType;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;

/**
 * Turns a WHERE condition over a table into the cheapest access path plus a {@code $filter},
 * and what the service cannot evaluate exactly like SQL into a residual condition for the client.
 *
 * <p>Exactness rests on three facts: the service compares type-strictly, a missing property (or
 * one of another type, which reads as NULL here) matches no {@code eq/lt/le/gt/ge} comparison,
 * and strings compare by ordinal order like Java's. So SQL's three-valued logic is kept by never
 * sending {@code ne} or {@code not} on properties: {@code x <> v} becomes
 * {@code x lt v or x gt v}, and NOT is pushed into the comparisons.
 */
public final class FilterTranslator {
  /** More keys than this are read by scans rather than by one GET each. */
  static final int MAX_POINTS = 100;

  private final TableQuery query;
  private final RexBuilder rexBuilder;

  /**
   * The result: the new query, the condition left to the client (null if none), and the values
   * of the other side of a lookup join its operands refer to, by slot.
   */
  public record Result(TableQuery query, RexNode residual, List<RexNode> correlated) {
  }

  /** The operands of key comparisons, and the lookup join's values the query takes. */
  private final KeyOperands operands = new KeyOperands();
  /** The conditions on properties, as {@code $filter} comparisons. */
  private final PropertyConditions conditions;

  public FilterTranslator(TableQuery query, RexBuilder rexBuilder) {
    this.query = query;
    this.rexBuilder = rexBuilder;
    this.conditions = new PropertyConditions(query, operands);
  }

  public Result translate(RexNode condition) {
    List<RexNode> conjuncts = RelOptUtil.conjunctions(RexUtil.expandSearch(rexBuilder, null, condition));
    if (query.shape().layout() != null) {
      return translateDeclared(conjuncts);
    }
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
        && partitionPoints.size() * rowPoints.size() <= MAX_POINTS) {
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
      return pointLookups(keys, residual);
    }
    for (RexNode conjunct : conjuncts) {
      List<TableQuery.Key> keys = keyPairs(conjunct);
      if (keys != null) {
        for (RexNode other : conjuncts) {
          if (other != conjunct) {
            residual.add(other);
          }
        }
        return pointLookups(keys, residual);
      }
    }

    if (partitionPoints != null && partitionPoints.size() > 1 && partitionPoints.size() <= MAX_POINTS) {
      List<RexNode> rest = new ArrayList<>(conjuncts);
      rest.remove(partitionConjunct);
      ServiceFilter filter = pushConjuncts(rest, ServiceFilter.MAX_COMPARISONS - 1, residual);
      RexNode client = compose(residual);
      return new Result(query.withAccess(AccessPath.MULTI_PARTITION_SCAN, List.of(), partitionPoints, filter,
          describe(client)), client, operands.correlated());
    }

    // One query: key comparisons first, so that they are the ones that fit in the filter.
    SequentialRanges keyRanges = null;
    RexNode keysetConjunct = null; // its ranges hold exactly its rows: nothing for the client to check
    for (RexNode conjunct : conjuncts) {
      KeysetRanges.Ranges found = keysets().overProperties(conjunct);
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
    ServiceFilter filter = pushConjuncts(ordered, budget, residual);
    AccessPath path = scanPath(filter);
    if (keyRanges != null) {
      filter = filter == null ? keyRanges : and(List.of(filter, keyRanges));
      path = AccessPath.RANGE_SCAN;
    }
    RexNode client = compose(residual);
    return new Result(query.withAccess(path, List.of(), List.of(), filter, describe(client)), client,
        operands.correlated());
  }

  /**
   * A table declared with a primary key: its key columns give the keys or key ranges (see
   * {@link KeyPredicates}), the other conditions a {@code $filter} as for any table.
   */
  private Result translateDeclared(List<RexNode> conjuncts) {
    KeyPredicates keys = new KeyPredicates(query.shape(), query.columns(), conjuncts, operands::key);
    List<RexNode> rest = new ArrayList<>(conjuncts);
    rest.removeAll(keys.absorbed);
    KeysetRanges.Ranges keyset = null;
    RexNode keysetConjunct = null;
    if (keys.rowPoints == null && (keys.partitionPoints == null || keys.partitionPoints.size() == 1)) {
      for (RexNode conjunct : rest) {
        keyset = keysets().overDeclaredKey(conjunct);
        if (keyset != null) {
          keysetConjunct = conjunct;
          keys.used.add(conjunct);
          break;
        }
      }
    }
    SequentialRanges keyRanges = keyset == null ? null : keyset.filter();
    String keyPredicate = keys.used.isEmpty() ? null : describe(compose(new ArrayList<>(keys.used)));
    List<RexNode> residual = new ArrayList<>();
    if (keys.partitionPoints != null && keys.rowPoints != null
        && keys.partitionPoints.size() * keys.rowPoints.size() <= MAX_POINTS) {
      List<TableQuery.Key> points = new ArrayList<>();
      for (Operand partition : keys.partitionPoints) {
        for (Operand row : keys.rowPoints) {
          points.add(new TableQuery.Key(partition, row));
        }
      }
      Result result = pointLookups(points, rest);
      return new Result(result.query().withKeyPredicate(keyPredicate), result.residual(), result.correlated());
    }
    List<ServiceFilter> bounds = new ArrayList<>(keys.rowBounds);
    List<Operand> partitions = List.of();
    AccessPath path = null;
    if (keys.partitionPoints != null && keys.partitionPoints.size() > 1) {
      partitions = keys.partitionPoints;
      path = AccessPath.MULTI_PARTITION_SCAN;
    } else if (keys.partitionPoints != null) {
      bounds.add(0, new Comparison(Column.PARTITION_KEY, Op.EQ, EdmType.STRING, keys.partitionPoints.get(0), false));
    } else {
      bounds.addAll(0, keys.partitionBounds);
    }
    KeyLayout.Discriminator discriminator = query.shape().layout().discriminator();
    if (discriminator != null) {
      bounds.add(new Comparison(discriminator.property(), Op.EQ, EdmType.STRING,
          Operand.literal(discriminator.value()), false));
    }
    // local index entries share the rows' partitions, with RowKeys above every row's: a bound on
    // every read of the rows, which is no range of their keys (the access path is decided without it)
    boolean belowEntries = TableQuery.holdsIndexEntries(query.table());
    int budget = ServiceFilter.MAX_COMPARISONS - (path == null ? 0 : 1) - bounds.size() - (belowEntries ? 1 : 0)
        - (keyRanges == null ? 0 : keyRanges.comparisons());
    if (keysetConjunct != null) {
      rest.remove(keysetConjunct);
      if (!keyset.exact()) {
        residual.add(keysetConjunct); // the ranges may be wider than the comparison: the client checks it again
      }
    }
    ServiceFilter others = pushConjuncts(rest, budget, residual);
    List<ServiceFilter> parts = new ArrayList<>(bounds);
    if (others != null) {
      parts.add(others);
    }
    AccessPath access = path != null ? path : scanPath(and(parts));
    if (keyRanges != null) {
      parts.add(keyRanges);
      access = AccessPath.RANGE_SCAN;
    }
    if (belowEntries) {
      parts.add(new Comparison(Column.ROW_KEY, Op.LT, EdmType.STRING,
          Operand.literal(String.valueOf(IndexDefinition.LOCAL_MARK)), false));
    }
    ServiceFilter filter = and(parts);
    RexNode client = compose(residual);
    TableQuery translated = query.withAccess(access, List.of(), partitions, filter, describe(client))
        .withKeyPredicate(keyPredicate);
    return new Result(translated, client, operands.correlated());
  }

  private KeysetRanges keysets() {
    return new KeysetRanges(query, rexBuilder, conditions::value, operands::key);
  }

  static ServiceFilter and(List<ServiceFilter> parts) {
    return parts.isEmpty() ? null : parts.size() == 1 ? parts.get(0) : new And(List.copyOf(parts));
  }

  private Result pointLookups(List<TableQuery.Key> keys, List<RexNode> residual) {
    AccessPath path = keys.size() == 1 ? AccessPath.POINT_LOOKUP : AccessPath.MULTI_POINT_LOOKUP;
    RexNode client = compose(residual);
    return new Result(query.withAccess(path, keys, List.of(), null, describe(client)), client, operands.correlated());
  }

  /** The client's part of the condition with column names for field references, for EXPLAIN. */
  String describe(RexNode client) {
    return client == null ? null : ExplainText.of(client, query.columns());
  }


  private RexNode compose(List<RexNode> residual) {
    return residual.isEmpty() ? null : RexUtil.composeConjunction(rexBuilder, residual);
  }

  /** Pushes the conjuncts that translate, within the comparison budget; the rest go to the residual. */
  private ServiceFilter pushConjuncts(List<RexNode> conjuncts, int budget, List<RexNode> residual) {
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

  private static AccessPath scanPath(ServiceFilter filter) {
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

  private boolean constrainsKey(RexNode node) {
    if (node instanceof RexCall call && !call.getOperands().isEmpty()) {
      Column column = conditions.column(call.getOperands().get(0));
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
    if (disjuncts.size() > MAX_POINTS) {
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
      Column column = conditions.column(operands.get(i));
      if (column != null && column.name().equals(keyColumn)) {
        return conditions.value(operands.get(1 - i), column, EdmType.STRING);
      }
    }
    return null;
  }

}
