package io.tablesql.prepare;

import io.tablesql.catalog.LongValue;
import io.tablesql.errors.SqlStates;
import io.tablesql.store.StoreException;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.math.BigDecimal;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.Ref;
import java.sql.SQLException;
import java.sql.SQLXML;
import java.sql.Struct;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.Calendar;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.calcite.avatica.util.ByteString;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.avatica.ColumnMetaData;
import org.apache.calcite.avatica.util.ArrayImpl;
import org.apache.calcite.avatica.util.Cursor;
import org.apache.calcite.avatica.util.Cursor.Accessor;
import org.joou.UByte;
import org.joou.UInteger;
import org.joou.ULong;
import org.joou.UShort;

/**
 * Avatica's accessor of a text or binary column of the direct path, which may find a
 * {@link LongValue} (a value kept in a blob, left unread) in the row: the getters of the whole
 * value read it then, and the stream and large-object getters stream it. For every other value
 * it is Avatica's accessor, and getBinaryStream, getCharacterStream, getBlob and getClob wrap the
 * value the row holds, as WrappedResultSet does on the Calcite path (so both paths answer alike).
 */
final class LongValueAccessor implements Accessor {
  private final Accessor inner;
  private final boolean binary;

  LongValueAccessor(Accessor inner, boolean binary) {
    this.inner = inner;
    this.binary = binary;
  }

  /**
   * A cursor whose text and binary columns have this accessor: the direct path's rows, where a
   * value kept in a blob is left unread ({@code QueryRunner.LONG_VALUES_UNREAD}).
   */
  static Cursor over(Cursor rows) {
    return new Cursor() {
      @Override
      public List<Accessor> createAccessors(List<ColumnMetaData> columns, Calendar calendar,
          ArrayImpl.Factory factory) {
        List<Accessor> accessors = new ArrayList<>(rows.createAccessors(columns, calendar, factory));
        for (int i = 0; i < accessors.size(); i++) {
          switch (columns.get(i).type.id) {
            case Types.CHAR, Types.VARCHAR, Types.LONGVARCHAR, Types.CLOB, Types.NCHAR, Types.NVARCHAR, Types.NCLOB ->
                accessors.set(i, new LongValueAccessor(accessors.get(i), false));
            case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY, Types.BLOB ->
                accessors.set(i, new LongValueAccessor(accessors.get(i), true));
            default -> { }
          }
        }
        return accessors;
      }

      @Override
      public boolean next() throws SQLException {
        return rows.next();
      }

      @Override
      public void close() {
        rows.close();
      }

      @Override
      public boolean wasNull() throws SQLException {
        return rows.wasNull();
      }
    };
  }

  /** The row's long value in this column, or null for any other value. */
  private LongValue longValue() throws SQLException {
    return inner.getObject() instanceof LongValue value ? value : null;
  }

  /** Runs a read of a long value, its service failures as SQLExceptions with their SQLState. */
  private static <T> T reading(Supplier<T> read) throws SQLException {
    try {
      return read.get();
    } catch (StoreException e) {
      throw e.toSqlException();
    }
  }

  @Override
  public String getString() throws SQLException {
    LongValue value = longValue();
    if (value == null) {
      return inner.getString();
    }
    Object whole = reading(value::whole);
    return whole instanceof byte[] bytes ? new ByteString(bytes).toString() : (String) whole;
  }

  @Override
  public byte[] getBytes() throws SQLException {
    LongValue value = longValue();
    return value != null && value.binary() ? (byte[]) reading(value::whole) : inner.getBytes();
  }

  @Override
  public Object getObject() throws SQLException {
    LongValue value = longValue();
    if (value == null) {
      return inner.getObject();
    }
    Object whole = reading(value::whole);
    return whole instanceof byte[] bytes ? new ByteString(bytes) : whole;
  }

  @Override
  public Object getObject(Map<String, Class<?>> map) throws SQLException {
    return longValue() != null ? getObject() : inner.getObject(map);
  }

  @Override
  public <T> T getObject(Class<T> type) throws SQLException {
    if (longValue() == null) {
      return inner.getObject(type);
    }
    Object value = type == InputStream.class ? getBinaryStream() : type == Reader.class ? getCharacterStream()
        : type == Blob.class ? getBlob() : type == Clob.class || type == NClob.class ? getClob()
        : type == byte[].class ? getBytes() : type == String.class ? getString() : null;
    if (value == null) {
      throw new SQLException("Cannot read a long value as " + type.getName() + ": read it as String, byte[], a "
          + "stream, Blob or Clob.", SqlStates.DATA_EXCEPTION);
    }
    return type.cast(value);
  }

  @Override
  public InputStream getBinaryStream() throws SQLException {
    LongValue value = longValue();
    if (value != null) {
      return reading(value::open);
    }
    byte[] bytes = inner.getBytes(); // text: refused, as on the Calcite path
    return bytes == null ? null : new ByteArrayInputStream(bytes);
  }

  @Override
  public InputStream getAsciiStream() throws SQLException {
    return inner.getAsciiStream(); // as on the Calcite path
  }

  @Override
  public InputStream getUnicodeStream() throws SQLException {
    return inner.getUnicodeStream();
  }

  @Override
  public Reader getCharacterStream() throws SQLException {
    LongValue value = longValue();
    if (value != null && !value.binary()) {
      return reading(value::reader);
    }
    String text = getString();
    return text == null ? null : new StringReader(text);
  }

  @Override
  public Reader getNCharacterStream() throws SQLException {
    return getCharacterStream();
  }

  @Override
  public Blob getBlob() throws SQLException {
    LongValue value = longValue();
    if (value != null) {
      return new LongValueLobs.StreamedBlob(value);
    }
    byte[] bytes = inner.getBytes();
    return bytes == null ? null : new javax.sql.rowset.serial.SerialBlob(bytes);
  }

  @Override
  public Clob getClob() throws SQLException {
    LongValue value = longValue();
    if (value != null && !value.binary()) {
      return new LongValueLobs.StreamedClob(value);
    }
    String text = getString();
    return text == null ? null : new javax.sql.rowset.serial.SerialClob(text.toCharArray());
  }

  @Override
  public NClob getNClob() throws SQLException {
    LongValue value = longValue();
    return value != null && !value.binary() ? new LongValueLobs.StreamedClob(value) : inner.getNClob();
  }

  @Override
  public String getNString() throws SQLException {
    return getString();
  }

  // The rest is Avatica's: a long value is text or bytes, which these do not read.

  @Override
  public boolean wasNull() throws SQLException {
    return inner.wasNull();
  }

  @Override
  public boolean getBoolean() throws SQLException {
    return inner.getBoolean();
  }

  @Override
  public byte getByte() throws SQLException {
    return inner.getByte();
  }

  @Override
  public UByte getUByte() throws SQLException {
    return inner.getUByte();
  }

  @Override
  public short getShort() throws SQLException {
    return inner.getShort();
  }

  @Override
  public UShort getUShort() throws SQLException {
    return inner.getUShort();
  }

  @Override
  public int getInt() throws SQLException {
    return inner.getInt();
  }

  @Override
  public UInteger getUInt() throws SQLException {
    return inner.getUInt();
  }

  @Override
  public long getLong() throws SQLException {
    return inner.getLong();
  }

  @Override
  public ULong getULong() throws SQLException {
    return inner.getULong();
  }

  @Override
  public float getFloat() throws SQLException {
    return inner.getFloat();
  }

  @Override
  public double getDouble() throws SQLException {
    return inner.getDouble();
  }

  @Override
  public BigDecimal getBigDecimal() throws SQLException {
    return inner.getBigDecimal();
  }

  @Override
  public BigDecimal getBigDecimal(int scale) throws SQLException {
    return inner.getBigDecimal(scale);
  }

  @Override
  public Ref getRef() throws SQLException {
    return inner.getRef();
  }

  @Override
  public Array getArray() throws SQLException {
    return inner.getArray();
  }

  @Override
  public Struct getStruct() throws SQLException {
    return inner.getStruct();
  }

  @Override
  public Date getDate(Calendar calendar) throws SQLException {
    return inner.getDate(calendar);
  }

  @Override
  public Time getTime(Calendar calendar) throws SQLException {
    return inner.getTime(calendar);
  }

  @Override
  public Timestamp getTimestamp(Calendar calendar) throws SQLException {
    return inner.getTimestamp(calendar);
  }

  @Override
  public URL getURL() throws SQLException {
    return inner.getURL();
  }

  @Override
  public SQLXML getSQLXML() throws SQLException {
    return inner.getSQLXML();
  }
}
