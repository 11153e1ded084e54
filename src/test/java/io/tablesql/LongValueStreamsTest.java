package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablesql.testing.OracleComparedTest;
import io.tablesql.testing.TestAccount;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringWriter;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Values kept in Blob storage, read by a query whose rows go to the caller as they are: a getter
 * of the whole value reads it, a stream or large object streams it, and a value no getter asks
 * for is never read. Wherever the engine computes on a value, it has the whole value.
 */
class LongValueStreamsTest extends OracleComparedTest {
  private static final String TEXT = text(1_500_000);
  private static final byte[] BYTES = bytes(3_000_000);

  @BeforeAll
  static void setUp() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE LsDocs (Id INT PRIMARY KEY, Title VARCHAR(20), Body CLOB, Data BLOB)");
    }
    try (PreparedStatement insert = connection.prepareStatement("INSERT INTO LsDocs VALUES (?, ?, ?, ?)")) {
      insert.setInt(1, 1);
      insert.setString(2, "long");
      insert.setString(3, TEXT);
      insert.setBytes(4, BYTES);
      insert.executeUpdate();
      insert.setInt(1, 2);
      insert.setString(2, "short");
      insert.setString(3, "a short body");
      insert.setBytes(4, new byte[] {1, 2, 3});
      insert.executeUpdate();
    }
  }

  private static String read(Reader reader) throws Exception {
    try (reader) {
      StringWriter text = new StringWriter();
      reader.transferTo(text);
      return text.toString();
    }
  }

  @Test
  void streamsAndLargeObjectsReadTheBlobAsTheCallerReads() throws Exception {
    try (PreparedStatement query = connection.prepareStatement("SELECT Body, Data, Title FROM LsDocs WHERE Id = ?")) {
      query.setInt(1, 1);
      try (ResultSet rows = query.executeQuery()) {
        assertThat(rows.next()).isTrue();
        assertThat(read(rows.getCharacterStream(1))).isEqualTo(TEXT);
        try (InputStream stream = rows.getBinaryStream("Data")) {
          assertThat(stream.readAllBytes()).isEqualTo(BYTES);
        }
        Clob clob = rows.getClob(1);
        assertThat(clob.length()).isEqualTo(TEXT.length());
        assertThat(clob.getSubString(1_000_001, 20)).isEqualTo(TEXT.substring(1_000_000, 1_000_020));
        assertThat(read(clob.getCharacterStream())).isEqualTo(TEXT);
        Blob blob = rows.getBlob(2);
        assertThat(blob.length()).isEqualTo(BYTES.length);
        assertThat(blob.getBytes(2_500_001, 16)).isEqualTo(Arrays.copyOfRange(BYTES, 2_500_000, 2_500_016));
        try (InputStream part = blob.getBinaryStream(5, 10)) {
          assertThat(part.readAllBytes()).isEqualTo(Arrays.copyOfRange(BYTES, 4, 14));
        }
        assertThatThrownBy(() -> blob.setBytes(1, new byte[1])).isInstanceOf(SQLException.class)
            .hasMessageContaining("read-only");
        assertThat(rows.getString(1)).isEqualTo(TEXT);
        assertThat(rows.getBytes(2)).isEqualTo(BYTES);
        assertThat(rows.getObject(1)).isEqualTo(TEXT);
        assertThat(rows.getObject(2)).isEqualTo(BYTES);
        assertThat(rows.getObject(1, String.class)).isEqualTo(TEXT);
        assertThat(rows.getString(3)).isEqualTo("long");
      }
      query.setInt(1, 2); // values kept in the entity: the same getters over the value the row holds
      try (ResultSet rows = query.executeQuery()) {
        assertThat(rows.next()).isTrue();
        assertThat(read(rows.getCharacterStream(1))).isEqualTo("a short body");
        assertThat(rows.getBinaryStream(2).readAllBytes()).isEqualTo(new byte[] {1, 2, 3});
        assertThat(rows.getClob(1).getSubString(3, 5)).isEqualTo("short");
        assertThat(rows.getBlob(2).length()).isEqualTo(3);
      }
    }
  }

  /** A value no getter asks for costs no request: only the entity is read. */
  @Test
  void aValueNoGetterAsksForIsNeverRead() throws Exception {
    try (PreparedStatement query = connection.prepareStatement("SELECT Id, Body, Data FROM LsDocs WHERE Id = ?")) {
      query.setInt(1, 1);
      try (ResultSet rows = query.executeQuery()) {
        assertThat(rows.next()).isTrue();
        assertThat(rows.getInt(1)).isEqualTo(1);
      }
      assertThat(query.unwrap(TableSqlStatement.class).requestCount()).isEqualTo(1);
      try (ResultSet rows = query.executeQuery()) {
        assertThat(rows.next()).isTrue();
        assertThat(rows.getBlob(3).length()).isEqualTo(BYTES.length); // the reference says it
        try (InputStream stream = rows.getBinaryStream(3)) {
          assertThat(stream.readNBytes(100)).isEqualTo(Arrays.copyOf(BYTES, 100));
        }
      }
      assertThat(query.unwrap(TableSqlStatement.class).requestCount()).isLessThanOrEqualTo(3); // the row, the blob's properties, its first block
    }
  }

  /** Where the engine computes on a value (a function, a filter, a sort), it has the whole value. */
  @Test
  void theEngineComputesOnWholeValues() throws Exception {
    for (String query : new String[] {"SELECT CHAR_LENGTH(Body), OCTET_LENGTH(Data) FROM LsDocs WHERE Id = 1",
        "SELECT Id FROM LsDocs WHERE Body LIKE '%" + TEXT.substring(1_400_000, 1_400_010) + "%'",
        "SELECT Id, SUBSTRING(Body FROM 1200001 FOR 5) FROM LsDocs ORDER BY Title",
        "SELECT Title FROM LsDocs WHERE Data > X'00' ORDER BY Id"}) {
      agreed(query);
    }
    try (Statement statement = connection.createStatement();
         ResultSet rows = statement.executeQuery("SELECT Body, Data FROM LsDocs ORDER BY Title")) {
      assertThat(rows.next()).isTrue();
      assertThat(read(rows.getCharacterStream(1))).isEqualTo(TEXT); // sorted in the client: the row holds the value
      assertThat(rows.getBlob(2).getBytes(1, 4)).isEqualTo(Arrays.copyOf(BYTES, 4));
    }
  }

  /** A value whose row was changed, and its blob deleted, after the row was read: 40001, never another value. */
  @Test
  void aBlobReplacedAfterTheRowWasReadIsASerializationFailure() throws Exception {
    try (Statement statement = connection.createStatement()) {
      statement.execute("INSERT INTO LsDocs VALUES (3, 'gone', '" + "x".repeat(10) + "', NULL)");
    }
    try (PreparedStatement update = connection.prepareStatement("UPDATE LsDocs SET Body = ? WHERE Id = 3")) {
      update.setString(1, TEXT);
      update.executeUpdate();
    }
    try (Connection other = TestAccount.connect();
         PreparedStatement query = connection.prepareStatement("SELECT Body FROM LsDocs WHERE Id = ?")) {
      query.setInt(1, 3);
      try (ResultSet rows = query.executeQuery()) {
        assertThat(rows.next()).isTrue();
        try (PreparedStatement update = other.prepareStatement("UPDATE LsDocs SET Body = ? WHERE Id = 3")) {
          update.setString(1, TEXT.toUpperCase());
          update.executeUpdate(); // the old blob is deleted once this commits
        }
        assertThatThrownBy(() -> read(rows.getCharacterStream(1))).isInstanceOf(SQLException.class)
            .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("40001"));
      }
    }
    try (Statement statement = connection.createStatement()) {
      statement.execute("DELETE FROM LsDocs WHERE Id = 3");
    }
  }

  /** Values given as streams longer than an entity are written to their blobs as they are read. */
  @Test
  void streamsLongerThanAnEntityAreWrittenAsTheyAreRead() throws Exception {
    String text = text(2_000_000);
    byte[] data = bytes(5_000_000);
    try (PreparedStatement insert = connection.prepareStatement(
        "INSERT INTO LsDocs (Id, Title, Body, Data) VALUES (?, ?, ?, ?)")) {
      insert.setInt(1, 10);
      insert.setString(2, "streamed");
      insert.setCharacterStream(3, new java.io.StringReader(text));
      insert.setBinaryStream(4, new java.io.ByteArrayInputStream(data));
      assertThat(insert.executeUpdate()).isEqualTo(1);
      // a length shorter than the stream: that many characters and bytes
      insert.setInt(1, 11);
      insert.setCharacterStream(3, new java.io.StringReader(text), 1_600_000L);
      insert.setBinaryStream(4, new java.io.ByteArrayInputStream(data), 4_000_000L);
      assertThat(insert.execute()).isFalse();
      assertThat(insert.getUpdateCount()).isEqualTo(1);
      // run again without setting the streams again: they were read
      insert.setInt(1, 12);
      assertThatThrownBy(insert::executeUpdate).isInstanceOf(SQLException.class)
          .hasMessageContaining("a stream is read once")
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22023"));
    }
    // a column list of compound names is Calcite's to resolve: the stream is read whole, into the right column
    try (PreparedStatement insert = connection.prepareStatement(
        "INSERT INTO LsDocs (LsDocs.Body, LsDocs.Id) VALUES (?, ?)")) {
      insert.setCharacterStream(1, new java.io.StringReader(text));
      insert.setInt(2, 14);
      assertThat(insert.executeUpdate()).isEqualTo(1);
    }
    assertThat(single("SELECT CHAR_LENGTH(Body) FROM LsDocs WHERE Id = 14")).isEqualTo("2000000");
    assertThat(TestAccount.valueBlobsOf("LsDocs")).hasSizeGreaterThanOrEqualTo(6);
    try (PreparedStatement query = connection.prepareStatement("SELECT Body, Data FROM LsDocs WHERE Id = ?")) {
      query.setInt(1, 10);
      try (ResultSet rows = query.executeQuery()) {
        assertThat(rows.next()).isTrue();
        assertThat(read(rows.getCharacterStream(1))).isEqualTo(text);
        assertThat(rows.getBinaryStream(2).readAllBytes()).isEqualTo(data);
      }
      query.setInt(1, 11);
      try (ResultSet rows = query.executeQuery()) {
        assertThat(rows.next()).isTrue();
        assertThat(read(rows.getCharacterStream(1))).isEqualTo(text.substring(0, 1_600_000));
        assertThat(rows.getBlob(2).length()).isEqualTo(4_000_000);
      }
    }
    // the engine compares the first part the entity keeps, and the client the whole value
    agreed("SELECT Id FROM LsDocs WHERE Body > '" + text.substring(0, 50) + "' ORDER BY Id");
    agreed("SELECT Id, CHAR_LENGTH(Body) FROM LsDocs WHERE Id >= 10 ORDER BY Id");
    // an UPDATE computes on its values: the stream is read whole and written as any value
    try (PreparedStatement update = connection.prepareStatement("UPDATE LsDocs SET Body = ? WHERE Id = ?")) {
      update.setCharacterStream(1, new java.io.StringReader(text.toUpperCase()));
      update.setInt(2, 11);
      assertThat(update.executeUpdate()).isEqualTo(1);
    }
    assertThat(single("SELECT SUBSTRING(Body FROM 1999991) FROM LsDocs WHERE Id = 11"))
        .isEqualTo(text.toUpperCase().substring(1_999_990));
    // in a transaction rolled back, no row is written (its blob is an orphan VERIFY removes)
    connection.setAutoCommit(false);
    try (PreparedStatement insert = connection.prepareStatement("INSERT INTO LsDocs (Id, Body) VALUES (?, ?)")) {
      insert.setInt(1, 13);
      insert.setCharacterStream(2, new java.io.StringReader(text));
      insert.executeUpdate();
      assertThat(single("SELECT CHAR_LENGTH(Body) FROM LsDocs WHERE Id = 13")).isEqualTo("2000000");
      connection.rollback();
    } finally {
      connection.setAutoCommit(true);
    }
    assertThat(single("SELECT COUNT(*) FROM LsDocs WHERE Id = 13")).isEqualTo("0");
    try (Statement statement = connection.createStatement()) {
      statement.execute("DELETE FROM LsDocs WHERE Id >= 10");
    }
  }

  /** A long stream on a table whose values stay in the entity (mapped over an application's) is refused, 22000. */
  @Test
  void aLongStreamForAColumnWithoutBlobsIsRefused() throws Exception {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE LsShort (Id INT PRIMARY KEY, Body VARCHAR(100))");
    }
    try (PreparedStatement insert = connection.prepareStatement("INSERT INTO LsShort VALUES (?, ?)")) {
      insert.setInt(1, 1);
      insert.setCharacterStream(2, new java.io.StringReader(text(600_000)));
      assertThatThrownBy(insert::executeUpdate).isInstanceOf(SQLException.class)
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).startsWith("22"));
    }
    assertThat(single("SELECT COUNT(*) FROM LsShort")).isEqualTo("0");
  }

  private static String text(int length) {
    StringBuilder text = new StringBuilder(length);
    for (int i = 0; text.length() < length; i++) {
      text.append(i % 1000 == 999 ? "é" : String.valueOf((char) ('a' + (i * 7 + i / 26) % 26)));
    }
    return text.toString();
  }

  private static byte[] bytes(int length) {
    byte[] bytes = new byte[length];
    for (int i = 0; i < length; i++) {
      bytes[i] = (byte) (i * 31 + i / 251);
    }
    return bytes;
  }
}
