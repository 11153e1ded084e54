package io.tablesql.plan;

import io.tablesql.keys.KeyLayout;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * A PartitionKey or RowKey value computed from a declared table's leading key column values: the
 * encoded key (or key prefix), or with {@code successor} the least key after every key starting
 * with it.
 *
 * @param role what the key is compared for: a value no key can hold then matches nothing
 *             (equality), or widens the bound to all keys with the values before it (a range end,
 *             whose exact condition the client checks again)
 */
record KeyBound(KeyLayout layout, boolean partition, boolean successor, Role role) {
  enum Role { EQUAL, LOWER, UPPER }

  /** The bound for these values; null if it matches nothing (a NULL, or a key no row can have). */
  String encode(List<Object> values) {
    if (values.contains(null)) {
      return null;
    }
    String key;
    try {
      key = layout.format(partition).encode(values);
    } catch (IllegalArgumentException e) {
      if (role == Role.EQUAL) {
        return null;
      }
      String start = layout.format(partition).encode(values.subList(0, values.size() - 1));
      return role == Role.LOWER ? start : FilterTranslator.successorOfPrefix(start);
    }
    return successor ? FilterTranslator.successorOfPrefix(key) : key;
  }

  /** How EXPLAIN shows the bound of values not known when planning. */
  String describe(List<Operand> parts) {
    String values = IntStream.range(0, parts.size())
        .mapToObj(i -> columns().get(i).name() + "=" + (parts.get(i).isParameter() ? parts.get(i).label()
            : parts.get(i).literal()))
        .collect(Collectors.joining(", "));
    return (successor ? "after " : "") + "key(" + values + ")";
  }

  private List<KeyLayout.KeyColumn> columns() {
    return partition ? layout.partition() : layout.row();
  }

  private String names(int count) {
    return columns().subList(0, count).stream().map(KeyLayout.KeyColumn::name).collect(Collectors.joining(", "));
  }
}
