package io.tablesql.plan;

import io.tablesql.catalog.Column;
import io.tablesql.catalog.IndexDefinition;
import io.tablesql.catalog.TableDefinition;
import io.tablesql.query.AccessPath;
import io.tablesql.query.TableQuery;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.Strong;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Secondary indexes as access paths: the conditions on a table's indexed columns, translated
 * against the index's entries as against any declared table's key (equality and IN on its
 * leading columns give partitions, a range on the next column key bounds), become an INDEX
 * LOOKUP or INDEX RANGE SCAN when that is expected to send fewer requests than the table's own
 * access path. The client evaluates the whole condition again on the rows found.
 */
final class IndexPaths {
  private IndexPaths() {
  }

  static FilterTranslator.Result cheapest(TableQuery query, RexNode condition, RexBuilder rexBuilder,
      FilterTranslator.Result keyed) {
    TableDefinition definition = query.table().definition();
    if (definition == null || definition.indexes().isEmpty() || query.cached()) {
      return keyed;
    }
    List<RexNode> conjuncts = RelOptUtil.conjunctions(RexUtil.expandSearch(rexBuilder, null, condition));
    String client = new FilterTranslator(query, rexBuilder).describe(condition);
    FilterTranslator.Result best = keyed;
    double bestCost = cost(keyed.query());
    for (IndexDefinition index : definition.indexes()) {
      if (!index.ready()) {
        continue; // still being built: writes keep it, queries wait
      }
      if (!everyEntryColumnRejectsNull(query.columns(), definition, index, conjuncts)) {
        continue; // rows with a NULL in an indexed column have no entry, and could match
      }
      TableDefinition entries = index.entries(definition);
      TableQuery all = FullScans.fullScan(query.table().session(), entries);
      List<RexNode> usable = onIndexedColumns(query.columns(), entries, conjuncts, rexBuilder);
      if (usable.isEmpty()) {
        continue;
      }
      FilterTranslator.Result found = new FilterTranslator(all, rexBuilder)
          .translate(RexUtil.composeConjunction(rexBuilder, usable));
      if (found.query().path() == AccessPath.TABLE_SCAN || !found.correlated().isEmpty()
          || index.local() && !found.query().fixesPartition()) {
        continue; // no bound on the index's leading column, a lookup join's values, or every partition's entries
      }
      boolean range = usable.stream().anyMatch(c -> c.isA(SqlKind.COMPARISON) && !c.isA(SqlKind.EQUALS));
      TableQuery indexed = query.withIndex(new TableQuery.IndexAccess(index, found.query(),
          index.holdsValues() && covers(definition, index, query.columns())), range, client);
      double indexCost = cost(indexed);
      // on equal requests, the index reads fewer entities (a partition scan's $filter reads them all)
      if (indexCost < bestCost || indexCost == bestCost
          && found.query().estimatedRows() < best.query().estimatedRows()) {
        best = new FilterTranslator.Result(indexed, condition, List.of());
        bestCost = indexCost;
      }
    }
    return best;
  }

  /**
   * Whether every row the condition can match has an entry: each indexed column is NOT NULL, or
   * some conjunct is never true when it is NULL.
   */
  private static boolean everyEntryColumnRejectsNull(List<Column> columns, TableDefinition definition,
      IndexDefinition index, List<RexNode> conjuncts) {
    for (IndexDefinition.IndexColumn indexed : index.columns()) {
      if (!definition.column(indexed.column()).nullable()) {
        continue;
      }
      int field = -1;
      for (int i = 0; i < columns.size(); i++) {
        if (columns.get(i).name().equals(indexed.column())) {
          field = i;
        }
      }
      ImmutableBitSet nulls = field < 0 ? null : ImmutableBitSet.of(field);
      if (nulls == null || conjuncts.stream().noneMatch(conjunct -> Strong.isNotTrue(conjunct, nulls))) {
        return false;
      }
    }
    return true;
  }

  /** Requests in sequence: the rows an index names are read {@code maxConcurrency} at a time. */
  private static double cost(TableQuery query) {
    if (query.index() == null) {
      return query.estimatedRequests();
    }
    double rowReads = query.index().covered() ? 0
        : Math.ceil(query.estimatedRows() / query.table().session().maxConcurrency());
    return query.index().entries().estimatedRequests() + rowReads;
  }

  /**
   * Whether a covering index's entries hold every column needed: key columns, indexed and included
   * ones (an adopted index's entries are copies of the whole row).
   */
  private static boolean covers(TableDefinition definition, IndexDefinition index, List<Column> columns) {
    if (index.adopted()) {
      return true;
    }
    for (Column column : columns) {
      boolean held = definition.shape().keyPosition(column) >= 0 || index.include().contains(column.name())
          || index.columns().stream().anyMatch(c -> c.column().equals(column.name()));
      if (!held) {
        return false;
      }
    }
    return true;
  }

  /**
   * The conjuncts over the entries' key columns only (the indexed columns, and a local index's
   * partition columns), their field references renumbered to the entries' columns.
   */
  private static List<RexNode> onIndexedColumns(List<Column> columns, TableDefinition entries, List<RexNode> conjuncts,
      RexBuilder rexBuilder) {
    int[] target = new int[columns.size()];
    for (int i = 0; i < columns.size(); i++) {
      String name = columns.get(i).name();
      boolean keyed = entries.layout().columns().stream().anyMatch(key -> key.name().equals(name));
      target[i] = keyed ? entries.shape().indexOf(name) : -1;
    }
    RexShuttle renumber = new RexShuttle() {
      @Override
      public RexNode visitInputRef(RexInputRef ref) {
        return rexBuilder.makeInputRef(ref.getType(), target[ref.getIndex()]);
      }
    };
    List<RexNode> usable = new ArrayList<>();
    for (RexNode conjunct : conjuncts) {
      ImmutableBitSet fields = RelOptUtil.InputFinder.bits(conjunct);
      if (!fields.isEmpty() && fields.asList().stream().allMatch(f -> target[f] >= 0)) {
        usable.add(conjunct.accept(renumber));
      }
    }
    return usable;
  }
}
