package io.tablesql.txn;

import io.tablesql.txn.WriteOperation.Kind;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a durable intent in flight leaves on the entities it writes: its mark, and tombstones in
 * place of the rows it deletes (docs/architecture/intents.md). Part of the intent's format kept
 * here, below the store, because every read and write must tell a marked row or a tombstone from
 * the application's data; the intent's record and its protocol are {@code io.tablesql.intent}.
 */
public final class RowMarks {
  /**
   * The property that names the intent on each row it inserts or updates: a row that carries it
   * was written by that intent, whatever its values, so a group whose answer was lost is judged
   * by it and never by its values, and a reader that meets it asks the intent whether the row is
   * committed. Not a user property: readers never show it. Once the intent has committed it is
   * removed from the rows.
   */
  public static final String MARK = "TablesqlIntent";
  /**
   * The property of a tombstone: what a delete of an intent (format 5) writes in place of the row,
   * with the intent's {@link #MARK} and no user property, so that readers read the row as it was
   * until the intent commits, and as absent after; removed once the intent has committed.
   */
  public static final String DELETED = "TablesqlDeleted";

  private RowMarks() {
  }

  /** Whether a row as read carries the mark of the intent {@code id}. */
  public static boolean carriesMark(Map<String, Object> properties, String id) {
    return id.equals(properties.get(MARK));
  }

  /**
   * A write as an intent sends it: with the intent's mark; a delete of a row read (its ETag
   * known) as the intent's tombstone in place of the row, conditional on that ETag.
   */
  public static WriteOperation withMark(WriteOperation write, String id) {
    if (write.kind() == Kind.DELETE && write.etag() != null) {
      return new WriteOperation(write.table(), write.partitionKey(), write.rowKey(), Kind.TOMBSTONE,
          Map.of(MARK, id, DELETED, true), write.etag(), write.origin(), write.before());
    }
    if (write.kind().deletes()) {
      return write;
    }
    Map<String, Object> properties = new LinkedHashMap<>(write.properties());
    properties.put(MARK, id);
    return new WriteOperation(write.table(), write.partitionKey(), write.rowKey(), write.kind(), properties,
        write.etag(), write.origin(), write.before());
  }

  /**
   * Whether an entity as read whole is a tombstone: {@link #DELETED}, a mark, and no user property
   * (a writer that merged values into it since made it a row again). An entity read with a
   * {@code $select} that carries {@link #DELETED} must be read whole to tell.
   */
  public static boolean isTombstone(Map<String, Object> properties) {
    // a property a $select names and the entity lacks comes back as null (Azure; Azurite leaves it out)
    if (properties.get(DELETED) == null || !(properties.get(MARK) instanceof String mark) || mark.isEmpty()) {
      return false;
    }
    for (Map.Entry<String, Object> property : properties.entrySet()) {
      String name = property.getKey();
      if (property.getValue() != null && !name.equals(DELETED) && !name.equals(MARK) && !isSystemProperty(name)) {
        return false;
      }
    }
    return true;
  }

  /** Keys, Timestamp and the service's metadata: what every entity has besides its properties. */
  private static boolean isSystemProperty(String name) {
    return name.equals("PartitionKey") || name.equals("RowKey") || name.equals("Timestamp") || name.startsWith("odata.")
        || name.indexOf('@') >= 0;
  }
}
