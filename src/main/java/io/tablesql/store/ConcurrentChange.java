package io.tablesql.store;

import io.tablesql.errors.SqlStates;

/**
 * The refusal of a write that met another write under way, before it wrote anything: {@code
 * 40001}, a serialization failure, which the application (or {@code optimisticRetries}) may run
 * again as it is. One wording for every such conflict: what was met, then what to do.
 */
public final class ConcurrentChange {
  private ConcurrentChange() {
  }

  /** {@code what} the write met, as a clause ("the row ... is being written by another transaction"). */
  public static StoreException nothingWritten(String what) {
    return new StoreException("Concurrent change: " + what + ". Nothing was written; run the statement again.",
        SqlStates.SERIALIZATION_FAILURE, null);
  }

  /** The same for a unique value of an index, named as {@code describe} gives it. */
  public static StoreException uniqueValue(String index, String describe, String what) {
    return nothingWritten("the value of " + describe + " in UNIQUE index " + index + " " + what);
  }
}
