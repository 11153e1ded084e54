package io.tablesql.plan;

import java.util.List;
import org.apache.calcite.plan.RelOptPredicateList;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexTableInputRef;
import org.apache.calcite.rex.RexTableInputRef.RelTableRef;

/**
 * The predicates of a scan of an {@link AzureTable}, as Calcite's materialized-view rules ask
 * them ({@code RelMdAllPredicates} asks the table): none for a scan of the whole table; the WHERE
 * pushed into it where its query applies that exactly (so that a summary view grouped by the
 * filtered column still answers, compensated by the same filter); unknown otherwise (a residual,
 * a limit, a lookup join's values). Calcite's own answer for a table scan is "none", so a query
 * whose filter was pushed into its scan looked like one over the whole table, and an aggregate
 * over it was answered from a summary view without the filter ({@code WHERE Lvl = 1 GROUP BY
 * Dept} gave every row's counts). Unknown predicates make the rules leave such a query alone.
 */
final class ScanPredicates implements BuiltInMetadata.AllPredicates.Handler {
  static final ScanPredicates INSTANCE = new ScanPredicates();

  private ScanPredicates() {
  }

  @Override
  public RelOptPredicateList getAllPredicates(RelNode rel, RelMetadataQuery mq) {
    if (!(rel instanceof AbstractAzureScan scan) || FullScans.readsWholeTable(scan.query())) {
      return RelOptPredicateList.EMPTY;
    }
    if (scan.applied == null || scan.query().limit() != null) {
      return null;
    }
    RelTableRef table = RelTableRef.of(rel.getTable(), 0); // the entity number Calcite's own lineage gives a scan
    RexNode lineage = scan.applied.accept(new RexShuttle() {
      @Override
      public RexNode visitInputRef(RexInputRef ref) {
        return RexTableInputRef.of(table, ref);
      }
    });
    return RelOptPredicateList.of(rel.getCluster().getRexBuilder(), List.of(lineage));
  }
}
