package io.tablesql.store;

import java.time.OffsetDateTime;
import java.util.UUID;

/** The property types of the Table service (its Entity Data Model), as the SDK hands them over. */
public enum EdmType {
  STRING, INT32, INT64, DOUBLE, BOOLEAN, DATETIME, GUID, BINARY;

  /** The Edm type of a value the SDK returned, or null for a value of no known type. */
  public static EdmType of(Object value) {
    if (value instanceof String) {
      return STRING;
    } else if (value instanceof Integer) {
      return INT32;
    } else if (value instanceof Long) {
      return INT64;
    } else if (value instanceof Double) {
      return DOUBLE;
    } else if (value instanceof Boolean) {
      return BOOLEAN;
    } else if (value instanceof OffsetDateTime) {
      return DATETIME;
    } else if (value instanceof UUID) {
      return GUID;
    } else if (value instanceof byte[]) {
      return BINARY;
    }
    return null;
  }

  /** The type's name in the service's protocol, after {@code Edm.}: Int32, DateTime, ... */
  public String edmName() {
    return switch (this) {
      case INT32 -> "Int32";
      case INT64 -> "Int64";
      case DATETIME -> "DateTime";
      default -> name().charAt(0) + name().substring(1).toLowerCase(java.util.Locale.ROOT);
    };
  }
}
