package io.tablesql.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

/** Runs in a fresh JVM for the benchmark: one query after connecting, or a streamed full scan. */
public final class ColdStart {
  private ColdStart() {
  }

  public static void main(String[] args) throws Exception {
    String sql = args[1].equals("fullscan") ? "SELECT * FROM Big"
        : "SELECT Name FROM Big WHERE PartitionKey = 'p01' AND RowKey = 'r0001'";
    long rows = 0;
    try (Connection connection = DriverManager.getConnection(args[0]); Statement statement = connection.createStatement();
         ResultSet resultSet = statement.executeQuery(sql)) {
      while (resultSet.next()) {
        rows++;
      }
    }
    if (rows == 0) {
      throw new IllegalStateException("no rows");
    }
  }
}
