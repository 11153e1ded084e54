package io.tablesql;

import java.sql.SQLException;

/**
 * Balanced key ranges of a table, for readers that split one table into parallel reads, such as
 * Spark's {@code spark.read().jdbc(url, table, predicates, properties)}. Reach it with
 * {@code connection.unwrap(KeyRanges.class)}.
 */
public interface KeyRanges {
  /**
   * Up to {@code ranges} SQL conditions on the table's partition key (PartitionKey, or a declared
   * table's leading partition column), disjoint and together holding every row, each planned as
   * one key-range scan; {@code ["1 = 1"]} when the table is too small to split. The boundaries
   * are keys found by a few {@code $top=1} probes of the key space.
   */
  String[] keyRangePredicates(String table, int ranges) throws SQLException;
}
