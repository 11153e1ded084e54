package io.tablesql.store;

import com.azure.data.tables.models.TableEntity;
import io.tablesql.errors.SqlStates;
import io.tablesql.txn.WriteOperation;
import java.util.List;
import java.util.Optional;

/**
 * Finds out whether an entity group transaction was applied when the client could not tell: an
 * attempt's answer was lost (a timeout, {@code 500 OperationTimedOut}), and the SDK's retry was
 * refused (409 exists, 412 changed) or failed too. The group is all or nothing, so if every
 * entity now holds exactly what was sent, the first attempt landed and the write succeeded.
 * Otherwise nobody can tell whether it landed and was changed since, or never landed: the
 * answer is SQLState 08007, never "nothing was written".
 */
final class OutcomeCheck {
  private OutcomeCheck() {
  }

  /** Returns if the writes are in place; throws 08007 if that cannot be shown. */
  static void confirmApplied(TableStore store, String table, List<WriteOperation> operations,
      StoreException failure, RequestCounters counters) {
    try {
      for (WriteOperation operation : operations) {
        Optional<TableEntity> entity = store.get(table, operation.partitionKey(), operation.rowKey(), null, counters);
        if (!EntityMatch.holds(operation, entity)) {
          throw unknown(table, operations, failure, "entity " + operation.describe() + " does not hold what was "
              + "sent, so the writes either were not made or were changed since");
        }
      }
    } catch (StoreException readFailure) {
      if (SqlStates.TRANSACTION_RESOLUTION_UNKNOWN.equals(readFailure.sqlState())) {
        throw readFailure;
      }
      throw unknown(table, operations, failure, "reading the entities back failed too (" + readFailure.getMessage()
          + ")");
    }
  }

  private static StoreException unknown(String table, List<WriteOperation> operations, StoreException failure,
      String why) {
    String which = operations.size() == 1 ? "the write to " + operations.get(0).describe()
        : "the " + operations.size() + " writes to table " + table + " (one entity group transaction)";
    return new StoreException("The outcome of " + which + " is unknown: an answer of the service was lost "
        + "(a timeout or 'operation may or may not have succeeded') and the retry failed: " + failure.getMessage()
        + " The writes may or may not have been made, all or none of them; " + why + ". Read the rows to find "
        + "out before retrying, so that nothing is applied twice.",
        SqlStates.TRANSACTION_RESOLUTION_UNKNOWN, failure);
  }
}
