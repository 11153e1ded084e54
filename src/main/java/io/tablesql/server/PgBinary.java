package io.tablesql.server;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.sql.Date;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

/**
 * Values in PostgreSQL's binary format (what a client asks for with format code 1), and the
 * parameters a client binds, in either format, as the Java values tablesql's driver takes.
 */
final class PgBinary {
  /** PostgreSQL's epoch for dates and timestamps. */
  private static final LocalDateTime EPOCH = LocalDateTime.of(2000, 1, 1, 0, 0);
  private static final int NUMERIC_NEGATIVE = 0x4000;

  private PgBinary() {
  }

  /** Column {@code column} of the current row in binary format; null for SQL NULL. */
  static byte[] value(ResultSet rows, int column, int oid) throws SQLException {
    switch (oid) {
      case PgTypes.BOOL: {
        boolean value = rows.getBoolean(column);
        return rows.wasNull() ? null : new byte[] {(byte) (value ? 1 : 0)};
      }
      case PgTypes.INT2: {
        short value = rows.getShort(column);
        return rows.wasNull() ? null : ByteBuffer.allocate(2).putShort(value).array();
      }
      case PgTypes.INT4: {
        int value = rows.getInt(column);
        return rows.wasNull() ? null : ByteBuffer.allocate(4).putInt(value).array();
      }
      case PgTypes.INT8: {
        long value = rows.getLong(column);
        return rows.wasNull() ? null : ByteBuffer.allocate(8).putLong(value).array();
      }
      case PgTypes.FLOAT4: {
        float value = rows.getFloat(column);
        return rows.wasNull() ? null : ByteBuffer.allocate(4).putFloat(value).array();
      }
      case PgTypes.FLOAT8: {
        double value = rows.getDouble(column);
        return rows.wasNull() ? null : ByteBuffer.allocate(8).putDouble(value).array();
      }
      case PgTypes.BYTEA:
        return rows.getBytes(column);
      case PgTypes.DATE: {
        Date value = rows.getDate(column);
        return value == null ? null
            : ByteBuffer.allocate(4).putInt((int) ChronoUnit.DAYS.between(EPOCH.toLocalDate(), value.toLocalDate()))
                .array();
      }
      case PgTypes.TIMESTAMP: {
        Timestamp value = rows.getTimestamp(column);
        return value == null ? null
            : ByteBuffer.allocate(8).putLong(ChronoUnit.MICROS.between(EPOCH, value.toLocalDateTime())).array();
      }
      case PgTypes.UUID: {
        String value = rows.getString(column);
        if (value == null) {
          return null;
        }
        UUID uuid = UUID.fromString(value);
        return ByteBuffer.allocate(16).putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits())
            .array();
      }
      case PgTypes.NUMERIC: {
        BigDecimal value = rows.getBigDecimal(column);
        return value == null ? null : numeric(value);
      }
      default: {
        String value = rows.getString(column);
        return value == null ? null : value.getBytes(StandardCharsets.UTF_8);
      }
    }
  }

  /** A decimal as PostgreSQL's numeric: base-10000 digits around the decimal point, a weight, a sign and a scale. */
  static byte[] numeric(BigDecimal value) {
    int scale = Math.max(0, value.scale());
    String plain = value.abs().setScale(scale).toPlainString();
    int dot = plain.indexOf('.');
    String integer = dot < 0 ? plain : plain.substring(0, dot);
    String fraction = dot < 0 ? "" : plain.substring(dot + 1);
    integer = "0".repeat((4 - integer.length() % 4) % 4) + integer;
    fraction = fraction + "0".repeat((4 - fraction.length() % 4) % 4);
    String digits = integer + fraction;
    int groups = digits.length() / 4;
    int weight = integer.length() / 4 - 1;
    int first = 0;
    while (first < groups && digits.startsWith("0000", first * 4)) {
      first++;
      weight--;
    }
    int last = groups;
    while (last > first && digits.startsWith("0000", (last - 1) * 4)) {
      last--;
    }
    if (first == last) {
      weight = 0;
    }
    ByteBuffer buffer = ByteBuffer.allocate(8 + 2 * (last - first));
    buffer.putShort((short) (last - first)).putShort((short) weight)
        .putShort((short) (value.signum() < 0 ? NUMERIC_NEGATIVE : 0)).putShort((short) scale);
    for (int g = first; g < last; g++) {
      buffer.putShort(Short.parseShort(digits.substring(g * 4, g * 4 + 4)));
    }
    return buffer.array();
  }

  private static BigDecimal numericOf(byte[] bytes) {
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    int count = buffer.getShort();
    int weight = buffer.getShort();
    int sign = buffer.getShort() & 0xffff;
    int scale = buffer.getShort();
    if (sign == 0xC000) {
      throw new NumberFormatException("NaN is not a value tablesql's DECIMAL holds");
    }
    BigInteger unscaled = BigInteger.ZERO;
    for (int i = 0; i < count; i++) {
      unscaled = unscaled.multiply(BigInteger.valueOf(10_000)).add(BigInteger.valueOf(buffer.getShort()));
    }
    BigDecimal value = new BigDecimal(unscaled).scaleByPowerOfTen(4 * (weight - count + 1)).setScale(scale,
        java.math.RoundingMode.UNNECESSARY);
    return sign == NUMERIC_NEGATIVE ? value.negate() : value;
  }

  /**
   * A bound parameter as the Java value the driver takes for a parameter of JDBC type
   * {@code jdbcType}: binary values by their PostgreSQL type {@code oid}, text by the type the
   * driver expects (text that is not one is a 22P02).
   */
  static Object parameter(byte[] value, boolean binary, int oid, int jdbcType) throws SQLException {
    if (value == null) {
      return null;
    }
    try {
      return binary ? fromBinary(value, oid) : fromText(new String(value, StandardCharsets.UTF_8), oid, jdbcType);
    } catch (RuntimeException e) {
      throw new SQLException("A parameter's value cannot be read as its type: " + e.getMessage(), PgStates.INVALID_TEXT_REPRESENTATION);
    }
  }

  private static Object fromBinary(byte[] value, int oid) {
    ByteBuffer buffer = ByteBuffer.wrap(value);
    return switch (oid) {
      case PgTypes.BOOL -> value[0] != 0;
      case PgTypes.INT2 -> buffer.getShort();
      case PgTypes.INT4 -> buffer.getInt();
      case PgTypes.INT8 -> buffer.getLong();
      case PgTypes.FLOAT4 -> buffer.getFloat();
      case PgTypes.FLOAT8 -> buffer.getDouble();
      case PgTypes.BYTEA -> value;
      case PgTypes.NUMERIC -> numericOf(value);
      case PgTypes.DATE -> Date.valueOf(EPOCH.toLocalDate().plusDays(buffer.getInt()));
      case PgTypes.TIMESTAMP -> Timestamp.valueOf(EPOCH.plus(buffer.getLong(), ChronoUnit.MICROS));
      case PgTypes.UUID -> new UUID(buffer.getLong(), buffer.getLong()).toString();
      default -> new String(value, StandardCharsets.UTF_8);
    };
  }

  private static Object fromText(String text, int oid, int jdbcType) {
    int type = jdbcType != Types.OTHER && jdbcType != Types.NULL ? jdbcType : jdbcTypeOf(oid);
    return switch (type) {
      case Types.BOOLEAN, Types.BIT -> switch (text.trim().toLowerCase(java.util.Locale.ROOT)) {
        case "t", "true", "y", "yes", "on", "1" -> true;
        case "f", "false", "n", "no", "off", "0" -> false;
        default -> throw new IllegalArgumentException("'" + text + "' is not a boolean");
      };
      case Types.SMALLINT, Types.TINYINT -> Short.parseShort(text.trim());
      case Types.INTEGER -> Integer.parseInt(text.trim());
      case Types.BIGINT -> Long.parseLong(text.trim());
      case Types.REAL, Types.FLOAT, Types.DOUBLE -> Double.parseDouble(text.trim());
      case Types.DECIMAL, Types.NUMERIC -> new BigDecimal(text.trim());
      case Types.DATE -> Date.valueOf(LocalDate.parse(text.trim().substring(0, 10)));
      case Types.TIMESTAMP -> Timestamp.valueOf(text.trim().replace('T', ' ').replaceAll("([+-]\\d\\d(:?\\d\\d)?|Z)$",
          ""));
      case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY -> hex(text);
      default -> text;
    };
  }

  /** The JDBC type of a PostgreSQL type, for text whose parameter the driver could not type. */
  static int jdbcTypeOf(int oid) {
    return switch (oid) {
      case PgTypes.BOOL -> Types.BOOLEAN;
      case PgTypes.INT2 -> Types.SMALLINT;
      case PgTypes.INT4 -> Types.INTEGER;
      case PgTypes.INT8 -> Types.BIGINT;
      case PgTypes.FLOAT4, PgTypes.FLOAT8 -> Types.DOUBLE;
      case PgTypes.NUMERIC -> Types.DECIMAL;
      case PgTypes.DATE -> Types.DATE;
      case PgTypes.TIMESTAMP -> Types.TIMESTAMP;
      case PgTypes.BYTEA -> Types.VARBINARY;
      default -> Types.VARCHAR;
    };
  }

  /** bytea's hex text ({@code \x0aff}) as bytes. */
  private static byte[] hex(String text) {
    if (!text.startsWith("\\x")) {
      return text.getBytes(StandardCharsets.UTF_8);
    }
    byte[] bytes = new byte[(text.length() - 2) / 2];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) Integer.parseInt(text.substring(2 + 2 * i, 4 + 2 * i), 16);
    }
    return bytes;
  }
}
