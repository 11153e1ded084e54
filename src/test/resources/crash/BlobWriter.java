import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * A writer for BlobCrashIT, run with the driver jar alone ({@code java -cp driver.jar
 * BlobWriter.java url table first}) and killed at a random moment: transaction k gives rows
 * k % 4 and (k + 1) % 4 of the declared table (Id INT PRIMARY KEY, Gen INT, Body VARCHAR) the
 * generation k and a body of 600,000 characters made from (Id, k), each past the entity's 1 MiB
 * and so kept in a blob; the two rows are two entity groups, committed through one intent. Every
 * third transaction also sets row 4 alone, in auto-commit (one entity group). Prints "committed k"
 * once commit returned.
 */
public class BlobWriter {
  public static void main(String[] args) throws Exception {
    String url = args[0];
    String table = args[1];
    int first = Integer.parseInt(args[2]);
    try (Connection connection = DriverManager.getConnection(url);
         PreparedStatement update = connection.prepareStatement(
             "UPDATE " + table + " SET Gen = ?, Body = ? WHERE Id = ?")) {
      for (int k = first; ; k++) {
        if (k % 3 == 0) {
          connection.setAutoCommit(true);
          set(update, 4, k);
        }
        connection.setAutoCommit(false);
        set(update, k % 4, k);
        set(update, (k + 1) % 4, k);
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

  private static void set(PreparedStatement update, int id, int generation) throws SQLException {
    update.setInt(1, generation);
    update.setString(2, body(id, generation));
    update.setInt(3, id);
    update.executeUpdate();
  }

  /** The body of row {@code id} in generation {@code generation}: the same in the writer and the test. */
  static String body(int id, int generation) {
    String unit = id + ":" + generation + ";";
    return unit.repeat(600_000 / unit.length() + 1).substring(0, 600_000);
  }
}
