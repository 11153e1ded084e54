package sqlline;

import java.sql.SQLException;
import java.sql.SQLWarning;

/**
 * sqlline as tablesql's shell runs it. sqlline prints every SQLException with its stack trace
 * until its options are read, which for a {@code --run} script is the whole script: a warning
 * (a materialized view's build report) then reads as an error, its message twice. Here a warning
 * is one line, always. In sqlline's package because the method it overrides is package-private.
 */
public class ShellSqlLine extends SqlLine {
  @Override
  void handleSQLException(SQLException e) {
    if (!(e instanceof SQLWarning)) {
      super.handleSQLException(e);
      return;
    }
    if (!getOpts().getShowWarnings()) {
      return;
    }
    for (SQLException warning = e; warning != null; warning = warning.getNextException()) {
      error("Warning: " + (warning.getMessage() == null ? "" : warning.getMessage().trim()) + " (state="
          + warning.getSQLState() + ",code=" + warning.getErrorCode() + ")");
    }
  }
}
