package io.tablesql.txn;

import java.util.Map;

/**
 * One entity write: what the service is asked to do to one (PartitionKey, RowKey) of a table.
 *
 * @param properties user properties with SDK values (String, Integer, Long, Double, Boolean,
 *                   OffsetDateTime, UUID, byte[]); for MERGE, a null value removes nothing and is
 *                   not sent; for REPLACE the map is the whole entity
 * @param etag       the ETag the entity had when read, which the write is conditional on; null
 *                   for unconditional writes
 * @param origin     the statement and row that produced it, for messages
 * @param before     the entity's user properties as read with {@code etag}, which undoing this write
 *                   puts back (a write of several entity groups records it); null when not read
 */
public record WriteOperation(String table, String partitionKey, String rowKey, Kind kind,
    Map<String, Object> properties, String etag, String origin, Map<String, Object> before) {

  /** A write whose row before was not read. */
  public WriteOperation(String table, String partitionKey, String rowKey, Kind kind, Map<String, Object> properties,
      String etag, String origin) {
    this(table, partitionKey, rowKey, kind, properties, etag, origin, null);
  }

  /** The service's operations, named by what they do to an entity. */
  public enum Kind {
    /** Create; fails if the entity exists. */
    INSERT,
    /** Insert or merge (properties not named are kept). */
    UPSERT_MERGE,
    /** Insert or replace (properties not named are removed). */
    UPSERT_REPLACE,
    /** Merge into an existing entity. */
    MERGE,
    /** Replace an existing entity. */
    REPLACE,
    /** Delete an existing entity. */
    DELETE,
    /**
     * Delete the entity if it exists: what a transaction's upsert deleted again leaves. No service
     * operation does it, so the commit reads the entity and sends a DELETE or nothing.
     */
    DELETE_IF_PRESENT,
    /**
     * Delete for readers once an intent commits: replace the entity by the intent's tombstone
     * ({@code RowMarks.isTombstone}), which is removed after the commit point. Sent as a REPLACE.
     */
    TOMBSTONE;

    /** Whether the entity does not exist after this operation (once its intent commits, for a tombstone). */
    public boolean deletes() {
      return this == DELETE || this == DELETE_IF_PRESENT || this == TOMBSTONE;
    }
  }

  /**
   * The entity's user properties after this write, from those before it (null: absent); null if
   * the write deletes it. A merge keeps the properties it does not name; a null value is not sent.
   */
  public Map<String, Object> after(Map<String, Object> before) {
    if (kind.deletes()) {
      return null;
    }
    boolean merges = kind == Kind.MERGE || kind == Kind.UPSERT_MERGE;
    Map<String, Object> after = merges && before != null ? new java.util.HashMap<>(before) : new java.util.HashMap<>();
    properties.forEach((name, value) -> {
      if (value != null) {
        after.put(name, value);
      }
    });
    return after;
  }

  public EntityKey key() {
    return new EntityKey(table.toLowerCase(java.util.Locale.ROOT), partitionKey, rowKey);
  }

  /** Names the entity and where the write came from, for messages. */
  public String describe() {
    return "(PartitionKey '" + partitionKey + "', RowKey '" + rowKey + "') of table " + table
        + (origin == null ? "" : " from " + origin);
  }

  /** Identity of an entity across tables; table names compare case-insensitively. */
  public record EntityKey(String table, String partitionKey, String rowKey) {
  }
}
