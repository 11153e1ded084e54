package io.tablesql.prepare;

import io.tablesql.catalog.LongValue;
import io.tablesql.errors.SqlStates;
import io.tablesql.store.StoreException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Reader;
import java.io.StringReader;
import java.io.Writer;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.NClob;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;

/**
 * The {@link Blob} and {@link Clob} of a {@link LongValue}: each read streams the blob from its
 * start, holding no more than it returns. Read-only: a new value is written with the statement's
 * setters.
 */
final class LongValueLobs {
  private LongValueLobs() {
  }

  private static SQLException unreadable(IOException e) {
    return new SQLException("Reading a long value from Blob storage failed: " + e.getMessage()
        + ". Run the statement again.",
        SqlStates.COMMUNICATION_FAILURE, e);
  }

  private static SQLFeatureNotSupportedException readOnly() {
    return new SQLFeatureNotSupportedException("A value read from tablesql is read-only: write a new value with "
        + "PreparedStatement.setBlob, setClob or their stream setters.", SqlStates.FEATURE_NOT_SUPPORTED);
  }

  private static InputStream open(LongValue value) throws SQLException {
    try {
      return value.open();
    } catch (StoreException e) {
      throw e.toSqlException();
    }
  }

  /** The bytes of a long value, streamed. */
  static final class StreamedBlob implements Blob {
    private final LongValue value;

    StreamedBlob(LongValue value) {
      this.value = value;
    }

    @Override
    public long length() {
      return value.bytes();
    }

    @Override
    public byte[] getBytes(long pos, int length) throws SQLException {
      try (InputStream in = getBinaryStream(pos, length)) {
        return in.readAllBytes();
      } catch (IOException e) {
        throw unreadable(e);
      }
    }

    @Override
    public InputStream getBinaryStream() throws SQLException {
      return open(value);
    }

    @Override
    public InputStream getBinaryStream(long pos, long length) throws SQLException {
      if (pos < 1 || length < 0) {
        throw new SQLException("A position counts from 1 and a length is not negative.", SqlStates.INVALID_PARAMETER_VALUE);
      }
      InputStream in = open(value);
      try {
        in.skipNBytes(Math.min(pos - 1, value.bytes()));
      } catch (IOException e) {
        try {
          in.close();
        } catch (IOException closing) {
          e.addSuppressed(closing);
        }
        throw unreadable(e);
      }
      return new io.tablesql.catalog.LimitedInputStream(in, length);
    }

    @Override
    public long position(byte[] pattern, long start) throws SQLException {
      throw new SQLFeatureNotSupportedException("Blob.position is not supported: compare in SQL.", SqlStates.FEATURE_NOT_SUPPORTED);
    }

    @Override
    public long position(Blob pattern, long start) throws SQLException {
      throw new SQLFeatureNotSupportedException("Blob.position is not supported: compare in SQL.", SqlStates.FEATURE_NOT_SUPPORTED);
    }

    @Override
    public int setBytes(long pos, byte[] bytes) throws SQLException {
      throw readOnly();
    }

    @Override
    public int setBytes(long pos, byte[] bytes, int offset, int len) throws SQLException {
      throw readOnly();
    }

    @Override
    public OutputStream setBinaryStream(long pos) throws SQLException {
      throw readOnly();
    }

    @Override
    public void truncate(long len) throws SQLException {
      throw readOnly();
    }

    @Override
    public void free() {
    }
  }

  /** The text of a long value, streamed (its length counted by reading it once). */
  static final class StreamedClob implements NClob {
    private final LongValue value;
    private long length = -1;

    StreamedClob(LongValue value) {
      this.value = value;
    }

    private Reader reader() throws SQLException {
      try {
        return value.reader();
      } catch (StoreException e) {
        throw e.toSqlException();
      }
    }

    @Override
    public long length() throws SQLException {
      if (length < 0) {
        try (Reader in = reader()) {
          char[] buffer = new char[8192];
          long counted = 0;
          for (int read; (read = in.read(buffer)) >= 0; ) {
            counted += read;
          }
          length = counted;
        } catch (IOException e) {
          throw unreadable(e);
        }
      }
      return length;
    }

    @Override
    public String getSubString(long pos, int length) throws SQLException {
      if (pos < 1 || length < 0) {
        throw new SQLException("A position counts from 1 and a length is not negative.", SqlStates.INVALID_PARAMETER_VALUE);
      }
      try (Reader in = reader()) {
        in.skip(pos - 1);
        StringBuilder text = new StringBuilder();
        char[] buffer = new char[8192];
        for (int read; text.length() < length
            && (read = in.read(buffer, 0, Math.min(buffer.length, length - text.length()))) >= 0; ) {
          text.append(buffer, 0, read);
        }
        return text.toString();
      } catch (IOException e) {
        throw unreadable(e);
      }
    }

    @Override
    public Reader getCharacterStream() throws SQLException {
      return reader();
    }

    @Override
    public Reader getCharacterStream(long pos, long length) throws SQLException {
      return new StringReader(getSubString(pos, (int) Math.min(length, Integer.MAX_VALUE)));
    }

    @Override
    public InputStream getAsciiStream() throws SQLException {
      return open(value);
    }

    @Override
    public long position(String pattern, long start) throws SQLException {
      throw new SQLFeatureNotSupportedException("Clob.position is not supported: use POSITION in SQL.", SqlStates.FEATURE_NOT_SUPPORTED);
    }

    @Override
    public long position(Clob pattern, long start) throws SQLException {
      throw new SQLFeatureNotSupportedException("Clob.position is not supported: use POSITION in SQL.", SqlStates.FEATURE_NOT_SUPPORTED);
    }

    @Override
    public int setString(long pos, String str) throws SQLException {
      throw readOnly();
    }

    @Override
    public int setString(long pos, String str, int offset, int len) throws SQLException {
      throw readOnly();
    }

    @Override
    public OutputStream setAsciiStream(long pos) throws SQLException {
      throw readOnly();
    }

    @Override
    public Writer setCharacterStream(long pos) throws SQLException {
      throw readOnly();
    }

    @Override
    public void truncate(long len) throws SQLException {
      throw readOnly();
    }

    @Override
    public void free() {
    }
  }
}
