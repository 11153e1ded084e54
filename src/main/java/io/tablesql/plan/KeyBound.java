package io.tablesql.plan;

import io.tablesql.SqlStates;
import io.tablesql.keys.KeyLayout;
import io.tablesql.store.StoreException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * A PartitionKey or RowKey value computed from a declared table's leading key column values: the
 * encoded key (or key prefix), or with {@code successor} the least key after every key starting
 * with it.
 *
 * @param range whether the last value is that of a range condition ({@code c > v} and the like);
 *              the others are those of equalities
 */
record KeyBound(KeyLayout layout, boolean partition, boolean successor, boolean range) {

  KeyBound(KeyLayout layout, boolean partition, boolean successor) {
    this(layout, partition, successor, false);
  }

  /**
   * The bound for these values; null if one of them is NULL (a comparison with NULL matches
   * nothing) or an equality's value no key holds (1.505 for a DECIMAL(9, 2)).
   */
  String encode(List<Object> given) {
    if (given.contains(null)) {
      return null;
    }
    List<Object> values = new ArrayList<>(given);
    for (int i = 0; i < values.size(); i++) {
      KeyLayout.KeyColumn column = columns().get(i);
      int scale = column.component().scale();
      if (values.get(i) instanceof BigDecimal decimal && column.sqlType() == SqlTypeName.DECIMAL
          && decimal.stripTrailingZeros().scale() > scale) {
        if (!range || i < values.size() - 1) {
          return null;
        }
        // between two keys: c > 1.505 is c >= 1.51 and c <= 1.505 is c < 1.51, the bound of whichever the
        // successor (taken after the key, before it for DESC) keeps the range's rows in
        values.set(i, decimal.setScale(scale, successor == column.descending() ? RoundingMode.CEILING
            : RoundingMode.FLOOR));
      }
    }
    String key;
    try {
      key = partition ? layout.partitionKey(values) : layout.rowKey(values);
    } catch (IllegalArgumentException e) {
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
