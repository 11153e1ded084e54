package io.tablesql.catalog;

import io.tablesql.errors.SqlStates;
import java.util.Locale;
import java.util.UUID;

/**
 * Where a value longer than its row's entity holds is kept (docs/architecture/large-values.md, "Large values and
 * wide rows", tier 3): a block blob of the account's {@code tablesql-values} container, named
 * {@code <physical table>/<epoch milliseconds of its writing>-<random UUID>}, written once and
 * never changed. The entity keeps the
 * reference in {@code <column>_TsRef} as {@code v1;<blob name>;<bytes>}: text as UTF-8, binary as
 * it is.
 */
public record BlobReference(String blobName, long bytes) {
  /** The largest value kept in a blob: 256 MiB. */
  public static final long MAX_BYTES = 256L << 20;
  private static final String VERSION = "v1";

  /** A reference to a new blob of a table's, not yet written. */
  public static BlobReference create(String physicalTable, long bytes) {
    return new BlobReference(physicalTable.toLowerCase(Locale.ROOT) + "/" + System.currentTimeMillis() + "-"
        + UUID.randomUUID(), bytes);
  }

  /** When this client wrote the blob, by its own clock (epoch milliseconds), or -1 for a name without it. */
  public long writtenAtMillis() {
    int slash = blobName.lastIndexOf('/');
    int dash = blobName.indexOf('-', slash + 1);
    try {
      return dash > slash + 1 ? Long.parseLong(blobName.substring(slash + 1, dash)) : -1;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** The blob names of a table's values start with this. */
  public static String prefixOf(String physicalTable) {
    return physicalTable.toLowerCase(Locale.ROOT) + "/";
  }

  /** As the entity keeps it. */
  public String encode() {
    return VERSION + ";" + blobName + ";" + bytes;
  }

  /**
   * A reference as an entity keeps it.
   *
   * @throws Column.UnreadableValue for text that is no reference of a version this driver reads
   */
  public static BlobReference parse(String text) {
    String[] fields = text.split(";");
    if (fields.length != 3 || !fields[0].equals(VERSION)) {
      throw new Column.UnreadableValue("names its value's blob as '" + text + "', which is no blob reference of "
          + "version " + VERSION + "; a newer tablesql may have written it", SqlStates.DATA_EXCEPTION);
    }
    try {
      return new BlobReference(fields[1], Long.parseLong(fields[2]));
    } catch (NumberFormatException e) {
      throw new Column.UnreadableValue("names its value's blob as '" + text + "', whose length is no number",
          SqlStates.DATA_EXCEPTION);
    }
  }
}
