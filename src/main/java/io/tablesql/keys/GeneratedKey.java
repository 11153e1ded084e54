package io.tablesql.keys;

import io.tablesql.keys.KeyLayout.KeyColumn;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The key of a table declared without a primary key: no column makes it up; the driver makes
 * one for each row it inserts. The PartitionKey is one of {@value #BUCKETS} buckets, chosen per
 * statement (per transaction inside one), so that writes spread over partitions (not the guide's
 * append-only hot partition) while a statement's rows stay one entity group; the RowKey is the
 * time in milliseconds and 64 random bits, unique. Both keys have this one format.
 */
public record GeneratedKey() implements KeyFormat {
  static final int BUCKETS = 16;

  /** A bucket for the rows of one statement or transaction. */
  public static String newPartitionKey() {
    return Integer.toHexString(ThreadLocalRandom.current().nextInt(BUCKETS));
  }

  /** A RowKey no other row has. */
  public static String newRowKey() {
    return String.format("%013x%016x", System.currentTimeMillis(), ThreadLocalRandom.current().nextLong());
  }

  @Override
  public List<KeyColumn> columns() {
    return List.of();
  }

  /** No values make up the key, so no text starts every key. */
  @Override
  public String encode(List<?> values) {
    return "";
  }

  @Override
  public List<Object> decode(String key) {
    return List.of();
  }

  @Override
  public boolean accepts(int i, Object value) {
    return false;
  }

  @Override
  public boolean rangeKeepsOrder(int i) {
    return false;
  }

  @Override
  public boolean sortsBy(int i) {
    return false;
  }

  @Override
  public boolean isGenerated() {
    return true;
  }
}
