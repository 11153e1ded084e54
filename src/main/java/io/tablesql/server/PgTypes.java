package io.tablesql.server;

import io.tablesql.PostgresTypeOids;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Timestamp;

/**
 * tablesql's SQL types as PostgreSQL's: the type OID and size a column is described with, and
 * a value's text format as PostgreSQL writes it (booleans {@code t}/{@code f}, timestamps
 * without a trailing {@code .0}, binary as {@code \x} hex, doubles without {@code .0}).
 */
final class PgTypes {
  static final int BOOL = PostgresTypeOids.BOOL;
  static final int BYTEA = PostgresTypeOids.BYTEA;
  static final int INT8 = PostgresTypeOids.INT8;
  static final int INT2 = PostgresTypeOids.INT2;
  static final int INT4 = PostgresTypeOids.INT4;
  static final int TEXT = PostgresTypeOids.TEXT;
  static final int FLOAT4 = PostgresTypeOids.FLOAT4;
  static final int FLOAT8 = PostgresTypeOids.FLOAT8;
  static final int VARCHAR = PostgresTypeOids.VARCHAR;
  static final int DATE = PostgresTypeOids.DATE;
  static final int TIME = PostgresTypeOids.TIME;
  static final int TIMESTAMP = PostgresTypeOids.TIMESTAMP;
  static final int NUMERIC = PostgresTypeOids.NUMERIC;
  static final int UUID = PostgresTypeOids.UUID;

  private PgTypes() {
  }

  /** The OID of column {@code column} (1-based). */
  static int oid(ResultSetMetaData meta, int column) throws SQLException {
    return PostgresTypeOids.of(meta.getColumnType(column), meta.getColumnTypeName(column));
  }

  /** The OID of a JDBC type (of a column, or of a parameter the driver typed); text for one it does not name. */
  static int oid(int jdbcType) {
    return PostgresTypeOids.of(jdbcType, null);
  }

  /** The OIDs of a result's columns. */
  static int[] oids(ResultSetMetaData meta) throws SQLException {
    int[] oids = new int[meta.getColumnCount()];
    for (int c = 1; c <= oids.length; c++) {
      oids[c - 1] = oid(meta, c);
    }
    return oids;
  }

  /** The format of column {@code c} (0-based): Bind's codes (none: text; one: all columns). */
  private static int format(int[] formats, int c) {
    return formats == null || formats.length == 0 ? 0 : formats.length == 1 ? formats[0] : formats[c];
  }

  /** RowDescription: each column's label, type and format. */
  static PgWire.Message description(ResultSetMetaData meta, int[] oids, int[] formats) throws SQLException {
    PgWire.Message description = new PgWire.Message('T').int16(oids.length);
    for (int c = 0; c < oids.length; c++) {
      description.cstring(meta.getColumnLabel(c + 1)).int32(0).int16(0).int32(oids[c]).int16(size(oids[c]))
          .int32(-1).int16(format(formats, c));
    }
    return description;
  }

  /** DataRow: the current row's values, each in its column's format. */
  static PgWire.Message row(ResultSet rows, int[] oids, int[] formats) throws SQLException {
    PgWire.Message row = new PgWire.Message('D').int16(oids.length);
    for (int c = 0; c < oids.length; c++) {
      row.value(format(formats, c) == 1 ? PgBinary.value(rows, c + 1, oids[c]) : text(rows, c + 1, oids[c]));
    }
    return row;
  }

  /** The size PostgreSQL gives a type in RowDescription: its bytes, or -1 for a variable one. */
  static int size(int oid) {
    return switch (oid) {
      case BOOL -> 1;
      case INT2 -> 2;
      case INT4, FLOAT4, DATE -> 4;
      case INT8, FLOAT8, TIME, TIMESTAMP -> 8;
      case UUID -> 16;
      default -> -1;
    };
  }

  /** The value of column {@code column} of the current row in text format; null for SQL NULL. */
  static byte[] text(ResultSet rows, int column, int oid) throws SQLException {
    String text = switch (oid) {
      case BOOL -> {
        boolean value = rows.getBoolean(column);
        yield rows.wasNull() ? null : value ? "t" : "f";
      }
      case BYTEA -> {
        byte[] bytes = rows.getBytes(column);
        yield bytes == null ? null : hex(bytes);
      }
      case FLOAT4, FLOAT8 -> {
        double value = rows.getDouble(column);
        yield rows.wasNull() ? null : floatText(value);
      }
      case NUMERIC -> {
        BigDecimal value = rows.getBigDecimal(column);
        yield value == null ? null : value.toPlainString();
      }
      case TIMESTAMP -> {
        Timestamp value = rows.getTimestamp(column);
        yield value == null ? null : timestampText(value);
      }
      case TEXT -> { // also the type of arrays, which PostgreSQL writes as {1,2}
        Object value = rows.getObject(column);
        yield value instanceof java.sql.Array array ? arrayText(array) : value instanceof String string ? string
            : rows.getString(column);
      }
      default -> rows.getString(column);
    };
    return text == null ? null : text.getBytes(StandardCharsets.UTF_8);
  }

  /** An array in PostgreSQL's text form: {@code {1,2}}, {@code {"a b",NULL}}. */
  static String arrayText(java.sql.Array array) throws SQLException {
    StringBuilder text = new StringBuilder("{");
    Object elements = array.getArray(); // Object[], or int[] and the like
    for (int i = 0; i < java.lang.reflect.Array.getLength(elements); i++) {
      Object element = java.lang.reflect.Array.get(elements, i);
      text.append(i == 0 ? "" : ",");
      if (element == null) {
        text.append("NULL");
      } else if (element instanceof java.sql.Array inner) {
        text.append(arrayText(inner));
      } else {
        String value = element instanceof byte[] bytes ? hex(bytes) : element.toString();
        boolean plain = !value.isEmpty() && !value.equalsIgnoreCase("NULL") && value.chars()
            .noneMatch(c -> c == '"' || c == '\\' || c == ',' || c == '{' || c == '}' || Character.isWhitespace(c));
        text.append(plain ? value : "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\"");
      }
    }
    return text.append('}').toString();
  }

  private static String hex(byte[] bytes) {
    StringBuilder text = new StringBuilder(2 + bytes.length * 2).append("\\x");
    for (byte b : bytes) {
      text.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
    }
    return text.toString();
  }

  /** A double as PostgreSQL writes it with extra_float_digits 1 or more: the shortest exact text. */
  static String floatText(double value) {
    if (Double.isNaN(value)) {
      return "NaN";
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? "Infinity" : "-Infinity";
    }
    double magnitude = Math.abs(value);
    if (magnitude != 0 && (magnitude >= 1e16 || magnitude < 1e-4)) {
      String java = Double.toString(value); // 1.0E20, 1.5E-7
      int e = java.indexOf('E');
      String mantissa = java.substring(0, e).replaceAll("\\.0$", "");
      int exponent = Integer.parseInt(java.substring(e + 1));
      return mantissa + "e" + (exponent < 0 ? "-" : "+") + String.format("%02d", Math.abs(exponent));
    }
    String plain = BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    return value == 0 && 1 / value < 0 ? "-0" : plain;
  }

  private static String timestampText(Timestamp value) {
    String text = value.toString(); // yyyy-mm-dd hh:mm:ss.fffffffff, at least one fraction digit
    int dot = text.indexOf('.');
    String fraction = text.substring(dot + 1).replaceAll("0+$", "");
    return fraction.isEmpty() ? text.substring(0, dot) : text.substring(0, dot + 1) + fraction;
  }
}
