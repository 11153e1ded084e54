package io.tablesql.catalog;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * Calcite holds a TIMESTAMP as milliseconds of a UTC wall clock; the service holds DateTime to
 * 100 ns. Values are truncated (floored) to the millisecond on the way in, which pushed-down
 * comparisons account for.
 */
public final class TimestampMillis {
  private TimestampMillis() {
  }

  public static long floor(OffsetDateTime value) {
    Instant instant = value.toInstant();
    // getNano() is never negative, so this floors before 1970 too.
    return instant.getEpochSecond() * 1000L + instant.getNano() / 1_000_000;
  }

  public static OffsetDateTime toDateTime(long millis) {
    return Instant.ofEpochMilli(millis).atOffset(ZoneOffset.UTC);
  }
}
