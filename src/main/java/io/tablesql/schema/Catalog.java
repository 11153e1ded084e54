package io.tablesql.schema;

import com.azure.data.tables.models.TableEntity;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.tablesql.SqlStates;
import io.tablesql.exec.Session;
import io.tablesql.jdbc.DriverProperty;
import io.tablesql.keys.KeyEncoding;
import io.tablesql.store.RequestCounters;
import io.tablesql.store.StoreException;
import io.tablesql.txn.WriteOperation;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The declared tables of an account, kept in the account itself (table {@value #TABLE}) so that
 * every connection, JVM and tool sees the same definitions: one entity per table, PartitionKey
 * {@code table}, RowKey the SQL name in lower case (key-encoded), the definition as JSON in
 * {@link TableDefinition#FORMAT}. Definitions are cached per account and credential for the
 * schema TTL; DDL in this JVM forgets them at once.
 */
public final class Catalog {
  /** The catalog table; hidden from the schema, and DROP TABLE refuses it. */
  public static final String TABLE = "TablesqlCatalog";
  private static final String TABLE_KIND = "table";
  private static final Cache<String, Entry> CACHE = Caffeine.newBuilder().maximumSize(1_000).build();

  private record Entry(Map<String, TableDefinition> tables, long expiresAtNanos) {
  }

  private Catalog() {
  }

  public static boolean isCatalogTable(String name) {
    return TABLE.equalsIgnoreCase(name);
  }

  /**
   * The declared tables by lower-case SQL name; {@code mayExist} false when the account's table
   * list shows there is no catalog (no request is made then).
   */
  public static Map<String, TableDefinition> tables(Session session, boolean mayExist) {
    if (!mayExist) {
      return Map.of();
    }
    String key = session.settings().cacheKey();
    long now = System.nanoTime();
    Entry entry = CACHE.getIfPresent(key);
    if (entry == null || now - entry.expiresAtNanos() > 0) {
      long ttl = Duration.ofSeconds(session.settings().getInt(DriverProperty.SCHEMA_TTL)).toNanos();
      entry = new Entry(read(session), now + ttl);
      CACHE.put(key, entry);
    }
    return entry.tables();
  }

  /**
   * The declared table of a SQL name as last read (schemas read the catalog when they load), or
   * null; makes no request.
   */
  public static TableDefinition known(Session session, String name) {
    Entry entry = CACHE.getIfPresent(session.settings().cacheKey());
    return entry == null ? null : entry.tables().get(name.toLowerCase(Locale.ROOT));
  }

  private static Map<String, TableDefinition> read(Session session) {
    Map<String, TableDefinition> tables = new LinkedHashMap<>();
    try {
      Iterator<List<TableEntity>> pages = session.store().query(TABLE, "PartitionKey eq '" + TABLE_KIND + "'", null,
          1000, new RequestCounters());
      while (pages.hasNext()) {
        for (TableEntity entity : pages.next()) {
          TableDefinition definition = parse(entity);
          tables.put(definition.name().toLowerCase(Locale.ROOT), definition);
        }
      }
    } catch (StoreException e) {
      // no catalog yet, or a SAS that may not read it: no declared tables
      if (!SqlStates.TABLE_NOT_FOUND.equals(e.sqlState()) && !SqlStates.INSUFFICIENT_PRIVILEGE.equals(e.sqlState())) {
        throw e;
      }
    }
    return tables;
  }

  private static TableDefinition parse(TableEntity entity) {
    try {
      return TableDefinition.fromJson((String) entity.getProperty("Definition"));
    } catch (IllegalArgumentException e) {
      throw new StoreException("The definition of table " + entity.getProperty("Name") + " in " + TABLE
          + " cannot be read: " + e.getMessage() + ".", SqlStates.DATA_EXCEPTION, e);
    }
  }

  /** Records a new declared table; fails with 42S01 if one of that name exists already. */
  public static void add(Session session, TableDefinition definition) {
    RequestCounters counters = new RequestCounters();
    session.store().createTable(TABLE, counters);
    session.store().submit(TABLE, List.of(new WriteOperation(TABLE, TABLE_KIND, rowKey(definition.name()),
        WriteOperation.Kind.INSERT, Map.of("Name", definition.name(), "Format", TableDefinition.FORMAT,
        "Definition", definition.toJson()), null, "CREATE TABLE " + definition.name())), counters);
    forget(session);
  }

  /** Removes a declared table's definition. */
  public static void remove(Session session, TableDefinition definition) {
    session.store().submit(TABLE, List.of(new WriteOperation(TABLE, TABLE_KIND, rowKey(definition.name()),
        WriteOperation.Kind.DELETE, Map.of(), null, "DROP TABLE " + definition.name())), new RequestCounters());
    forget(session);
  }

  /** Forgets the cached definitions of this account and credential. */
  public static void forget(Session session) {
    CACHE.invalidate(session.settings().cacheKey());
  }

  private static String rowKey(String name) {
    return KeyEncoding.encode(List.of(KeyEncoding.Component.ascending(KeyEncoding.KeyType.VARCHAR)),
        List.of(name.toLowerCase(Locale.ROOT)));
  }
}
