package io.tablesql.session;

import io.tablesql.errors.SqlExceptions;
import io.tablesql.keys.GeneratedKey;
import io.tablesql.settings.ConnectionSettings;
import io.tablesql.settings.DriverProperty;
import io.tablesql.store.RequestCounters;
import io.tablesql.store.TableStore;
import io.tablesql.txn.PendingWrites;
import io.tablesql.txn.WriteOperation;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.calcite.DataContext;

/**
 * The state one connection shares with the tables it plans and runs: settings, the store, the
 * open transaction (auto-commit, read-only, pending writes), and the context of each
 * statement executing (whose counters and page size its scans use).
 */
public final class Session {
  private final ConnectionSettings settings;
  private final TableStore store;
  /** Each statement's context by its cancel flag; weak, as the statements are the caller's. */
  private final Map<AtomicBoolean, StatementContext> contexts = Collections.synchronizedMap(new WeakHashMap<>());
  private final PendingWrites pending;
  /** Names this connection as the owner of the intents it commits or recovers. */
  private final String id = java.util.UUID.randomUUID().toString();
  private volatile boolean autoCommit = true;
  private volatile boolean readOnly;
  private String transactionPartition;
  private final List<Savepoint> savepoints = new java.util.ArrayList<>();
  private int savepointNumber;
  private volatile Runnable schemaChanged = () -> { };
  /** Work that finishes this connection's last commit behind it (clearing marks): its next statement waits for it. */
  private CompletableFuture<?> behind = CompletableFuture.completedFuture(null);

  public Session(ConnectionSettings settings, TableStore store) {
    this.settings = settings;
    this.store = store;
    this.pending = new PendingWrites(settings.getBoolean(DriverProperty.STRICT_ATOMICITY));
  }

  public String id() {
    return id;
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

  /** Turning auto-commit back on ends the transaction: the caller commits what is pending first, as JDBC asks. */
  public void setAutoCommit(boolean autoCommit) {
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

  /**
   * Ends the transaction and hands over its writes, which {@code WriteSender.commit} sends as one
   * entity group transaction; a read-only connection with writes pending refuses, and keeps them.
   */
  public synchronized List<WriteOperation> endTransaction() throws java.sql.SQLException {
    if (!pending.isEmpty()) {
      requireWritable();
    }
    List<WriteOperation> writes = pending.drain();
    newTransaction();
    return writes;
  }

  public synchronized void rollback() {
    pending.drain();
    newTransaction();
  }

  private synchronized void newTransaction() {
    transactionPartition = null;
    savepoints.clear();
  }

  /** A savepoint of the open transaction: its number, its name (null if unnamed) and the writes it goes back to. */
  public record Savepoint(int id, String name, PendingWrites.Snapshot writes) {
  }

  /**
   * Sets a savepoint in the open transaction. Writes are kept in the client until commit, so
   * going back to it drops the writes made since, and nothing sent needs undoing.
   */
  public synchronized Savepoint setSavepoint(String name) throws java.sql.SQLException {
    if (autoCommit) {
      throw SqlExceptions.of("A savepoint needs a transaction: call setAutoCommit(false) first (in auto-commit "
          + "mode every statement commits at once).", io.tablesql.errors.SqlStates.NO_ACTIVE_TRANSACTION);
    }
    Savepoint savepoint = new Savepoint(++savepointNumber, name, pending.snapshot());
    savepoints.add(savepoint);
    return savepoint;
  }

  /** Goes back to a savepoint: the writes made since it are dropped, later savepoints released; it stays. */
  public synchronized void rollbackTo(int id) throws java.sql.SQLException {
    Savepoint savepoint = savepoint(id);
    pending.restore(savepoint.writes());
    savepoints.subList(savepoints.indexOf(savepoint) + 1, savepoints.size()).clear();
  }

  /** Releases a savepoint and the ones set after it; the writes made since stay in the transaction. */
  public synchronized void release(int id) throws java.sql.SQLException {
    Savepoint savepoint = savepoint(id);
    savepoints.subList(savepoints.indexOf(savepoint), savepoints.size()).clear();
  }

  private Savepoint savepoint(int id) throws java.sql.SQLException {
    for (Savepoint savepoint : savepoints) {
      if (savepoint.id() == id) {
        return savepoint;
      }
    }
    throw SqlExceptions.of("No such savepoint (" + id + ") in the open transaction: it was released, or the "
        + "transaction it belonged to has ended.", io.tablesql.errors.SqlStates.INVALID_SAVEPOINT);
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

  /**
   * Runs {@code work} behind the statement that committed: the connection's next statement (or
   * commit, or close) first waits for it ({@link #awaitBehind}), so the connection never races its
   * own clearing of marks (docs/architecture/intents.md, "Readers see committed data only").
   */
  public synchronized void runBehind(Runnable work, java.util.concurrent.Executor executor) {
    CompletableFuture<Void> started = CompletableFuture.runAsync(work, executor);
    // a finished one is dropped, so that a long-lived connection keeps no chain of past commits
    behind = behind.isDone() ? started : CompletableFuture.allOf(behind, started);
  }

  /** Waits for the work behind the last commit, at most one intent lease (work that fails only logs). */
  public void awaitBehind() {
    CompletableFuture<?> work;
    synchronized (this) {
      work = behind;
    }
    if (work.isDone()) {
      return;
    }
    try {
      work.get(settings.getInt(DriverProperty.INTENT_LEASE), TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      // what is left is recovery's: the intent stays committed until it is finished
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
    if (CurrentStatement.get().executing(this) == null) {
      awaitBehind();
    }
    try (CurrentStatement.Scope ignored = CurrentStatement.during(this, context)) {
      return work.run();
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
    StatementContext context = CurrentStatement.get().executing(this);
    return context != null ? context : detached(StatementKind.QUERY);
  }

  /** A context of a statement of {@code kind} whose counts go nowhere: for preparing, or the driver's own work. */
  public StatementContext detached(StatementKind kind) {
    return StatementContext.single(new RequestCounters(), settings.getInt(DriverProperty.PAGE_SIZE), kind);
  }
}
