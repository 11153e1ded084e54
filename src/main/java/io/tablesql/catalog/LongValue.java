package io.tablesql.catalog;

import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;

/**
 * A value kept in a blob, given to a result set unread: a query whose rows go to the caller as
 * they are read ({@code prepare.DirectPlan}) reads it whole only when a getter asks for the whole
 * value, and streams it for {@code getBinaryStream}, {@code getCharacterStream}, {@code getBlob}
 * and {@code getClob}. Nothing computes on it: wherever the engine does, the row holds the value.
 * A blob is never changed, so any read gives the value the row was read with (or, if the row was
 * changed since and the blob deleted, fails with 40001).
 */
public final class LongValue {
  private final Column column;
  private final BlobReference reference;
  private final ValueParts.BlobReader blobs;

  LongValue(Column column, BlobReference reference, ValueParts.BlobReader blobs) {
    this.column = column;
    this.reference = reference;
    this.blobs = blobs;
  }

  /** Whether the value is bytes (VARBINARY, BLOB) rather than text. */
  public boolean binary() {
    return column.singleEdmType() == io.tablesql.store.EdmType.BINARY;
  }

  /** The value's length in bytes (text: of its UTF-8). */
  public long bytes() {
    return reference.bytes();
  }

  /** The whole value: text as a String, bytes as a byte[]. */
  public Object whole() {
    byte[] content = blobs.read(column, reference);
    return binary() ? content : new String(content, StandardCharsets.UTF_8);
  }

  /** The value's bytes (text: its UTF-8) as a stream that reads the blob as the caller reads. */
  public InputStream open() {
    return blobs.open(column, reference);
  }

  /** The text as a stream of characters, read as the caller reads. */
  public Reader reader() {
    return new InputStreamReader(open(), StandardCharsets.UTF_8);
  }

  @Override
  public String toString() {
    return "long value of column " + column.name() + " (" + reference.bytes() + " bytes)";
  }
}
