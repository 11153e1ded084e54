package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablesql.testing.KilledWriter;
import io.tablesql.testing.PendingIntents;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Writers of values kept in Blob storage killed mid-commit ({@code destroyForcibly}): a JVM
 * running the driver jar alone replaces long values of rows in transactions across partitions and
 * alone until it is killed at a random moment, and recovery settles what it left. Afterwards
 * every row reads its whole value as its generation says (no row names a missing blob, no row
 * mixes two writes), and {@code ALTER TABLE ... VERIFY} leaves exactly the blobs the rows name.
 */
class BlobCrashIT {
  private static final String[] SHORT_LEASE = {"intentLeaseSeconds=2", "requestTimeoutSeconds=1"};

  @Test
  void aKilledWriterLosesNoValueAndVerifyLeavesNoOrphan() throws Exception {
    String table = "BlobCrash" + System.nanoTime() % 100_000;
    KilledWriter writer = KilledWriter.of("BlobWriter");
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE " + table + " (Id INT PRIMARY KEY, Gen INT, Body VARCHAR)");
      try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + table + " VALUES (?, -1, ?)")) {
        for (int id = 0; id < 5; id++) {
          insert.setInt(1, id);
          insert.setString(2, body(id, -1));
          insert.executeUpdate();
        }
      }
    }
    Random random = new Random(44);
    for (int round = 0; round < 5; round++) {
      // then dies anywhere: uploading, recording, applying, deleting
      writer.runAndKill(List.of(TestAccount.url(SHORT_LEASE), table, String.valueOf(round * 1000)), 1500, random,
          committed -> { });
      PendingIntents.awaitRecovery(table, 30, SHORT_LEASE);
      assertEveryRowWhole(table);
    }
    Thread.sleep(3_500); // past the verifying connection's blobGraceSeconds
    try (Connection connection = TestAccount.connect("blobGraceSeconds=2");
        Statement statement = connection.createStatement()) {
      statement.execute("ALTER TABLE " + table + " VERIFY");
      assertThat(statement.getWarnings().getMessage()).contains("blobs of long values");
    }
    assertThat(TestAccount.valueBlobsOf(table)).as("one blob per row, no orphan").hasSize(5);
    assertEveryRowWhole(table);
  }

  /** Each row reads the body of its generation, whole: its blob is there and is the one its write made. */
  private static void assertEveryRowWhole(String table) throws SQLException {
    try (Connection connection = TestAccount.connect(); Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SELECT Id, Gen, Body FROM " + table + " ORDER BY Id")) {
      int seen = 0;
      while (rows.next()) {
        int id = rows.getInt(1);
        int generation = rows.getInt(2);
        assertThat(rows.getString(3)).as("row %d of generation %d", id, generation).isEqualTo(body(id, generation));
        seen++;
      }
      assertThat(seen).isEqualTo(5);
    }
  }

  private static String body(int id, int generation) {
    String unit = id + ":" + generation + ";";
    return unit.repeat(600_000 / unit.length() + 1).substring(0, 600_000);
  }
}
