package io.tablesql.exec;

import io.tablesql.catalog.BlobReference;
import io.tablesql.catalog.Column;
import io.tablesql.catalog.StreamedValue;
import io.tablesql.catalog.TableShape;
import io.tablesql.catalog.ValueParts;
import io.tablesql.errors.SqlExceptions;
import io.tablesql.errors.SqlStates;
import io.tablesql.intent.IntentRecovery;
import io.tablesql.session.Session;
import io.tablesql.store.RequestCounters;
import io.tablesql.store.StoreException;
import io.tablesql.txn.EntityRules;
import io.tablesql.txn.WriteOperation;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A statement's values kept in Blob storage (docs/architecture/large-values.md, "Large values and wide rows", tier
 * 3), in the order that keeps every row's blob there while the row names it: a blob is written
 * before the entity that names it, and deleted only after a committed write stopped naming it.
 */
public final class BlobValues {
  private final Session session;
  private final RequestCounters counters;

  public BlobValues(Session session, RequestCounters counters) {
    this.session = session;
    this.counters = counters;
  }

  /** Writes the values of one row's entity: each blob names its row in its metadata, for whoever finds it orphaned. */
  public ValueParts.BlobWriter writer(String table, String partitionKey, String rowKey) {
    return new ValueParts.BlobWriter() {
      @Override
      public BlobReference write(Column column, byte[] content) {
        BlobReference reference = BlobReference.create(table, content.length);
        session.store().blobs().upload(reference.blobName(), content, metadata(column), counters);
        return reference;
      }

      @Override
      public BlobReference write(Column column, StreamedValue value) throws SQLException {
        String name = BlobReference.create(table, 0).blobName();
        try (java.io.InputStream content = value.content()) {
          return new BlobReference(name, session.store().blobs().upload(name, content, metadata(column), counters));
        } catch (StreamedValue.TooLong e) {
          throw SqlExceptions.of("Cannot write " + value + " to column " + column.name() + ": " + e.getMessage()
              + ". Nothing of this statement was written.", SqlStates.DATA_EXCEPTION);
        } catch (java.io.IOException e) {
          throw SqlExceptions.of("Could not read the stream given for column " + column.name() + ": " + e.getMessage()
              + ". Nothing of this statement was written.", SqlStates.DATA_EXCEPTION, e);
        }
      }

      private Map<String, String> metadata(Column column) {
        return Map.of("tablesqlformat", "1", "tablesqlpartitionkey", encoded(partitionKey),
            "tablesqlrowkey", encoded(rowKey), "tablesqlcolumn", encoded(column.name()));
      }
    };
  }

  /**
   * Reads values of rows read: a blob that is gone was deleted after its row was read and
   * changed, so the answer would mix two versions of the row.
   */
  public ValueParts.BlobReader reader(String table) {
    return new ValueParts.BlobReader() {
      @Override
      public byte[] read(Column column, BlobReference reference) {
        return session.store().blobs().download(reference.blobName(), counters).orElseThrow(() -> gone(column, reference));
      }

      private StoreException gone(Column column, BlobReference reference) {
        return new StoreException("The value of column " + column.name() + " in table " + table + " changed while "
            + "this statement read it (its blob " + reference.blobName() + " was replaced). Run the statement again.",
            SqlStates.SERIALIZATION_FAILURE, null);
      }

      @Override
      public java.io.InputStream open(Column column, BlobReference reference) {
        return session.store().blobs().open(reference.blobName(), counters).orElseThrow(() -> gone(column, reference));
      }

      @Override
      public byte[] readNamed(Column column, String name) {
        return session.store().blobs().downloadNamed(name, counters).orElseThrow(() -> missing(column, name));
      }

      @Override
      public java.io.InputStream openNamed(Column column, String name) {
        return session.store().blobs().openNamed(name, counters).orElseThrow(() -> missing(column, name));
      }

      @Override
      public long lengthOfNamed(Column column, String name) {
        return session.store().blobs().lengthOfNamed(name, counters).orElseThrow(() -> missing(column, name));
      }

      private StoreException missing(Column column, String name) {
        return new StoreException("Column " + column.name() + " of table " + table + " names the blob '" + name
            + "', which does not exist: the application that wrote the name has not written the blob, or deleted "
            + "it.", SqlStates.DATA_EXCEPTION, null);
      }
    };
  }

  /**
   * Moves a row's longest values kept in parts to blobs until the entity fits the service's 1
   * MiB: a row may hold several long values, each of which alone would fit. Tells whether any moved.
   */
  public boolean fit(WriteOperation row, TableShape shape) throws SQLException {
    if (row.partitionKey() == null || row.rowKey() == null || shape.columns().stream().noneMatch(Column::blobs)) {
      return false; // nothing to move (a row without keys is refused by EntityRules, naming them)
    }
    ValueParts.BlobWriter writer = writer(row.table(), row.partitionKey(), row.rowKey());
    boolean moved = false;
    while (EntityRules.sizeOf(row) > EntityRules.MAX_ENTITY_BYTES) {
      Column longest = null;
      long longestBytes = 0;
      for (Column column : shape.columns()) {
        if (column.blobs() && ValueParts.isSplit(row.properties(), column.name())) {
          long bytes = storedBytes(row.properties(), column);
          if (bytes > longestBytes) {
            longest = column;
            longestBytes = bytes;
          }
        }
      }
      if (longest == null) {
        break; // nothing left to move: EntityRules refuses the entity, naming it
      }
      Object value = ValueParts.read(row.properties()::get, longest.name());
      ValueParts.putInBlob(row.properties(), longest, value, writer);
      moved = true;
    }
    return moved;
  }

  /**
   * Gives a row that moves to new keys copies of the blobs it names: a blob is named only at the
   * keys it was first named at, so that {@code ALTER TABLE ... VERIFY}, which reads the rows one
   * after another, never misses a row that moved behind it and takes its blob for an orphan.
   */
  public void copyForMove(Map<String, Object> entity, TableShape shape, String table, String partitionKey,
      String rowKey) throws SQLException {
    for (Column column : shape.columns()) {
      if (column.blobs() && ValueParts.referenceIn(entity, column.name()) != null) {
        Object value = ValueParts.read(entity::get, column, reader(table));
        ValueParts.putInBlob(entity, column, value, writer(table, partitionKey, rowKey));
      }
    }
  }

  private static long storedBytes(Map<String, Object> properties, Column column) {
    Object whole = ValueParts.read(properties::get, column.name());
    return whole instanceof String text ? 2L * text.length() : ((byte[]) whole).length;
  }

  /**
   * After writes committed: deletes the blobs that rows named before and that none of the writes
   * sent with them ({@code sent}, the committed ones among them) names. Best effort: a blob left
   * behind is an orphan, which no row names and {@code ALTER TABLE ... VERIFY} removes.
   */
  public static void deleteReleased(Session session, List<WriteOperation> committed, List<WriteOperation> sent,
      RequestCounters counters) {
    Set<String> named = new HashSet<>();
    Set<String> released = new HashSet<>();
    for (WriteOperation write : sent) {
      named.addAll(blobsNamed(write.properties(), null));
    }
    for (WriteOperation write : committed) {
      if (write.before() != null) {
        // a merge leaves what it does not write: only the columns whose count it writes change
        boolean merges = write.kind() == WriteOperation.Kind.MERGE || write.kind() == WriteOperation.Kind.UPSERT_MERGE;
        released.addAll(blobsNamed(write.before(), merges ? write.properties() : null));
      }
    }
    released.removeAll(named);
    for (String blob : released) {
      try {
        session.store().blobs().delete(blob, counters);
      } catch (StoreException e) {
        // left for VERIFY: the row no longer names it, so no reader needs it
      }
    }
  }

  /**
   * Refuses writes naming a blob this connection wrote more than half of {@code blobGraceSeconds}
   * ago: {@code ALTER TABLE ... VERIFY} may take a blob no row names for an orphan once it is that
   * old, so a write that would name it later (a transaction left open) must not land.
   */
  static void checkFresh(Session session, List<WriteOperation> writes) throws SQLException {
    Set<String> named = new HashSet<>();
    for (WriteOperation write : writes) {
      Set<String> written = blobsNamed(write.properties(), null);
      if (!written.isEmpty()) {
        // a row keeping its value (an update of other columns) names an older blob, in the same entity only
        written.removeAll(blobsNamed(write.before(), null));
        named.addAll(written);
      }
    }
    long oldest = System.currentTimeMillis()
        - 500L * session.settings().getInt(io.tablesql.settings.DriverProperty.BLOB_GRACE);
    for (String blob : named) {
      long written = new BlobReference(blob, 0).writtenAtMillis();
      if (written >= 0 && written < oldest) {
        throw io.tablesql.errors.SqlExceptions.of("A long value of this transaction was written to Blob storage ("
            + blob + ") more than half of blobGraceSeconds (" + session.settings().get(
                io.tablesql.settings.DriverProperty.BLOB_GRACE) + ") ago, so ALTER TABLE ... VERIFY may have taken "
            + "it for an orphan. Nothing was written; run the transaction again, and commit sooner.",
            SqlStates.SERIALIZATION_FAILURE);
      }
    }
  }

  /** The blobs the properties name (of the columns whose count {@code writtenBy} writes, if given). */
  private static Set<String> blobsNamed(Map<String, Object> properties, Map<String, Object> writtenBy) {
    if (properties == null) {
      return Set.of();
    }
    Set<String> blobs = null; // most writes name none: nothing allocated for them
    for (String name : properties.keySet()) {
      String column = ValueParts.columnOfReference(name);
      if (column != null && (writtenBy == null || writtenBy.containsKey(ValueParts.countName(column)))) {
        BlobReference reference = ValueParts.referenceIn(properties, column);
        if (reference != null) {
          blobs = blobs == null ? new HashSet<>() : blobs;
          blobs.add(reference.blobName());
        }
      }
    }
    return blobs == null ? Set.of() : blobs;
  }

  /** What {@code ALTER TABLE ... VERIFY} found: blobs of the table, those no row names that it deleted, and why it kept others. */
  public record Verification(int blobs, int deleted, String kept) {
  }

  /**
   * Deletes the blobs of a table's long values that no row names and that are older than
   * {@code blobGraceSeconds} (docs/architecture/large-values.md, "Why no value is lost"). In this order, so that no
   * blob a write may still name is taken: the blobs already that old are listed first; then the
   * intents, and if one in flight writes the table nothing is deleted (its rows, or its undo, may
   * name any of them); then every row is read, and if one carries an intent's mark nothing is
   * deleted either. A write names only blobs it wrote less than half the grace before it began
   * ({@link #checkFresh}), so one that begins after the listing names none of those listed.
   */
  public static Verification removeOrphans(Session session, io.tablesql.catalog.TableDefinition table) {
    RequestCounters counters = new RequestCounters();
    List<Column> blobColumns = table.columns().stream().filter(Column::blobs).toList();
    if (blobColumns.isEmpty()) {
      return new Verification(0, 0, "");
    }
    java.time.OffsetDateTime oldest = session.store().serviceTime(table.physicalTable(), counters)
        .minusSeconds(session.settings().getInt(io.tablesql.settings.DriverProperty.BLOB_GRACE));
    List<io.tablesql.store.BlobStore.StoredBlob> listed = session.store().blobs()
        .list(BlobReference.prefixOf(table.physicalTable()), counters);
    List<String> old = listed.stream().filter(blob -> blob.lastModified().isBefore(oldest))
        .map(io.tablesql.store.BlobStore.StoredBlob::name).toList();
    if (old.isEmpty()) {
      return new Verification(listed.size(), 0, "");
    }
    long inFlight = IntentRecovery.list(session, counters).stream()
        .filter(intent -> intent.header().tables().stream().anyMatch(t -> t.equalsIgnoreCase(table.physicalTable())))
        .count();
    if (inFlight > 0) {
      return new Verification(listed.size(), 0, inFlight + " transactions writing the table have not ended "
          + "(tablesql.pending_writes lists them)");
    }
    List<String> select = new java.util.ArrayList<>(List.of("PartitionKey", "RowKey", io.tablesql.txn.RowMarks.MARK));
    for (Column column : blobColumns) {
      select.add(ValueParts.countName(column.name()));
      select.add(ValueParts.referenceName(column.name()));
    }
    Set<String> named = new HashSet<>();
    java.util.Iterator<List<com.azure.data.tables.models.TableEntity>> pages = session.store()
        .query(table.physicalTable(), null, select, 1000, counters);
    while (pages.hasNext()) {
      for (com.azure.data.tables.models.TableEntity entity : pages.next()) {
        if (entity.getProperties().get(io.tablesql.txn.RowMarks.MARK) != null) {
          return new Verification(listed.size(), 0, "a row is being written by a transaction (PartitionKey '"
              + entity.getPartitionKey() + "', RowKey '" + entity.getRowKey() + "')");
        }
        named.addAll(blobsNamed(entity.getProperties(), null));
      }
    }
    int deleted = 0;
    for (String blob : old) {
      if (!named.contains(blob)) {
        session.store().blobs().delete(blob, counters);
        deleted++;
      }
    }
    return new Verification(listed.size(), deleted, "");
  }

  /** Deletes every blob of a dropped table's long values; one it cannot delete stays, named by no row. */
  public static void deleteAll(Session session, String physicalTable) {
    RequestCounters counters = new RequestCounters();
    try {
      for (io.tablesql.store.BlobStore.StoredBlob blob : session.store().blobs()
          .list(BlobReference.prefixOf(physicalTable), counters)) {
        session.store().blobs().delete(blob.name(), counters);
      }
    } catch (StoreException e) {
      // the table is gone: what is left costs storage, and no reader can meet it
    }
  }

  private static String encoded(String text) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }
}
