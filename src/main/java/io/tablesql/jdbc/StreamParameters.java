package io.tablesql.jdbc;

import io.tablesql.catalog.BlobReference;
import io.tablesql.catalog.StreamedValue;
import io.tablesql.catalog.ValueParts;
import io.tablesql.errors.SqlExceptions;
import io.tablesql.errors.SqlStates;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;

/**
 * Parameters given as streams (setCharacterStream, setBinaryStream, setClob, setBlob, ...), read
 * into the text or bytes they bind: read whole (the statement computes on the row's values), and
 * no further than the longest value a column holds, one kept in Blob storage.
 */
final class StreamParameters {
  /** The longest value any column holds: a blob's 256 MiB (text as UTF-8 takes at least a byte per character). */
  private static final long MAX_CHARACTERS = BlobReference.MAX_BYTES;
  private static final long MAX_BYTES = BlobReference.MAX_BYTES;

  private StreamParameters() {
  }

  /** The text of a reader, at most {@code length} characters of it ({@code -1}: all). */
  static String text(Reader reader, long length, int parameterIndex) throws SQLException {
    if (reader == null) {
      return null;
    }
    long wanted = length < 0 ? Long.MAX_VALUE : length;
    StringBuilder text = new StringBuilder();
    char[] buffer = new char[8192];
    try {
      while (text.length() < wanted) {
        int read = reader.read(buffer, 0, (int) Math.min(buffer.length, wanted - text.length()));
        if (read < 0) {
          break;
        }
        text.append(buffer, 0, read);
        if (text.length() > MAX_CHARACTERS) {
          throw tooLong(parameterIndex, "characters of text", MAX_CHARACTERS);
        }
      }
    } catch (IOException e) {
      throw unreadable(parameterIndex, e);
    }
    return text.toString();
  }

  /** The bytes of a stream, at most {@code length} of them ({@code -1}: all). */
  static byte[] bytes(InputStream stream, long length, int parameterIndex) throws SQLException {
    if (stream == null) {
      return null;
    }
    long wanted = length < 0 ? Long.MAX_VALUE : length;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    try {
      while (bytes.size() < wanted) {
        int read = stream.read(buffer, 0, (int) Math.min(buffer.length, wanted - bytes.size()));
        if (read < 0) {
          break;
        }
        bytes.write(buffer, 0, read);
        if (bytes.size() > MAX_BYTES) {
          throw tooLong(parameterIndex, "bytes", MAX_BYTES);
        }
      }
    } catch (IOException e) {
      throw unreadable(parameterIndex, e);
    }
    return bytes.toByteArray();
  }

  /**
   * The text of a reader if it fits an entity (16 parts), else a {@link StreamedValue} holding
   * what was read to find that out and the reader, for an INSERT to write without holding it.
   */
  static Object textOrStream(Reader reader, long length, int parameterIndex) throws SQLException {
    long head = ValueParts.MAX_PARTS * (long) ValueParts.TEXT_PART + 1;
    if (reader == null || length >= 0 && length < head) {
      return text(reader, length, parameterIndex);
    }
    String start = text(reader, head, parameterIndex);
    return start.length() < head ? start
        : StreamedValue.text(start, reader, length < 0 ? -1 : length - start.length());
  }

  /** The bytes of a stream if they fit an entity (1 MiB), else a {@link StreamedValue}, as {@link #textOrStream}. */
  static Object bytesOrStream(InputStream stream, long length, int parameterIndex) throws SQLException {
    long head = ValueParts.MAX_PARTS * (long) ValueParts.BINARY_PART + 1;
    if (stream == null || length >= 0 && length < head) {
      return bytes(stream, length, parameterIndex);
    }
    byte[] start = bytes(stream, head, parameterIndex);
    return start.length < head ? start
        : StreamedValue.bytes(start, stream, length < 0 ? -1 : length - start.length);
  }

  /** A streamed value read whole, for a statement that computes on it. */
  static Object whole(StreamedValue value, int parameterIndex) throws SQLException {
    try {
      return value.whole();
    } catch (StreamedValue.TooLong e) {
      throw tooLong(parameterIndex, value.binary() ? "bytes" : "bytes of text as UTF-8", MAX_BYTES);
    } catch (IOException e) {
      throw unreadable(parameterIndex, e);
    }
  }

  /** The text of an ASCII stream. */
  static String ascii(InputStream stream, long length, int parameterIndex) throws SQLException {
    byte[] bytes = bytes(stream, length, parameterIndex);
    return bytes == null ? null : new String(bytes, StandardCharsets.US_ASCII);
  }

  private static SQLException tooLong(int parameterIndex, String unit, long most) {
    return SqlExceptions.of("Parameter " + parameterIndex + " streams more than " + most + " " + unit + ": a value "
        + "holds at most " + (BlobReference.MAX_BYTES >> 20) + " MiB.", SqlStates.DATA_EXCEPTION);
  }

  private static SQLException unreadable(int parameterIndex, IOException e) {
    return SqlExceptions.of("Could not read the stream given for parameter " + parameterIndex + ": " + e.getMessage(),
        SqlStates.DATA_EXCEPTION);
  }
}
