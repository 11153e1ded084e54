import java.io.InputStream;
import java.io.Reader;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.zip.CRC32;

/**
 * Writes a long binary and a long text value to a table through setBinaryStream and
 * setCharacterStream, from streams generated as they are read, then reads them back through
 * getBinaryStream and getCharacterStream, checking each against its CRC: in a heap smaller than
 * the values, so that it works only if nothing holds a value whole. Arguments: the JDBC URL, the
 * table, the bytes, the characters. Prints "ok" at the end.
 */
public class LongValueStreamer {
  public static void main(String[] args) throws Exception {
    String url = args[0];
    String table = args[1];
    long bytes = Long.parseLong(args[2]);
    long characters = Long.parseLong(args[3]);
    try (Connection connection = DriverManager.getConnection(url)) {
      try (Statement statement = connection.createStatement()) {
        statement.execute("CREATE TABLE " + table + " (Id INT PRIMARY KEY, Data BLOB, Body CLOB, Thumb BLOB)");
      }
      try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + table + " VALUES (?, ?, ?, ?)")) {
        insert.setInt(1, 1);
        insert.setBinaryStream(2, new Bytes(bytes), bytes);
        insert.setCharacterStream(3, new Characters(characters), characters);
        insert.setBytes(4, new byte[] {1, 2, 3}); // bytes beside the streams keep them streamed
        insert.executeUpdate();
      }
      try (Statement statement = connection.createStatement();
           ResultSet thumb = statement.executeQuery("SELECT Thumb FROM " + table + " WHERE Id = 1")) {
        check("thumb", thumb.next() && java.util.Arrays.equals(thumb.getBytes(1), new byte[] {1, 2, 3}));
      }
      try (PreparedStatement query = connection.prepareStatement("SELECT Data, Body FROM " + table + " WHERE Id = ?")) {
        query.setInt(1, 1);
        try (ResultSet rows = query.executeQuery()) {
          rows.next();
          CRC32 read = new CRC32();
          long count = 0;
          byte[] buffer = new byte[64 * 1024];
          try (InputStream in = rows.getBinaryStream(1)) {
            for (int n; (n = in.read(buffer)) > 0; ) {
              read.update(buffer, 0, n);
              count += n;
            }
          }
          check("bytes", count == bytes && read.getValue() == Bytes.crc(bytes));
          char[] chars = new char[64 * 1024];
          long charCount = 0;
          long sum = 0;
          try (Reader in = rows.getCharacterStream(2)) {
            for (int n; (n = in.read(chars)) > 0; ) {
              for (int i = 0; i < n; i++) {
                if (chars[i] != Characters.at(charCount + i)) {
                  check("text at " + (charCount + i), false);
                }
              }
              charCount += n;
            }
          }
          check("text length " + charCount, charCount == characters);
        }
      }
      try (Statement statement = connection.createStatement()) {
        statement.execute("DROP TABLE " + table);
      }
    }
    System.out.println("ok");
  }

  private static void check(String what, boolean holds) {
    if (!holds) {
      System.out.println("wrong " + what);
      System.exit(2);
    }
  }

  /** Bytes generated as they are read. */
  static final class Bytes extends InputStream {
    private final long length;
    private long position;

    Bytes(long length) {
      this.length = length;
    }

    static byte at(long i) {
      return (byte) (i * 31 + i / 251);
    }

    static long crc(long length) {
      CRC32 crc = new CRC32();
      byte[] buffer = new byte[64 * 1024];
      for (long done = 0; done < length; ) {
        int n = (int) Math.min(buffer.length, length - done);
        for (int i = 0; i < n; i++) {
          buffer[i] = at(done + i);
        }
        crc.update(buffer, 0, n);
        done += n;
      }
      return crc.getValue();
    }

    @Override
    public int read() {
      return position < length ? at(position++) & 0xff : -1;
    }

    @Override
    public int read(byte[] buffer, int offset, int count) {
      if (position >= length) {
        return -1;
      }
      int n = (int) Math.min(count, length - position);
      for (int i = 0; i < n; i++) {
        buffer[offset + i] = at(position++);
      }
      return n;
    }
  }

  /** Text generated as it is read, with a two-byte character now and then. */
  static final class Characters extends Reader {
    private final long length;
    private long position;

    Characters(long length) {
      this.length = length;
    }

    static char at(long i) {
      return i % 997 == 0 ? 'é' : (char) ('a' + (i * 7) % 26);
    }

    @Override
    public int read(char[] buffer, int offset, int count) {
      if (position >= length) {
        return -1;
      }
      int n = (int) Math.min(count, length - position);
      for (int i = 0; i < n; i++) {
        buffer[offset + i] = at(position++);
      }
      return n;
    }

    @Override
    public void close() {
    }
  }
}
