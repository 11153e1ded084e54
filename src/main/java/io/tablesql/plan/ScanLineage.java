package io.tablesql.plan;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.metadata.BuiltInMetadata;
import org.apache.calcite.rel.metadata.RelMdExpressionLineage;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexTableInputRef;
import org.apache.calcite.rex.RexTableInputRef.RelTableRef;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Which table column each output column of a scan of an {@link AzureTable} is, for Calcite's
 * expression lineage (its materialized-view rules rewrite queries by it). A scan that reads some
 * columns only ($select) has the table's RelOptTable but fewer fields: Calcite's own lineage of a
 * scan takes field i for column i, which for such a scan names another column (a filter on Email
 * was rewritten onto a view as a filter on Dept). The table hands Calcite this handler instead.
 */
final class ScanLineage extends RelMdExpressionLineage implements BuiltInMetadata.ExpressionLineage.Handler {
  static final ScanLineage INSTANCE = new ScanLineage();

  private ScanLineage() {
  }

  @Override
  public Set<RexNode> getExpressionLineage(RelNode rel, RelMetadataQuery mq, RexNode outputExpression) {
    List<Integer> projection = rel instanceof AbstractAzureScan scan ? scan.query().projection() : null;
    List<RelDataTypeField> tableFields = rel.getTable().getRowType().getFieldList();
    ImmutableBitSet used = RelOptUtil.InputFinder.bits(outputExpression);
    Map<RexInputRef, Set<RexNode>> mapping = new HashMap<>();
    for (int field : used) {
      int column = projection == null ? field : projection.get(field);
      mapping.put(RexInputRef.of(field, rel.getRowType().getFieldList()), Set.of(RexTableInputRef.of(
          RelTableRef.of(rel.getTable(), 0), RexInputRef.of(column, tableFields))));
    }
    return createAllPossibleExpressions(rel.getCluster().getRexBuilder(), outputExpression, mapping);
  }
}
