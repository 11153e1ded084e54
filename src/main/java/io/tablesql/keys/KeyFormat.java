package io.tablesql.keys;

import io.tablesql.keys.KeyLayout.KeyColumn;
import java.util.List;

/**
 * How one key (PartitionKey or RowKey) is made of key column values: tablesql's order-preserving
 * encoding ({@link EncodedKey}), the template of an existing table's keys ({@link TemplateKey}), or
 * none, for a table without a primary key ({@link GeneratedKey}).
 * Values are in Calcite's representation of each column's SQL type.
 */
public sealed interface KeyFormat permits EncodedKey, TemplateKey, GeneratedKey, PrefixedKey {
  List<KeyColumn> columns();

  /**
   * The key of every column's value; given the leading columns' values only, the text every key
   * with those values starts with.
   *
   * @throws IllegalArgumentException for a value the key cannot hold
   */
  String encode(List<?> values);

  /**
   * The column values of a key.
   *
   * @throws IllegalArgumentException if the key is not in this format
   */
  List<Object> decode(String key);

  /**
   * Whether the keys of rows whose column {@code i} lies in a range lie between the keys of the
   * range's ends (after equal values of the columns before it): the column's text has a fixed
   * width or ends with a terminator, so no value's text is the start of another's.
   */
  boolean rangeKeepsOrder(int i);

  /** Whether column {@code i}'s part of a key can hold the value (a literal compared with it, say). */
  boolean accepts(int i, Object value);

  /** Whether the driver makes the key up for each row (a table without a primary key). */
  default boolean isGenerated() {
    return false;
  }

  /** Whether keys with equal values of the columns before {@code i} sort in the order of column {@code i}. */
  boolean sortsBy(int i);
}
