import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Random;

/**
 * A writer for ReadCommittedCrashIT, run with the driver jar alone ({@code java -cp driver.jar
 * TransferWriter.java url accounts receipts firstTag}) and killed at a random moment: transaction
 * k moves an amount between two accounts of different partitions, stamping both with tag k and
 * bumping their versions V, and inserts receipt k; three entity groups through one intent. Prints
 * "committed k" once commit returned.
 */
public class TransferWriter {
  public static void main(String[] args) throws Exception {
    String url = args[0];
    String accounts = args[1];
    String receipts = args[2];
    long first = Long.parseLong(args[3]);
    int count = Integer.parseInt(args[4]);
    Random random = new Random(first);
    try (Connection connection = DriverManager.getConnection(url);
         PreparedStatement move = connection.prepareStatement(
             "UPDATE " + accounts + " SET N = N + ?, V = V + 1, Tag = ? WHERE P = ? AND A = ?");
         PreparedStatement receipt = connection.prepareStatement("INSERT INTO " + receipts + " VALUES (?)")) {
      connection.setAutoCommit(false);
      for (long tag = first; ; tag++) {
        int from = random.nextInt(count);
        int to = (from + 1 + 2 * random.nextInt(count / 2 - 1)) % count; // another partition (P = A % 4)
        int amount = 1 + random.nextInt(50);
        try {
          for (int[] side : new int[][] {{from, -amount}, {to, amount}}) {
            move.setInt(1, side[1]);
            move.setLong(2, tag);
            move.setString(3, "p" + side[0] % 4);
            move.setInt(4, side[0]);
            move.executeUpdate();
          }
          receipt.setLong(1, tag);
          receipt.executeUpdate();
          connection.commit();
          System.out.println("committed " + tag);
        } catch (SQLException e) {
          System.out.println("failed " + tag + " " + e.getSQLState());
          connection.rollback();
        }
        System.out.flush();
      }
    }
  }
}
