package io.tablesql.txn;

import io.tablesql.errors.SqlExceptions;
import io.tablesql.errors.SqlStates;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The service's limits on entities and entity group transactions, checked before anything is
 * sent (Azurite accepts some batches Azure rejects, so the driver checks for itself).
 */
public final class EntityRules {
  public static final int MAX_KEY_BYTES = 1024;
  public static final int MAX_PROPERTIES = 252;
  public static final int MAX_ENTITY_BYTES = 1 << 20;
  public static final int MAX_VALUE_BYTES = 64 * 1024;
  public static final int MAX_GROUP_OPERATIONS = 100;
  public static final int MAX_GROUP_BYTES = 4 << 20;
  /** Headers, boundary and request line of one operation of a changeset, without the URL's keys. */
  private static final int OPERATION_OVERHEAD_BYTES = 400;
  /** {@code "name@odata.type":"Edm.Binary",} without the name. */
  private static final int ANNOTATION_BYTES = 32;
  /** Where longer values fit. */
  private static final String LONGER = "A column declared VARCHAR or VARBINARY without a length (or CLOB, BLOB) holds "
      + "values up to 256 MiB in a table created with a PRIMARY KEY, or with neither one nor PartitionKey and RowKey "
      + "columns (README, Long values)";
  private static final OffsetDateTime MIN_DATE_TIME = OffsetDateTime.parse("1601-01-01T00:00:00Z");
  private static final OffsetDateTime MAX_DATE_TIME = OffsetDateTime.parse("9999-12-31T23:59:59.9999999Z");

  private EntityRules() {
  }

  /** Checks one entity; the message names the entity, the property and the rule. */
  public static void validate(WriteOperation operation) throws SQLException {
    checkKey("PartitionKey", operation.partitionKey(), operation);
    checkKey("RowKey", operation.rowKey(), operation);
    if (operation.kind().deletes()) {
      return;
    }
    int properties = 0;
    for (Map.Entry<String, Object> property : operation.properties().entrySet()) {
      Object value = property.getValue();
      if (value == null) {
        continue;
      }
      properties++;
      if (value instanceof String text && text.length() * 2 > MAX_VALUE_BYTES) {
        throw violation(operation, "property " + property.getKey() + " is a string of " + text.length()
            + " characters; the service stores at most 32,768 (64 KiB in UTF-16) in one property. " + LONGER);
      }
      if (value instanceof byte[] bytes && bytes.length > MAX_VALUE_BYTES) {
        throw violation(operation, "property " + property.getKey() + " holds " + bytes.length
            + " bytes; the service stores at most 65,536 in one property. " + LONGER);
      }
      if (value instanceof OffsetDateTime time && (time.isBefore(MIN_DATE_TIME) || time.isAfter(MAX_DATE_TIME))) {
        throw violation(operation, "property " + property.getKey() + " is " + time
            + "; DateTime values must lie between 1601-01-01 and 9999-12-31 UTC");
      }
    }
    if (properties > MAX_PROPERTIES) {
      throw violation(operation, "it has " + properties + " properties; an entity holds at most " + MAX_PROPERTIES);
    }
    long size = sizeOf(operation);
    if (size > MAX_ENTITY_BYTES) {
      throw violation(operation, "it is about " + size + " bytes; an entity holds at most 1 MiB");
    }
  }

  private static void checkKey(String name, String key, WriteOperation operation) throws SQLException {
    if (key == null) {
      throw violation(operation, name + " is NULL; every entity needs a PartitionKey and a RowKey");
    }
    if (key.getBytes(StandardCharsets.UTF_8).length > MAX_KEY_BYTES) {
      throw violation(operation, name + " is longer than 1 KiB");
    }
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (!isAllowedInKey(c)) {
        throw violation(operation, name + " contains '" + (Character.isISOControl(c)
            ? String.format("\\u%04x", (int) c) : String.valueOf(c))
            + "'; keys may not contain / \\ # ? or control characters");
      }
    }
  }

  /** The service's rule for PartitionKey and RowKey: no slash, backslash, # or ?, no control characters. */
  public static boolean isAllowedInKey(char c) {
    return c != '/' && c != '\\' && c != '#' && c != '?' && !Character.isISOControl(c);
  }

  /**
   * Checks that the operations can form one entity group transaction: one table, one
   * PartitionKey, at most 100 operations and 4 MiB, each entity once.
   */
  public static void checkGroup(List<WriteOperation> operations) throws SQLException {
    checkGroup(operations, -1);
  }

  /**
   * As {@link #checkGroup(List)}, given the sum of the operations' {@link #payloadSizeOf} when the
   * caller has it already ({@code payloadBytes} &ge; 0), so that it is not counted twice.
   */
  public static void checkGroup(List<WriteOperation> operations, long payloadBytes) throws SQLException {
    if (operations.size() > MAX_GROUP_OPERATIONS) {
      throw SqlExceptions.of("An entity group transaction holds at most " + MAX_GROUP_OPERATIONS
          + " operations; this one would hold " + operations.size() + " (the last: "
          + operations.get(operations.size() - 1).describe() + "). Commit in smaller transactions.",
          SqlStates.TRANSACTION_RULE);
    }
    WriteOperation first = operations.get(0);
    long bytes = 0;
    // one table and one partition (checked first for each operation): the row key names the entity
    Set<String> seen = new HashSet<>();
    for (WriteOperation operation : operations) {
      if (!operation.table().equalsIgnoreCase(first.table())) {
        throw SqlExceptions.of("An entity group transaction writes to one table only: " + operation.describe()
            + " is in a different table than " + first.describe() + ". Commit before writing to another table.",
            SqlStates.TRANSACTION_RULE);
      }
      if (!operation.partitionKey().equals(first.partitionKey())) {
        throw SqlExceptions.of("An entity group transaction writes to one partition only: "
            + operation.describe() + " has a different PartitionKey than " + first.describe()
            + ". Commit before writing to another partition.", SqlStates.TRANSACTION_RULE);
      }
      if (!seen.add(operation.rowKey())) {
        throw SqlExceptions.of("An entity group transaction may touch each entity once: "
            + operation.describe() + " appears twice.", SqlStates.TRANSACTION_RULE);
      }
      bytes += payloadBytes < 0 ? payloadSizeOf(operation) : 0;
    }
    bytes = payloadBytes < 0 ? bytes : payloadBytes;
    if (bytes > MAX_GROUP_BYTES) {
      throw SqlExceptions.of("An entity group transaction's request holds at most 4 MiB; this one would be "
          + "about " + bytes + " bytes as sent (JSON, binary as base64, headers of each operation; the last entity: "
          + operations.get(operations.size() - 1).describe() + "). Commit in smaller transactions.",
          SqlStates.TRANSACTION_RULE);
    }
  }

  /** The service's size estimate of an entity: keys, names and values. */
  public static long sizeOf(WriteOperation operation) {
    long size = 4 + 2L * (operation.partitionKey().length() + operation.rowKey().length());
    for (Map.Entry<String, Object> property : operation.properties().entrySet()) {
      Object value = property.getValue();
      if (value == null) {
        continue;
      }
      size += 8 + 2L * property.getKey().length();
      if (value instanceof String text) {
        size += 4 + 2L * text.length();
      } else if (value instanceof byte[] bytes) {
        size += 4 + bytes.length;
      } else if (value instanceof Integer || value instanceof Boolean) {
        size += 4;
      } else {
        size += 16;
      }
    }
    return size;
  }

  /**
   * An upper estimate of what an operation adds to an entity group transaction's request, which
   * is what the service's 4 MiB limit counts: the operation's part of the multipart body (its
   * headers and request line with the entity's URL) and the entity as JSON, where binary values
   * travel as base64 and typed values carry an {@code @odata.type} annotation. Checked against
   * the SDK's requests by PayloadSizeUnitTest.
   */
  public static long payloadSizeOf(WriteOperation operation) {
    long size = OPERATION_OVERHEAD_BYTES + operation.table().length();
    if (operation.kind() != WriteOperation.Kind.INSERT) {
      // an INSERT is posted to the table; the others name the entity in their URL
      size += urlSize(operation.partitionKey()) + urlSize(operation.rowKey());
    }
    if (operation.etag() != null) {
      size += jsonStringSize(operation.etag()); // If-Match
    }
    if (operation.kind().deletes() && operation.kind() != WriteOperation.Kind.TOMBSTONE) {
      return size; // no body (a tombstone is sent as a REPLACE of its properties)
    }
    size += jsonStringSize(operation.partitionKey()) + jsonStringSize(operation.rowKey()) + 40;
    if (operation.etag() != null) {
      size += jsonStringSize(operation.etag()) + 14; // "odata.etag": in the JSON too
    }
    for (Map.Entry<String, Object> property : operation.properties().entrySet()) {
      Object value = property.getValue();
      if (value == null) {
        continue;
      }
      size += jsonStringSize(property.getKey()) + 2; // "name": and a comma
      if (value instanceof String text) {
        size += jsonStringSize(text);
      } else if (value instanceof byte[] bytes) {
        size += 2 + 4L * ((bytes.length + 2) / 3) + ANNOTATION_BYTES + property.getKey().length();
      } else if (value instanceof Integer || value instanceof Boolean) {
        size += 24;
      } else if (value instanceof Double) {
        size += 24 + ANNOTATION_BYTES + property.getKey().length(); // annotated, see TableStore#action
      } else {
        size += 40 + ANNOTATION_BYTES + property.getKey().length(); // Int64, DateTime, Guid: quoted and annotated
      }
    }
    return size;
  }

  /**
   * A string as the SDK writes it in JSON: quotes, escapes, UTF-8 for the BMP, and a character
   * outside it (a surrogate pair) escaped as two {@code \\uXXXX}, 12 bytes.
   */
  private static long jsonStringSize(String text) {
    long size = 2;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"' || c == '\\') {
        size += 2;
      } else if (c < 0x20 || Character.isSurrogate(c)) {
        size += 6; // a six-byte escape (a tab or newline takes 2, counted as 6 to keep this simple)
      } else {
        size += c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
      }
    }
    return size;
  }

  /** A key in the entity's URL: at most each UTF-8 byte percent-encoded (a quote, doubled by OData, is 2). */
  private static long urlSize(String key) {
    long size = 0;
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      size += c < 0x80 ? 3 : c < 0x800 || Character.isSurrogate(c) ? 6 : 9;
    }
    return size;
  }

  private static SQLException violation(WriteOperation operation, String rule) {
    // a batch's rows before this one are written (BatchOutcome says so): only this row is not
    String origin = operation.origin();
    String unwritten = origin != null && origin.startsWith("batch row ") ? origin : "this statement";
    return SqlExceptions.of("Cannot write " + operation.describe() + ": " + rule + ". Nothing of " + unwritten
        + " was written.", SqlStates.DATA_EXCEPTION);
  }
}
