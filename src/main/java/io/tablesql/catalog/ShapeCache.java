package io.tablesql.catalog;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.tablesql.session.Session;
import io.tablesql.settings.DriverProperty;
import io.tablesql.store.RequestCounters;
import io.tablesql.store.TableStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Inferred table shapes, shared by every connection of the JVM to the same account with the same
 * credentials and sampling settings, each kept for the connection's schema TTL.
 */
public final class ShapeCache {
  private static final Cache<String, Entry> SHAPES = Caffeine.newBuilder().maximumSize(10_000).build();

  private record Entry(TableShape shape, long expiresAtNanos) {
  }

  private ShapeCache() {
  }

  public static TableShape shape(Session session, String table) {
    String key = session.settings().cacheKey() + "|" + table.toLowerCase(Locale.ROOT);
    long now = System.nanoTime();
    Entry entry = SHAPES.getIfPresent(key);
    boolean hit = entry != null && now - entry.expiresAtNanos() <= 0;
    session.store().metrics().schemaCache(hit);
    if (!hit) {
      long ttl = Duration.ofSeconds(session.settings().getInt(DriverProperty.SCHEMA_TTL)).toNanos();
      entry = new Entry(sample(session, table), now + ttl);
      SHAPES.put(key, entry);
    }
    return entry.shape();
  }

  /**
   * Adds columns a statement is about to write that no sampled entity had, so that INSERT can
   * name them; they keep the type of the values written.
   */
  public static void extend(Session session, String table, List<Column> columns) {
    String key = session.settings().cacheKey() + "|" + table.toLowerCase(Locale.ROOT);
    TableShape shape = shape(session, table);
    List<Column> extended = new ArrayList<>(shape.columns());
    for (Column column : columns) {
      if (extended.stream().noneMatch(c -> c.name().equalsIgnoreCase(column.name()))) {
        extended.add(column);
      }
    }
    if (extended.size() == shape.columns().size()) {
      return; // every column is known already
    }
    Entry entry = SHAPES.getIfPresent(key);
    SHAPES.put(key, new Entry(shape.withColumns(extended), entry == null ? System.nanoTime() : entry.expiresAtNanos()));
  }

  /** Forgets what is cached for a table, after a change that alters its shape. */
  public static void invalidate(Session session, String table) {
    SHAPES.invalidate(session.settings().cacheKey() + "|" + table.toLowerCase(Locale.ROOT));
  }

  private static TableShape sample(Session session, String table) {
    int sampleSize = session.settings().getInt(DriverProperty.SAMPLE_SIZE);
    TableStore.Sample sample = session.store().sample(table, sampleSize, new RequestCounters());
    return TableShape.infer(table, DeclaredColumns.read(session, table), sample.entities(), sample.complete(),
        sample.estimatedEntities());
  }
}
