package io.tablesql.query;

import io.tablesql.catalog.Column;
import io.tablesql.catalog.IndexDefinition;
import io.tablesql.catalog.TableShape;
import io.tablesql.catalog.ValueParts;
import io.tablesql.txn.RowMarks;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Everything one table access sends to the service, as one immutable value: the access path,
 * the keys or partitions it targets, the {@code $filter}, the columns ({@code $select}) and a
 * row limit. Rules build it; {@link io.tablesql.exec.QueryRunner} runs it.
 *
 * @param keys        full keys, for POINT and MULTI-POINT LOOKUP
 * @param partitions  PartitionKeys, for MULTI-PARTITION SCAN
 * @param filter      the {@code $filter} of scans (each partition's, without its PartitionKey), or null
 * @param projection  indexes into the shape's columns of the columns produced
 * @param limit       the most rows needed, or null for all
 * @param clientPredicate what of the WHERE clause the client evaluates, as EXPLAIN shows it, or null
 * @param keyPredicate the conditions on a declared table's key columns that the keys or key
 *                     bounds come from, as EXPLAIN shows them, or null
 * @param cached       whether the table is a lookup table served from the cache (driver property
 *                     {@code lookupTables}), decided when the query is planned
 * @param index        for INDEX LOOKUP and INDEX RANGE SCAN, the index and the query of its entries;
 *                     otherwise null
 */
public record TableQuery(StoredTable table, TableShape shape, AccessPath path, List<Key> keys,
    List<Operand> partitions, ServiceFilter filter, List<Integer> projection, RowLimit limit, String clientPredicate,
    String keyPredicate, boolean cached, IndexAccess index) {

  /**
   * A secondary index as an access path: the query of its entries, and whether they hold every
   * column the query needs (a LOCAL index's, with its included columns), so rows need not be read.
   */
  public record IndexAccess(IndexDefinition definition, TableQuery entries, boolean covered) {
  }

  /** A full entity key. */
  public record Key(Operand partitionKey, Operand rowKey) {
  }

  private static boolean isMapped(TableShape shape) {
    return shape.layout() != null && shape.layout().isMapped();
  }

  /**
   * Whether every read of the table starts from bounds: a mapped table's, one holding local index
   * entries, or a local index's entries (their RowKey prefix).
   */
  public boolean hasBase() {
    return isMapped(shape) || holdsIndexEntries(table)
        || shape.layout() != null && shape.layout().rowFormat() instanceof io.tablesql.keys.PrefixedKey;
  }

  /**
   * Whether the table's Azure table holds tablesql's entries of its LOCAL indexes, which reads of
   * its rows leave out (adopted entries are the application's, outside the mapping's templates).
   */
  public static boolean holdsIndexEntries(StoredTable table) {
    return table != null && table.definition() != null
        && table.definition().indexes().stream().anyMatch(index -> index.local() && !index.adopted());
  }

  public TableQuery withAccess(AccessPath newPath, List<Key> newKeys, List<Operand> newPartitions,
      ServiceFilter newFilter, String newClientPredicate) {
    return new TableQuery(table, shape, newPath, List.copyOf(newKeys), List.copyOf(newPartitions), newFilter,
        projection, limit, newClientPredicate, keyPredicate, cached, null);
  }

  public TableQuery withProjection(List<Integer> newProjection) {
    return new TableQuery(table, shape, path, keys, partitions, filter, List.copyOf(newProjection), limit,
        clientPredicate, keyPredicate, cached, index);
  }

  /** The same query with another {@code $filter}. */
  public TableQuery withFilter(ServiceFilter newFilter) {
    return new TableQuery(table, shape, path, keys, partitions, newFilter, projection, limit, clientPredicate,
        keyPredicate, cached, index);
  }

  public TableQuery withLimit(RowLimit newLimit) {
    return new TableQuery(table, shape, path, keys, partitions, filter, projection, newLimit, clientPredicate,
        keyPredicate, cached, index);
  }

  public TableQuery withKeyPredicate(String newKeyPredicate) {
    return new TableQuery(table, shape, path, keys, partitions, filter, projection, limit, clientPredicate,
        newKeyPredicate, cached, index);
  }

  /**
   * The rows an index's entries name, each read by its key and checked against the entry: the
   * client evaluates the whole condition, {@code client}, again. {@code range}: a range of the
   * indexed values rather than equal ones.
   */
  public TableQuery withIndex(IndexAccess access, boolean range, String client) {
    AccessPath indexPath = range ? AccessPath.INDEX_RANGE_SCAN : AccessPath.INDEX_LOOKUP;
    return new TableQuery(table, shape, indexPath, List.of(), List.of(), null, projection, limit, client, null, cached,
        access);
  }

  /** Whether all rows share one PartitionKey: a single key, or an equality on it in the $filter. */
  public boolean fixesPartition() {
    return path == AccessPath.POINT_LOOKUP || ServiceFilter.topLevelComparisons(filter).stream()
        .anyMatch(part -> part instanceof ServiceFilter.Comparison comparison
            && comparison.property().equals(Column.PARTITION_KEY) && comparison.op() == ServiceFilter.Op.EQ);
  }

  /** The comparisons on PartitionKey that bound the whole query (top-level conjuncts of the $filter). */
  public List<ServiceFilter.Comparison> partitionKeyComparisons() {
    return ServiceFilter.topLevelComparisons(filter).stream()
        .filter(part -> part instanceof ServiceFilter.Comparison comparison
            && comparison.property().equals(Column.PARTITION_KEY))
        .map(ServiceFilter.Comparison.class::cast).collect(Collectors.toList());
  }

  public List<Column> columns() {
    List<Column> columns = new ArrayList<>(projection.size());
    for (int i : projection) {
      columns.add(shape.columns().get(i));
    }
    return columns;
  }

  /**
   * The {@code $select} list: the projected properties, plus both keys, {@link RowMarks#MARK} and
   * {@link RowMarks#DELETED}, which every read needs to tell a row an intent in flight marked (or
   * replaced by its tombstone) and to find what it was before.
   * Null (everything) when every column is projected.
   */
  public List<String> select() {
    if (projection.size() == shape.columns().size()) {
      return null;
    }
    // a row's keys and mark: a row an intent marked is read as committed (intent.CommittedReads), and
    // not written over while the intent is in flight (intent.IntentMarks.checkNotPending)
    List<String> names = new ArrayList<>(List.of(Column.PARTITION_KEY, Column.ROW_KEY, RowMarks.MARK, RowMarks.DELETED));
    if (isMapped(shape) && shape.layout().discriminator() != null) {
      names.add(shape.layout().discriminator().property());
    }
    for (Column column : columns()) {
      // a declared table's key columns are decoded from both keys, which are there already
      if (shape.keyPosition(column) < 0 && !names.contains(column.name())) {
        names.add(column.name());
        if (column.large()) {
          names.addAll(ValueParts.extraNames(column.name())); // read with the row: no second request
        } else if (ValueParts.widenable(column, shape.layout())) {
          names.add(ValueParts.countName(column.name())); // tells a row written after ALTER COLUMN ... TYPE
        }
      }
    }
    return names;
  }

  /** The access path as EXPLAIN shows it, with its key count where it has one. */
  public String accessLabel() {
    switch (path) {
      case INDEX_LOOKUP:
      case INDEX_RANGE_SCAN: return path.label() + " " + index.definition().name();
      case MULTI_POINT_LOOKUP: return path.label() + " ON " + keys.size() + " KEYS";
      case MULTI_PARTITION_SCAN: return path.label() + " ON " + partitions.size() + " PARTITIONS";
      default: return path.label();
    }
  }

  /** How many rows this access is expected to return, for costing. */
  public double estimatedRows() {
    double tableRows = shape.estimatedRowCount();
    double partitionRows = Math.max(1, Math.min(1000, tableRows / 10));
    double rows;
    switch (path) {
      case POINT_LOOKUP: rows = 1; break;
      case MULTI_POINT_LOOKUP: rows = keys.size(); break;
      case PARTITION_SCAN: rows = partitionRows; break;
      case RANGE_SCAN: rows = Math.max(1, partitionRows / 4); break;
      case MULTI_PARTITION_SCAN: rows = partitionRows * partitions.size(); break;
      case INDEX_LOOKUP:
      case INDEX_RANGE_SCAN: rows = indexedRows(); break;
      default: rows = tableRows;
    }
    if (filter != null && path != AccessPath.RANGE_SCAN && path != AccessPath.PARTITION_SCAN) {
      rows = Math.max(1, rows / (1 + filter.comparisons()));
    }
    Long known = limit == null ? null : limit.known();
    // a LIMIT ? is usually small: count it as one page
    return limit == null ? rows : Math.min(rows, known != null ? known : 1000);
  }

  /**
   * Rows an index's entries name: a UNIQUE index's equality one per value, another index's a few
   * (secondary keys are chosen to be selective), a range bounded on both sides as many as a range
   * of keys (or within one partition), a range open on one side half the table.
   */
  private double indexedRows() {
    TableQuery entries = index.entries();
    int values = Math.max(1, Math.max(entries.keys().size(), entries.partitions().size()));
    switch (entries.path()) {
      case POINT_LOOKUP:
      case MULTI_POINT_LOOKUP: return values;
      case PARTITION_SCAN:
      case MULTI_PARTITION_SCAN: return values * (index.definition().unique() ? 1 : 10);
      default: return entries.partitionKeyComparisons().size() >= 2 || entries.fixesPartition()
          ? entries.estimatedRows() : Math.max(1, shape.estimatedRowCount() / 2);
    }
  }

  /** The number of requests this access is expected to send, for costing. */
  public double estimatedRequests() {
    switch (path) {
      case INDEX_LOOKUP:
      case INDEX_RANGE_SCAN: return index.entries().estimatedRequests() + (index.covered() ? 0 : estimatedRows());
      case POINT_LOOKUP: return 1;
      case MULTI_POINT_LOOKUP: return keys.size();
      case MULTI_PARTITION_SCAN: return partitions.size();
      default: return Math.max(1, Math.ceil(estimatedRows() / 1000));
    }
  }
}
