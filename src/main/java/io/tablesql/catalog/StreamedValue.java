package io.tablesql.catalog;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A parameter given as a stream that is longer than an entity holds, bound to an INSERT that
 * writes it straight into a blob ({@link ValueParts#put}): the part read to find that out (its
 * {@code head}, at most about 1 MiB) is held, the rest is read once, block by block, as it is
 * uploaded. Text goes to the blob as UTF-8, as every long text value does.
 */
public final class StreamedValue {
  /** The longest value a blob holds, in bytes. */
  private static final long MAX_BYTES = BlobReference.MAX_BYTES;
  private final Object head;
  private final Reader restOfText;
  private final InputStream restOfBytes;
  /** What may still be read of the rest: characters of text or bytes, by the length the caller gave (or unlimited). */
  private final long restLength;
  private boolean read;

  private StreamedValue(Object head, Reader restOfText, InputStream restOfBytes, long restLength) {
    this.head = head;
    this.restOfText = restOfText;
    this.restOfBytes = restOfBytes;
    this.restLength = restLength;
  }

  /** Text: {@code head} read from {@code rest}, of which at most {@code restLength} characters follow. */
  public static StreamedValue text(String head, Reader rest, long restLength) {
    return new StreamedValue(head, rest, null, restLength);
  }

  /** Bytes: {@code head} read from {@code rest}, of which at most {@code restLength} bytes follow. */
  public static StreamedValue bytes(byte[] head, InputStream rest, long restLength) {
    return new StreamedValue(head, null, rest, restLength);
  }

  /** Whether {@link #content} was asked for: the stream may have been read, whole or in part. */
  public boolean wasRead() {
    return read;
  }

  public boolean binary() {
    return head instanceof byte[];
  }

  /** What the column's own property keeps: the value's first part, as for any value in a blob. */
  Object firstPart() {
    return head instanceof String text ? text.substring(0, ValueParts.firstPartEnd(text))
        : Arrays.copyOf((byte[]) head, Math.min(((byte[]) head).length, ValueParts.BINARY_PART));
  }

  /**
   * The value's bytes (text as UTF-8), to be read once; reading past a blob's 256 MiB fails with
   * a {@link TooLong}.
   */
  public InputStream content() {
    if (read) {
      throw new IllegalStateException("a streamed parameter is read once");
    }
    read = true;
    InputStream all = binary()
        ? new SequenceInputStream(new ByteArrayInputStream((byte[]) head), restLength < 0 ? restOfBytes : new LimitedInputStream(restOfBytes, restLength))
        : new Utf8(head.toString(), restOfText, restLength);
    return new Counted(all);
  }

  /** The whole value (String or byte[]), read into memory: for a statement that computes on it. */
  public Object whole() throws IOException {
    try (InputStream in = content()) {
      byte[] bytes = in.readAllBytes();
      return binary() ? bytes : new String(bytes, StandardCharsets.UTF_8);
    }
  }

  @Override
  public String toString() {
    return binary() ? "a stream of more than " + ((byte[]) head).length + " bytes"
        : "a stream of more than " + head.toString().length() + " characters";
  }

  /** Reading a value longer than a blob holds. */
  public static final class TooLong extends IOException {
    TooLong() {
      super("the stream holds more than " + (MAX_BYTES >> 20) + " MiB, the most a value holds");
    }
  }

  /** Fails once more bytes than a blob holds have been read. */
  private static final class Counted extends java.io.FilterInputStream {
    private long count;

    Counted(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0 && ++count > MAX_BYTES) {
        throw new TooLong();
      }
      return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      int n = super.read(buffer, offset, length);
      count += Math.max(n, 0);
      if (count > MAX_BYTES) {
        throw new TooLong();
      }
      return n;
    }
  }

  /** Text as UTF-8 bytes, encoded a block at a time; a surrogate pair split between blocks stays whole. */
  private static final class Utf8 extends InputStream {
    private final Reader rest;
    private long restLeft;
    private final char[] chars = new char[64 * 1024];
    private byte[] block;
    private int position;
    private char pendingHigh;
    private boolean ended;

    Utf8(String head, Reader rest, long restLength) {
      this.rest = rest;
      this.restLeft = restLength < 0 ? Long.MAX_VALUE : restLength;
      this.block = encode(head);
    }

    private byte[] encode(String text) {
      if (!text.isEmpty() && Character.isHighSurrogate(text.charAt(text.length() - 1))) {
        pendingHigh = text.charAt(text.length() - 1);
        text = text.substring(0, text.length() - 1);
      }
      return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Fills {@code block} with the next characters' bytes; false at the end. */
    private boolean fill() throws IOException {
      while (position >= block.length) {
        if (ended) {
          return false;
        }
        int n = restLeft <= 0 ? -1 : rest.read(chars, 0, (int) Math.min(chars.length, restLeft));
        StringBuilder text = new StringBuilder(Math.max(n, 0) + 1);
        if (pendingHigh != 0) {
          text.append(pendingHigh);
          pendingHigh = 0;
        }
        if (n < 0) {
          ended = true;
        } else {
          restLeft -= n;
          text.append(chars, 0, n);
        }
        block = ended ? text.toString().getBytes(StandardCharsets.UTF_8) : encode(text.toString());
        position = 0;
      }
      return true;
    }

    @Override
    public int read() throws IOException {
      return fill() ? block[position++] & 0xff : -1;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      if (length == 0) {
        return 0;
      }
      if (!fill()) {
        return -1;
      }
      int n = Math.min(length, block.length - position);
      System.arraycopy(block, position, buffer, offset, n);
      position += n;
      return n;
    }
  }
}
