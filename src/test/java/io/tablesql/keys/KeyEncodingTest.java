package io.tablesql.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablesql.keys.KeyEncoding.Component;
import io.tablesql.keys.KeyEncoding.KeyType;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Property tests of the key encoding, with no backend: over random values and tuples of every
 * type, in both directions, encoded order is SQL order, decoding gives back what was encoded,
 * and every character is one the service allows in keys.
 */
class KeyEncodingTest {
  private static final int CASES = 4000;
  private final Random random = new Random(20261123);

  @Test
  void everyTypeKeepsItsOrderRoundTripsAndUsesOnlyAllowedCharacters() {
    for (KeyType type : KeyType.values()) {
      for (boolean descending : new boolean[] {false, true}) {
        List<Component> layout = List.of(new Component(type, descending, type == KeyType.DECIMAL ? 2 : 0));
        for (int i = 0; i < CASES; i++) {
          Object a = value(type);
          Object b = random.nextInt(8) == 0 ? a : value(type);
          String encodedA = KeyEncoding.encode(layout, List.of(a));
          String encodedB = KeyEncoding.encode(layout, List.of(b));
          int expected = compare(a, b) * (descending ? -1 : 1);
          assertThat(Integer.signum(encodedA.compareTo(encodedB))).as(type + " " + show(a) + " vs " + show(b)
              + (descending ? " DESC" : "")).isEqualTo(expected);
          assertThat(show(KeyEncoding.decode(layout, encodedA).get(0))).isEqualTo(show(a));
          assertAllowed(encodedA);
        }
      }
    }
  }

  @Test
  void tuplesSortLikeSqlAndLeadingColumnsArePrefixes() {
    List<Component> layout = List.of(Component.ascending(KeyType.VARCHAR), Component.descending(KeyType.BIGINT),
        Component.ascending(KeyType.TIMESTAMP));
    for (int i = 0; i < CASES; i++) {
      List<Object> a = List.of(value(KeyType.VARCHAR), value(KeyType.BIGINT), value(KeyType.TIMESTAMP));
      List<Object> b = random.nextBoolean() ? List.of(a.get(0), value(KeyType.BIGINT), value(KeyType.TIMESTAMP))
          : List.of(value(KeyType.VARCHAR), value(KeyType.BIGINT), value(KeyType.TIMESTAMP));
      int expected = compare(a.get(0), b.get(0));
      if (expected == 0) {
        expected = -compare(a.get(1), b.get(1));
      }
      if (expected == 0) {
        expected = compare(a.get(2), b.get(2));
      }
      String encodedA = KeyEncoding.encode(layout, a);
      assertThat(Integer.signum(encodedA.compareTo(KeyEncoding.encode(layout, b)))).isEqualTo(expected);
      assertThat(KeyEncoding.decode(layout, encodedA)).isEqualTo(a);
      // a range over the leading column is a prefix range of the keys
      assertThat(encodedA).startsWith(KeyEncoding.encode(layout, a.subList(0, 1)))
          .startsWith(KeyEncoding.encode(layout, a.subList(0, 2)));
    }
  }

  @Test
  void readableWhereTheGuideIsReadable() {
    assertThat(KeyEncoding.encode(List.of(Component.ascending(KeyType.VARCHAR)), List.of("empid_000123")))
        .isEqualTo("empid_000123!");
    assertThat(KeyEncoding.encode(List.of(Component.ascending(KeyType.INTEGER)), List.of(123)))
        .isEqualTo("P0000000123!");
    assertThat(KeyEncoding.encode(List.of(Component.ascending(KeyType.TIMESTAMP)),
        List.of(Instant.parse("2014-04-22T14:19:55.123Z")))).isEqualTo("20140422141955123!");
  }

  /** A component that holds NULL (a summary's group) sorts it after every value ascending, before them descending. */
  @Test
  void aNullableComponentSortsNullsHighAndRoundTripsThem() {
    for (KeyType type : KeyType.values()) {
      for (boolean descending : new boolean[] {false, true}) {
        List<Component> layout = List.of(new Component(type, descending, type == KeyType.DECIMAL ? 2 : 0, true),
            Component.ascending(KeyType.INTEGER));
        String nullKey = KeyEncoding.encode(layout, Arrays.asList(null, 7));
        assertAllowed(nullKey);
        assertThat(KeyEncoding.decode(layout, nullKey)).containsExactly(null, 7);
        for (int i = 0; i < CASES / 10; i++) {
          Object value = value(type);
          String key = KeyEncoding.encode(layout, Arrays.asList(value, 7));
          assertThat(Integer.signum(key.compareTo(nullKey))).as(type + " " + show(value) + (descending ? " DESC" : ""))
              .isEqualTo(descending ? 1 : -1);
          assertThat(show(KeyEncoding.decode(layout, key).get(0))).isEqualTo(show(value));
        }
      }
    }
  }

  @Test
  void valuesAKeyCannotHoldAreRefused() {
    List<Component> number = List.of(Component.ascending(KeyType.DOUBLE));
    assertThatThrownBy(() -> KeyEncoding.encode(number, List.of(Double.NaN))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> KeyEncoding.encode(number, Arrays.asList((Object) null)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> KeyEncoding.encode(List.of(Component.ascending(KeyType.INTEGER)), List.of(1L << 40)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> KeyEncoding.encode(List.of(new Component(KeyType.DECIMAL, false, 1)),
        List.of(new BigDecimal("1.25")))).isInstanceOf(IllegalArgumentException.class);
  }

  private static void assertAllowed(String key) {
    for (char c : key.toCharArray()) {
      assertThat(c).as(key).isBetween('!', '~').isNotIn('/', '\\', '#', '?');
    }
  }

  /** Random values, with the edges of each type often. */
  private Object value(KeyType type) {
    switch (type) {
      case VARCHAR: {
        StringBuilder text = new StringBuilder();
        for (int i = random.nextInt(6); i > 0; i--) {
          text.append(switch (random.nextInt(5)) {
            case 0 -> (char) random.nextInt(0x80);
            case 1 -> "aZ09_`!/\\#?~{".charAt(random.nextInt(13));
            case 2 -> (char) random.nextInt(0x10000);
            default -> (char) ('a' + random.nextInt(3));
          });
        }
        return text.toString();
      }
      case SMALLINT: return (short) edgy(Short.MIN_VALUE, Short.MAX_VALUE);
      case INTEGER: return (int) edgy(Integer.MIN_VALUE, Integer.MAX_VALUE);
      case BIGINT: return edgy(Long.MIN_VALUE, Long.MAX_VALUE);
      case DECIMAL: return BigDecimal.valueOf(edgy(-1_000_000_000_000L, 1_000_000_000_000L), 2);
      case DOUBLE: {
        double[] edges = {0.0, -0.0, Double.MIN_VALUE, -Double.MIN_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE,
            Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1.0, -1.0};
        return random.nextInt(3) == 0 ? edges[random.nextInt(edges.length)]
            : (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(40) - 20);
      }
      case BOOLEAN: return random.nextBoolean();
      case DATE: return LocalDate.ofEpochDay(edgy(LocalDate.of(1, 1, 1).toEpochDay(), LocalDate.of(9999, 12, 31).toEpochDay()));
      case TIMESTAMP: return Instant.ofEpochMilli(edgy(Instant.parse("0001-01-01T00:00:00Z").toEpochMilli(),
          Instant.parse("9999-12-31T23:59:59.999Z").toEpochMilli()));
      case UUID: return new UUID(random.nextLong(), random.nextLong());
      default: {
        byte[] bytes = new byte[random.nextInt(5)];
        random.nextBytes(bytes);
        return bytes;
      }
    }
  }

  private long edgy(long min, long max) {
    switch (random.nextInt(6)) {
      case 0: return min;
      case 1: return max;
      case 2: return random.nextInt(3) - 1;
      default: {
        long value = random.nextLong();
        return value < min ? min + Math.floorMod(value, Math.min(1_000_000_000L, max - min)) : value > max ? max - Math.floorMod(value, 1000) : value;
      }
    }
  }

  /** SQL's order: Java's for strings (UTF-16 units), numbers, booleans, times; unsigned bytes and UUID text. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static int compare(Object a, Object b) {
    if (a instanceof byte[] x) {
      return Integer.signum(Arrays.compareUnsigned(x, (byte[]) b));
    }
    if (a instanceof UUID) {
      return Integer.signum(a.toString().compareTo(b.toString()));
    }
    if (a instanceof Double x) {
      return Double.compare(x == 0.0 ? 0.0 : x, (Double) b == 0.0 ? 0.0 : (Double) b);
    }
    return Integer.signum(((Comparable) a).compareTo(b));
  }

  private static String show(Object value) {
    if (value instanceof byte[] bytes) {
      return Arrays.toString(bytes);
    }
    if (value instanceof Double x && x == 0.0) {
      return "0.0";
    }
    return String.valueOf(value);
  }
}
