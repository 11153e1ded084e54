package io.tablesql.store;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Arrays;
import org.apache.calcite.avatica.util.ByteString;

/** Compares an SDK value with a filter value the way the service does, for client-side checks. */
public final class EdmValues {
  private EdmValues() {
  }

  /** Sign of (actual - expected); {@code expected} is in Calcite's representation. */
  public static int compare(EdmType type, Object actual, Object expected, boolean nextMillisecond) {
    switch (type) {
      case STRING: return ((String) actual).compareTo((String) expected);
      case INT32:
      case INT64: return Long.compare(((Number) actual).longValue(), ((Number) expected).longValue());
      case DOUBLE: return Double.compare(((Number) actual).doubleValue(), ((Number) expected).doubleValue());
      case BOOLEAN: return Boolean.compare((Boolean) actual, (Boolean) expected);
      case DATETIME: {
        Instant bound = Instant.ofEpochMilli(((Number) expected).longValue() + (nextMillisecond ? 1 : 0));
        return ((OffsetDateTime) actual).toInstant().compareTo(bound);
      }
      case GUID: return actual.toString().equals(expected.toString()) ? 0 : 1;
      default: return Arrays.equals((byte[]) actual, ((ByteString) expected).getBytes()) ? 0 : 1;
    }
  }
}
