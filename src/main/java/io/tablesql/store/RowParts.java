package io.tablesql.store;

import com.azure.data.tables.models.TableEntity;
import io.tablesql.txn.WriteOperation;
import io.tablesql.txn.WriteOperation.Kind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How a wide row, whose columns one entity cannot hold, is kept as several entities of its
 * partition (docs/architecture/large-values.md, "Wide rows"): part 1 is the entity at the row's
 * key, holding the columns assigned to it and every property that belongs to no column (intent
 * marks); part k &gt; 1 is the entity at {@link #partKey}, holding the columns assigned to it.
 *
 * <p>Part keys start with {@link #PART_KEY_START}, a character after every character of an
 * encoded key, so that all parts sort after every row of their partition: a read bounded by row
 * keys never meets them, and an unbounded one leaves them out ({@link #isPartKey}). Every write of a row
 * writes all its parts in one entity group transaction with a new {@link #STAMP}, so a reader
 * that finds the same stamp in every part it read has one version of the row.
 *
 * @param count          the number of parts, at least 2
 * @param partOfProperty the part of each property of a column in a part after the first (its
 *                       long values' extra properties included); every other property is part 1's
 */
public record RowParts(int count, Map<String, Integer> partOfProperty) {
  /** What every part of one write of a row holds alike: a random number (Edm.Int64). */
  public static final String STAMP = "TablesqlRowStamp";
  /** Starts the RowKey of every part after the first: after '~', the last character of an encoded key. */
  public static final char PART_KEY_START = '\u00A1';

  /** The wide tables' parts by account (its table endpoint) and Azure table, as the catalog last read them. */
  private static final Map<String, RowParts> KNOWN = new java.util.concurrent.ConcurrentHashMap<>();

  public RowParts {
    partOfProperty = Map.copyOf(partOfProperty);
  }

  /**
   * Records how the rows of an account's Azure table are kept (null: one entity each): what the
   * catalog does whenever it reads or writes a table's definition, before any row is read or written.
   */
  public static void register(String account, String table, RowParts parts) {
    if (parts == null) {
      KNOWN.remove(key(account, table));
    } else {
      KNOWN.put(key(account, table), parts);
    }
  }

  /** Records how the rows of all of an account's wide tables are kept, forgetting any other table's. */
  public static void registerAll(String account, Map<String, RowParts> tables) {
    String prefix = account + '\u0000';
    KNOWN.keySet().removeIf(key -> key.startsWith(prefix) && !tables.containsKey(key.substring(prefix.length())));
    tables.forEach((table, parts) -> register(account, table, parts));
  }

  /** How the rows of an account's Azure table are kept: null for one entity each. */
  static RowParts of(String account, String table) {
    return KNOWN.isEmpty() ? null : KNOWN.get(key(account, table));
  }

  private static String key(String account, String table) {
    return account + '\u0000' + table.toLowerCase(java.util.Locale.ROOT);
  }

  /** The RowKey of part {@code part} (from 2) of the row at {@code rowKey}. */
  public static String partKey(String rowKey, int part) {
    return PART_KEY_START + String.format(java.util.Locale.ROOT, "%02d", part) + rowKey;
  }

  /** Whether a RowKey is that of a row's later part, not of a row. */
  public static boolean isPartKey(String rowKey) {
    return rowKey != null && !rowKey.isEmpty() && rowKey.charAt(0) == PART_KEY_START;
  }

  /** The part (from 1) holding a property. */
  public int partOf(String property) {
    return partOfProperty.getOrDefault(property, 1);
  }

  /**
   * The properties to read of each part (index 0: part 1) for a read of {@code select} (null:
   * all): null for a part to read whole, an empty list for a part not to read. Part 1 is always
   * read, with the stamp.
   */
  public List<List<String>> selects(List<String> select) {
    List<List<String>> parts = new ArrayList<>();
    for (int k = 1; k <= count; k++) {
      parts.add(select == null ? null : new ArrayList<>());
    }
    if (select == null) {
      return parts;
    }
    for (String name : select) {
      parts.get(partOf(name) - 1).add(name);
    }
    for (int k = 0; k < count; k++) {
      List<String> names = parts.get(k);
      if (k == 0 || !names.isEmpty()) {
        names.add(STAMP);
        names.add("RowKey");
        names.add("PartitionKey");
        parts.set(k, List.copyOf(new LinkedHashSet<>(names)));
      }
    }
    return parts;
  }

  /**
   * The entity writes of one row's write, part 1 first: part 1 carries the write's kind and
   * condition (its ETag is the row's), the later parts follow it unconditionally, all with one
   * new stamp. A later part is upserted, so that a write never depends on it existing, and
   * deleted with its row.
   */
  public List<WriteOperation> expand(WriteOperation operation) {
    long stamp = ThreadLocalRandom.current().nextLong();
    List<Map<String, Object>> properties = new ArrayList<>();
    for (int k = 0; k < count; k++) {
      properties.add(new HashMap<>());
    }
    boolean tombstone = operation.kind() == Kind.TOMBSTONE;
    operation.properties().forEach((name, value) -> {
      if (!name.equals(STAMP)) {
        properties.get(tombstone ? 0 : partOf(name) - 1).put(name, value);
      }
    });
    List<WriteOperation> parts = new ArrayList<>(count);
    for (int k = 1; k <= count; k++) {
      Map<String, Object> part = properties.get(k - 1);
      if (!operation.kind().deletes() || operation.kind() == Kind.TOMBSTONE) {
        part.put(STAMP, stamp);
      }
      if (k == 1) {
        parts.add(new WriteOperation(operation.table(), operation.partitionKey(), operation.rowKey(),
            operation.kind(), part, operation.etag(), operation.origin()));
        continue;
      }
      Kind kind = switch (operation.kind()) {
        case DELETE, DELETE_IF_PRESENT -> Kind.DELETE;
        case MERGE, UPSERT_MERGE -> Kind.UPSERT_MERGE;
        default -> Kind.UPSERT_REPLACE; // an insert, a replace, a tombstone: the part holds this write's values only
      };
      parts.add(new WriteOperation(operation.table(), operation.partitionKey(), partKey(operation.rowKey(), k), kind,
          part, null, operation.origin()));
    }
    return parts;
  }

  /**
   * The row of part 1 and the later parts read with it (null: absent), or null if the parts are
   * of different writes or one is missing (read while the row changed: read it again). The stamp is
   * not among the row's properties.
   */
  static TableEntity stitch(TableEntity first, List<TableEntity> later) {
    Object stamp = first.getProperty(STAMP);
    TableEntity row = new TableEntity(first.getPartitionKey(), first.getRowKey());
    Map<String, Object> properties = new HashMap<>(first.getProperties());
    for (TableEntity part : later) {
      // every row has all its parts: one missing was deleted (or not yet written) since part 1 was read
      if (part == null || stamp == null || !stamp.equals(part.getProperty(STAMP))) {
        return null;
      }
      part.getProperties().forEach((name, value) -> {
        if (!name.equals("PartitionKey") && !name.equals("RowKey") && !name.equals("Timestamp")
            && !name.startsWith("odata.")) {
          properties.put(name, value);
        }
      });
    }
    properties.remove(STAMP);
    properties.forEach((name, value) -> {
      if (!name.equals("PartitionKey") && !name.equals("RowKey")) {
        row.addProperty(name, value);
      }
    });
    return row;
  }

  /** The parts after the first that a read of these per-part selections reads. */
  static Set<Integer> laterPartsRead(List<List<String>> selects) {
    Set<Integer> parts = new LinkedHashSet<>();
    for (int k = 1; k < selects.size(); k++) {
      if (selects.get(k) == null || !selects.get(k).isEmpty()) {
        parts.add(k + 1);
      }
    }
    return parts;
  }
}
