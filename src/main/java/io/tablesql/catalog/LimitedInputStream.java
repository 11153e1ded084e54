package io.tablesql.catalog;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** At most a given number of bytes of a stream: JDBC's stream lengths, and a range of a blob. */
public final class LimitedInputStream extends FilterInputStream {
  private long remaining;

  public LimitedInputStream(InputStream in, long remaining) {
    super(in);
    this.remaining = remaining;
  }

  @Override
  public int read() throws IOException {
    if (remaining <= 0) {
      return -1;
    }
    int b = super.read();
    if (b >= 0) {
      remaining--;
    }
    return b;
  }

  @Override
  public int read(byte[] buffer, int offset, int length) throws IOException {
    if (remaining <= 0) {
      return -1;
    }
    int read = super.read(buffer, offset, (int) Math.min(length, remaining));
    if (read > 0) {
      remaining -= read;
    }
    return read;
  }

  @Override
  public long skip(long n) throws IOException {
    long skipped = super.skip(Math.min(n, remaining));
    remaining -= Math.max(skipped, 0);
    return skipped;
  }

  @Override
  public int available() throws IOException {
    return (int) Math.min(super.available(), remaining);
  }
}
