import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * A writer for IntentCrashIT, run with the driver jar alone ({@code java -cp driver.jar
 * IntentWriter.java url table first}) and killed at a random moment: transaction k inserts 30
 * rows over 3 partitions (RowKeys k-0 ... k-29, property K = k), adds 30 to the counter row
 * (c, count) in a fourth, and moves employee k % 5 of the declared table {@code <table>Emp} (a
 * UNIQUE index on Email, another on Score) to department d(k % 3) with Score k, so that every
 * transaction is four to six entity groups through one intent, with index entries to keep.
 * Prints "committed k" once commit returned.
 */
public class IntentWriter {
  public static void main(String[] args) throws Exception {
    String url = args[0];
    String table = args[1];
    int first = Integer.parseInt(args[2]);
    try (Connection connection = DriverManager.getConnection(url);
         PreparedStatement insert = connection.prepareStatement(
             "INSERT INTO " + table + " (PartitionKey, RowKey, K) VALUES (?, ?, ?)");
         PreparedStatement count = connection.prepareStatement(
             "UPDATE " + table + " SET N = N + 30 WHERE PartitionKey = 'c' AND RowKey = 'count'");
         PreparedStatement move = connection.prepareStatement(
             "UPDATE " + table + "Emp SET Dept = ?, Score = ? WHERE Id = ?")) {
      connection.setAutoCommit(false);
      for (int k = first; ; k++) {
        for (int i = 0; i < 30; i++) {
          insert.setString(1, "p" + i % 3);
          insert.setString(2, k + "-" + i);
          insert.setInt(3, k);
          insert.executeUpdate();
        }
        count.executeUpdate();
        move.setString(1, "d" + k % 3);
        move.setInt(2, k);
        move.setInt(3, k % 5);
        move.executeUpdate();
        try {
          connection.commit();
          System.out.println("committed " + k);
        } catch (SQLException e) {
          System.out.println("failed " + k + " " + e.getSQLState());
          connection.rollback();
        }
        System.out.flush();
      }
    }
  }
}
