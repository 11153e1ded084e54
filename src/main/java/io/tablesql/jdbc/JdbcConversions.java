package io.tablesql.jdbc;

import io.tablesql.errors.SqlExceptions;
import io.tablesql.errors.SqlStates;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Date;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.Temporal;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * The JDBC 4.2 conversions of {@code setObject} and {@code getObject(column, type)}: a Java value
 * to the value of an SQL type (as the delegate's typed setter takes it), and a column's value to
 * a Java class. Conversions are lossless, or fail with a 22xxx SQLState naming the value's place.
 * Time values follow {@link UtcWallClock}: TIMESTAMP is a {@link LocalDateTime} of the UTC wall
 * clock, DATE a {@link LocalDate}, TIME a {@link LocalTime}.
 */
final class JdbcConversions {
  /** Java classes read by way of an SQL type's value. */
  private static final Map<Class<?>, Integer> SQL_TYPE_OF_CLASS = Map.ofEntries(
      Map.entry(String.class, Types.VARCHAR), Map.entry(Boolean.class, Types.BOOLEAN),
      Map.entry(Byte.class, Types.TINYINT), Map.entry(Short.class, Types.SMALLINT),
      Map.entry(Integer.class, Types.INTEGER), Map.entry(Long.class, Types.BIGINT),
      Map.entry(Float.class, Types.REAL), Map.entry(Double.class, Types.DOUBLE),
      Map.entry(BigDecimal.class, Types.DECIMAL), Map.entry(byte[].class, Types.VARBINARY),
      Map.entry(LocalDateTime.class, Types.TIMESTAMP), Map.entry(LocalDate.class, Types.DATE),
      Map.entry(LocalTime.class, Types.TIME));

  private JdbcConversions() {
  }

  /**
   * A Java value as the value of an SQL type: LocalDateTime for TIMESTAMP, LocalDate, LocalTime,
   * the boxed number of a numeric type, BigDecimal, Boolean, String, byte[]; a type without a
   * conversion here (OTHER, JAVA_OBJECT, ...) gets the value unchanged.
   *
   * @param where how an error names the value, such as "parameter 2"
   */
  static Object toSqlType(Object value, int sqlType, String where) throws SQLException {
    if (value == null) {
      return null;
    }
    switch (sqlType) {
      case Types.TIMESTAMP: return toLocalDateTime(value, where);
      case Types.DATE: return toLocalDateTime(value, where).toLocalDate();
      case Types.TIME: return toLocalTime(value, where);
      case Types.BIGINT: return exactly(value, where, "BIGINT", BigDecimal::longValueExact);
      case Types.INTEGER: return exactly(value, where, "INTEGER", BigDecimal::intValueExact);
      case Types.SMALLINT: return exactly(value, where, "SMALLINT", BigDecimal::shortValueExact);
      case Types.TINYINT: return exactly(value, where, "TINYINT", BigDecimal::byteValueExact);
      case Types.DECIMAL:
      case Types.NUMERIC: return decimal(value, where);
      case Types.DOUBLE:
      case Types.FLOAT: return toDouble(value, where);
      case Types.REAL: return (float) (double) toDouble(value, where);
      case Types.BOOLEAN:
      case Types.BIT: return toBoolean(value, where);
      case Types.CHAR:
      case Types.VARCHAR:
      case Types.LONGVARCHAR:
      case Types.NCHAR:
      case Types.NVARCHAR:
      case Types.LONGNVARCHAR: return toText(value, where);
      case Types.BINARY:
      case Types.VARBINARY:
      case Types.LONGVARBINARY:
        if (value instanceof byte[]) {
          return value;
        }
        throw noConversion(value, where, "VARBINARY", "pass a byte[]");
      default:
        return value;
    }
  }

  /**
   * A column's value (as {@link #toSqlType} gives it for the column's type) as an instance of a
   * Java class. TIMESTAMP reads as LocalDateTime (UTC wall clock), OffsetDateTime at +00:00,
   * Instant, ZonedDateTime in UTC; java.sql.Timestamp, Date and Time show the wall clock in the
   * JVM's zone; LocalDate and LocalTime take the date or time of day as a cast would.
   */
  static <T> T toJavaClass(Object value, Class<T> type, String where) throws SQLException {
    if (value == null) {
      return null;
    }
    Integer sqlType = SQL_TYPE_OF_CLASS.get(type);
    if (sqlType != null) {
      return type.cast(toSqlType(value, sqlType, where));
    }
    ZoneId jvmZone = UtcWallClock.zone(null);
    if (type == OffsetDateTime.class) {
      return type.cast(toLocalDateTime(value, where).atOffset(ZoneOffset.UTC));
    } else if (type == Instant.class) {
      return type.cast(toLocalDateTime(value, where).toInstant(ZoneOffset.UTC));
    } else if (type == ZonedDateTime.class) {
      return type.cast(toLocalDateTime(value, where).atZone(ZoneOffset.UTC));
    } else if (type == Timestamp.class) {
      return type.cast(UtcWallClock.toTimestamp(toLocalDateTime(value, where), jvmZone));
    } else if (type == Date.class) {
      return type.cast(UtcWallClock.toDate(toLocalDateTime(value, where).toLocalDate(), jvmZone));
    } else if (type == Time.class) {
      return type.cast(UtcWallClock.toTime(toLocalTime(value, where), jvmZone));
    } else if (type == UUID.class) {
      return type.cast(toUuid(value, where));
    } else if (type == BigInteger.class) {
      return type.cast(exactly(value, where, "BigInteger", BigDecimal::toBigIntegerExact));
    } else if (type.isInstance(value)) {
      return type.cast(value);
    }
    throw noConversion(value, where, type.getName(), "read it as " + value.getClass().getSimpleName()
        + " or a class of the JDBC 4.2 tables");
  }

  private static LocalDateTime toLocalDateTime(Object value, String where) throws SQLException {
    if (value instanceof LocalDateTime wallClock) {
      return wallClock;
    } else if (value instanceof LocalDate date) {
      return date.atStartOfDay();
    } else if (value instanceof OffsetDateTime dateTime) {
      return dateTime.atZoneSameInstant(ZoneOffset.UTC).toLocalDateTime();
    } else if (value instanceof ZonedDateTime dateTime) {
      return dateTime.withZoneSameInstant(ZoneOffset.UTC).toLocalDateTime();
    } else if (value instanceof Instant instant) {
      return LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    } else if (value instanceof Timestamp timestamp) {
      return UtcWallClock.wallClockOf(timestamp, UtcWallClock.zone(null));
    } else if (value instanceof Date date) {
      return UtcWallClock.dateOf(date, UtcWallClock.zone(null)).atStartOfDay();
    } else if (value instanceof String text) {
      return parseDateTime(text.trim(), where);
    }
    throw noConversion(value, where, "TIMESTAMP",
        "pass a LocalDateTime (UTC wall clock), an OffsetDateTime, an Instant or a java.sql.Timestamp");
  }

  /** ISO or SQL text: a wall clock taken as UTC, or an instant with its offset. */
  private static LocalDateTime parseDateTime(String text, String where) throws SQLException {
    String iso = text.length() > 10 && text.charAt(10) == ' ' ? text.substring(0, 10) + 'T' + text.substring(11) : text;
    try {
      return iso.length() == 10 ? LocalDate.parse(iso).atStartOfDay() : LocalDateTime.parse(iso);
    } catch (DateTimeParseException notLocal) {
      try {
        return OffsetDateTime.parse(iso).atZoneSameInstant(ZoneOffset.UTC).toLocalDateTime();
      } catch (DateTimeParseException notOffset) {
        throw noConversion(text, where, "TIMESTAMP",
            "write it as 2014-04-22 14:19:55.123 (UTC) or 2014-04-22T14:19:55.123Z");
      }
    }
  }

  private static LocalTime toLocalTime(Object value, String where) throws SQLException {
    if (value instanceof LocalTime time) {
      return time;
    } else if (value instanceof Time time) {
      return UtcWallClock.timeOf(time, UtcWallClock.zone(null));
    } else if (value instanceof String text) {
      try {
        return LocalTime.parse(text.trim());
      } catch (DateTimeParseException e) {
        throw noConversion(text, where, "TIME", "write it as 14:19:55.123");
      }
    }
    return toLocalDateTime(value, where).toLocalTime();
  }

  /** Numbers, booleans (1 and 0) and numeric text, exactly. */
  private static BigDecimal decimal(Object value, String where) throws SQLException {
    if (value instanceof BigDecimal decimal) {
      return decimal;
    } else if (value instanceof BigInteger integer) {
      return new BigDecimal(integer);
    } else if (value instanceof Double || value instanceof Float) {
      double number = ((Number) value).doubleValue();
      if (Double.isNaN(number) || Double.isInfinite(number)) {
        throw SqlExceptions.of(where + ": " + number + " is not an exact number; pass a finite value.",
            SqlStates.NUMERIC_OUT_OF_RANGE);
      }
      return BigDecimal.valueOf(number);
    } else if (value instanceof Number number) {
      return BigDecimal.valueOf(number.longValue());
    } else if (value instanceof Boolean flag) {
      return flag ? BigDecimal.ONE : BigDecimal.ZERO;
    } else if (value instanceof String text) {
      try {
        return new BigDecimal(text.trim());
      } catch (NumberFormatException e) {
        throw noConversion(text, where, "a number", "pass digits such as 42 or -1.5");
      }
    }
    throw noConversion(value, where, "a number", "pass a Number, numeric text or a Boolean");
  }

  private interface Narrowing<T> {
    T apply(BigDecimal value);
  }

  private static <T> T exactly(Object value, String where, String typeName, Narrowing<T> narrowing)
      throws SQLException {
    BigDecimal decimal = decimal(value, where);
    try {
      return narrowing.apply(decimal);
    } catch (ArithmeticException e) {
      throw SqlExceptions.of(where + ": " + decimal.toPlainString() + " does not fit " + typeName
          + " without losing digits; use a wider type or round it first.", SqlStates.NUMERIC_OUT_OF_RANGE);
    }
  }

  private static Double toDouble(Object value, String where) throws SQLException {
    if (value instanceof Double || value instanceof Float) {
      return ((Number) value).doubleValue();
    }
    BigDecimal decimal = decimal(value, where);
    double number = decimal.doubleValue();
    boolean integral = decimal.signum() == 0 || decimal.stripTrailingZeros().scale() <= 0;
    // A fraction is always approximated by a DOUBLE; a whole number must survive the trip.
    if (Double.isInfinite(number) || integral && new BigDecimal(number).compareTo(decimal) != 0) {
      throw SqlExceptions.of(where + ": " + decimal.toPlainString() + " does not fit DOUBLE without losing digits; "
          + "use a BIGINT or DECIMAL value.", SqlStates.NUMERIC_OUT_OF_RANGE);
    }
    return number;
  }

  private static Boolean toBoolean(Object value, String where) throws SQLException {
    if (value instanceof Boolean flag) {
      return flag;
    } else if (value instanceof String text) {
      switch (text.trim().toLowerCase(Locale.ROOT)) {
        case "true": return true;
        case "false": return false;
        default: throw noConversion(text, where, "BOOLEAN", "write it as true or false");
      }
    } else if (value instanceof Number) {
      BigDecimal decimal = decimal(value, where);
      if (decimal.compareTo(BigDecimal.ONE) == 0 || decimal.signum() == 0) {
        return decimal.signum() != 0;
      }
    }
    throw noConversion(value, where, "BOOLEAN", "pass a Boolean, 1 or 0");
  }

  /** Text of a value: numbers plainly, UUIDs canonical, times as ISO-8601 in UTC (as DateTimes show in text columns). */
  private static String toText(Object value, String where) throws SQLException {
    if (value instanceof String text) {
      return text;
    } else if (value instanceof BigDecimal decimal) {
      return decimal.toPlainString();
    } else if (value instanceof Number || value instanceof Boolean || value instanceof UUID) {
      return value.toString();
    } else if (value instanceof LocalDate || value instanceof LocalTime) {
      return value.toString();
    } else if (value instanceof Date date) {
      return UtcWallClock.dateOf(date, UtcWallClock.zone(null)).toString();
    } else if (value instanceof Time time) {
      return UtcWallClock.timeOf(time, UtcWallClock.zone(null)).toString();
    } else if (value instanceof Temporal || value instanceof Timestamp) {
      return toLocalDateTime(value, where).toInstant(ZoneOffset.UTC).toString();
    }
    throw noConversion(value, where, "VARCHAR", "pass text, a number, a Boolean, a UUID or a date and time");
  }

  /** A GUID column's canonical text, or any text in a GUID's canonical form. */
  private static UUID toUuid(Object value, String where) throws SQLException {
    if (value instanceof String text) {
      try {
        UUID uuid = UUID.fromString(text.trim());
        if (uuid.toString().equalsIgnoreCase(text.trim())) { // fromString also takes shortened groups
          return uuid;
        }
      } catch (IllegalArgumentException e) {
        // reported below
      }
    }
    throw noConversion(value, where, "UUID", "only text of the form 5f0c6e2a-1b2c-4d5e-8f90-123456789abc converts");
  }

  private static SQLException noConversion(Object value, String where, String target, String advice) {
    String shown = value instanceof String text ? "'" + (text.length() > 40 ? text.substring(0, 40) + "…" : text) + "'"
        : "a " + value.getClass().getSimpleName();
    return SqlExceptions.of(where + ": " + shown + " cannot be converted to " + target + " without loss; " + advice
        + ".", SqlStates.INVALID_CONVERSION);
  }
}
