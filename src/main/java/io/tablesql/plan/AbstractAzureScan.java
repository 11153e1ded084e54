package io.tablesql.plan;

import io.tablesql.exec.LookupCache;
import io.tablesql.exec.QueryRunner;
import io.tablesql.schema.AzureTable;
import io.tablesql.schema.Column;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.ImmutableIntList;

/**
 * What the logical and the executable table access share: one {@link TableQuery}, its row
 * type, and how EXPLAIN shows it. Where the service sorts results by key (Azure Storage), rows
 * come out in (PartitionKey, RowKey) order whatever the access path, which the collation trait
 * tells the planner so that ORDER BY on the key is free. Where it does not (the Cosmos DB Table
 * API), the scan declares no order, so every ORDER BY is sorted in the client.
 */
abstract class AbstractAzureScan extends TableScan {
  final TableQuery query;
  /** The values of a lookup join's other side that the query's operands refer to, by slot. */
  final List<RexNode> correlated;

  AbstractAzureScan(RelOptCluster cluster, RelTraitSet traits, RelOptTable table, TableQuery query,
      List<RexNode> correlated) {
    super(cluster, traits, List.of(), table);
    this.query = query;
    this.correlated = List.copyOf(correlated);
  }

  static RelCollation keyCollation(TableQuery query) {
    if (!query.table().session().resultsInKeyOrder()) {
      return RelCollations.EMPTY;
    }
    int partition = query.projection().indexOf(query.shape().indexOf(Column.PARTITION_KEY));
    int row = query.projection().indexOf(query.shape().indexOf(Column.ROW_KEY));
    if (partition < 0) {
      return RelCollations.EMPTY;
    }
    return row < 0 ? RelCollations.of(partition) : RelCollations.of(ImmutableIntList.of(partition, row));
  }

  public TableQuery query() {
    return query;
  }

  @Override
  public String getRelTypeName() {
    return "AzureTableScan";
  }

  @Override
  public RelDataType deriveRowType() {
    return AzureTable.rowType(getCluster().getTypeFactory(), query.columns());
  }

  @Override
  public RelWriter explainTerms(RelWriter pw) {
    List<String> select = query.select(false); // what a SELECT sends
    return super.explainTerms(pw)
        .item("access", (LookupCache.serves(query.table().session(), query.table().name()) ? "CACHED " : "")
            + query.accessLabel())
        .itemIf("keys", QueryRunner.describeKeys(query), !query.keys().isEmpty() || !query.partitions().isEmpty())
        .itemIf("$filter", query.filter() == null ? "" : query.filter().render(null), query.filter() != null)
        .itemIf("$select", select == null ? "" : String.join(",", select), select != null)
        .itemIf("limit", query.limit(), query.limit() != null)
        .itemIf("client", query.clientPredicate(), query.clientPredicate() != null)
        .itemIf("keyOrder", "unsorted", !query.table().session().resultsInKeyOrder());
  }

  @Override
  public double estimateRowCount(RelMetadataQuery mq) {
    return query.estimatedRows();
  }
}
