package io.tablesql.catalog;

import com.azure.data.tables.models.TableEntity;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.tablesql.errors.SqlStates;
import io.tablesql.keys.KeyEncoding;
import io.tablesql.session.Session;
import io.tablesql.settings.DriverProperty;
import io.tablesql.store.RequestCounters;
import io.tablesql.store.StoreException;
import io.tablesql.txn.WriteOperation;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The declared tables and views of an account, kept in the account itself (table {@value #TABLE})
 * so that every connection, JVM and tool sees the same definitions: one entity per table or view,
 * PartitionKey its kind ({@code table}, {@code view}), RowKey the SQL name in lower case
 * (key-encoded), the definition as JSON (format 1, or 2 for a table with indexes: see
 * {@link TableDefinition#FORMAT}). Definitions are cached
 * per account and credential for the schema TTL; DDL in this JVM forgets them at once. With
 * driver property {@code catalog=false} a connection sees none of them.
 */
public final class Catalog {
  /** The catalog table; hidden from the schema, and DROP TABLE refuses it. */
  public static final String TABLE = "TablesqlCatalog";
  private static final String TABLE_KIND = "table";
  private static final String VIEW_KIND = "view";
  private static final Cache<String, Entry> CACHE = Caffeine.newBuilder().maximumSize(1_000).build();

  /** What the catalog holds, by lower-case SQL name. */
  public record Contents(Map<String, TableDefinition> tables, Map<String, ViewDefinition> views) {
    static final Contents EMPTY = new Contents(Map.of(), Map.of());
  }

  private record Entry(Contents contents, long expiresAtNanos) {
  }

  private Catalog() {
  }

  public static boolean isCatalogTable(String name) {
    return TABLE.equalsIgnoreCase(name);
  }

  /**
   * The declared tables and views; {@code mayExist} false when the account's table list shows
   * there is no catalog (no request is made then).
   */
  public static Contents contents(Session session, boolean mayExist) {
    if (!session.settings().getBoolean(DriverProperty.CATALOG)) {
      return Contents.EMPTY;
    }
    if (!mayExist) {
      // remembered, so that writes looking for indexes (ofPhysicalTable) ask no more; only if
      // this JVM has no entry yet: after its own DDL, forget leaves one that must be read again
      CACHE.asMap().putIfAbsent(session.settings().cacheKey(), new Entry(Contents.EMPTY, expiry(session)));
      return Contents.EMPTY;
    }
    return cached(session);
  }

  /**
   * What the catalog holds now, read again whatever the cache holds and whatever the connection's
   * {@code catalog} property: DDL decides on it (another JVM may have changed it since).
   */
  public static Contents fresh(Session session) {
    Contents contents = read(session);
    CACHE.put(session.settings().cacheKey(), new Entry(contents, expiry(session)));
    return contents;
  }

  private static Contents cached(Session session) {
    String key = session.settings().cacheKey();
    long now = System.nanoTime();
    Entry entry = CACHE.getIfPresent(key);
    if (entry == null || now - entry.expiresAtNanos() > 0) {
      entry = new Entry(read(session), expiry(session));
      CACHE.put(key, entry);
    }
    return entry.contents();
  }

  private static long expiry(Session session) {
    return System.nanoTime() + Duration.ofSeconds(session.settings().getInt(DriverProperty.SCHEMA_TTL)).toNanos();
  }

  /**
   * The declared table of a SQL name as last read (schemas read the catalog when they load), or
   * null; makes no request.
   */
  public static TableDefinition known(Session session, String name) {
    Entry entry = CACHE.getIfPresent(session.settings().cacheKey());
    return entry == null || !session.settings().getBoolean(DriverProperty.CATALOG) ? null
        : entry.contents().tables().get(name.toLowerCase(Locale.ROOT));
  }

  private static Contents read(Session session) {
    Map<String, TableDefinition> tables = new LinkedHashMap<>();
    Map<String, ViewDefinition> views = new LinkedHashMap<>();
    try {
      Iterator<List<TableEntity>> pages = session.store().query(TABLE, null, null, 1000, new RequestCounters());
      while (pages.hasNext()) {
        for (TableEntity entity : pages.next()) {
          if (TABLE_KIND.equals(entity.getPartitionKey())) {
            TableDefinition definition = parse(entity, TableDefinition::fromJson);
            tables.put(definition.name().toLowerCase(Locale.ROOT), definition);
          } else if (VIEW_KIND.equals(entity.getPartitionKey())) {
            ViewDefinition definition = parse(entity, ViewDefinition::fromJson);
            views.put(definition.name().toLowerCase(Locale.ROOT), definition);
          }
        }
      }
    } catch (StoreException e) {
      // no catalog yet, or a SAS that may not read it: nothing declared
      if (!SqlStates.TABLE_NOT_FOUND.equals(e.sqlState()) && !SqlStates.INSUFFICIENT_PRIVILEGE.equals(e.sqlState())) {
        throw e;
      }
    }
    return new Contents(Map.copyOf(tables), Map.copyOf(views));
  }

  private static <T> T parse(TableEntity entity, java.util.function.Function<String, T> reader) {
    try {
      return reader.apply((String) entity.getProperty("Definition"));
    } catch (IllegalArgumentException e) {
      throw new StoreException("The definition of " + entity.getPartitionKey() + " " + entity.getProperty("Name")
          + " in " + TABLE + " cannot be read: " + e.getMessage() + ".", SqlStates.DATA_EXCEPTION, e);
    }
  }

  /** Records a new declared table; fails with 23505 if the catalog holds one of that name. */
  public static void add(Session session, TableDefinition definition) {
    write(session, TABLE_KIND, definition.name(), definition.format(), definition.toJson(), WriteOperation.Kind.INSERT,
        null, "CREATE TABLE " + definition.name());
  }

  /**
   * Changes a declared table's definition as it is now in the account (read again, then replaced
   * on the condition that nobody changed it in between; tried again if somebody did).
   *
   * @param change the new definition of the one read; null leaves it unchanged
   * @return the definition written, or null if the table is not declared
   */
  public static TableDefinition update(Session session, String name, UnaryOperator<TableDefinition> change) {
    RequestCounters counters = new RequestCounters();
    for (int attempt = 0; ; attempt++) {
      Optional<TableEntity> read = session.store().get(TABLE, TABLE_KIND, rowKey(name), null, counters);
      if (read.isEmpty()) {
        return null;
      }
      TableDefinition changed = change.apply(parse(read.get(), TableDefinition::fromJson));
      if (changed == null) {
        return null;
      }
      try {
        write(session, TABLE_KIND, changed.name(), changed.format(), changed.toJson(), WriteOperation.Kind.REPLACE,
            read.get().getETag(), "ALTER TABLE " + name);
        return changed;
      } catch (StoreException e) {
        if (!SqlStates.SERIALIZATION_FAILURE.equals(e.sqlState()) || attempt == 4) {
          throw e;
        }
      }
    }
  }

  /**
   * The declared table whose entities an Azure table holds, or null: what writes consult to keep
   * its indexes, whatever the connection's {@code catalog} property and whenever DDL last made
   * this JVM forget the catalog (read again then, and after the schema TTL).
   */
  public static TableDefinition ofPhysicalTable(Session session, String physicalTable) {
    for (TableDefinition definition : cached(session).tables().values()) {
      if (definition.physicalTable().equalsIgnoreCase(physicalTable) && !definition.layout().isMapped()) {
        return definition;
      }
    }
    return null;
  }

  /** Removes a declared table's definition. */
  public static void remove(Session session, TableDefinition definition) {
    write(session, TABLE_KIND, definition.name(), 0, null, WriteOperation.Kind.DELETE, null,
        "DROP TABLE " + definition.name());
  }

  /** Records a view, replacing one of the same name if {@code replace}; else fails with 23505 if one exists. */
  public static void add(Session session, ViewDefinition definition, boolean replace) {
    write(session, VIEW_KIND, definition.name(), ViewDefinition.FORMAT, definition.toJson(),
        replace ? WriteOperation.Kind.UPSERT_REPLACE : WriteOperation.Kind.INSERT, null,
        "CREATE VIEW " + definition.name());
  }

  /** Removes a view's definition. */
  public static void remove(Session session, ViewDefinition definition) {
    write(session, VIEW_KIND, definition.name(), 0, null, WriteOperation.Kind.DELETE, null,
        "DROP VIEW " + definition.name());
  }

  private static void write(Session session, String kind, String name, int format, String json,
      WriteOperation.Kind operation, String etag, String origin) {
    RequestCounters counters = new RequestCounters();
    if (operation != WriteOperation.Kind.DELETE) {
      session.store().createTable(TABLE, counters);
    }
    Map<String, Object> properties = json == null ? Map.of()
        : Map.of("Name", name, "Format", format, "Definition", json);
    session.store().submit(TABLE, List.of(new WriteOperation(TABLE, kind, rowKey(name), operation, properties, etag,
        origin)), counters);
    forget(session);
  }

  /**
   * Forgets the cached definitions of this account and credential: the next use reads them. An
   * expired entry rather than none, so that a connection's older table list, which showed no
   * catalog, cannot take its place ({@link #contents}).
   */
  public static void forget(Session session) {
    CACHE.put(session.settings().cacheKey(), new Entry(Contents.EMPTY, System.nanoTime() - 1));
  }

  private static String rowKey(String name) {
    return KeyEncoding.encode(List.of(KeyEncoding.Component.ascending(KeyEncoding.KeyType.VARCHAR)),
        List.of(name.toLowerCase(Locale.ROOT)));
  }
}
