package io.tablesql.store;

import io.tablesql.errors.SqlStates;

/**
 * A write that met a row another transaction was writing (its intent's mark, or the row as it
 * was before that intent), and waited until that transaction ended (committed, undone, or
 * settled by recovery past its lease): nothing was written, and the statement run again reads
 * the row as committed now. The JDBC layer runs an auto-commit statement again once on it, as
 * PostgreSQL's writers proceed once a row's lock is released; in a transaction it is 40001.
 */
public final class SettledConflict extends StoreException {
  public SettledConflict(String message) {
    super(message, SqlStates.SERIALIZATION_FAILURE, null);
  }

  /** Whether a failure is, or was caused by, a settled conflict. */
  public static boolean in(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof SettledConflict) {
        return true;
      }
    }
    return false;
  }
}
