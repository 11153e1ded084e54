package io.tablesql.plan;

import io.tablesql.catalog.Column;
import io.tablesql.catalog.IndexDefinition;
import io.tablesql.keys.KeyLayout;
import io.tablesql.query.AccessPath;
import io.tablesql.query.Operand;
import io.tablesql.query.ServiceFilter.Comparison;
import io.tablesql.query.ServiceFilter.Op;
import io.tablesql.query.ServiceFilter.SequentialRanges;
import io.tablesql.query.ServiceFilter;
import io.tablesql.query.TableQuery;
import io.tablesql.store.EdmType;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rex.RexNode;

/**
 * The access path of a condition over a table declared with a primary key (or mapped over an
 * application's entities), one role of {@link FilterTranslator}: its key columns give keys or
 * key ranges ({@link KeyPredicates}), a keyset comparison of them sequential ranges
 * ({@link KeysetRanges}), the other conditions a {@code $filter} as for any table.
 */
final class DeclaredTablePaths {
  private final FilterTranslator translator;
  private final TableQuery query;

  DeclaredTablePaths(FilterTranslator translator) {
    this.translator = translator;
    this.query = translator.query;
  }

  FilterTranslator.Result translate(List<RexNode> conjuncts) {
    KeyPredicates keys = new KeyPredicates(query.shape(), query.columns(), conjuncts, translator.operands::key);
    List<RexNode> rest = new ArrayList<>(conjuncts);
    rest.removeAll(keys.absorbed);
    KeysetRanges.Ranges keyset = null;
    RexNode keysetConjunct = null;
    if (keys.rowPoints == null && (keys.partitionPoints == null || keys.partitionPoints.size() == 1)) {
      for (RexNode conjunct : rest) {
        keyset = translator.keysets().overDeclaredKey(conjunct);
        if (keyset != null) {
          keysetConjunct = conjunct;
          keys.used.add(conjunct);
          break;
        }
      }
    }
    SequentialRanges keyRanges = keyset == null ? null : keyset.filter();
    String keyPredicate = keys.used.isEmpty() ? null
        : translator.describe(translator.compose(new ArrayList<>(keys.used)));
    List<RexNode> residual = new ArrayList<>();
    if (keys.partitionPoints != null && keys.rowPoints != null
        && keys.partitionPoints.size() * keys.rowPoints.size() <= FilterTranslator.MAX_POINTS) {
      List<TableQuery.Key> points = new ArrayList<>();
      for (Operand partition : keys.partitionPoints) {
        for (Operand row : keys.rowPoints) {
          points.add(new TableQuery.Key(partition, row));
        }
      }
      FilterTranslator.Result result = translator.pointLookups(points, rest);
      return new FilterTranslator.Result(result.query().withKeyPredicate(keyPredicate), result.residual(),
          result.correlated());
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
    ServiceFilter others = translator.pushConjuncts(rest, budget, residual);
    List<ServiceFilter> parts = new ArrayList<>(bounds);
    if (others != null) {
      parts.add(others);
    }
    AccessPath access = path != null ? path : FilterTranslator.scanPath(FilterTranslator.and(parts));
    if (keyRanges != null) {
      parts.add(keyRanges);
      access = AccessPath.RANGE_SCAN;
    }
    if (belowEntries) {
      parts.add(new Comparison(Column.ROW_KEY, Op.LT, EdmType.STRING,
          Operand.literal(String.valueOf(IndexDefinition.LOCAL_MARK)), false));
    }
    FilterTranslator.Result result = translator.result(access, List.of(), partitions, FilterTranslator.and(parts),
        residual);
    return new FilterTranslator.Result(result.query().withKeyPredicate(keyPredicate), result.residual(),
        result.correlated());
  }
}
