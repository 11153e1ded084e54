package io.tablesql.exec;

import com.azure.data.tables.models.TableEntity;
import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.tablesql.session.Session;
import io.tablesql.settings.ConnectionSettings;
import io.tablesql.settings.DriverProperty;
import io.tablesql.store.RequestCounters;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Small, rarely changing tables (the design guide's lookup data, such as departments) read once
 * and kept whole, shared by every connection of the JVM with the same settings and credentials
 * (a connection never sees rows its own credentials could not read), bounded by
 * entities and by a TTL. A table larger than the bound is never cached, so never truncated.
 */
public final class LookupCache {
  /** One Caffeine cache per (bound, TTL) setting; entries keyed by principal and table. */
  private static final Map<String, Cache<String, List<TableEntity>>> CACHES = new ConcurrentHashMap<>();

  private LookupCache() {
  }

  /**
   * Whether the statement being planned reads this table from the cache: lookup tables do, except
   * in an UPDATE or DELETE, whose writes are conditional on the ETags they read fresh. Planning
   * runs within the statement's prepare or execute call ({@link Session#during}).
   */
  public static boolean serves(Session session, String table) {
    return session.settings().lookupTables().contains(table.toLowerCase(Locale.ROOT))
        && !session.executing().kind().readsBeforeWriting();
  }

  /**
   * The whole table, in the service's order, from the cache or read now; null if it holds more
   * entities than the cache may keep (the caller reads it normally).
   */
  static List<TableEntity> entities(Session session, String table, RequestCounters counters) {
    Cache<String, List<TableEntity>> cache = cache(session.settings());
    String key = key(session.settings(), table);
    List<TableEntity> cached = cache.getIfPresent(key);
    session.store().metrics().lookupCache(cached != null);
    if (cached != null) {
      return cached;
    }
    int bound = session.settings().getInt(DriverProperty.LOOKUP_CACHE_MAX_ENTITIES);
    List<TableEntity> entities = new ArrayList<>();
    Iterator<List<TableEntity>> pages = session.store().query(table, null, null, 1000, counters, "TABLE SCAN");
    while (pages.hasNext()) {
      entities.addAll(pages.next());
      if (entities.size() > bound) {
        return null;
      }
    }
    List<TableEntity> loaded = List.copyOf(entities);
    cache.put(key, loaded);
    return loaded;
  }

  /** Forgets a table, after a write or DDL through tablesql, or on demand. */
  public static void invalidate(Session session, String table) {
    cache(session.settings()).invalidate(key(session.settings(), table));
  }

  private static Cache<String, List<TableEntity>> cache(ConnectionSettings settings) {
    long bound = settings.getInt(DriverProperty.LOOKUP_CACHE_MAX_ENTITIES);
    long ttl = settings.getInt(DriverProperty.LOOKUP_CACHE_TTL);
    return CACHES.computeIfAbsent(bound + "/" + ttl, k -> Caffeine.newBuilder()
        .maximumWeight(bound)
        .<String, List<TableEntity>>weigher((name, entities) -> Math.max(1, entities.size()))
        .expireAfterWrite(Duration.ofSeconds(ttl))
        .build());
  }

  private static String key(ConnectionSettings settings, String table) {
    return settings.principal() + "|" + table.toLowerCase(Locale.ROOT);
  }
}
