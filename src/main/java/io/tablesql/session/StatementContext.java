package io.tablesql.session;

import com.azure.data.tables.models.TableEntity;
import io.tablesql.store.RequestCounters;
import io.tablesql.txn.WriteOperation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the execution of one JDBC statement carries down to its table accesses and writes: its
 * counters and page size, what kind of statement it is, the entities it read (so that its
 * writes are conditional on their ETags), the warnings it gives the user, and, for a batch, the
 * writes collected so far.
 */
public final class StatementContext {
  private final RequestCounters counters;
  private final int pageSize;
  private final List<StatementKind> kinds;
  /** Entities read by an UPDATE or DELETE, and the rows they became; null for statements that do not read to write. */
  private final Map<WriteOperation.EntityKey, TableEntity> readEntities;
  private final Map<List<Object>, java.util.Deque<WriteOperation.EntityKey>> rowEntities;
  /** A batch's writes and the execution each came from; null outside a batch. */
  private final List<WriteOperation> batch;
  private final Map<WriteOperation, Integer> batchRows;
  private int executions;
  private final List<String> warnings = new java.util.concurrent.CopyOnWriteArrayList<>();
  /** Whether each intent whose marks this statement met had committed: the first verdict holds for the statement. */
  private final Map<String, Boolean> intentsCommitted = new java.util.concurrent.ConcurrentHashMap<>();
  /** The statement's maxRows (0: none): a scan it stops early is not worth splitting. */
  private volatile long maxRows;

  private StatementContext(RequestCounters counters, int pageSize, List<StatementKind> kinds, boolean batch) {
    this.counters = counters;
    this.pageSize = pageSize;
    this.kinds = kinds;
    // a point lookup executed again and again makes none of these
    boolean readsToWrite = false;
    for (StatementKind kind : kinds) {
      readsToWrite |= kind.readsBeforeWriting();
    }
    this.readEntities = readsToWrite ? new ConcurrentHashMap<>() : null;
    this.rowEntities = readsToWrite ? new ConcurrentHashMap<>() : null;
    this.batch = batch ? new ArrayList<>() : null;
    this.batchRows = batch ? new java.util.IdentityHashMap<>() : null;
  }

  public static StatementContext single(RequestCounters counters, int pageSize, StatementKind kind) {
    return new StatementContext(counters, pageSize, List.of(kind), false);
  }

  /** A batch: one execution per kind (a prepared batch repeats one kind). */
  public static StatementContext batch(RequestCounters counters, int pageSize, List<StatementKind> kinds) {
    return new StatementContext(counters, pageSize, kinds, true);
  }

  /** Records the statement's {@code setMaxRows}, which Calcite applies above the plan. */
  public StatementContext maxRows(long rows) {
    this.maxRows = Math.max(0, rows);
    return this;
  }

  /** The statement's maxRows, 0 for none. */
  public long maxRows() {
    return maxRows;
  }

  public RequestCounters counters() {
    return counters;
  }

  public int pageSize() {
    return pageSize;
  }

  /** The kind of the statement executing now (in a batch, of the current execution). */
  public StatementKind kind() {
    return kinds.get(Math.min(executions, kinds.size() - 1));
  }

  /** Something the user should know about this statement's execution (JDBC warnings). */
  public void warn(String warning) {
    if (!warnings.contains(warning)) {
      warnings.add(warning);
    }
  }

  public List<String> warnings() {
    return warnings;
  }

  /** The verdicts this statement reached on the intents whose marks it met, by intent id. */
  public Map<String, Boolean> intentsCommitted() {
    return intentsCommitted;
  }

  /** Remembers an entity read by an UPDATE or DELETE, for the write that follows. */
  public void recordRead(String table, TableEntity entity) {
    if (kind().readsBeforeWriting()) {
      readEntities.put(new WriteOperation.EntityKey(table.toLowerCase(java.util.Locale.ROOT),
          entity.getPartitionKey(), entity.getRowKey()), entity);
    }
  }

  public TableEntity readEntity(WriteOperation.EntityKey key) {
    return readEntities == null ? null : readEntities.remove(key);
  }

  /**
   * Remembers which entity a row read by an UPDATE or DELETE of a table without a primary key
   * came from: its columns do not name it, so the write finds it by the row's values.
   */
  public void recordRow(String table, List<Object> row, TableEntity entity) {
    if (kind().readsBeforeWriting()) {
      rowEntities.computeIfAbsent(rowKey(table, row), r -> new java.util.concurrent.ConcurrentLinkedDeque<>())
          .add(new WriteOperation.EntityKey(table.toLowerCase(java.util.Locale.ROOT), entity.getPartitionKey(),
              entity.getRowKey()));
    }
  }

  /** The entity a row read by this statement came from (each once: equal rows are different entities), or null. */
  public WriteOperation.EntityKey takeRow(String table, List<Object> row) {
    java.util.Deque<WriteOperation.EntityKey> keys = rowEntities == null ? null : rowEntities.get(rowKey(table, row));
    return keys == null ? null : keys.poll();
  }

  private static List<Object> rowKey(String table, List<Object> row) {
    List<Object> key = new ArrayList<>(row.size() + 1);
    key.add(table.toLowerCase(java.util.Locale.ROOT));
    key.addAll(row);
    return key;
  }

  public boolean collectsBatch() {
    return batch != null;
  }

  public List<WriteOperation> batch() {
    return batch;
  }

  /** Adds the writes of the current batch execution. */
  public void addBatchWrites(List<WriteOperation> writes) {
    for (WriteOperation write : writes) {
      batch.add(write);
      batchRows.put(write, executions);
    }
  }

  /** The 0-based batch execution a write came from. */
  public int batchRow(WriteOperation write) {
    return batchRows.get(write);
  }

  /** The 0-based number of the batch execution running now. */
  public int execution() {
    return executions;
  }

  /** Marks the end of one execution of a batch. */
  public void executionDone() {
    executions++;
  }
}
