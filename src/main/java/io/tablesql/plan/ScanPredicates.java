package io.tablesql.plan;

import org.apache.calcite.plan.RelOptPredicateList;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.RelMetadataQuery;

/**
 * The predicates of a scan of an {@link AzureTable}, as Calcite's materialized-view rules ask
 * them ({@code RelMdAllPredicates} asks the table): none for a scan of the whole table, unknown
 * for one that carries its own keys, filter or limit. Calcite's own answer for a table scan is
 * "none", so a query whose filter was pushed into its scan looked like one over the whole table,
 * and an aggregate over it was answered from a summary view without the filter
 * ({@code WHERE Lvl = 1 GROUP BY Dept} gave every row's counts). Unknown predicates make the
 * rules leave such a query alone.
 */
final class ScanPredicates implements BuiltInMetadata.AllPredicates.Handler {
  static final ScanPredicates INSTANCE = new ScanPredicates();

  private ScanPredicates() {
  }

  @Override
  public RelOptPredicateList getAllPredicates(RelNode rel, RelMetadataQuery mq) {
    return rel instanceof AbstractAzureScan scan && !scan.query().readsWholeTable() ? null : RelOptPredicateList.EMPTY;
  }
}
