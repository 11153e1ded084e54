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
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

/**
 * The declared tables and views of an account, kept in the account itself (table {@value #TABLE})
 * so that every connection, JVM and tool sees the same definitions: one entity per table or view,
 * PartitionKey its kind ({@code table}, {@code view}), RowKey the SQL name in lower case
 * (key-encoded), the definition as JSON (format 1, or 2 for a table with indexes: see
 * {@link TableDefinition#FORMAT}).
 *
 * <p>Names that differ only in case (two quoted names, {@code "AbC"} and {@code "abc"}) share
 * that RowKey: the first keeps it, each other table is kept under the key of both its lower-case
 * and its exact name (which the shared key is a prefix of), in format 3, which drivers matching
 * names ignoring case refuse. Two rules keep one entity per exact name under concurrent DDL
 * (docs/architecture/front-end.md, "Names"): a name goes under its own key only in one entity group
 * transaction with a conditional update of the shared key's entity, so it fails if that entity
 * changed or went; and the shared key's entity is never deleted while a table of its own key
 * exists: dropping the shared key's table moves one of them there. Definitions are cached
 * per account and credential for the schema TTL; DDL in this JVM forgets them at once. With
 * driver property {@code catalog=false} a connection sees none of them.
 */
public final class Catalog {
  /** The catalog table; hidden from the schema, and DROP TABLE refuses it. */
  public static final String TABLE = "TablesqlCatalog";
  private static final String TABLE_KIND = "table";
  private static final String VIEW_KIND = "view";
  private static final Cache<String, Entry> CACHE = Caffeine.newBuilder().maximumSize(1_000).build();

  /** What the catalog holds, by exact SQL name. */
  public record Contents(Map<String, TableDefinition> tables, Map<String, ViewDefinition> views) {
    static final Contents EMPTY = new Contents(Map.of(), Map.of());

    /** The declared table a name denotes ({@link NameMatch}), or null. */
    public TableDefinition table(String name, boolean quoted) {
      String found = NameMatch.find(tables.keySet(), name, quoted);
      return found == null ? null : tables.get(found);
    }

    /** The view a name denotes ({@link NameMatch}), or null. */
    public ViewDefinition view(String name, boolean quoted) {
      String found = NameMatch.find(views.keySet(), name, quoted);
      return found == null ? null : views.get(found);
    }
  }

  /**
   * @param seen the Azure tables (lower case) of the lists this catalog was checked against
   *             ({@link #forTables}); empty until the first
   */
  private record Entry(Contents contents, long expiresAtNanos, Set<String> seen) {
    Entry(Contents contents, long expiresAtNanos) {
      this(contents, expiresAtNanos, ConcurrentHashMap.newKeySet());
    }
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
   * The catalog for a schema of these Azure tables, as {@link #contents}; if they were just
   * listed and hold one that the lists the cached catalog was checked against did not (a table
   * created since: maybe a declared table of another JVM or endpoint, which would otherwise pass
   * for a raw table until the cache expires), the catalog is read again first.
   */
  public static Contents forTables(Session session, List<String> names, boolean listed) {
    boolean mayExist = !listed || names.stream().anyMatch(Catalog::isCatalogTable);
    Contents contents = contents(session, mayExist);
    Entry entry = CACHE.getIfPresent(session.settings().cacheKey());
    if (!listed || entry == null || !session.settings().getBoolean(DriverProperty.CATALOG)) {
      return contents;
    }
    Set<String> listedNow = new HashSet<>();
    names.forEach(name -> listedNow.add(name.toLowerCase(Locale.ROOT)));
    if (!entry.seen().isEmpty() && !entry.seen().containsAll(listedNow)) {
      contents = mayExist ? fresh(session) : contents;
      entry = CACHE.getIfPresent(session.settings().cacheKey());
    }
    if (entry != null) {
      entry.seen().addAll(listedNow);
    }
    return contents;
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

  /**
   * The declared tables over a physical table as the catalog holds them now, read by their keys
   * (one request for each, usually one) instead of the whole catalog, and put into the cache; the
   * whole catalog is read again when one of them is gone. What a write asks before it changes
   * rows whose summaries may be being built.
   */
  public static void freshTablesOver(Session session, String physicalTable) {
    Contents contents = cached(session);
    Map<String, TableDefinition> tables = new LinkedHashMap<>(contents.tables());
    RequestCounters counters = new RequestCounters();
    for (TableDefinition known : contents.tables().values()) {
      if (!known.physicalTable().equalsIgnoreCase(physicalTable)) {
        continue;
      }
      TableEntity entity = locate(session, known.name(), counters);
      if (entity == null) {
        fresh(session); // dropped or renamed meanwhile
        return;
      }
      TableDefinition definition = parse(entity, TableDefinition::fromJson);
      if (!definition.layout().isMapped()) {
        io.tablesql.store.RowParts.register(session.settings().tableEndpoint(), definition.physicalTable(),
            definition.rowParts());
      }
      tables.put(known.name(), definition);
    }
    // the other definitions were not read again: they keep their expiry
    Entry entry = CACHE.getIfPresent(session.settings().cacheKey());
    CACHE.put(session.settings().cacheKey(), entry != null
        ? new Entry(new Contents(Map.copyOf(tables), contents.views()), entry.expiresAtNanos(), entry.seen())
        : new Entry(new Contents(Map.copyOf(tables), contents.views()), expiry(session)));
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
    if (entry == null || !session.settings().getBoolean(DriverProperty.CATALOG)) {
      return null;
    }
    try {
      return entry.contents().table(name, false);
    } catch (StoreException ambiguous) {
      return null; // the statement's validation names the tables
    }
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
            tables.putIfAbsent(definition.name(), definition); // the shared key first, should a name be twice
          } else if (VIEW_KIND.equals(entity.getPartitionKey())) {
            ViewDefinition definition = parse(entity, ViewDefinition::fromJson);
            views.put(definition.name(), definition);
          }
        }
      }
    } catch (StoreException e) {
      // no catalog yet, or a SAS that may not read it: nothing declared
      if (!SqlStates.TABLE_NOT_FOUND.equals(e.sqlState()) && !SqlStates.INSUFFICIENT_PRIVILEGE.equals(e.sqlState())) {
        throw e;
      }
      // the store keeps what connections that read the catalog learned of the account's wide tables
      return new Contents(Map.copyOf(tables), Map.copyOf(views));
    }
    Map<String, io.tablesql.store.RowParts> wide = new java.util.HashMap<>();
    tables.values().forEach(table -> {
      if (!table.layout().isMapped() && table.rowParts() != null) {
        wide.put(table.physicalTable().toLowerCase(Locale.ROOT), table.rowParts());
      }
    });
    io.tablesql.store.RowParts.registerAll(session.settings().tableEndpoint(), wide);
    return new Contents(Map.copyOf(tables), Map.copyOf(views));
  }

  private static <T> T parse(TableEntity entity, java.util.function.Function<String, T> reader) {
    try {
      return reader.apply(definitionText(entity));
    } catch (IllegalArgumentException e) {
      throw new StoreException("The definition of " + entity.getPartitionKey() + " " + entity.getProperty("Name")
          + " in " + TABLE + " cannot be read: " + e.getMessage() + ".", SqlStates.DATA_EXCEPTION, e);
    }
  }

  /**
   * Records a new declared table under the shared key of its name, or, when a table of another
   * case holds that, under its own key; fails with 42S01 if the catalog holds one of exactly that
   * name.
   */
  public static void add(Session session, TableDefinition definition) {
    String name = definition.name();
    String origin = "CREATE TABLE " + name;
    RequestCounters counters = new RequestCounters();
    session.store().createTable(TABLE, counters);
    for (int attempt = 0; ; attempt++) {
      if (entityOf(session, ownKey(name), name, counters) != null) {
        throw exists(name);
      }
      try {
        session.store().submit(TABLE, List.of(operation(TABLE_KIND, sharedKey(name), WriteOperation.Kind.INSERT,
            definition, definition.format(), null, origin)), counters);
        break;
      } catch (StoreException e) {
        if (!SqlStates.UNIQUE_VIOLATION.equals(e.sqlState())) {
          throw e;
        }
      }
      Optional<TableEntity> holder = session.store().get(TABLE, TABLE_KIND, sharedKey(name), null, counters);
      if (holder.isPresent() && name.equals(holder.get().getProperty("Name"))) {
        throw exists(name);
      }
      if (holder.isPresent()) {
        try {
          // under its own key, while the shared key's entity stays as read (touched, so a concurrent change fails)
          session.store().submit(TABLE, List.of(
              operation(TABLE_KIND, ownKey(name), WriteOperation.Kind.INSERT, definition,
                  Math.max(TableDefinition.FORMAT_OF_CASE_VARIANT, definition.format()), null, origin),
              new WriteOperation(TABLE, TABLE_KIND, sharedKey(name), WriteOperation.Kind.MERGE,
                  Map.of("Name", holder.get().getProperty("Name")), holder.get().getETag(), origin)), counters);
          break;
        } catch (StoreException e) {
          if (!CONCURRENT_CHANGE.contains(e.sqlState())) {
            throw e;
          }
        }
      }
      if (attempt == 4) {
        throw new StoreException("The catalog entry of table " + name + " could not be written: other DDL on names "
            + "equal to it ignoring case kept changing it. Try again.", SqlStates.SERIALIZATION_FAILURE, null);
      }
    }
    forget(session);
  }

  /** What a catalog write that lost a race to other DDL fails with. */
  private static final List<String> CONCURRENT_CHANGE = List.of(SqlStates.UNIQUE_VIOLATION,
      SqlStates.SERIALIZATION_FAILURE);

  private static StoreException exists(String name) {
    return ObjectErrors.exists("Table", name, "CREATE TABLE");
  }

  /** The entity under {@code rowKey} if it holds the table named exactly {@code name}, else null. */
  private static TableEntity entityOf(Session session, String rowKey, String name, RequestCounters counters) {
    Optional<TableEntity> entity = session.store().get(TABLE, TABLE_KIND, rowKey, null, counters);
    return entity.isPresent() && name.equals(entity.get().getProperty("Name")) ? entity.get() : null;
  }

  /** The catalog entity of the table named exactly {@code name}: under the shared key or its own; null if none. */
  private static TableEntity locate(Session session, String name, RequestCounters counters) {
    TableEntity shared = entityOf(session, sharedKey(name), name, counters);
    return shared != null ? shared : entityOf(session, ownKey(name), name, counters);
  }

  private static WriteOperation operation(String kind, String rowKey, WriteOperation.Kind operation,
      TableDefinition definition, int format, String etag, String origin) {
    return new WriteOperation(TABLE, kind, rowKey, operation,
        definitionProperties(definition.name(), format, definition.toJson(format)), etag, origin);
  }

  private static final com.fasterxml.jackson.databind.ObjectMapper JSON =
      new com.fasterxml.jackson.databind.ObjectMapper();
  /** Characters of a definition's JSON in one property: the service keeps at most 32,768 in one. */
  private static final int DEFINITION_PART = 30_000;

  /**
   * A definition's properties: its JSON in {@code Definition}, or, when longer than one property
   * holds (a wide table's columns), in {@code Definition1}, {@code Definition2} ... with {@code
   * Definition} naming how many, in catalog format {@link TableDefinition#FORMAT_WITH_ROW_PARTS}
   * at least, which drivers that cannot join them refuse.
   */
  static Map<String, Object> definitionProperties(String name, int format, String json) {
    Map<String, Object> properties = new java.util.HashMap<>();
    properties.put("Name", name);
    properties.put("Format", format);
    if (json.length() <= DEFINITION_PART) {
      properties.put("Definition", json);
      return properties;
    }
    int parts = (json.length() + DEFINITION_PART - 1) / DEFINITION_PART;
    com.fasterxml.jackson.databind.node.ObjectNode head = JSON.createObjectNode();
    head.put("format", Math.max(format, TableDefinition.FORMAT_WITH_ROW_PARTS));
    head.put("keyEncoding", io.tablesql.keys.KeyEncoding.VERSION);
    head.put("name", name);
    head.put("definitionParts", parts);
    properties.put("Definition", head.toString());
    for (int part = 1; part <= parts; part++) {
      properties.put("Definition" + part, json.substring((part - 1) * DEFINITION_PART,
          Math.min(json.length(), part * DEFINITION_PART)));
    }
    return properties;
  }

  /** A catalog entity's definition JSON, joined from its parts when it has them. */
  private static String definitionText(TableEntity entity) {
    String text = (String) entity.getProperty("Definition");
    if (text == null || !text.contains("\"definitionParts\"")) {
      return text;
    }
    try {
      com.fasterxml.jackson.databind.JsonNode head = JSON.readTree(text);
      if (!head.has("definitionParts")) {
        return text; // a definition naming it deeper (a column's name), not a head
      }
      int parts = head.path("definitionParts").asInt();
      StringBuilder joined = new StringBuilder();
      for (int part = 1; part <= parts; part++) {
        Object piece = entity.getProperty("Definition" + part);
        if (!(piece instanceof String string)) {
          throw new IllegalArgumentException("part " + part + " of " + parts + " is missing");
        }
        joined.append(string);
      }
      return joined.toString();
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
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
      TableEntity read = locate(session, name, counters);
      if (read == null) {
        return null;
      }
      TableDefinition changed = change.apply(parse(read, TableDefinition::fromJson));
      if (changed == null) {
        return null;
      }
      boolean shared = read.getRowKey().equals(sharedKey(name));
      try {
        session.store().submit(TABLE, List.of(operation(TABLE_KIND, read.getRowKey(), WriteOperation.Kind.REPLACE,
            changed, shared ? changed.format() : Math.max(TableDefinition.FORMAT_OF_CASE_VARIANT, changed.format()),
            read.getETag(),
            "ALTER TABLE " + name)), counters);
        forget(session);
        return changed;
      } catch (StoreException e) {
        if (!CONCURRENT_CHANGE.contains(e.sqlState()) || attempt == 4) {
          throw e;
        }
      }
    }
  }

  /**
   * The declared table whose entities an Azure table holds, or null: what writes consult to keep
   * its indexes, whatever the connection's {@code catalog} property and whenever DDL last made
   * this JVM forget the catalog (read again then, and after the schema TTL). Of the tables mapped
   * over an existing Azure table, the one with indexes (adopted ones) or materialized views (CREATE
   * INDEX and CREATE MATERIALIZED VIEW allow one).
   */
  public static TableDefinition ofPhysicalTable(Session session, String physicalTable) {
    TableDefinition mapped = null;
    for (TableDefinition definition : cached(session).tables().values()) {
      if (definition.physicalTable().equalsIgnoreCase(physicalTable)) {
        if (!definition.layout().isMapped()) {
          return definition;
        }
        if (!definition.indexes().isEmpty() || !definition.materializedViews().isEmpty()) {
          mapped = definition;
        }
      }
    }
    return mapped;
  }

  /**
   * Removes a declared table's definition. Under the shared key while tables of names equal to
   * it ignoring case are kept under their own keys, one of those moves to the shared key instead
   * (in the same entity group transaction), so the shared key never goes while they exist.
   */
  public static void remove(Session session, TableDefinition definition) {
    String name = definition.name();
    String origin = "DROP TABLE " + name;
    RequestCounters counters = new RequestCounters();
    for (int attempt = 0; ; attempt++) {
      TableEntity read = locate(session, name, counters);
      if (read == null) {
        break;
      }
      List<WriteOperation> operations = new ArrayList<>();
      TableEntity moved = read.getRowKey().equals(sharedKey(name)) ? firstOwnKeyed(session, name, counters) : null;
      if (moved == null) {
        operations.add(new WriteOperation(TABLE, TABLE_KIND, read.getRowKey(), WriteOperation.Kind.DELETE, Map.of(),
            read.getETag(), origin));
      } else {
        TableDefinition other = parse(moved, TableDefinition::fromJson);
        operations.add(new WriteOperation(TABLE, TABLE_KIND, moved.getRowKey(), WriteOperation.Kind.DELETE, Map.of(),
            moved.getETag(), origin));
        operations.add(operation(TABLE_KIND, read.getRowKey(), WriteOperation.Kind.REPLACE, other, other.format(),
            read.getETag(), origin));
      }
      try {
        session.store().submit(TABLE, operations, counters);
        break;
      } catch (StoreException e) {
        if (!CONCURRENT_CHANGE.contains(e.sqlState()) || attempt == 4) {
          throw e;
        }
      }
    }
    forget(session);
  }

  /** A table kept under its own key whose name equals {@code name} ignoring case, or null. */
  private static TableEntity firstOwnKeyed(Session session, String name, RequestCounters counters) {
    String shared = sharedKey(name);
    Iterator<List<TableEntity>> pages = session.store().query(TABLE, "PartitionKey eq '" + TABLE_KIND + "'", null,
        1000, counters);
    while (pages.hasNext()) {
      for (TableEntity entity : pages.next()) {
        if (entity.getRowKey().startsWith(shared) && !entity.getRowKey().equals(shared)) {
          return entity;
        }
      }
    }
    return null;
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
        : definitionProperties(name, format, json);
    session.store().submit(TABLE, List.of(new WriteOperation(TABLE, kind, sharedKey(name), operation, properties, etag,
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

  /** The key of every name equal to {@code name} ignoring case: its lower-case form (format 1 and 2). */
  private static String sharedKey(String name) {
    return KeyEncoding.encode(List.of(KeyEncoding.Component.ascending(KeyEncoding.KeyType.VARCHAR)),
        List.of(name.toLowerCase(Locale.ROOT)));
  }

  /** The key of exactly {@code name}: its lower-case form and itself, which the shared key is a prefix of. */
  private static String ownKey(String name) {
    KeyEncoding.Component text = KeyEncoding.Component.ascending(KeyEncoding.KeyType.VARCHAR);
    return KeyEncoding.encode(List.of(text, text), List.of(name.toLowerCase(Locale.ROOT), name));
  }
}
