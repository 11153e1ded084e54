package io.tablesql.catalog;

import io.tablesql.errors.SqlExceptions;
import io.tablesql.errors.SqlStates;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * A value of a {@link Column#large large} column longer than one property holds, kept in parts in
 * the row's own entity (docs/architecture/large-values.md, "Large values and wide rows", tier 2): the column's
 * property holds the first part, {@code <column>_TsP2} ... {@code <column>_TsP16} the next, and
 * {@code <column>_TsN} how many there are. A value that fits one property is stored as any
 * other, so rows of short values are what they always were.
 *
 * <p>The count is what makes the parts this value's: a merge leaves an entity's other properties
 * in place, so a merge of a short value writes a count of 1, and parts an earlier value left
 * behind are then not read. Because the first part is the value's first characters, a comparison
 * with a shorter text gives the same answer on the first part as on the whole value; see
 * {@link #SHORTEST_FIRST_TEXT}.
 *
 * <p>A value longer than the entity holds (tier 3) is kept in a blob ({@link BlobReference}) when
 * its column {@link Column#blobs allows it}: the column's property still holds the first part (so
 * that comparisons sent on it stay exact), the count is 0, and {@code <column>_TsRef} holds the
 * reference. A count of 0 is what makes the reference the value's, as a count of 1 disowns it.
 */
public final class ValueParts {
  /** Characters of text in one property: 64,000 bytes as the service counts strings (UTF-16), under its 64 KiB. */
  public static final int TEXT_PART = 32_000;
  /** A split text's first part is at least this long: one less when a surrogate pair would straddle the cut. */
  public static final int SHORTEST_FIRST_TEXT = TEXT_PART - 1;
  /** Bytes of binary in one property: the service's 64 KiB. */
  public static final int BINARY_PART = 64 * 1024;
  /** Parts of one value: 16 of 64 KiB make the entity's 1 MiB. */
  public static final int MAX_PARTS = 16;
  private static final String PART = "_TsP";
  private static final String COUNT = "_TsN";
  private static final String REFERENCE = "_TsRef";
  /** The count of a value kept in a blob. */
  private static final int IN_BLOB = 0;
  private static final Pattern PART_PROPERTY = Pattern.compile(".+_Ts(P([2-9]|1[0-6])|N|Ref)");

  /** Writes a value to a new blob (before any entity names it) and tells its reference. */
  @FunctionalInterface
  public interface BlobWriter {
    BlobReference write(Column column, byte[] content);

    /**
     * Writes a streamed value to a new blob and tells its reference; the Blob service's writer
     * does so a block at a time (here: read whole first).
     *
     * @throws SQLException 22000 for a value longer than a blob holds, or a stream that fails
     */
    default BlobReference write(Column column, StreamedValue value) throws SQLException {
      try {
        Object whole = value.whole();
        return write(column, whole instanceof String text ? text.getBytes(StandardCharsets.UTF_8) : (byte[]) whole);
      } catch (java.io.IOException e) {
        throw SqlExceptions.of("Cannot write " + value + " to column " + column.name() + ": " + e.getMessage()
            + ". Nothing of this statement was written.", SqlStates.DATA_EXCEPTION, e);
      }
    }
  }

  /** Reads the content of a blob a row names. */
  @FunctionalInterface
  public interface BlobReader {
    byte[] read(Column column, BlobReference reference);

    /** The content of a blob a row names as a stream, read as the caller reads (here: whole first). */
    default java.io.InputStream open(Column column, BlobReference reference) {
      return new java.io.ByteArrayInputStream(read(column, reference));
    }

    /** The content of an application's blob, named as its entity names it ({@link Column#referencesBlob}). */
    default byte[] readNamed(Column column, String name) {
      throw new Column.UnreadableValue("names the blob '" + name + "', which this statement cannot read",
          SqlStates.FEATURE_NOT_SUPPORTED);
    }

    /** The content of an application's blob as a stream, read as the caller reads (here: whole first). */
    default java.io.InputStream openNamed(Column column, String name) {
      return new java.io.ByteArrayInputStream(readNamed(column, name));
    }

    /** The length in bytes of an application's blob (here: read whole). */
    default long lengthOfNamed(Column column, String name) {
      return readNamed(column, name).length;
    }
  }

  private ValueParts() {
  }

  /** The property holding part {@code part} (from 1) of a column's value. */
  public static String partName(String column, int part) {
    return part == 1 ? column : column + PART + part;
  }

  /** The property holding how many parts a column's value has. */
  public static String countName(String column) {
    return column + COUNT;
  }

  /** The property holding the reference to the blob of a column's value kept in Blob storage. */
  public static String referenceName(String column) {
    return column + REFERENCE;
  }

  /** The column whose blob reference a property holds, or null for a property of another kind. */
  public static String columnOfReference(String property) {
    return property.endsWith(REFERENCE) && property.length() > REFERENCE.length()
        ? property.substring(0, property.length() - REFERENCE.length()) : null;
  }

  /**
   * Whether a column keeps one property per value but may be widened to hold long values by
   * another connection ({@code ALTER COLUMN ... TYPE}): text or binary of a table whose entities
   * are tablesql's. A reader whose definition predates the widening tells a long value written
   * since by its count, which it reads with the column, rather than take the first part for it.
   */
  public static boolean widenable(Column column, io.tablesql.keys.KeyLayout layout) {
    return !column.large() && column.declared() && column.canBeLarge() && layout != null && !layout.isMapped();
  }

  /** Whether a value read as one property is a long value's first part: its count says parts, or a blob. */
  public static boolean isFirstPartOnly(Function<String, Object> properties, String column) {
    return properties.apply(countName(column)) instanceof Integer count && count != 1;
  }

  /** Whether a property holds a part after the first, the count or the blob reference of a large value: not a column. */
  public static boolean isPartProperty(String name) {
    return PART_PROPERTY.matcher(name).matches();
  }

  /** Whether a property's name is that of a part after the first, or the count, of a column's values. */
  public static boolean isPartOf(String property, String column) {
    return extraNames(column).stream().anyMatch(property::equalsIgnoreCase);
  }

  /** The properties a read of a large column names in {@code $select} besides the column's own. */
  public static List<String> extraNames(String column) {
    List<String> names = new ArrayList<>(MAX_PARTS + 1);
    names.add(countName(column));
    names.add(referenceName(column));
    for (int part = 2; part <= MAX_PARTS; part++) {
      names.add(partName(column, part));
    }
    return names;
  }

  /**
   * Puts a large column's value (as the SDK writes it: String or byte[]) into an entity's
   * properties: as it is if it fits one property, else as parts and their count. {@code merged}:
   * the properties are merged into an entity, whose earlier parts the count must disown.
   *
   * A value longer than 16 parts goes to a blob through {@code blobs} when the column allows it.
   *
   * @throws SQLException 22000 for a value that would not fit an entity in 16 parts and may not
   *     go to a blob, or is longer than a blob holds
   */
  public static void put(Map<String, Object> properties, Column column, Object value, boolean merged,
      BlobWriter blobs) throws SQLException {
    String name = column.name();
    if (value instanceof StreamedValue streamed) {
      if (!column.blobs() || blobs == null) {
        throw tooLongForTheEntity(column, value);
      }
      removeParts(properties, name);
      BlobReference reference = blobs.write(column, streamed);
      properties.put(name, streamed.firstPart());
      properties.put(countName(name), IN_BLOB);
      properties.put(referenceName(name), reference.encode());
      return;
    }
    boolean tooLong = value instanceof String text ? text.length() > MAX_PARTS * TEXT_PART
        : value instanceof byte[] bytes && bytes.length > MAX_PARTS * BINARY_PART;
    List<Object> parts = tooLong ? null : value instanceof String text && text.length() > TEXT_PART ? textParts(text)
        : value instanceof byte[] bytes && bytes.length > BINARY_PART ? binaryParts(bytes) : List.of(value);
    if ((tooLong || parts.size() > MAX_PARTS) && column.blobs() && blobs != null) {
      putInBlob(properties, column, value, blobs);
      return;
    }
    if (tooLong || parts.size() > MAX_PARTS) {
      throw tooLongForTheEntity(column, value);
    }
    for (int part = 1; part <= parts.size(); part++) {
      properties.put(partName(name, part), parts.get(part - 1));
    }
    if (parts.size() > 1 || merged) {
      properties.put(countName(name), parts.size());
    }
  }

  private static SQLException tooLongForTheEntity(Column column, Object value) {
    return SqlExceptions.of("Cannot write a value of " + describe(value) + " to column " + column.name() + ": "
        + (column.blobs() ? "a copy of a row's values is kept in one entity, which holds at most 1 MiB"
            : "this column's values are kept in its row's entity, which holds at most 1 MiB (about 500,000 "
            + "characters of text, or 1,000,000 bytes); its table was created by a tablesql that kept no values "
            + "in Blob storage. Copy it into a table created by this version to hold longer values")
        + ". Nothing of this statement was written.", SqlStates.DATA_EXCEPTION);
  }

  /**
   * Keeps a value in a new blob: the first part stays in the column's property, the count is
   * {@value #IN_BLOB}, and the reference names the blob.
   *
   * @throws SQLException 22000 for a value longer than {@link BlobReference#MAX_BYTES}
   */
  public static void putInBlob(Map<String, Object> properties, Column column, Object value, BlobWriter blobs)
      throws SQLException {
    byte[] content = value instanceof String text ? text.getBytes(StandardCharsets.UTF_8) : (byte[]) value;
    if (content.length > BlobReference.MAX_BYTES) {
      throw SqlExceptions.of("Cannot write a value of " + describe(value) + " to column " + column.name()
          + ": a value holds at most " + (BlobReference.MAX_BYTES >> 20) + " MiB. Nothing of this statement was "
          + "written.", SqlStates.DATA_EXCEPTION);
    }
    removeParts(properties, column.name());
    Object first = value instanceof String text ? text.substring(0, firstPartEnd(text))
        : java.util.Arrays.copyOf((byte[]) value, Math.min(((byte[]) value).length, BINARY_PART));
    BlobReference reference = blobs.write(column, content);
    properties.put(column.name(), first);
    properties.put(countName(column.name()), IN_BLOB);
    properties.put(referenceName(column.name()), reference.encode());
  }

  /** The reference of a column's value kept in a blob, or null if the properties keep it themselves. */
  public static BlobReference referenceIn(Map<String, Object> properties, String column) {
    if (properties != null && properties.get(countName(column)) instanceof Integer n && n == IN_BLOB
        && properties.get(referenceName(column)) instanceof String text) {
      try {
        return BlobReference.parse(text);
      } catch (Column.UnreadableValue e) {
        return null; // not one of ours to keep, copy or delete; reading the value says what is wrong (read)
      }
    }
    return null;
  }

  /**
   * A large column's value from an entity's properties, its parts joined or its blob read; what
   * the column's property holds when the count says one part (or there is none).
   *
   * @throws Column.UnreadableValue if a part the count promises is missing or of another type
   */
  public static Object read(Function<String, Object> properties, Column column, BlobReader blobs) {
    Object countValue = properties.apply(countName(column.name()));
    if (countValue instanceof Integer n && n == IN_BLOB) {
      if (!(properties.apply(referenceName(column.name())) instanceof String text)) {
        throw new Column.UnreadableValue("is kept in a blob, but " + referenceName(column.name())
            + " does not name it: the entity was changed by a program that does not know tablesql's large values",
            SqlStates.DATA_EXCEPTION);
      }
      BlobReference reference = BlobReference.parse(text);
      if (blobs == null) {
        throw new Column.UnreadableValue("is kept in a blob, which this statement cannot read",
            SqlStates.FEATURE_NOT_SUPPORTED);
      }
      byte[] content = blobs.read(column, reference);
      return column.singleEdmType() == io.tablesql.store.EdmType.BINARY ? content
          : new String(content, StandardCharsets.UTF_8);
    }
    return read(properties, column.name());
  }

  /** A large column's value kept in its entity, its parts joined. */
  public static Object read(Function<String, Object> properties, String column) {
    Object first = properties.apply(column);
    int count = properties.apply(countName(column)) instanceof Integer n ? n : 1;
    if (count <= 1 || first == null) {
      return first;
    }
    if (first instanceof String text) {
      StringBuilder whole = new StringBuilder(count * TEXT_PART).append(text);
      for (int part = 2; part <= count; part++) {
        whole.append(part(properties, column, part, count, String.class));
      }
      return whole.toString();
    }
    if (first instanceof byte[] bytes) {
      ByteArrayOutputStream whole = new ByteArrayOutputStream(count * BINARY_PART);
      whole.writeBytes(bytes);
      for (int part = 2; part <= count; part++) {
        whole.writeBytes(part(properties, column, part, count, byte[].class));
      }
      return whole.toByteArray();
    }
    return first;
  }

  /** A column's stored value from an entity's properties: a large column's parts joined or its blob read, as {@link #read}. */
  public static Object valueOf(Column column, Function<String, Object> properties, BlobReader blobs) {
    if (column.referencesBlob()) {
      Object name = properties.apply(column.name());
      if (name == null) {
        return null;
      }
      if (blobs == null) {
        throw new Column.UnreadableValue("names the blob '" + name + "', which this statement cannot read",
            SqlStates.FEATURE_NOT_SUPPORTED);
      }
      byte[] content = blobs.readNamed(column, name.toString());
      return column.singleEdmType() == io.tablesql.store.EdmType.BINARY ? content
          : new String(content, StandardCharsets.UTF_8);
    }
    return column.large() ? read(properties, column, blobs) : properties.apply(column.name());
  }

  /**
   * A column's stored value as {@link #valueOf} gives it, except that a value kept in a blob is a
   * {@link LongValue}, left unread for a caller that reads it only if asked.
   */
  public static Object unreadValueOf(Column column, Function<String, Object> properties, BlobReader blobs) {
    if (column.large() && blobs != null && properties.apply(countName(column.name())) instanceof Integer n
        && n == IN_BLOB && properties.apply(referenceName(column.name())) instanceof String text) {
      return new LongValue(column, BlobReference.parse(text), blobs);
    }
    if (column.referencesBlob() && blobs != null && properties.apply(column.name()) instanceof String name) {
      return LongValue.named(column, name, blobs);
    }
    return valueOf(column, properties, blobs);
  }

  /** Copies a column's stored value, with its parts and count if it has them, from one entity's properties to another's. */
  public static void copy(Map<String, Object> from, Map<String, Object> to, Column column) {
    String name = column.name();
    if (column.large() && referenceIn(from, name) != null) {
      // a copy naming the row's blob would outlive it: the blob is deleted once the row stops naming it
      throw new IllegalArgumentException(name + " holds a value longer than an entity, kept in Blob storage, which "
          + "is not copied");
    }
    if (from.get(name) != null) {
      to.put(name, from.get(name));
    }
    if (column.large() && isSplit(from, name)) {
      int count = (Integer) from.get(countName(name));
      to.put(countName(name), count);
      for (int part = 2; part <= count; part++) {
        to.put(partName(name, part), from.get(partName(name, part)));
      }
    }
  }

  /** Removes a column's parts after the first, its count and its blob reference from an entity's properties. */
  public static void removeParts(Map<String, Object> properties, String column) {
    properties.remove(countName(column));
    properties.remove(referenceName(column));
    for (int part = 2; part <= MAX_PARTS; part++) {
      properties.remove(partName(column, part));
    }
  }

  /** Whether an entity's properties hold parts or a blob reference of a column that its count does not read (a merge left them). */
  public static boolean hasDisownedParts(Map<String, Object> properties, String column) {
    if (properties == null) {
      return false;
    }
    if (referenceIn(properties, column) == null && properties.containsKey(referenceName(column))) {
      return true;
    }
    for (int part = partsRead(properties, column) + 1; part <= MAX_PARTS; part++) {
      if (properties.containsKey(partName(column, part))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Removes what a column's count does not read (parts past it, a reference its count disowns, and
   * a count of 1 that only disowned them), keeping the value: what a replace of an entity a merge
   * left behind sends.
   */
  public static void removeDisowned(Map<String, Object> properties, String column) {
    if (referenceIn(properties, column) == null) {
      properties.remove(referenceName(column));
      properties.remove(countName(column), 1); // a value in one property needs no count once nothing is left to disown
    }
    for (int part = partsRead(properties, column) + 1; part <= MAX_PARTS; part++) {
      properties.remove(partName(column, part));
    }
  }

  /** The parts of a column's value its entity holds: the count, 1 without one, and 1 for a value in a blob (its first part). */
  private static int partsRead(Map<String, Object> properties, String column) {
    return properties.get(countName(column)) instanceof Integer n && n > 1 ? n : 1;
  }

  /** Whether an entity's properties hold a column's value in more than one part. */
  public static boolean isSplit(Map<String, Object> properties, String column) {
    return properties != null && properties.get(countName(column)) instanceof Integer n && n > 1;
  }

  private static <T> T part(Function<String, Object> properties, String column, int part, int count, Class<T> type) {
    Object value = properties.apply(partName(column, part));
    if (!type.isInstance(value)) {
      throw new Column.UnreadableValue("is kept in " + count + " parts, but part " + part + " ("
          + partName(column, part) + ") is " + (value == null ? "missing" : "not of the first part's type")
          + ": the entity was changed by a program that does not know tablesql's large values",
          SqlStates.DATA_EXCEPTION);
    }
    return type.cast(value);
  }

  private static List<Object> textParts(String text) {
    List<Object> parts = new ArrayList<>();
    int start = 0;
    while (start < text.length()) {
      int end = partEnd(text, start);
      parts.add(text.substring(start, end));
      start = end;
    }
    return parts;
  }

  static int firstPartEnd(String text) {
    return partEnd(text, 0);
  }

  /** Where the part starting at {@code start} ends: valid UTF-16 on its own, a surrogate pair stays in one part. */
  private static int partEnd(String text, int start) {
    int end = Math.min(text.length(), start + TEXT_PART);
    return end < text.length() && Character.isHighSurrogate(text.charAt(end - 1)) ? end - 1 : end;
  }

  private static List<Object> binaryParts(byte[] bytes) {
    List<Object> parts = new ArrayList<>();
    int start = 0;
    while (start < bytes.length) {
      int end = Math.min(bytes.length, start + BINARY_PART);
      parts.add(java.util.Arrays.copyOfRange(bytes, start, end));
      start = end;
    }
    return parts;
  }

  private static String describe(Object value) {
    return value instanceof String text ? text.length() + " characters"
        : value instanceof byte[] bytes ? bytes.length + " bytes" : value.toString();
  }
}
