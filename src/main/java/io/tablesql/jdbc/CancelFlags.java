package io.tablesql.jdbc;

import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.NoSuchStatementException;

/**
 * Reads and clears the cancel flag of Calcite's statement, which Avatica keeps per statement on
 * its connection ({@code AvaticaConnection.getCancelFlag}) and every execution carries in its
 * DataContext. It is cleared before the statement runs again: Avatica sets the flag on
 * {@code cancel()} and never clears it, so a cancelled statement, or a cached plan cancelled
 * once, would fail every later execution at once; in JDBC a cancel ends only the execution
 * under way.
 */
final class CancelFlags {
  private CancelFlags() {
  }

  static void clear(Statement calcite) {
    AtomicBoolean flag = of(calcite);
    if (flag != null) {
      flag.set(false);
    }
  }

  /** The cancel flag of Calcite's statement; null for a closed one. */
  static AtomicBoolean of(Statement calcite) {
    if (calcite instanceof AvaticaStatement avatica) {
      try {
        return avatica.getConnection().getCancelFlag(avatica.handle);
      } catch (SQLException | NoSuchStatementException e) {
        return null; // closed: its execution fails on its own
      }
    }
    return null;
  }
}
