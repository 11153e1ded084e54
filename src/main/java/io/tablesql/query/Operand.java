package io.tablesql.query;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.DataContext;

/**
 * A value in a table query: a literal known when planning, a statement parameter, a value of
 * the other side of a lookup join (a correlation variable), or the encoded key bound of a
 * declared table's key column values (some of which are known only when the query runs).
 * Literals hold Calcite's internal representation (String, Integer, Long, Double, Boolean,
 * timestamp millis as Long, ByteString).
 *
 * @param parameter index of the statement parameter, or -1
 * @param slot      index into the values of the join's current batch, or -1
 * @param label     how EXPLAIN shows a value not known when planning
 * @param bound     how {@code parts} encode into a key, or null
 * @param parts     the key column values of a key bound
 */
public record Operand(Object literal, int parameter, int slot, String label, KeyBound bound, List<Operand> parts) {
  public static Operand literal(Object value) {
    return new Operand(value, -1, -1, null, null, List.of());
  }

  public static Operand parameter(int index) {
    return new Operand(null, index, -1, "?" + index, null, List.of());
  }

  public static Operand correlated(int slot, String label) {
    return new Operand(null, -1, slot, label, null, List.of());
  }

  /** The key {@code bound} encodes from {@code parts}: a literal when they all are, else computed per execution. */
  public static Operand keyBound(KeyBound bound, List<Operand> parts) {
    if (parts.stream().noneMatch(Operand::isParameter)) {
      List<Object> values = new ArrayList<>();
      parts.forEach(part -> values.add(part.literal()));
      return literal(bound.encode(values));
    }
    int slot = parts.stream().mapToInt(Operand::slot).max().orElse(-1);
    return new Operand(null, -1, slot, bound.describe(parts), bound, List.copyOf(parts));
  }

  /** True unless the value is a literal. */
  public boolean isParameter() {
    return parameter >= 0 || slot >= 0 || bound != null;
  }

  /** The value for one execution; null when bound to NULL. */
  public Object resolve(DataContext root, Object[] correlated) {
    if (bound != null) {
      List<Object> values = new ArrayList<>(parts.size());
      for (Operand part : parts) {
        values.add(part.resolve(root, correlated));
      }
      return bound.encode(values);
    }
    if (slot >= 0) {
      return correlated[slot];
    }
    return parameter >= 0 ? root.get("?" + parameter) : literal;
  }
}
