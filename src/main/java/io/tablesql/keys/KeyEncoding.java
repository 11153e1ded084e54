package io.tablesql.keys;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * Format version 1 of the order-preserving encoding of typed key columns into a PartitionKey or
 * RowKey (see docs/architecture/tables.md, "Key encoding"): the service's ordinal order of encoded keys is
 * SQL's order of the key tuples, every character is one the service allows in keys, and decoding
 * gives back exactly the values encoded.
 */
public final class KeyEncoding {
  /** The format version this class writes and reads. */
  public static final int VERSION = 1;

  /** Ends every component; the smallest character of the alphabet. */
  static final char TERMINATOR = '!';
  /** Every character an encoded key may hold, in ascending order: printable ASCII without / \ # ? and space. */
  static final String ALPHABET;

  static {
    StringBuilder alphabet = new StringBuilder();
    for (char c = '!'; c <= '~'; c++) {
      if (c != '/' && c != '\\' && c != '#' && c != '?') {
        alphabet.append(c);
      }
    }
    ALPHABET = alphabet.toString();
  }

  private static final String DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("uuuuMMddHHmmssSSS", Locale.ROOT);
  private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("uuuuMMdd", Locale.ROOT);

  /** The SQL types a key column may have. */
  public enum KeyType {
    VARCHAR, SMALLINT, INTEGER, BIGINT, DOUBLE, DECIMAL, BOOLEAN, DATE, TIMESTAMP, UUID, VARBINARY
  }

  /**
   * Stands for NULL in a component that may hold it (a summary's group of NULLs): '~' followed
   * by a character no escape digit is, so it is no value's encoding and sorts after every value
   * (NULLs last ascending, first descending: SQL's and Calcite's default placement).
   */
  static final String NULL = "~~";

  /**
   * One key column as the encoding sees it.
   *
   * @param scale    digits after the point, for DECIMAL (its unscaled value is what is encoded)
   * @param nullable whether it holds NULL (as {@link #NULL}); only a summary's group columns do
   */
  public record Component(KeyType type, boolean descending, int scale, boolean nullable) {
    public Component(KeyType type, boolean descending, int scale) {
      this(type, descending, scale, false);
    }

    public static Component ascending(KeyType type) {
      return new Component(type, false, 0);
    }

    public static Component descending(KeyType type) {
      return new Component(type, true, 0);
    }
  }

  private KeyEncoding() {
  }

  /**
   * The key of the leading {@code values.size()} components of {@code layout} (all of them for a
   * whole key, fewer for the prefix that a range over leading columns starts with). Values are
   * String, Short/Integer/Long, Double, BigDecimal, Boolean, LocalDate, Instant, UUID or byte[].
   *
   * @throws IllegalArgumentException for a NULL where the component holds none, a NaN, or a
   *                                  value the type cannot hold
   */
  public static String encode(List<Component> layout, List<?> values) {
    if (values.size() > layout.size()) {
      throw new IllegalArgumentException(values.size() + " values for a key of " + layout.size() + " columns");
    }
    StringBuilder key = new StringBuilder();
    for (int i = 0; i < values.size(); i++) {
      Component component = layout.get(i);
      if (values.get(i) == null && !component.nullable()) {
        throw new IllegalArgumentException("a key column cannot be NULL");
      }
      int start = key.length();
      try {
        if (values.get(i) == null) {
          key.append(NULL);
        } else {
          encodeValue(component, values.get(i), key);
        }
      } catch (ArithmeticException | ClassCastException e) {
        throw new IllegalArgumentException("'" + values.get(i) + "' is not a " + component.type() + " key value", e);
      }
      key.append(TERMINATOR);
      if (component.descending()) {
        for (int j = start; j < key.length(); j++) {
          key.setCharAt(j, mirror(key.charAt(j)));
        }
      }
    }
    return key.toString();
  }

  /** The values of a key written by {@link #encode} with the same layout. */
  public static List<Object> decode(List<Component> layout, String key) {
    List<Object> values = new ArrayList<>();
    Reader reader = new Reader(key);
    for (Component component : layout) {
      reader.descending = component.descending();
      values.add(component.nullable() && reader.skip(NULL) ? null : decodeValue(component, reader));
      reader.expect(TERMINATOR);
    }
    if (!reader.atEnd()) {
      throw new IllegalArgumentException("key '" + key + "' holds more than " + layout.size() + " columns");
    }
    return values;
  }

  /** The character at the same distance from the other end of the alphabet: reverses order. */
  static char mirror(char c) {
    int index = ALPHABET.indexOf(c);
    if (index < 0) {
      throw new IllegalArgumentException("'" + c + "' is not in the key alphabet");
    }
    return ALPHABET.charAt(ALPHABET.length() - 1 - index);
  }

  private static void encodeValue(Component component, Object value, StringBuilder key) {
    switch (component.type()) {
      case VARCHAR -> encodeString((String) value, key);
      case SMALLINT -> encodeInteger(((Number) value).longValue(), Short.MIN_VALUE, 5, key);
      case INTEGER -> encodeInteger(((Number) value).longValue(), Integer.MIN_VALUE, 10, key);
      case BIGINT -> encodeInteger(((Number) value).longValue(), Long.MIN_VALUE, 19, key);
      case DECIMAL -> encodeInteger(((BigDecimal) value).setScale(component.scale()).unscaledValue().longValueExact(),
          Long.MIN_VALUE, 19, key);
      case DOUBLE -> encodeDouble(((Number) value).doubleValue(), key);
      case BOOLEAN -> key.append((Boolean) value ? '1' : '0');
      case DATE -> key.append(DATE.format(inKeyYears((LocalDate) value)));
      case TIMESTAMP -> key.append(TIMESTAMP.format(
          inKeyYears(LocalDateTime.ofInstant((Instant) value, ZoneOffset.UTC).toLocalDate())
              .atTime(LocalDateTime.ofInstant((Instant) value, ZoneOffset.UTC).toLocalTime())));
      case UUID -> key.append(value.toString().replace("-", ""));
      case VARBINARY -> key.append(HexFormat.of().withUpperCase().formatHex((byte[]) value));
      default -> throw new IllegalArgumentException("no key encoding for " + component.type());
    }
  }

  /** Dates are written with four-digit years. */
  private static LocalDate inKeyYears(LocalDate date) {
    if (date.getYear() < 1 || date.getYear() > 9999) {
      throw new IllegalArgumentException(date + " is outside the years 0001 to 9999 that keys hold");
    }
    return date;
  }

  /**
   * Letters, digits and '_' as themselves; every other UTF-16 unit as an escape character that
   * sorts where the unit does, then fixed-width base-36 digits of its place in its range.
   */
  private static void encodeString(String text, StringBuilder key) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (isPlain(c)) {
        key.append(c);
      } else if (c < '0') {
        escape('$', c, 2, key);
      } else if (c < 'A') {
        escape(':', c - ':', 1, key);
      } else if (c < '_') {
        escape('[', c - '[', 1, key);
      } else if (c == '`') {
        key.append('`');
      } else {
        escape('~', c - '{', 4, key);
      }
    }
  }

  private static boolean isPlain(char c) {
    return c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_';
  }

  private static void escape(char prefix, int offset, int width, StringBuilder key) {
    key.append(prefix);
    appendDigits(offset, width, key);
  }

  private static void appendDigits(long value, int width, StringBuilder key) {
    char[] digits = new char[width];
    for (int i = width - 1; i >= 0; i--) {
      digits[i] = DIGITS.charAt((int) (value % 36));
      value /= 36;
    }
    key.append(digits);
  }

  /** N or P, then the decimal digits of the value (negatives counted up from the type's minimum). */
  private static void encodeInteger(long value, long min, int width, StringBuilder key) {
    if (value < min || value > -(min + 1)) {
      throw new IllegalArgumentException(value + " is out of the column type's range");
    }
    String digits = Long.toString(value < 0 ? value - min : value);
    key.append(value < 0 ? 'N' : 'P').append("0".repeat(width - digits.length())).append(digits);
  }

  /** The IEEE bits with the sign flipped (and the rest too, for negatives): unsigned order is numeric order. */
  private static void encodeDouble(double value, StringBuilder key) {
    if (Double.isNaN(value)) {
      throw new IllegalArgumentException("NaN cannot be a key");
    }
    long bits = Double.doubleToLongBits(value == 0.0 ? 0.0 : value); // -0.0 is 0.0
    bits = bits < 0 ? ~bits : bits ^ Long.MIN_VALUE;
    key.append(String.format("%016X", bits));
  }

  private static Object decodeValue(Component component, Reader reader) {
    switch (component.type()) {
      case VARCHAR: return decodeString(reader);
      case SMALLINT: return (short) decodeInteger(reader, Short.MIN_VALUE, 5);
      case INTEGER: return (int) decodeInteger(reader, Integer.MIN_VALUE, 10);
      case BIGINT: return decodeInteger(reader, Long.MIN_VALUE, 19);
      case DECIMAL: return BigDecimal.valueOf(decodeInteger(reader, Long.MIN_VALUE, 19), component.scale());
      case DOUBLE: {
        long bits = Long.parseUnsignedLong(reader.take(16), 16);
        return Double.longBitsToDouble(bits < 0 ? bits ^ Long.MIN_VALUE : ~bits);
      }
      case BOOLEAN: return reader.take(1).equals("1");
      case DATE: return LocalDate.parse(reader.take(8), DATE);
      case TIMESTAMP: return LocalDateTime.parse(reader.take(17), TIMESTAMP).toInstant(ZoneOffset.UTC);
      case UUID: {
        String hex = reader.take(32);
        return java.util.UUID.fromString(hex.replaceFirst("(.{8})(.{4})(.{4})(.{4})(.{12})", "$1-$2-$3-$4-$5"));
      }
      case VARBINARY: return HexFormat.of().parseHex(reader.takeUntilTerminator());
      default: throw new IllegalArgumentException("no key encoding for " + component.type());
    }
  }

  private static String decodeString(Reader reader) {
    StringBuilder text = new StringBuilder();
    while (reader.peek() != TERMINATOR) {
      char c = reader.next();
      if (isPlain(c) || c == '`') {
        text.append(c);
      } else if (c == '$') {
        text.append((char) reader.digits(2));
      } else if (c == ':') {
        text.append((char) (':' + reader.digits(1)));
      } else if (c == '[') {
        text.append((char) ('[' + reader.digits(1)));
      } else if (c == '~') {
        text.append((char) ('{' + reader.digits(4)));
      } else {
        throw new IllegalArgumentException("'" + c + "' cannot appear in an encoded string");
      }
    }
    return text.toString();
  }

  private static long decodeInteger(Reader reader, long min, int width) {
    char sign = reader.next();
    long digits = Long.parseLong(reader.take(width));
    return sign == 'N' ? digits + min : digits;
  }

  /** Reads an encoded key, undoing the mirror of DESC components as it goes. */
  private static final class Reader {
    private final String key;
    private int position;
    private boolean descending;

    Reader(String key) {
      this.key = key;
    }

    char peek() {
      if (position >= key.length()) {
        throw new IllegalArgumentException("key '" + key + "' ends too early");
      }
      char c = key.charAt(position);
      return descending ? mirror(c) : c;
    }

    char next() {
      char c = peek();
      position++;
      return c;
    }

    String take(int count) {
      StringBuilder taken = new StringBuilder();
      for (int i = 0; i < count; i++) {
        taken.append(next());
      }
      return taken.toString();
    }

    /** Reads {@code text} if the key goes on with it (as written, before any mirror). */
    boolean skip(String text) {
      int start = position;
      for (int i = 0; i < text.length(); i++) {
        if (position >= key.length() || next() != text.charAt(i)) {
          position = start;
          return false;
        }
      }
      return true;
    }

    String takeUntilTerminator() {
      StringBuilder taken = new StringBuilder();
      while (peek() != TERMINATOR) {
        taken.append(next());
      }
      return taken.toString();
    }

    long digits(int width) {
      long value = 0;
      for (int i = 0; i < width; i++) {
        value = value * 36 + DIGITS.indexOf(next());
      }
      return value;
    }

    void expect(char c) {
      if (next() != c) {
        throw new IllegalArgumentException("key '" + key + "' is not in the layout's format");
      }
    }

    boolean atEnd() {
      return position == key.length();
    }
  }
}
