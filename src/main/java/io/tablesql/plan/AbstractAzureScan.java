package io.tablesql.plan;

import io.tablesql.exec.LookupCache;
import io.tablesql.exec.QueryRunner;
import io.tablesql.schema.AzureTable;
import io.tablesql.schema.Column;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelFieldCollation;
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
  /** The order an ORDER BY right above this scan asks for, or empty; see {@link #keyCollations}. */
  final RelCollation sortAbove;

  AbstractAzureScan(RelOptCluster cluster, RelTraitSet traits, RelOptTable table, TableQuery query,
      List<RexNode> correlated, RelCollation sortAbove) {
    super(cluster, traits, List.of(), table);
    this.query = query;
    this.correlated = List.copyOf(correlated);
    this.sortAbove = sortAbove;
  }

  /**
   * The orders the scan's rows come in. Across partitions that is (PartitionKey, RowKey); where
   * the query fixes the PartitionKey by equality, RowKey alone too (also when PartitionKey is not
   * selected, as in Spark's top-N on one partition). Keys are never null, so each order holds
   * with nulls first or last alike; the planner compares collations exactly and keeps one per
   * list of fields, so the one declared puts nulls where {@code sortAbove} wants them.
   */
  static List<RelCollation> keyCollations(TableQuery query, RelCollation sortAbove) {
    if (!query.table().session().resultsInKeyOrder()) {
      return List.of(RelCollations.EMPTY);
    }
    int partition = query.projection().indexOf(query.shape().indexOf(Column.PARTITION_KEY));
    int row = query.projection().indexOf(query.shape().indexOf(Column.ROW_KEY));
    List<List<Integer>> orders = new ArrayList<>();
    if (partition >= 0) {
      orders.add(row < 0 ? List.of(partition) : List.of(partition, row));
    }
    if (row >= 0 && query.fixesPartition()) {
      orders.add(List.of(row));
      if (partition >= 0) {
        orders.add(List.of(row, partition));
      }
    }
    Set<RelCollation> collations = new TreeSet<>(); // a composite trait wants its parts sorted, once each
    for (List<Integer> order : orders) {
      collations.add(sameFieldsAscending(sortAbove, order) ? sortAbove
          : RelCollations.of(ImmutableIntList.copyOf(order)));
    }
    return collations.isEmpty() ? List.of(RelCollations.EMPTY) : List.copyOf(collations);
  }

  /** Whether the collation sorts ascending on exactly these fields, nulls wherever. */
  private static boolean sameFieldsAscending(RelCollation collation, List<Integer> fields) {
    return collation.getKeys().equals(fields) && collation.getFieldCollations().stream()
        .allMatch(field -> field.getDirection() == RelFieldCollation.Direction.ASCENDING);
  }

  /** Whether the collation is some key order of this scan with every direction reversed. */
  boolean isReverseKeyOrder(RelCollation collation) {
    if (collation.getFieldCollations().isEmpty() || collation.getFieldCollations().stream()
        .anyMatch(field -> field.getDirection() != RelFieldCollation.Direction.DESCENDING)) {
      return false;
    }
    return keyCollations(query, RelCollations.EMPTY).stream()
        .anyMatch(order -> order.getKeys().size() >= collation.getKeys().size()
            && order.getKeys().subList(0, collation.getKeys().size()).equals(collation.getKeys()));
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
        .itemIf("order", "reverse of key order, sorted in the client", isReverseKeyOrder(sortAbove))
        .itemIf("keyOrder", "unsorted", !query.table().session().resultsInKeyOrder());
  }

  @Override
  public double estimateRowCount(RelMetadataQuery mq) {
    return query.estimatedRows();
  }
}
