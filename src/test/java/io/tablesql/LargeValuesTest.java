package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.testing.OracleComparedTest;
import io.tablesql.testing.QueryRuns;
import io.tablesql.testing.TestAccount;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Values longer than one property holds, in columns declared without a length: kept in parts of
 * the row's own entity up to its 1 MiB and in Blob storage past it, read back whole by every path,
 * compared correctly, and refused with a clear error where a copy cannot hold them.
 */
class LargeValuesTest extends OracleComparedTest {
  /** 100,000 characters whose first part would end inside a surrogate pair if cut at 32,000. */
  private static final String LONG_TEXT = text(100_000, 31_999);
  private static final byte[] LONG_BINARY = bytes(200_000);

  @BeforeAll
  static void setUp() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE LvDocs (Id INT PRIMARY KEY, Title VARCHAR(100), Body VARCHAR, Data VARBINARY, "
          + "Note CLOB)");
    }
    try (PreparedStatement insert = connection.prepareStatement(
        "INSERT INTO LvDocs (Id, Title, Body, Data, Note) VALUES (?, ?, ?, ?, ?)")) {
      insert.setInt(1, 1);
      insert.setString(2, "long");
      insert.setString(3, LONG_TEXT);
      insert.setBytes(4, LONG_BINARY);
      insert.setString(5, "short note");
      insert.executeUpdate();
      insert.setInt(1, 2);
      insert.setString(2, "short");
      insert.setString(3, "a short body");
      insert.setBytes(4, new byte[] {1, 2, 3});
      insert.setString(5, null);
      insert.executeUpdate();
    }
  }

  @Test
  void aLongValueIsKeptInPartsOfTheRowsOwnEntity() {
    TableClient physical = TestAccount.service().getTableClient("LvDocs");
    List<TableEntity> entities = physical.listEntities().stream().toList();
    assertThat(entities).hasSize(2);
    TableEntity stored = entities.stream().filter(e -> "long".equals(e.getProperty("Title"))).findFirst().orElseThrow();
    assertThat(stored.getProperty("Body_TsN")).isEqualTo(4);
    assertThat((String) stored.getProperty("Body")).hasSize(31_999); // the surrogate pair stays whole in part 2
    assertThat(stored.getProperty("Data_TsN")).isEqualTo(4);
    TableEntity small = entities.stream().filter(e -> "short".equals(e.getProperty("Title"))).findFirst().orElseThrow();
    assertThat(small.getProperties()).doesNotContainKeys("Body_TsN", "Data_TsN"); // a short value is as it always was
  }

  @Test
  void everyReadGetsTheWholeValueInOneRequest() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      try (ResultSet rows = statement.executeQuery("SELECT Body, Data, Note FROM LvDocs WHERE Id = 1")) {
        assertThat(rows.next()).isTrue();
        assertThat(rows.getString(1)).isEqualTo(LONG_TEXT);
        assertThat(rows.getBytes(2)).isEqualTo(LONG_BINARY);
        assertThat(rows.getString(3)).isEqualTo("short note");
      }
      try (ResultSet rows = statement.executeQuery("SELECT * FROM LvDocs ORDER BY Id")) {
        assertThat(rows.getMetaData().getColumnCount()).isEqualTo(5); // no part shows as a column
        assertThat(rows.next()).isTrue();
        assertThat(rows.getString("Body")).isEqualTo(LONG_TEXT);
        assertThat(rows.next()).isTrue();
        assertThat(rows.getString("Body")).isEqualTo("a short body");
      }
      try (ResultSet rows = statement.executeQuery("SELECT CHAR_LENGTH(Body), OCTET_LENGTH(Data) FROM LvDocs "
          + "WHERE Id = 1")) {
        assertThat(rows.next()).isTrue();
        assertThat(rows.getInt(1)).isEqualTo(100_000);
        assertThat(rows.getInt(2)).isEqualTo(200_000);
      }
    }
    assertThat(QueryRuns.run(connection, "SELECT Body FROM LvDocs WHERE Id = 1").requests()).isEqualTo(1);
  }

  @Test
  void comparisonsOnLongValuesAreRight() throws SQLException {
    String head = LONG_TEXT.substring(0, 10);
    for (String where : List.of("Body = 'a short body'", "Body <> 'a short body'", "Body > 'a short body'",
        "Body LIKE '" + head + "%'", "Body LIKE 'a short%'", "Body < '" + head + "'", "Body >= '" + head + "'",
        "Body IS NOT NULL", "CHAR_LENGTH(Body) > 50000")) {
      agreed("SELECT Id FROM LvDocs WHERE " + where);
    }
    assertThat(agreed("SELECT Id FROM LvDocs WHERE Body LIKE '" + head + "%'").rows()).containsExactly("1");
    assertThat(agreed("SELECT Id FROM LvDocs WHERE Body > 'a short body'").rows()).containsExactly("1");
    // text longer than any first part: the service cannot judge it, the client does
    try (PreparedStatement query = connection.prepareStatement("SELECT Id FROM LvDocs WHERE Body = ?")) {
      query.setString(1, LONG_TEXT);
      assertThat(QueryRuns.rows(query.executeQuery())).containsExactly("1");
      query.setString(1, LONG_TEXT.substring(0, 31_999));
      assertThat(QueryRuns.rows(query.executeQuery())).isEmpty();
      query.setString(1, LONG_TEXT.substring(0, 32_001));
      assertThat(QueryRuns.rows(query.executeQuery())).isEmpty();
    }
    try (PreparedStatement query = connection.prepareStatement("SELECT Id FROM LvDocs WHERE Body >= ? ORDER BY Id")) {
      query.setString(1, LONG_TEXT.substring(0, 50_000));
      assertThat(QueryRuns.rows(query.executeQuery())).containsExactly("1");
      query.setString(1, LONG_TEXT + "z");
      assertThat(QueryRuns.rows(query.executeQuery())).isEmpty();
    }
  }

  @Test
  void updatesGrowAndShrinkAValueWithoutLeavingPartsBehind() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE LvNotes (Id INT PRIMARY KEY, Body VARCHAR)");
      statement.executeUpdate("INSERT INTO LvNotes VALUES (1, 'small')");
    }
    String grown = text(70_000, -1);
    try (PreparedStatement update = connection.prepareStatement("UPDATE LvNotes SET Body = ? WHERE Id = 1")) {
      update.setString(1, grown);
      assertThat(update.executeUpdate()).isEqualTo(1);
      assertThat(body("LvNotes", 1)).isEqualTo(grown);
      update.setString(1, "small again");
      assertThat(update.executeUpdate()).isEqualTo(1);
      assertThat(body("LvNotes", 1)).isEqualTo("small again");
      TableEntity stored = TestAccount.service().getTableClient("LvNotes").listEntities().stream().findFirst()
          .orElseThrow();
      assertThat(stored.getProperties().keySet()).noneMatch(name -> name.startsWith("Body_Ts"));
      update.setString(1, grown);
      update.executeUpdate();
    }
    // an UPSERT merges without reading: its count disowns the longer value's parts
    try (Statement statement = connection.createStatement()) {
      statement.executeUpdate("UPSERT INTO LvNotes (Id, Body) VALUES (1, 'merged')");
      assertThat(body("LvNotes", 1)).isEqualTo("merged");
      statement.executeUpdate("UPDATE LvNotes SET Body = NULL WHERE Id = 1");
      assertThat(body("LvNotes", 1)).isNull();
    }
  }

  @Test
  void aTransactionAcrossPartitionsKeepsLongValues() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE LvPairs (Id INT PRIMARY KEY, Body VARCHAR)");
    }
    String first = text(90_000, 10);
    String second = text(40_000, -1).toUpperCase();
    connection.setAutoCommit(false);
    try (PreparedStatement insert = connection.prepareStatement("INSERT INTO LvPairs VALUES (?, ?)")) {
      insert.setInt(1, 1);
      insert.setString(2, first);
      insert.executeUpdate();
      insert.setInt(1, 2);
      insert.setString(2, second);
      insert.executeUpdate();
      assertThat(body("LvPairs", 1)).isEqualTo(first); // the transaction reads its own writes
      connection.commit();
    } finally {
      connection.setAutoCommit(true);
    }
    assertThat(body("LvPairs", 1)).isEqualTo(first);
    assertThat(body("LvPairs", 2)).isEqualTo(second);
  }

  @Test
  void coveringIndexesAndViewsCopyWholeValues() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE LvCards (Id INT PRIMARY KEY, Tag VARCHAR(20), Body VARCHAR)");
      statement.execute("CREATE INDEX LvCardsByTag ON LvCards (Tag) INCLUDE (Body) GLOBAL");
      statement.execute("CREATE MATERIALIZED VIEW LvCardsByTagView PRIMARY KEY ((Tag), Id) AS "
          + "SELECT Tag, Id, Body FROM LvCards WHERE Tag IS NOT NULL");
    }
    String value = text(150_000, 64_000);
    try (PreparedStatement insert = connection.prepareStatement("INSERT INTO LvCards VALUES (?, ?, ?)")) {
      insert.setInt(1, 7);
      insert.setString(2, "red");
      insert.setString(3, value);
      insert.executeUpdate();
    }
    assertThat(single("SELECT Body FROM LvCards WHERE Tag = 'red'")).isEqualTo(value);
    assertThat(single("SELECT Body FROM LvCardsByTagView WHERE Tag = 'red'")).isEqualTo(value);
    try (Statement statement = connection.createStatement()) {
      statement.executeUpdate("UPDATE LvCards SET Body = 'short' WHERE Id = 7");
    }
    assertThat(single("SELECT Body FROM LvCards WHERE Tag = 'red'")).isEqualTo("short");
    assertThat(single("SELECT Body FROM LvCardsByTagView WHERE Tag = 'red'")).isEqualTo("short");
  }

  @Test
  void streamsAndLargeObjectsReadAndWriteLongValues() throws Exception {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE LvStreams (Id INT PRIMARY KEY, Body CLOB, Data BLOB)");
    }
    String text = text(80_000, 100);
    byte[] bytes = bytes(150_000);
    try (PreparedStatement insert = connection.prepareStatement("INSERT INTO LvStreams VALUES (?, ?, ?)")) {
      insert.setInt(1, 1);
      insert.setCharacterStream(2, new java.io.StringReader(text), text.length());
      insert.setBinaryStream(3, new java.io.ByteArrayInputStream(bytes), bytes.length);
      insert.executeUpdate();
      insert.setInt(1, 2);
      insert.setCharacterStream(2, new java.io.StringReader(text));
      insert.setBinaryStream(3, new java.io.ByteArrayInputStream(bytes));
      insert.executeUpdate();
    }
    try (Statement statement = connection.createStatement();
         ResultSet rows = statement.executeQuery("SELECT Body, Data FROM LvStreams ORDER BY Id")) {
      while (rows.next()) {
        try (java.io.Reader reader = rows.getCharacterStream(1)) {
          java.io.StringWriter read = new java.io.StringWriter();
          reader.transferTo(read);
          assertThat(read.toString()).isEqualTo(text);
        }
        try (java.io.InputStream stream = rows.getBinaryStream(2)) {
          assertThat(stream.readAllBytes()).isEqualTo(bytes);
        }
        assertThat(rows.getClob(1).length()).isEqualTo(text.length());
        assertThat(rows.getBlob(2).getBytes(1, 10)).isEqualTo(Arrays.copyOf(bytes, 10));
      }
    }
  }

  @Test
  void aTableWithoutAPrimaryKeyKeepsLongValuesToo() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE LvLoose (a INT, b TEXT)");
    }
    String value = text(45_000, -1);
    try (PreparedStatement insert = connection.prepareStatement("INSERT INTO LvLoose VALUES (?, ?)")) {
      insert.setInt(1, 1);
      insert.setString(2, value);
      insert.executeUpdate();
    }
    assertThat(single("SELECT b FROM LvLoose WHERE a = 1")).isEqualTo(value);
    try (Statement statement = connection.createStatement()) {
      assertThat(statement.executeUpdate("UPDATE LvLoose SET b = 'short' WHERE a = 1")).isEqualTo(1);
    }
    assertThat(single("SELECT b FROM LvLoose WHERE a = 1")).isEqualTo("short");
  }

  @Test
  void indexesAndViewsLeaveRoomForLongValues() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE LvIndexed (Tenant VARCHAR, Id INT, Status VARCHAR(10), Body VARCHAR, "
          + "Data VARBINARY, PRIMARY KEY ((Tenant), Id))");
      statement.execute("CREATE INDEX LvIndexedByStatus ON LvIndexed (Status) LOCAL");
      statement.execute("CREATE MATERIALIZED VIEW LvIndexedCopy PRIMARY KEY ((Id), Tenant) AS "
          + "SELECT Id, Tenant, Data FROM LvIndexed");
      // as before long values: a local index copies values of one property, in the row's transaction
      statement.execute("CREATE TABLE LvLocalCopies (Id INT PRIMARY KEY, Status VARCHAR(10), Note VARCHAR)");
      statement.execute("CREATE INDEX LvLocalCopiesByStatus ON LvLocalCopies (Status) INCLUDE (Note) LOCAL");
      statement.executeUpdate("INSERT INTO LvLocalCopies VALUES (1, 'new', 'fits one property')");
      assertThat(single("SELECT Note FROM LvLocalCopies WHERE Status = 'new'")).isEqualTo("fits one property");
      assertThatThrownBy(() -> statement.executeUpdate("UPDATE LvLocalCopies SET Note = '" + text(40_000, -1)
          + "' WHERE Id = 1")).isInstanceOfSatisfying(SQLException.class,
              e -> assertThat(e.getSQLState()).isEqualTo("22000")).hasMessageContaining("GLOBAL");
      assertThat(single("SELECT Note FROM LvLocalCopies WHERE Id = 1")).isEqualTo("fits one property");
    }
    // 960,000 bytes in the entity, 1.44 MB of JSON in the request: with a local index's entries, still one group
    String wide = "\u4e2d".repeat(480_000);
    byte[] data = bytes(1_045_000); // fits the row's entity, not its copy's
    try (PreparedStatement insert = connection.prepareStatement("INSERT INTO LvIndexed VALUES ('t', ?, 'new', ?, ?)")) {
      insert.setInt(1, 1);
      insert.setString(2, wide);
      insert.setBytes(3, Arrays.copyOf(data, 10));
      insert.executeUpdate();
      insert.setInt(1, 2);
      insert.setString(2, "short");
      insert.setBytes(3, data);
      assertThatThrownBy(insert::executeUpdate).isInstanceOfSatisfying(SQLException.class,
          e -> assertThat(e.getSQLState()).isEqualTo("22000")).hasMessageContaining("materialized view LvIndexedCopy");
    }
    assertThat(single("SELECT Body FROM LvIndexed WHERE Status = 'new'")).isEqualTo(wide);
    assertThat(single("SELECT COUNT(*) FROM LvIndexedCopy")).isEqualTo("1");
  }

  @Test
  void anUpdateDropsPartsAnUpsertLeftBehind() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE LvMerged (Id INT PRIMARY KEY, Body VARCHAR, Other INT)");
    }
    try (PreparedStatement upsert = connection.prepareStatement("UPSERT INTO LvMerged (Id, Body) VALUES (1, ?)")) {
      upsert.setString(1, text(90_000, -1));
      upsert.executeUpdate();
      upsert.setString(1, "short");
      upsert.executeUpdate();
    }
    TableClient physical = TestAccount.service().getTableClient("LvMerged");
    assertThat(physical.listEntities().stream().findFirst().orElseThrow().getProperties()).containsKey("Body_TsP2");
    try (Statement statement = connection.createStatement()) {
      statement.executeUpdate("UPDATE LvMerged SET Other = 5 WHERE Id = 1");
    }
    assertThat(physical.listEntities().stream().findFirst().orElseThrow().getProperties().keySet())
        .noneMatch(name -> name.startsWith("Body_Ts"));
    assertThat(body("LvMerged", 1)).isEqualTo("short");
  }

  /** A scan that reads a column of long values reads pages of at most 100 rows (each may be a MiB), one chain at a time. */
  @Test
  void aScanOfLongValuesReadsSmallerPages() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE LvPages (Tenant VARCHAR, Id INT, Body VARCHAR, PRIMARY KEY ((Tenant), Id))");
    }
    try (PreparedStatement insert = connection.prepareStatement("INSERT INTO LvPages VALUES ('t', ?, ?)")) {
      for (int id = 0; id < 250; id++) {
        insert.setInt(1, id);
        insert.setString(2, "body " + id);
        insert.addBatch();
      }
      insert.executeBatch();
    }
    QueryRuns.Run bodies = agreed("SELECT Id, Body FROM LvPages WHERE Tenant = 't'");
    assertThat(bodies.rows()).hasSize(250);
    assertThat(bodies.requests()).isEqualTo(3);
    assertThat(agreed("SELECT Id FROM LvPages WHERE Tenant = 't'").requests()).isEqualTo(1);
  }

  /** A value past the entity's 1 MiB is kept in a blob, named by the row, and deleted once no row names it. */
  @Test
  void aValuePastTheEntityIsKeptInABlobWhileTheRowNamesIt() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE LvBlobs (Id INT PRIMARY KEY, Title VARCHAR(20), Body VARCHAR, Data BLOB)");
    }
    String huge = text(600_000, 31_999);
    byte[] hugeBinary = bytes(3_000_000);
    try (PreparedStatement insert = connection.prepareStatement("INSERT INTO LvBlobs VALUES (?, ?, ?, ?)")) {
      insert.setInt(1, 1);
      insert.setString(2, "huge");
      insert.setString(3, huge);
      insert.setBytes(4, hugeBinary);
      assertThat(insert.executeUpdate()).isEqualTo(1);
      insert.setInt(1, 2);
      insert.setString(2, "small");
      insert.setString(3, "a short body");
      insert.setBytes(4, new byte[] {7});
      insert.executeUpdate();
    }
    TableEntity stored = TestAccount.service().getTableClient("LvBlobs").listEntities().stream()
        .filter(e -> "huge".equals(e.getProperty("Title"))).findFirst().orElseThrow();
    assertThat(stored.getProperty("Body_TsN")).isEqualTo(0);
    assertThat((String) stored.getProperty("Body_TsRef")).startsWith("v1;lvblobs/")
        .endsWith(";" + huge.getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
    assertThat((String) stored.getProperty("Body")).isEqualTo(huge.substring(0, 31_999));
    assertThat(TestAccount.valueBlobsOf("LvBlobs")).hasSize(2);

    assertThat(single("SELECT Body FROM LvBlobs WHERE Id = 1")).isEqualTo(huge);
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SELECT Data, CHAR_LENGTH(Body) FROM LvBlobs WHERE Id = 1")) {
      assertThat(rows.next()).isTrue();
      assertThat(rows.getBytes(1)).isEqualTo(hugeBinary);
      assertThat(rows.getInt(2)).isEqualTo(600_000);
    }
    // one request for the row and one per blob; none when the query does not select the column
    assertThat(QueryRuns.run(connection, "SELECT Body FROM LvBlobs WHERE Id = 1").requests()).isEqualTo(2);
    assertThat(QueryRuns.run(connection, "SELECT Title FROM LvBlobs WHERE Id = 1").requests()).isEqualTo(1);
    String head = huge.substring(0, 10);
    for (String where : List.of("Body = 'a short body'", "Body > 'a short body'", "Body LIKE '" + head + "%'",
        "Body < '" + head + "'", "Body IS NOT NULL", "CHAR_LENGTH(Body) > 500000", "OCTET_LENGTH(Data) > 10")) {
      agreed("SELECT Id FROM LvBlobs WHERE " + where);
    }
    assertThat(agreed("SELECT Id FROM LvBlobs WHERE Body LIKE '" + head + "%'").rows()).containsExactly("1");
    try (PreparedStatement query = connection.prepareStatement("SELECT Id FROM LvBlobs WHERE Body = ?")) {
      query.setString(1, huge);
      assertThat(QueryRuns.rows(query.executeQuery())).containsExactly("1");
    }

    // a new value is a new blob; the old one goes once the row no longer names it
    String other = text(700_000, -1);
    try (PreparedStatement update = connection.prepareStatement("UPDATE LvBlobs SET Body = ? WHERE Id = 1")) {
      update.setString(1, other);
      assertThat(update.executeUpdate()).isEqualTo(1);
      assertThat(body("LvBlobs", 1)).isEqualTo(other);
      assertThat(TestAccount.valueBlobsOf("LvBlobs")).hasSize(2);
      update.setString(1, "short now");
      update.executeUpdate();
      assertThat(body("LvBlobs", 1)).isEqualTo("short now");
      assertThat(TestAccount.valueBlobsOf("LvBlobs")).hasSize(1); // Data's
    }
    try (Statement statement = connection.createStatement()) {
      // an update of another column keeps the blob
      statement.executeUpdate("UPDATE LvBlobs SET Title = 'renamed' WHERE Id = 1");
      assertThat(TestAccount.valueBlobsOf("LvBlobs")).hasSize(1);
      try (ResultSet rows = statement.executeQuery("SELECT Data FROM LvBlobs WHERE Id = 1")) {
        assertThat(rows.next()).isTrue();
        assertThat(rows.getBytes(1)).isEqualTo(hugeBinary);
      }
      assertThat(statement.executeUpdate("DELETE FROM LvBlobs WHERE Id = 1")).isEqualTo(1);
    }
    assertThat(TestAccount.valueBlobsOf("LvBlobs")).isEmpty();
  }

  /** Blobs in a transaction across partitions, a table without a primary key, and copies that cannot hold them. */
  @Test
  void blobsTravelWithTransactionsAndAreRefusedWhereACopyWouldHoldThem() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE LvBlobPairs (Id INT PRIMARY KEY, Body VARCHAR)");
      statement.execute("CREATE TABLE LvBlobLoose (a INT, b TEXT)");
      statement.execute("CREATE TABLE LvBlobCopied (Id INT PRIMARY KEY, Tag VARCHAR(20), Body VARCHAR)");
      statement.execute("CREATE MATERIALIZED VIEW LvBlobCopiedView PRIMARY KEY ((Tag), Id) AS "
          + "SELECT Tag, Id, Body FROM LvBlobCopied WHERE Tag IS NOT NULL");
    }
    String first = text(600_000, -1);
    String second = text(650_000, 5).toUpperCase();
    connection.setAutoCommit(false);
    try (PreparedStatement insert = connection.prepareStatement("INSERT INTO LvBlobPairs VALUES (?, ?)")) {
      insert.setInt(1, 1);
      insert.setString(2, first);
      insert.executeUpdate();
      insert.setInt(1, 2);
      insert.setString(2, second);
      insert.executeUpdate();
      assertThat(body("LvBlobPairs", 1)).isEqualTo(first); // the transaction reads its own writes
      connection.commit();
      try (Statement statement = connection.createStatement()) {
        statement.executeUpdate("UPDATE LvBlobPairs SET Body = 'swapped' WHERE Id = 1");
        statement.executeUpdate("DELETE FROM LvBlobPairs WHERE Id = 2");
      }
      connection.commit();
    } finally {
      connection.setAutoCommit(true);
    }
    assertThat(body("LvBlobPairs", 1)).isEqualTo("swapped");
    assertThat(TestAccount.valueBlobsOf("LvBlobPairs")).isEmpty(); // released once the commit returned

    try (PreparedStatement insert = connection.prepareStatement("INSERT INTO LvBlobLoose VALUES (?, ?)")) {
      insert.setInt(1, 1);
      insert.setString(2, first);
      insert.executeUpdate();
    }
    assertThat(single("SELECT b FROM LvBlobLoose WHERE a = 1")).isEqualTo(first);

    try (PreparedStatement insert = connection.prepareStatement("INSERT INTO LvBlobCopied VALUES (1, 'red', ?)")) {
      insert.setString(1, first);
      assertThatThrownBy(insert::executeUpdate).isInstanceOfSatisfying(SQLException.class,
          e -> assertThat(e.getSQLState()).isEqualTo("22000")).hasMessageContaining("kept in Blob storage")
          .hasMessageContaining("materialized view LvBlobCopiedView");
    }
    assertThat(single("SELECT COUNT(*) FROM LvBlobCopied")).isEqualTo("0");
  }

  /**
   * Blobs no row names (a refused insert's, a rolled-back transaction's) are removed by VERIFY once
   * older than blobGraceSeconds; a transaction that held its long value past half of that is refused.
   */
  @Test
  void verifyRemovesOrphanBlobsOnceTheyAreOldEnough() throws Exception {
    String value = text(600_000, -1);
    try (java.sql.Connection quick = TestAccount.connect("blobGraceSeconds=2");
        Statement statement = quick.createStatement()) {
      statement.execute("CREATE TABLE LvOrphans (Id INT PRIMARY KEY, Body VARCHAR)");
      try (PreparedStatement insert = quick.prepareStatement("INSERT INTO LvOrphans VALUES (?, ?)")) {
        insert.setInt(1, 1);
        insert.setString(2, value);
        insert.executeUpdate();
        assertThatThrownBy(insert::executeUpdate).isInstanceOfSatisfying(SQLException.class,
            e -> assertThat(e.getSQLState()).isEqualTo("23505")); // its blob was written first: an orphan
        quick.setAutoCommit(false);
        insert.setInt(1, 2);
        insert.executeUpdate();
        quick.rollback(); // another
        quick.setAutoCommit(true);
      }
      assertThat(TestAccount.valueBlobsOf("LvOrphans")).hasSize(3);
      statement.execute("ALTER TABLE LvOrphans VERIFY");
      assertThat(statement.getWarnings().getMessage()).contains("3 blobs of long values, 0 that no row names deleted");
      Thread.sleep(3_500); // past blobGraceSeconds, as the services' clocks tell it in whole seconds
      statement.execute("ALTER TABLE LvOrphans VERIFY");
      assertThat(statement.getWarnings().getMessage()).contains("3 blobs of long values, 2 that no row names deleted");
      assertThat(TestAccount.valueBlobsOf("LvOrphans")).hasSize(1);
      assertThat(QueryRuns.rows(statement.executeQuery("SELECT CHAR_LENGTH(Body) FROM LvOrphans WHERE Id = 1")))
          .containsExactly("600000");

      quick.setAutoCommit(false);
      try (PreparedStatement insert = quick.prepareStatement("INSERT INTO LvOrphans VALUES (3, ?)")) {
        insert.setString(1, value);
        insert.executeUpdate();
        Thread.sleep(1_200); // past half of blobGraceSeconds: VERIFY may take its blob for an orphan
        assertThatThrownBy(quick::commit).isInstanceOfSatisfying(SQLException.class,
            e -> assertThat(e.getSQLState()).isEqualTo("40001")).hasMessageContaining("blobGraceSeconds");
      } finally {
        quick.setAutoCommit(true);
      }
      assertThat(QueryRuns.rows(statement.executeQuery("SELECT Id FROM LvOrphans"))).containsExactly("1");
      statement.execute("DROP TABLE LvOrphans");
      assertThat(TestAccount.valueBlobsOf("LvOrphans")).isEmpty(); // the dropped rows' blobs go with them
    }
  }

  /**
   * A row that moves to new keys (alone or in a batch, whose groups go separately) takes a copy of
   * its blob: a blob is only ever named at the keys it was first written for.
   */
  @Test
  void aMovedRowTakesACopyOfItsBlob() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE LvMoves (Id INT PRIMARY KEY, Body VARCHAR)");
    }
    String value = text(600_000, -1);
    try (PreparedStatement insert = connection.prepareStatement("INSERT INTO LvMoves VALUES (?, ?)")) {
      insert.setInt(1, 1);
      insert.setString(2, value);
      insert.executeUpdate();
    }
    List<String> first = TestAccount.valueBlobsOf("LvMoves");
    try (Statement statement = connection.createStatement()) {
      assertThat(statement.executeUpdate("UPDATE LvMoves SET Id = 2 WHERE Id = 1")).isEqualTo(1);
      assertThat(TestAccount.valueBlobsOf("LvMoves")).hasSize(1).doesNotContainAnyElementsOf(first);
      statement.addBatch("UPDATE LvMoves SET Id = 3 WHERE Id = 2");
      statement.addBatch("INSERT INTO LvMoves VALUES (5, 'other')");
      statement.executeBatch();
    }
    assertThat(body("LvMoves", 3)).isEqualTo(value);
    assertThat(TestAccount.valueBlobsOf("LvMoves")).hasSize(1);
  }

  /**
   * A merge's value in parts over a value in a blob stays whole through an update of another
   * column; a view that tests a column refuses a value kept in Blob storage before anything is written.
   */
  @Test
  void mergedPartsAndViewConditionsMeetBlobsSafely() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE LvMergedBlobs (Id INT PRIMARY KEY, Body VARCHAR, Other INT)");
      statement.execute("CREATE TABLE LvTested (Id INT PRIMARY KEY, Body VARCHAR)");
      statement.execute("CREATE MATERIALIZED VIEW LvTestedX PRIMARY KEY ((Id)) AS SELECT Id FROM LvTested "
          + "WHERE Body >= 'x'");
    }
    String parts = text(100_000, -1);
    try (PreparedStatement upsert = connection.prepareStatement("UPSERT INTO LvMergedBlobs (Id, Body) VALUES (1, ?)")) {
      upsert.setString(1, text(600_000, -1));
      upsert.executeUpdate();
      upsert.setString(1, parts); // a merge: the reference stays behind, disowned by the count
      upsert.executeUpdate();
    }
    try (Statement statement = connection.createStatement()) {
      statement.executeUpdate("UPDATE LvMergedBlobs SET Other = 5 WHERE Id = 1");
    }
    assertThat(body("LvMergedBlobs", 1)).isEqualTo(parts);
    TableEntity stored = TestAccount.service().getTableClient("LvMergedBlobs").listEntities().stream().findFirst()
        .orElseThrow();
    assertThat(stored.getProperties()).doesNotContainKey("Body_TsRef").containsEntry("Body_TsN", 4);

    try (PreparedStatement insert = connection.prepareStatement("INSERT INTO LvTested VALUES (1, ?)")) {
      insert.setString(1, "x" + text(600_000, -1));
      assertThatThrownBy(insert::executeUpdate).isInstanceOfSatisfying(SQLException.class,
          e -> assertThat(e.getSQLState()).isEqualTo("22000")).hasMessageContaining("materialized view LvTestedX");
    }
    assertThat(single("SELECT COUNT(*) FROM LvTested")).isEqualTo("0");
  }

  /**
   * A column of an earlier table that keeps one property per value is widened in place by ALTER
   * COLUMN ... TYPE: its rows read as before, and it then holds values of any length.
   */
  @Test
  void alterColumnTypeWidensAColumnToHoldLongValues() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE LvWidened (Id INT PRIMARY KEY, Body VARCHAR(100), Data VARBINARY(10))");
      statement.executeUpdate("INSERT INTO LvWidened VALUES (1, 'written before', X'0102')");
      assertThatThrownBy(() -> statement.executeUpdate("UPDATE LvWidened SET Body = '" + text(40_000, -1)
          + "' WHERE Id = 1")).isInstanceOf(SQLException.class);
      statement.execute("ALTER TABLE LvWidened ALTER Data SET DATA TYPE BLOB");
      for (String refused : List.of("ALTER TABLE LvWidened ALTER COLUMN Id TYPE CLOB",
          "ALTER TABLE LvWidened ALTER COLUMN Body TYPE INTEGER", "ALTER TABLE LvWidened ALTER COLUMN Data TYPE CLOB",
          "ALTER TABLE LvWidened ALTER COLUMN Body TYPE VARCHAR(10)")) {
        assertThatThrownBy(() -> statement.execute(refused)).as(refused).isInstanceOfSatisfying(SQLException.class,
            e -> assertThat(e.getSQLState()).isEqualTo("0A000"));
      }
    }
    assertThat(body("LvWidened", 1)).isEqualTo("written before");
    // a connection whose definition predates the widening (another JVM's, until schemaTtlSeconds)
    String stale = text(70_000, -1);
    try (java.sql.Connection old = TestAccount.connect("sampleSize=777");
        Statement before = old.createStatement()) {
      assertThat(QueryRuns.rows(before.executeQuery("SELECT Body FROM LvWidened WHERE Id = 1")))
          .containsExactly("written before"); // its definition cached, as the ALTER below does not tell it
      try (Statement statement = connection.createStatement()) {
        statement.execute("ALTER TABLE LvWidened ALTER COLUMN Body TYPE CLOB");
      }
      try (PreparedStatement update = connection.prepareStatement("UPDATE LvWidened SET Body = ? WHERE Id = 1")) {
        update.setString(1, stale);
        update.executeUpdate();
      }
      // it reads the long value's first part, tells it by its count, and refuses rather than answer with it
      assertThatThrownBy(() -> QueryRuns.rows(before.executeQuery("SELECT Body FROM LvWidened WHERE Id = 1")))
          .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("40001"));
      assertThat(QueryRuns.rows(before.executeQuery("SELECT CHAR_LENGTH(Body) FROM LvWidened WHERE Id = 1")))
          .containsExactly("70000"); // run again: the definition read anew
    }
    String value = text(600_000, -1);
    try (PreparedStatement update = connection.prepareStatement("UPDATE LvWidened SET Body = ?, Data = ? WHERE Id = 1")) {
      update.setString(1, value);
      update.setBytes(2, bytes(100_000));
      assertThat(update.executeUpdate()).isEqualTo(1);
    }
    assertThat(body("LvWidened", 1)).isEqualTo(value);
    assertThat(agreed("SELECT Id FROM LvWidened WHERE Body LIKE '" + value.substring(0, 5) + "%' AND OCTET_LENGTH(Data) "
        + "= 100000").rows()).containsExactly("1");
  }

  /** Two values that each fit the entity but not together: the longer goes to a blob. */
  @Test
  void aRowOfSeveralLongValuesMovesTheLongestToABlob() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE LvTwoLong (Id INT PRIMARY KEY, Body VARCHAR, Data VARBINARY)");
    }
    String body = text(400_000, -1);
    byte[] data = bytes(500_000);
    try (PreparedStatement insert = connection.prepareStatement("INSERT INTO LvTwoLong VALUES (1, ?, ?)")) {
      insert.setString(1, body);
      insert.setBytes(2, data);
      insert.executeUpdate();
    }
    TableEntity stored = TestAccount.service().getTableClient("LvTwoLong").listEntities().stream().findFirst()
        .orElseThrow();
    assertThat(stored.getProperty("Body_TsN")).isEqualTo(0); // 800,000 bytes of UTF-16
    assertThat(stored.getProperty("Data_TsN")).isEqualTo(8); // 500,000 bytes stay in parts
    assertThat(body("LvTwoLong", 1)).isEqualTo(body);
    // a shorter value back in the entity, the other grown there: the blob goes
    try (PreparedStatement update = connection.prepareStatement("UPDATE LvTwoLong SET Body = 'short', Data = ? "
        + "WHERE Id = 1")) {
      update.setBytes(1, bytes(700_000));
      update.executeUpdate();
    }
    assertThat(TestAccount.valueBlobsOf("LvTwoLong")).isEmpty();
    assertThat(body("LvTwoLong", 1)).isEqualTo("short");
    try (Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SELECT Data FROM LvTwoLong WHERE Id = 1")) {
      assertThat(rows.next()).isTrue();
      assertThat(rows.getBytes(1)).isEqualTo(bytes(700_000));
    }
  }

  /** A column may be named like a part, unless it is a part of a column of long values of the same table. */
  @Test
  void onlyAColumnNamedAsAnotherColumnsPartIsRefused() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE LvNames (Id INT PRIMARY KEY, Note_TsN INT, Code VARCHAR(10))");
      assertThatThrownBy(() -> statement.execute("CREATE TABLE LvNamesBad (Id INT PRIMARY KEY, Body VARCHAR, "
          + "body_tsp2 INT)")).isInstanceOfSatisfying(SQLException.class,
              e -> assertThat(e.getSQLState()).isEqualTo("42000")).hasMessageContaining("long values of column Body");
      assertThatThrownBy(() -> statement.execute("ALTER TABLE LvNames ADD COLUMN Note VARCHAR"))
          .isInstanceOf(SQLException.class).hasMessageContaining("long values of column Note");
      statement.execute("ALTER TABLE LvNames ADD COLUMN Other VARCHAR");
    }
  }

  @Test
  void aColumnWithALengthKeepsOneProperty() throws SQLException {
    try (PreparedStatement insert = connection.prepareStatement("INSERT INTO LvDocs (Id, Title) VALUES (?, ?)")) {
      insert.setInt(1, 98);
      insert.setString(2, text(40_000, -1));
      assertThatThrownBy(insert::executeUpdate).isInstanceOf(SQLException.class)
          .hasMessageContaining("Title").hasMessageContaining("without a length")
          .extracting(e -> ((SQLException) e).getSQLState()).isEqualTo("22000");
    }
  }

  private static String body(String table, int id) throws SQLException {
    return single("SELECT Body FROM " + table + " WHERE Id = " + id);
  }

  /** Text of {@code length} characters, with a surrogate pair at {@code pairAt} (-1: none). */
  private static String text(int length, int pairAt) {
    StringBuilder text = new StringBuilder(length);
    for (int i = 0; text.length() < length; i++) {
      if (text.length() == pairAt) {
        text.appendCodePoint(0x1F600);
      } else {
        text.append((char) ('a' + (i * 7 + i / 26) % 26));
      }
    }
    return text.substring(0, length);
  }

  private static byte[] bytes(int length) {
    byte[] bytes = new byte[length];
    for (int i = 0; i < length; i++) {
      bytes[i] = (byte) (i * 31 + i / 251);
    }
    return bytes;
  }
}
