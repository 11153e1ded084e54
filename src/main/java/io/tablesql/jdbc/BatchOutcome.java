package io.tablesql.jdbc;

import io.tablesql.exec.WriteSender;
import io.tablesql.session.StatementContext;
import io.tablesql.txn.WriteOperation;
import java.sql.BatchUpdateException;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;

/** Reports a batch's result: one update count per row, or which rows were written and which not. */
final class BatchOutcome {
  private BatchOutcome() {
  }

  /**
   * A batch that stopped at a failing statement or row (0-based {@code failed} of {@code total}):
   * as JDBC wants of a driver that stops, the update counts are those of the ones before it,
   * which ran; the failure's SQLState is the batch's.
   */
  static BatchUpdateException stopped(String what, int failed, int total, int[] countsBefore, SQLException cause) {
    String written = failed == 0 ? "nothing of the batch was written"
        : "the " + what + "s before it were written (the update counts are theirs), it and the " + what
            + "s after it were not";
    return new BatchUpdateException("Batch " + what + " " + (failed + 1) + " of " + total + " failed: " + written
        + ". " + cause.getMessage(), cause.getSQLState(), countsBefore, cause);
  }

  static int[] check(int[] counts, StatementContext context, java.util.List<WriteSender.GroupOutcome> outcomes)
      throws BatchUpdateException {
    int[] result = Arrays.copyOf(counts, counts.length);
    String firstFailure = null;
    String sqlState = null;
    int failedRows = 0;
    for (WriteSender.GroupOutcome outcome : outcomes) {
      if (outcome.failure() == null) {
        continue;
      }
      if (firstFailure == null) {
        firstFailure = outcome.failure().getMessage();
        sqlState = outcome.failure().sqlState();
      }
      for (WriteOperation operation : outcome.operations()) {
        int row = context.batchRow(operation);
        if (result[row] != Statement.EXECUTE_FAILED) {
          result[row] = Statement.EXECUTE_FAILED;
          failedRows++;
        }
      }
    }
    if (firstFailure != null) {
      throw new BatchUpdateException(failedRows + " of " + counts.length + " batch rows were not written (their "
          + "update count is EXECUTE_FAILED); the others were. First failure: " + firstFailure, sqlState, result);
    }
    return result;
  }
}
