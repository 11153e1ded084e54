package io.tablesql.plan;

import org.apache.calcite.DataContext;

/**
 * A value in a table query: a literal known when planning, a statement parameter, or a value
 * of the other side of a lookup join (a correlation variable), the last two known only when the
 * query runs. Literals hold Calcite's internal representation (String, Integer, Long, Double,
 * Boolean, timestamp millis as Long, ByteString).
 *
 * @param parameter index of the statement parameter, or -1
 * @param slot      index into the values of the join's current batch, or -1
 * @param label     how EXPLAIN shows a parameter or correlated value
 */
public record Operand(Object literal, int parameter, int slot, String label) {
  public static Operand literal(Object value) {
    return new Operand(value, -1, -1, null);
  }

  public static Operand parameter(int index) {
    return new Operand(null, index, -1, "?" + index);
  }

  public static Operand correlated(int slot, String label) {
    return new Operand(null, -1, slot, label);
  }

  /** True unless the value is a literal. */
  public boolean isParameter() {
    return parameter >= 0 || slot >= 0;
  }

  /** The value for one execution; null when bound to NULL. */
  public Object resolve(DataContext root, Object[] correlated) {
    if (slot >= 0) {
      return correlated[slot];
    }
    return parameter >= 0 ? root.get("?" + parameter) : literal;
  }
}
