package io.tablesql.exec;

import com.azure.data.tables.models.TableEntity;
import io.tablesql.catalog.Column;
import io.tablesql.catalog.IndexDefinition;
import io.tablesql.catalog.TableDefinition;
import io.tablesql.catalog.TableShape;
import io.tablesql.catalog.ValueParts;
import io.tablesql.keys.KeyLayout;
import io.tablesql.keys.TemplateKey;
import io.tablesql.txn.RowMarks;
import io.tablesql.txn.WriteOperation;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The index entries of rows: which entry (PartitionKey, RowKey) a row's values give in one
 * index, what an entry holds, and whether an entry read still matches its row. One place, so
 * that writes, reads and the build agree on every key.
 */
final class IndexEntries {
  private final TableDefinition base;
  private final IndexDefinition index;
  private final TableDefinition entries;

  /**
   * An entry's keys, the row it names, and (local index) the row's values it holds: its indexed
   * and included columns' that are properties of the row.
   */
  record Entry(String partitionKey, String rowKey, String rowPartitionKey, String rowRowKey,
      Map<String, Object> values) {
    boolean sameKey(Entry other) {
      return other != null && partitionKey.equals(other.partitionKey) && rowKey.equals(other.rowKey);
    }

    /** The same entity: same key and values. */
    boolean same(Entry other) {
      return sameKey(other) && TableShape.sameProperties(values, other.values);
    }
  }

  IndexEntries(TableDefinition base, IndexDefinition index) {
    this.base = base;
    this.index = index;
    this.entries = index.entries(base);
  }

  IndexDefinition index() {
    return index;
  }

  /** The table the index is of. */
  TableDefinition base() {
    return base;
  }

  /**
   * The entry of a row given by its keys and properties (SDK values), or null when an indexed
   * value is NULL.
   *
   * @throws IllegalArgumentException if an indexed value cannot be part of a key
   */
  Entry of(String partitionKey, String rowKey, Map<String, Object> properties) {
    if (base.layout().isMapped() && !base.layout().isRow(partitionKey, rowKey, properties)) {
      return null; // another kind of entity sharing the Azure table (an index entity among them)
    }
    Map<String, Object> values = new HashMap<>();
    Object[] keyValues = null;
    for (IndexDefinition.IndexColumn indexed : index.columns()) {
      Column column = base.column(indexed.column());
      int keyPosition = base.shape().keyPosition(column);
      if (keyPosition >= 0) {
        keyValues = keyValues != null ? keyValues : base.layout().decode(partitionKey, rowKey);
        values.put(column.name(), keyValues == null ? null : keyValues[keyPosition]);
      } else {
        // a value kept in a blob is never an index key (keys hold 1 KiB): reading it is refused
        values.put(column.name(), column.toInternal(ValueParts.valueOf(column, properties::get, null)));
      }
    }
    String[] key = index.entryKey(entries, values, partitionKey, rowKey);
    if (key == null) {
      return null;
    }
    Map<String, Object> held = new HashMap<>();
    if (index.adopted()) {
      properties.forEach((name, value) -> {
        if (value != null && TableShape.isUserProperty(name)) {
          held.put(name, value); // a copy of the row, as the application keeps it
        }
      });
    } else if (index.holdsValues()) {
      List<String> copied = new ArrayList<>(index.include());
      index.columns().forEach(column -> copied.add(column.column()));
      for (String name : copied) {
        Column column = base.column(name);
        if (index.local() && ValueParts.isSplit(properties, name)) {
          // a local entry travels in its row's entity group (4 MiB): it copies values of one property only
          throw new IllegalArgumentException(name + " holds a value longer than one property (32,000 characters, "
              + "64 KiB), which local index " + index.name() + " would copy into the row's transaction; a GLOBAL "
              + "index may include such values");
        }
        if (base.shape().keyPosition(column) < 0) {
          ValueParts.copy(properties, held, column);
        }
      }
    }
    return new Entry(key[0], key[1], partitionKey, rowKey, held);
  }

  /** The entry a stored row has now, or null (also for a row whose values no key can hold). */
  Entry of(TableEntity row) {
    try {
      return of(row.getPartitionKey(), row.getRowKey(), row.getProperties());
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * The entry an entity of this index's table is. An adopted entry names its row by the key
   * properties its copy holds (null if it lacks them, or they make no key of the row's template).
   */
  Entry readEntry(TableEntity entry) {
    if (!index.adopted()) {
      return read(entry);
    }
    Map<String, Object> held = TableShape.userProperties(entry);
    String rowKey = null;
    if (base.layout().rowFormat() instanceof TemplateKey template) {
      List<String> texts = new ArrayList<>();
      List<KeyLayout.KeyColumn> fields = template.columns();
      for (int i = 0; i < fields.size(); i++) {
        texts.add(KeyLayout.fieldTextOf(template, i, held.get(fields.get(i).name())));
      }
      rowKey = template.keyOfTexts(texts);
    }
    return new Entry(entry.getPartitionKey(), entry.getRowKey(), entry.getPartitionKey(), rowKey, held);
  }

  /** The entry an entity of a (not adopted) index's table is: its keys and the row it names. */
  static Entry read(TableEntity entry) {
    Map<String, Object> held = TableShape.userProperties(entry);
    held.remove(IndexDefinition.ROW_PARTITION_KEY);
    held.remove(IndexDefinition.ROW_ROW_KEY);
    held.remove(IndexDefinition.VERIFIED);
    held.remove(IndexDefinition.HELD_BY_PARTITION_KEY);
    held.remove(IndexDefinition.HELD_BY_ROW_KEY);
    return new Entry(entry.getPartitionKey(), entry.getRowKey(),
        (String) entry.getProperty(IndexDefinition.ROW_PARTITION_KEY),
        (String) entry.getProperty(IndexDefinition.ROW_ROW_KEY), held);
  }

  /** Whether a covering global index's entry is verified: it holds its row's values as committed. */
  static boolean verified(TableEntity entry) {
    return Boolean.TRUE.equals(entry.getProperty(IndexDefinition.VERIFIED));
  }

  /**
   * The merge that marks an entry written with {@code etag} verified: only if nothing wrote it
   * since (a later write of its row marks it unverified first).
   */
  WriteOperation markVerified(Entry entry, String etag) {
    return new WriteOperation(index.table(), entry.partitionKey(), entry.rowKey(), WriteOperation.Kind.MERGE,
        Map.of(IndexDefinition.VERIFIED, true), etag, null);
  }

  /**
   * The merge that marks an entry unverified whatever it holds (If-Match *; answered 404 when
   * there is none), before the row it names changes: a verified entry never outlives its values.
   */
  WriteOperation markUnverified(Entry entry) {
    return new WriteOperation(index.table(), entry.partitionKey(), entry.rowKey(), WriteOperation.Kind.MERGE,
        Map.of(IndexDefinition.VERIFIED, false), null, null);
  }

  /**
   * The row as a covering index's entry holds it: the row's keys, and the values of its
   * indexed and included columns (an adopted entry's: all of them); null for an adopted entry
   * that names no row.
   */
  TableEntity row(TableEntity entry) {
    Entry read = readEntry(entry);
    if (read.rowRowKey() == null) {
      return null;
    }
    TableEntity row = new TableEntity(read.rowPartitionKey(), read.rowRowKey());
    read.values().forEach(row::addProperty);
    return row;
  }

  /**
   * The entries' properties: the row's keys, and a covering index's values (a global one's not
   * verified yet); an adopted entry's copy only.
   */
  private Map<String, Object> stored(Entry entry) {
    Map<String, Object> properties = new HashMap<>(entry.values());
    if (index.adopted()) {
      return properties;
    }
    properties.put(IndexDefinition.ROW_PARTITION_KEY, entry.rowPartitionKey());
    properties.put(IndexDefinition.ROW_ROW_KEY, entry.rowRowKey());
    if (index.coveringGlobal()) {
      properties.put(IndexDefinition.VERIFIED, false);
    }
    return properties;
  }

  /** The write that stores an entry: an insert for a UNIQUE index (a second one fails), else an upsert. */
  WriteOperation put(Entry entry, String origin) {
    return new WriteOperation(index.table(), entry.partitionKey(), entry.rowKey(),
        index.unique() ? WriteOperation.Kind.INSERT : WriteOperation.Kind.UPSERT_REPLACE, stored(entry), null, origin);
  }

  /** The write that adds an entry only if none of these values is there (an answer tells whether it made it). */
  WriteOperation insert(Entry entry, String origin) {
    return new WriteOperation(index.table(), entry.partitionKey(), entry.rowKey(), WriteOperation.Kind.INSERT,
        stored(entry), null, origin);
  }

  /**
   * The insert of a covering entry already verified, which a build of an index that
   * {@link IndexDefinition#keepsPlaceholders} sends: it fails (409) where any entity of the key
   * is, such as a writer's placeholder.
   */
  WriteOperation insertVerified(Entry entry) {
    Map<String, Object> properties = stored(entry);
    properties.put(IndexDefinition.VERIFIED, true);
    return new WriteOperation(index.table(), entry.partitionKey(), entry.rowKey(), WriteOperation.Kind.INSERT,
        properties, null, null);
  }

  /**
   * The write that replaces an entry of a UNIQUE index read with {@code etag}, to name another row;
   * {@code heldBy}, when the value moves from a row of the same entity group, is that row's entry,
   * kept on the new one ({@link IndexDefinition#HELD_BY_PARTITION_KEY}) for readers until the group
   * is written.
   */
  WriteOperation replace(Entry entry, String etag, String origin, Entry heldBy) {
    Map<String, Object> properties = stored(entry);
    if (heldBy != null) {
      properties.put(IndexDefinition.HELD_BY_PARTITION_KEY, heldBy.rowPartitionKey());
      properties.put(IndexDefinition.HELD_BY_ROW_KEY, heldBy.rowRowKey());
    }
    return new WriteOperation(index.table(), entry.partitionKey(), entry.rowKey(), WriteOperation.Kind.REPLACE,
        properties, etag, origin);
  }

  /** The row that held an entry's value until the entity group taking it over is written; null for none. */
  static WriteOperation.EntityKey heldBy(TableEntity entry, String table) {
    return entry.getProperty(IndexDefinition.HELD_BY_PARTITION_KEY) instanceof String partitionKey
        && entry.getProperty(IndexDefinition.HELD_BY_ROW_KEY) instanceof String rowKey
        ? new WriteOperation.EntityKey(table, partitionKey, rowKey) : null;
  }

  /**
   * Whether an intent keeps this index's old entries until its commit point, as tombstones
   * ({@link #tombstone}), so that a lookup by a row's old value finds the row while the intent
   * is in flight: a LOCAL index's, adopted ones included (the application's copies carry the
   * mark only as long as its rows do: the clearing deletes the kept copy before a commit on its
   * table returns, recovery for a writer that stopped). Another transaction's row cannot take an
   * adopted copy's value while the copy is kept ({@code IndexedWrites.checkAdoptedValues}).
   */
  boolean keepsOldEntriesForReaders() {
    return index.local() && !index.unique();
  }

  /**
   * Whether an intent keeps this index's old entry of a row it changes as a tombstone until its
   * commit point, though the value is given up: a GLOBAL UNIQUE index's (not adopted). Another
   * group of the same intent may take the value over; another transaction is refused (40001)
   * until the intent has committed. A non-UNIQUE global index's old entries simply stay.
   */
  boolean keepsOldEntryUntilCommit() {
    return !index.local() && index.unique() && !index.adopted();
  }

  /**
   * An old entry an intent replaces, kept for readers until its commit point: the intent's mark
   * and {@link RowMarks#DELETED} merged in, conditional on the ETag read. A reader that meets it
   * reads the row as committed; once the intent has committed the entry is gone for readers, and
   * its clearing deletes it.
   */
  WriteOperation tombstone(Entry entry, String etag, String intent) {
    return new WriteOperation(index.table(), entry.partitionKey(), entry.rowKey(), WriteOperation.Kind.MERGE,
        Map.of(RowMarks.MARK, intent, RowMarks.DELETED, true), etag, "the old entry of intent " + intent);
  }

  /** The delete of an entry as read with {@code etag}: a later write of it (by another statement) stays. */
  WriteOperation delete(Entry entry, String etag, String origin) {
    return new WriteOperation(index.table(), entry.partitionKey(), entry.rowKey(), WriteOperation.Kind.DELETE,
        Map.of(), etag, origin);
  }

  /**
   * Whether a stored entry belongs to the row as it is now (absent rows have none); an adopted
   * entry only if it is the row's copy as it is now.
   */
  boolean matches(TableEntity entry, TableEntity row) {
    if (row == null) {
      return false;
    }
    return index.adopted() ? readEntry(entry).same(of(row)) : read(entry).sameKey(of(row));
  }

  /** Whether an entry is older than the grace period in which the write that added it may still run. */
  static boolean pastGrace(TableEntity entry, Duration grace) {
    OffsetDateTime written = entry.getTimestamp();
    return written == null || written.plus(grace).isBefore(OffsetDateTime.now());
  }

}
