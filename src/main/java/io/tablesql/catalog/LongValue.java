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
  /** The blob tablesql wrote the value to, or null for an application's blob ({@link #name}). */
  private final BlobReference reference;
  /** The application's blob as its entity names it ({@link Column#referencesBlob}), or null. */
  private final String name;
  private final ValueParts.BlobReader blobs;

  LongValue(Column column, BlobReference reference, ValueParts.BlobReader blobs) {
    this(column, reference, null, blobs);
  }

  private LongValue(Column column, BlobReference reference, String name, ValueParts.BlobReader blobs) {
    this.column = column;
    this.reference = reference;
    this.name = name;
    this.blobs = blobs;
  }

  /** The content of the application's blob a row names, unread. */
  static LongValue named(Column column, String name, ValueParts.BlobReader blobs) {
    return new LongValue(column, null, name, blobs);
  }

  /** Whether the value is bytes (VARBINARY, BLOB) rather than text. */
  public boolean binary() {
    return column.singleEdmType() == io.tablesql.store.EdmType.BINARY;
  }

  /** The value's length in bytes (text: of its UTF-8); an application's blob is asked (one request). */
  public long bytes() {
    return reference != null ? reference.bytes() : blobs.lengthOfNamed(column, name);
  }

  /** The whole value: text as a String, bytes as a byte[]. */
  public Object whole() {
    byte[] content = reference != null ? blobs.read(column, reference) : blobs.readNamed(column, name);
    return binary() ? content : new String(content, StandardCharsets.UTF_8);
  }

  /** The value's bytes (text: its UTF-8) as a stream that reads the blob as the caller reads. */
  public InputStream open() {
    return reference != null ? blobs.open(column, reference) : blobs.openNamed(column, name);
  }

  /** The text as a stream of characters, read as the caller reads. */
  public Reader reader() {
    return new InputStreamReader(open(), StandardCharsets.UTF_8);
  }

  @Override
  public String toString() {
    return "long value of column " + column.name() + (reference != null ? " (" + reference.bytes() + " bytes)"
        : " (blob " + name + ")");
  }
}
