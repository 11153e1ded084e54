package io.tablesql.plan;

import org.apache.calcite.DataContext;

/**
 * A value in a table query: a literal known when planning, or a statement parameter known only
 * when the statement runs. Literals hold Calcite's internal representation (String, Integer,
 * Long, Double, Boolean, timestamp millis as Long, ByteString).
 */
public record Operand(Object literal, int parameter) {
  public static Operand literal(Object value) {
    return new Operand(value, -1);
  }

  public static Operand parameter(int index) {
    return new Operand(null, index);
  }

  public boolean isParameter() {
    return parameter >= 0;
  }

  /** The value for one execution; null when a parameter is bound to NULL. */
  public Object resolve(DataContext root) {
    return isParameter() ? root.get("?" + parameter) : literal;
  }
}
