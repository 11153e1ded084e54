package io.tablesql.query;

import io.tablesql.keys.KeyLayout;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * A PartitionKey or RowKey value computed from a declared table's leading key column values: the
 * encoded key (or key prefix), or with {@code successor} the least key after every key starting
 * with it.
 *
 * @param role what the last value is: an equality's (including a key prefix's bounds), where a
 *             value no key can hold matches nothing, or a range's lower or upper end, where it
 *             widens the bound to all keys with the values before it (the client checks the
 *             range again)
 */
public record KeyBound(KeyLayout layout, boolean partition, boolean successor, Role role) {
  public enum Role { EQUAL, LOWER, UPPER }

  /** Greater than every key the service holds (U+FFFF is no character, and keys are text). */
  private static final String KEYS_END = String.valueOf(Character.MAX_VALUE);

  /** The bound for these values; null if it matches nothing (a NULL, or a key no row can have). */
  String encode(List<Object> values) {
    if (values.contains(null)) {
      return null;
    }
    String key;
    try {
      key = layout.format(partition).encode(values);
    } catch (IllegalArgumentException e) {
      String start;
      try {
        start = layout.format(partition).encode(values.subList(0, values.size() - 1));
      } catch (IllegalArgumentException inPrefix) {
        return null;
      }
      if (role == Role.EQUAL) {
        return null;
      }
      String end = successorOfPrefix(start);
      return role == Role.LOWER ? start : end != null ? end : KEYS_END;
    }
    return successor ? successorOfPrefix(key) : key;
  }

  /** How EXPLAIN shows the bound of values not known when planning. */
  String describe(List<Operand> parts) {
    String values = IntStream.range(0, parts.size())
        .mapToObj(i -> columns().get(i).name() + "=" + (parts.get(i).isParameter() ? parts.get(i).label()
            : parts.get(i).literal()))
        .collect(Collectors.joining(", "));
    return (successor ? "after " : "") + "key(" + values + ")";
  }

  /** The least string greater than every string starting with {@code prefix}, or null if none. */
  public static String successorOfPrefix(String prefix) {
    StringBuilder s = new StringBuilder(prefix);
    while (s.length() > 0) {
      char last = s.charAt(s.length() - 1);
      if (last != Character.MAX_VALUE) {
        s.setCharAt(s.length() - 1, (char) (last + 1));
        return s.toString();
      }
      s.setLength(s.length() - 1);
    }
    return null;
  }

  private List<KeyLayout.KeyColumn> columns() {
    return partition ? layout.partition() : layout.row();
  }
}
