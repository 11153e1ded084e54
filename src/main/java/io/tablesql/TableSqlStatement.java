package io.tablesql;

/**
 * What tablesql adds to {@link java.sql.Statement}: the cost of its last execution at the
 * service. Reach it with {@code statement.unwrap(TableSqlStatement.class)}.
 *
 * <p>Counts cover the execution and the reading of its result set so far, including every
 * retried request; they start again at each execute.
 */
public interface TableSqlStatement {
  /** HTTP requests sent to the Table service. */
  long requestCount();

  /** Entities received from the Table service. */
  long entityCount();
}
