package io.tablesql.keys;

import io.tablesql.keys.KeyLayout.KeyColumn;
import java.util.List;

/**
 * An {@link EncodedKey} after fixed text: the RowKeys of a local index's entries, which share
 * their rows' partitions and sort after every row (the prefix starts with a character above the
 * key encoding's alphabet).
 */
public record PrefixedKey(String prefix, EncodedKey rest) implements KeyFormat {
  @Override
  public List<KeyColumn> columns() {
    return rest.columns();
  }

  @Override
  public String encode(List<?> values) {
    return prefix + rest.encode(values);
  }

  @Override
  public List<Object> decode(String key) {
    if (!key.startsWith(prefix)) {
      throw new IllegalArgumentException("not a key starting with " + prefix);
    }
    return rest.decode(key.substring(prefix.length()));
  }

  @Override
  public boolean rangeKeepsOrder(int i) {
    return rest.rangeKeepsOrder(i);
  }

  @Override
  public boolean accepts(int i, Object value) {
    return rest.accepts(i, value);
  }

  @Override
  public boolean sortsBy(int i) {
    return rest.sortsBy(i);
  }
}
