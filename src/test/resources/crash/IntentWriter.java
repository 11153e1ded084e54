import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * A writer for IntentCrashIT, run with the driver jar alone ({@code java -cp driver.jar
 * IntentWriter.java url table first}) and killed at a random moment: transaction k inserts 30
 * rows over 3 partitions (RowKeys k-0 ... k-29, property K = k) and adds 30 to the counter row
 * (c, count) in a fourth, so that every transaction is four entity groups through one intent.
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
             "UPDATE " + table + " SET N = N + 30 WHERE PartitionKey = 'c' AND RowKey = 'count'")) {
      connection.setAutoCommit(false);
      for (int k = first; ; k++) {
        for (int i = 0; i < 30; i++) {
          insert.setString(1, "p" + i % 3);
          insert.setString(2, k + "-" + i);
          insert.setInt(3, k);
          insert.executeUpdate();
        }
        count.executeUpdate();
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
