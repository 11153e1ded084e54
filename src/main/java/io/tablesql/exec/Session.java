package io.tablesql.exec;

import com.azure.data.tables.models.TableEntity;
import io.tablesql.errors.SqlExceptions;
import io.tablesql.keys.GeneratedKey;
import io.tablesql.settings.ConnectionSettings;
import io.tablesql.settings.DriverProperty;
import io.tablesql.store.RequestCounters;
import io.tablesql.store.TableStore;
import io.tablesql.txn.PendingWrites;
import io.tablesql.txn.WriteOperation.Kind;
import io.tablesql.txn.WriteOperation;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.calcite.DataContext;

/**
 * The state one connection shares with the tables it plans and runs: settings, the store, the
 * open transaction (auto-commit, read-only, pending writes, commit), and the context of each
 * statement executing (whose counters and page size its scans use).
 */
public final class Session {
  private final ConnectionSettings settings;
  private final TableStore store;
  /** The statement executing on each thread, during its execute call ({@link #during}). */
  private final ThreadLocal<StatementContext> executing = new ThreadLocal<>();
  /** Each statement's context by its cancel flag; weak, as the statements are the caller's. */
  private final Map<AtomicBoolean, StatementContext> contexts = Collections.synchronizedMap(new WeakHashMap<>());
  private final PendingWrites pending = new PendingWrites();
  private volatile boolean autoCommit = true;
  private volatile boolean readOnly;
  private String transactionPartition;
  private volatile Runnable schemaChanged = () -> { };

  public Session(ConnectionSettings settings, TableStore store) {
    this.settings = settings;
    this.store = store;
  }

  public ConnectionSettings settings() {
    return settings;
  }

  public TableStore store() {
    return store;
  }

  public boolean pushdown() {
    return settings.getBoolean(DriverProperty.PUSHDOWN);
  }

  /** Whether scans may be taken to return rows in key order (false for the Cosmos DB Table API). */
  public boolean resultsInKeyOrder() {
    return settings.resultsInKeyOrder();
  }

  public int maxConcurrency() {
    return settings.getInt(DriverProperty.MAX_CONCURRENCY);
  }

  /** What to do after DDL changed the account's tables: the connection reads its table list again. */
  public void onSchemaChange(Runnable action) {
    this.schemaChanged = action;
  }

  public void schemaChanged() {
    schemaChanged.run();
  }

  public boolean autoCommit() {
    return autoCommit;
  }

  /** Turning auto-commit back on commits what is pending, as JDBC asks. */
  public void setAutoCommit(boolean autoCommit) throws java.sql.SQLException {
    if (autoCommit && !this.autoCommit) {
      commit();
    }
    this.autoCommit = autoCommit;
  }

  public boolean readOnly() {
    return readOnly;
  }

  /** A read-only connection refuses every write; its reads are unchanged. */
  public void setReadOnly(boolean readOnly) {
    this.readOnly = readOnly;
  }

  /** Refuses a write (statement, batch, DDL or commit) of a read-only connection before anything is sent. */
  public void requireWritable() throws java.sql.SQLException {
    if (readOnly) {
      throw SqlExceptions.of("The connection is read-only, so writes, DDL and commits are refused and "
          + "nothing was sent. Call Connection.setReadOnly(false) to write.", io.tablesql.errors.SqlStates.READ_ONLY);
    }
  }

  /**
   * The PartitionKey of rows inserted into a table without a primary key: one per statement,
   * the same for a whole transaction, which must stay within one partition.
   */
  public synchronized String partitionForNewRows() {
    if (autoCommit) {
      return GeneratedKey.newPartitionKey();
    }
    if (transactionPartition == null) {
      transactionPartition = GeneratedKey.newPartitionKey();
    }
    return transactionPartition;
  }

  /** The writes of the open transaction (auto-commit off). */
  public PendingWrites pending() {
    return pending;
  }

  /** Sends the transaction's writes as one entity group transaction: all or nothing. */
  public void commit() throws java.sql.SQLException {
    if (!pending.isEmpty()) {
      requireWritable();
    }
    List<WriteOperation> pendingWrites = pending.drain();
    newTransaction();
    if (!pendingWrites.isEmpty()) {
      try {
        RequestCounters counters = new RequestCounters();
        List<WriteOperation> writes = resolveDeletesIfPresent(pendingWrites, counters);
        if (writes.isEmpty()) {
          return;
        }
        LookupCache.invalidate(this, writes.get(0).table());
        IndexedWrites.submit(this, writes, counters);
      } catch (io.tablesql.store.StoreException e) {
        if (io.tablesql.errors.SqlStates.TRANSACTION_RESOLUTION_UNKNOWN.equals(e.sqlState())) {
          throw SqlExceptions.of("Commit: " + e.getMessage(), e.sqlState());
        }
        throw SqlExceptions.of("Commit failed, nothing of the transaction was written: " + e.getMessage(),
            e.sqlState());
      }
    }
  }

  /**
   * The writes as the service can apply them: each {@link Kind#DELETE_IF_PRESENT} (an upsert
   * deleted again) reads its entity first; absent, nothing is sent for it; present, a DELETE
   * conditional on the ETag read, so that a change in between fails the commit with 40001.
   */
  private List<WriteOperation> resolveDeletesIfPresent(List<WriteOperation> writes, RequestCounters counters) {
    List<WriteOperation> unresolved = writes.stream().filter(w -> w.kind() == Kind.DELETE_IF_PRESENT).toList();
    if (unresolved.isEmpty()) {
      return writes;
    }
    Iterator<Optional<TableEntity>> read = Parallel.map(unresolved, maxConcurrency(),
        w -> store.get(w.table(), w.partitionKey(), w.rowKey(), null, counters)).iterator();
    List<WriteOperation> resolved = new ArrayList<>();
    for (WriteOperation write : writes) {
      if (write.kind() != Kind.DELETE_IF_PRESENT) {
        resolved.add(write);
      } else {
        read.next().ifPresent(entity -> resolved.add(new WriteOperation(write.table(), write.partitionKey(),
            write.rowKey(), Kind.DELETE, Map.of(), entity.getETag(), write.origin())));
      }
    }
    return resolved;
  }

  public void rollback() {
    pending.drain();
    newTransaction();
  }

  private synchronized void newTransaction() {
    transactionPartition = null;
  }

  /**
   * Makes {@code context} the one the execution of a statement reports to: its table accesses
   * find it by the cancel flag in their DataContext (each statement has its own), so two
   * statements running on one connection, or a result set read after another statement started,
   * never report to each other's context.
   */
  public void begin(AtomicBoolean cancelFlag, StatementContext context) {
    if (cancelFlag != null) {
      contexts.put(cancelFlag, context);
    }
  }

  /** Work a statement does on the calling thread. */
  public interface Work<T> {
    T run() throws java.sql.SQLException;
  }

  /**
   * Runs what a statement's execute call does on this thread with {@code context} as the one
   * {@link #executing} gives: what Calcite calls without the statement's DataContext (DDL) finds
   * it there, and nothing else on the connection can take its place.
   */
  public <T> T during(StatementContext context, Work<T> work) throws java.sql.SQLException {
    StatementContext outer = executing.get();
    executing.set(context);
    try {
      return work.run();
    } finally {
      if (outer == null) {
        executing.remove();
      } else {
        executing.set(outer);
      }
    }
  }

  /** The context of the statement whose execution {@code root} belongs to. */
  public StatementContext context(DataContext root) {
    AtomicBoolean flag = DataContext.Variable.CANCEL_FLAG.get(root);
    StatementContext context = flag == null ? null : contexts.get(flag);
    return context != null ? context : executing();
  }

  /**
   * The context of the statement executing on this thread; for work outside any statement's
   * execution (the driver's own statements), a context of its own whose counts go nowhere.
   */
  public StatementContext executing() {
    StatementContext context = executing.get();
    return context != null ? context : StatementContext.single(new RequestCounters(),
        settings.getInt(DriverProperty.PAGE_SIZE), StatementKind.QUERY);
  }
}
