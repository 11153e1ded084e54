package io.tablesql.plan;

import io.tablesql.catalog.Column;
import io.tablesql.exec.KeyRangeSplitter;
import io.tablesql.exec.QueryRunner;
import io.tablesql.keys.KeyLayout;
import io.tablesql.query.TableQuery;
import io.tablesql.store.EdmType;
import io.tablesql.store.ODataLiteral;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
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

/**
 * What the logical and the executable table access share: one {@link TableQuery}, its row
 * type, and how EXPLAIN shows it. Where the service sorts results by key (Azure Storage), rows
 * come out in (PartitionKey, RowKey) order whatever the access path, which the collation trait
 * tells the planner so that ORDER BY on the key is free. Where it does not (the Cosmos DB Table
 * API), the scan declares no order, so every ORDER BY is sorted in the client.
 */
abstract class AbstractAzureScan extends TableScan {
  /** Boundaries of a split scan EXPLAIN lists; a large table's ranges are counted beyond them. */
  private static final int SHOWN_BOUNDARIES = 16;
  final TableQuery query;
  /** The values of a lookup join's other side that the query's operands refer to, by slot. */
  final List<RexNode> correlated;
  /** The order an ORDER BY right above this scan asks for, or empty; see {@link #keyCollations}. */
  final RelCollation sortAbove;
  /**
   * The WHERE the query applies exactly, over the table's columns (not the scan's fields), or
   * null when it is not known: Calcite's materialized-view rules read it as the scan's
   * predicates ({@link ScanPredicates}).
   */
  final RexNode applied;

  AbstractAzureScan(RelOptCluster cluster, RelTraitSet traits, RelOptTable table, TableQuery query,
      List<RexNode> correlated, RelCollation sortAbove, RexNode applied) {
    super(cluster, traits, List.of(), table);
    this.query = query;
    this.correlated = List.copyOf(correlated);
    this.sortAbove = sortAbove;
    this.applied = applied;
  }

  /**
   * The orders the scan's rows come in. Across partitions that is (PartitionKey, RowKey); where
   * the query fixes the PartitionKey by equality, RowKey alone too (also when PartitionKey is not
   * selected, as in Spark's top-N on one partition). Keys are never null, so each order holds
   * with nulls first or last alike; the planner compares collations exactly and keeps one per
   * list of fields, so the one declared puts nulls where {@code sortAbove} wants them.
   */
  static List<RelCollation> keyCollations(TableQuery query, RelCollation sortAbove) {
    if (!query.table().session().resultsInKeyOrder() || query.index() != null) {
      return List.of(RelCollations.EMPTY); // rows found through an index come in the index's order
    }
    List<List<RelFieldCollation>> orders = query.shape().layout() != null ? declaredKeyOrders(query)
        : propertyKeyOrders(query);
    Set<RelCollation> collations = new TreeSet<>(); // a composite trait wants its parts sorted, once each
    for (List<RelFieldCollation> order : orders) {
      collations.add(RelCollations.of(withNullsOf(sortAbove, order, query)));
    }
    return collations.isEmpty() ? List.of(RelCollations.EMPTY) : List.copyOf(collations);
  }

  /** (PartitionKey, RowKey), and RowKey alone where the partition is fixed. */
  private static List<List<RelFieldCollation>> propertyKeyOrders(TableQuery query) {
    int partition = query.projection().indexOf(query.shape().indexOf(Column.PARTITION_KEY));
    int row = query.projection().indexOf(query.shape().indexOf(Column.ROW_KEY));
    List<List<RelFieldCollation>> orders = new ArrayList<>();
    if (partition >= 0) {
      orders.add(row < 0 ? List.of(new RelFieldCollation(partition))
          : List.of(new RelFieldCollation(partition), new RelFieldCollation(row)));
    }
    if (row >= 0 && query.fixesPartition()) {
      orders.add(List.of(new RelFieldCollation(row)));
      if (partition >= 0) {
        orders.add(List.of(new RelFieldCollation(row), new RelFieldCollation(partition)));
      }
    }
    return orders;
  }

  /**
   * A declared table's key columns in key order, each in its direction, up to the first one not
   * selected; and the row's key columns alone where the partition is fixed.
   */
  private static List<List<RelFieldCollation>> declaredKeyOrders(TableQuery query) {
    KeyLayout layout = query.shape().layout();
    List<List<RelFieldCollation>> orders = new ArrayList<>();
    orders.add(selectedInOrder(query, 0));
    if (query.fixesPartition()) {
      orders.add(selectedInOrder(query, layout.partition().size()));
    }
    orders.removeIf(List::isEmpty);
    return orders;
  }

  /** The key columns from {@code first} on, while they are selected and the keys sort by them. */
  private static List<RelFieldCollation> selectedInOrder(TableQuery query, int first) {
    KeyLayout layout = query.shape().layout();
    List<RelFieldCollation> order = new ArrayList<>();
    for (int position = first; position < layout.columns().size(); position++) {
      KeyLayout.KeyColumn key = layout.columns().get(position);
      int field = query.projection().indexOf(query.shape().indexOf(key.name()));
      if (field < 0 || !layout.sortsBy(position)) {
        break;
      }
      order.add(new RelFieldCollation(field, key.descending() ? RelFieldCollation.Direction.DESCENDING
          : RelFieldCollation.Direction.ASCENDING));
    }
    return order;
  }

  /**
   * The order with the null placement the ORDER BY above asks for where it sorts the same
   * fields the same way: keys are mostly never null, so either placement holds, and the planner
   * compares collations exactly. A key column that holds NULL (a summary's group) has it where
   * the encoding puts it: last ascending, first descending (the default placement).
   */
  private static List<RelFieldCollation> withNullsOf(RelCollation sortAbove, List<RelFieldCollation> order,
      TableQuery query) {
    List<RelFieldCollation> adjusted = new ArrayList<>();
    List<RelFieldCollation> wanted = sortAbove.getFieldCollations();
    for (int i = 0; i < order.size(); i++) {
      RelFieldCollation field = order.get(i);
      if (i < wanted.size() && wanted.get(i).getFieldIndex() == field.getFieldIndex()
          && wanted.get(i).getDirection() == field.getDirection() && !holdsNull(query, field)) {
        field = wanted.get(i);
      }
      adjusted.add(field);
    }
    return adjusted;
  }

  /** Whether the collation is some key order of this scan with every direction reversed. */
  boolean isReverseKeyOrder(RelCollation collation) {
    List<RelFieldCollation> wanted = collation.getFieldCollations();
    if (wanted.isEmpty()) {
      return false;
    }
    return keyCollations(query, RelCollations.EMPTY).stream().anyMatch(order -> {
      List<RelFieldCollation> provided = order.getFieldCollations();
      if (provided.size() < wanted.size()) {
        return false;
      }
      for (int i = 0; i < wanted.size(); i++) {
        if (provided.get(i).getFieldIndex() != wanted.get(i).getFieldIndex()
            || provided.get(i).getDirection() != wanted.get(i).getDirection().reverse()
            || holdsNull(query, provided.get(i)) && provided.get(i).nullDirection == wanted.get(i).nullDirection) {
          return false;
        }
      }
      return true;
    });
  }

  /** Whether the key column a field of the scan's order selects holds NULL (a summary's group). */
  private static boolean holdsNull(TableQuery query, RelFieldCollation field) {
    if (query.shape().layout() == null) {
      return false;
    }
    return query.shape().layout().holdsNull(
        query.shape().columns().get(query.projection().get(field.getFieldIndex())).name());
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

  /**
   * Calcite merges nodes that are deep-equal: the same explain terms and row types equal but for
   * their names. Two scans of one table's key columns of one type ({@code SELECT Yr ... UNION ALL
   * SELECT Mo ...}) send the same {@code $select} (keys are read from PartitionKey and RowKey), so
   * the columns they give count too: they were merged, and both sides gave Yr.
   */
  @Override
  public boolean deepEquals(Object other) {
    return super.deepEquals(other) && other instanceof AbstractAzureScan scan
        && scan.query.projection().equals(query.projection());
  }

  @Override
  public int deepHashCode() {
    return 31 * super.deepHashCode() + query.projection().hashCode();
  }

  @Override
  public RelWriter explainTerms(RelWriter pw) {
    List<String> select = query.select(); // what a SELECT sends
    int ranges = query.cached() ? 1 : KeyRangeSplitter.plannedRanges(query);
    List<String> boundaries = ranges > 1 ? KeyRangeSplitter.plannedBoundaries(query, ranges) : List.of();
    return super.explainTerms(pw)
        .item("access", (query.cached() ? "CACHED " : "") + query.accessLabel())
        .itemIf("split", ranges + " key ranges", ranges > 1)
        .itemIf("boundaries", describeBoundaries(boundaries), !boundaries.isEmpty())
        .itemIf("key", query.keyPredicate(), query.keyPredicate() != null)
        .itemIf("index", query.index() == null ? "" : describeIndex(query.index()), query.index() != null)
        .itemIf("keys", QueryRunner.describeKeys(query), !query.keys().isEmpty() || !query.partitions().isEmpty())
        .itemIf("$filter", query.filter() == null ? "" : query.filter().render(null), query.filter() != null)
        .itemIf("$select", select == null ? "" : String.join(",", select), select != null)
        .itemIf("limit", query.limit(), query.limit() != null)
        .itemIf("client", query.clientPredicate(), query.clientPredicate() != null)
        .itemIf("order", "reverse of key order, sorted in the client", isReverseKeyOrder(sortAbove))
        .itemIf("keyOrder", "unsorted", !query.table().session().resultsInKeyOrder());
  }

  /** The boundaries of a split scan: the first ones, and how many more where a large table has many ranges. */
  private static String describeBoundaries(List<String> boundaries) {
    String shown = boundaries.stream().limit(SHOWN_BOUNDARIES).map(key -> ODataLiteral.render(EdmType.STRING, key, false))
        .collect(Collectors.joining(", "));
    return boundaries.size() > SHOWN_BOUNDARIES ? shown + ", ... " + (boundaries.size() - SHOWN_BOUNDARIES) + " more"
        : shown;
  }

  /** The index's columns, how its entries are read, then that each row is read by its key. */
  private static String describeIndex(TableQuery.IndexAccess index) {
    TableQuery entries = index.entries();
    StringBuilder text = new StringBuilder(index.definition().name()).append(" (")
        .append(index.definition().describeColumns()).append("): ").append(entries.accessLabel());
    if (entries.keyPredicate() != null) {
      text.append(" key=").append(entries.keyPredicate());
    }
    if (!entries.keys().isEmpty() || !entries.partitions().isEmpty()) {
      text.append(" keys=").append(QueryRunner.describeKeys(entries));
    }
    if (entries.filter() != null) {
      text.append(" $filter=").append(entries.filter().render(null));
    }
    return text.append(index.covered() ? ", covering: no row read" : ", then each row by its key").toString();
  }

  @Override
  public double estimateRowCount(RelMetadataQuery mq) {
    return query.estimatedRows();
  }
}
