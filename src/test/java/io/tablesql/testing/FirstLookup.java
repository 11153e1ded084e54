package io.tablesql.testing;

import io.tablesql.prepare.UnplannedQuery;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * A process whose first statement is a lookup by key, as a script or a service starts: run in
 * a fresh JVM by UnplannedQueryTest, it prints the rows, how many queries ran unplanned, how
 * many requests the process sent, and the columns' metadata.
 */
public final class FirstLookup {
  private FirstLookup() {
  }

  public static void main(String[] args) throws Exception {
    try (Connection connection = DriverManager.getConnection(args[0]); Statement statement = connection.createStatement();
         ResultSet rows = statement.executeQuery(args[1])) {
      String columns = String.join(" ; ", ResultSets.metadata(rows.getMetaData()));
      StringBuilder read = new StringBuilder();
      while (rows.next()) {
        for (int i = 1; i <= rows.getMetaData().getColumnCount(); i++) {
          read.append(rows.getString(i)).append(' ');
        }
      }
      System.out.println(read.toString().trim());
      System.out.println(UnplannedQuery.RUNS.get());
      javax.management.MBeanServer beans = java.lang.management.ManagementFactory.getPlatformMBeanServer();
      javax.management.ObjectName metrics = beans.queryNames(
          new javax.management.ObjectName("io.tablesql:type=Metrics,*"), null).iterator().next();
      System.out.println(beans.getAttribute(metrics, "Requests"));
      System.out.println(columns);
    }
  }
}
