package io.tablesql.store;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Locale;
import java.util.UUID;
import org.apache.calcite.avatica.util.ByteString;

/**
 * The one place where values become OData literals. Every value in a {@code $filter} passes
 * through {@link #render}, so no value can change the shape of a filter: strings are quoted with
 * their quotes doubled, everything else is produced from a typed value, never from text.
 */
public final class ODataLiteral {
  private ODataLiteral() {
  }

  /**
   * Renders {@code value} (Calcite's internal representation) as an OData literal of
   * {@code type}; {@code nextMillisecond} adds 1 ms to a DateTime.
   *
   * @throws IllegalArgumentException if the value cannot be expressed exactly in that type
   */
  public static String render(EdmType type, Object value, boolean nextMillisecond) {
    switch (type) {
      case STRING:
        return "'" + ((String) value).replace("'", "''") + "'";
      case INT32:
        return Integer.toString(Math.toIntExact(integral(value)));
      case INT64:
        return integral(value) + "L";
      case DOUBLE: {
        double d = ((Number) value).doubleValue();
        if (Double.isNaN(d) || Double.isInfinite(d)) {
          throw new IllegalArgumentException("no OData literal for " + d);
        }
        String text = BigDecimal.valueOf(d).toPlainString();
        return text.contains(".") ? text : text + ".0";
      }
      case BOOLEAN:
        return ((Boolean) value).toString();
      case DATETIME: {
        long millis = ((Number) value).longValue() + (nextMillisecond ? 1 : 0);
        return "datetime'" + Instant.ofEpochMilli(millis) + "'";
      }
      case GUID:
        return "guid'" + canonicalGuid((String) value) + "'";
      case BINARY:
        return "X'" + ((ByteString) value).toString(16) + "'";
      default:
        throw new IllegalArgumentException("no OData literal for type " + type);
    }
  }

  private static long integral(Object value) {
    if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
      return ((Number) value).longValue();
    }
    if (value instanceof BigDecimal decimal) {
      return decimal.longValueExact();
    }
    throw new IllegalArgumentException("not an integer: " + value);
  }

  /** The lower-case form the driver shows GUIDs in; anything else can equal no GUID. */
  public static boolean isCanonicalGuid(String text) {
    try {
      return UUID.fromString(text).toString().equals(text);
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  private static String canonicalGuid(String text) {
    if (!isCanonicalGuid(text)) {
      throw new IllegalArgumentException("not a GUID in canonical lower-case form: " + text);
    }
    return text.toLowerCase(Locale.ROOT);
  }
}
