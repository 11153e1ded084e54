package io.tablesql.bench;

import io.tablesql.settings.ConnectionSettings;
import io.tablesql.shell.LocalEmulator;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Measures what the driver keeps in memory: the heap an idle open connection holds, and what one
 * entry of a connection's plan cache costs. Heap in use is read after repeated full collections,
 * before and after opening 50 more connections and planning 200 more query shapes.
 *
 * <pre>java -cp target/classes:target/test-classes:&lt;deps&gt; io.tablesql.bench.MemoryFootprint</pre>
 */
public final class MemoryFootprint {
  private static final int CONNECTIONS = 50;
  private static final int PLANS = 200;

  private MemoryFootprint() {
  }

  public static void main(String[] args) throws Exception {
    try (LocalEmulator emulator = LocalEmulator.start(Path.of(System.getProperty("tablesql.home", ".")))) {
      String url = ConnectionSettings.URL_PREFIX + emulator.connectionString();
      try (Connection setup = DriverManager.getConnection(url); Statement statement = setup.createStatement()) {
        statement.execute("CREATE TABLE Footprint (PartitionKey VARCHAR, RowKey VARCHAR, A INTEGER, B VARCHAR)");
        statement.executeUpdate("INSERT INTO Footprint (PartitionKey, RowKey, A, B) VALUES ('p', '1', 1, 'x')");
      }
      List<Connection> open = new ArrayList<>();
      open.add(DriverManager.getConnection(url + ";planCacheSize=" + (PLANS + 10)));
      run(open.get(0), "SELECT A FROM Footprint WHERE PartitionKey = 'p'"); // Calcite and the schema loaded
      long base = usedHeap();
      for (int i = 0; i < CONNECTIONS; i++) {
        Connection connection = DriverManager.getConnection(url);
        run(connection, "SELECT A FROM Footprint WHERE PartitionKey = 'p'");
        open.add(connection);
      }
      long perConnection = (usedHeap() - base) / CONNECTIONS;
      long beforePlans = usedHeap();
      for (int i = 0; i < PLANS; i++) {
        // a different plan each time (a constant in the projection, which is not lifted), so each is
        // planned, compiled and cached
        run(open.get(0), "SELECT A * " + (i + 2) + " AS C FROM Footprint WHERE PartitionKey = 'p'");
      }
      long perPlan = (usedHeap() - beforePlans) / PLANS;
      System.out.printf("idle open connection (after one query): %,d bytes%n", perConnection);
      System.out.printf("plan cache entry: %,d bytes%n", perPlan);
      for (Connection connection : open) {
        connection.close();
      }
    }
  }

  private static void run(Connection connection, String sql) throws Exception {
    try (PreparedStatement statement = connection.prepareStatement(sql); ResultSet rows = statement.executeQuery()) {
      while (rows.next()) {
        rows.getObject(1);
      }
    }
  }

  private static long usedHeap() throws InterruptedException {
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 5; i++) {
      System.gc();
      Thread.sleep(100);
      used = Math.min(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
    }
    return used;
  }
}
