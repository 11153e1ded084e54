package io.tablesql.plan;

import io.tablesql.SqlStates;
import io.tablesql.keys.KeyLayout;
import io.tablesql.store.StoreException;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * A PartitionKey or RowKey value computed from a declared table's leading key column values: the
 * encoded key (or key prefix), or with {@code successor} the least key after every key starting
 * with it.
 *
 * @param equality whether the key is compared for equality: a value no key can hold then matches
 *                 nothing, where a range bound of such a value is an error
 */
record KeyBound(KeyLayout layout, boolean partition, boolean successor, boolean equality) {

  /** The bound for these values; null if it matches nothing (a NULL, or a key no row can have). */
  String encode(List<Object> values) {
    if (values.contains(null)) {
      return null;
    }
    String key;
    int last = values.size() - 1;
    int beyond = last < 0 ? 0 : layout.format(partition).beyondRange(last, values.get(last));
    if (beyond != 0 && !equality) {
      // a range end past what the field holds: the start or the end of the keys with the values before it
      String start = layout.format(partition).encode(values.subList(0, last));
      return beyond < 0 ? start : FilterTranslator.successorOfPrefix(start);
    }
    try {
      key = partition ? layout.partitionKey(values) : layout.rowKey(values);
    } catch (IllegalArgumentException e) {
      if (equality) {
        return null;
      }
      throw new StoreException("A value compared with the key columns " + names(values.size()) + " cannot be a key "
          + "value: " + e.getMessage() + ".", SqlStates.DATA_EXCEPTION, e);
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
