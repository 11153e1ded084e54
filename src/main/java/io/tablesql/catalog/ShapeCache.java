package io.tablesql.catalog;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.tablesql.session.Session;
import io.tablesql.settings.DriverProperty;
import io.tablesql.store.EdmType;
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

  /** The table's shape if one is cached and fresh, without sampling; null otherwise. */
  public static TableShape cached(Session session, String table) {
    Entry entry = SHAPES.getIfPresent(session.settings().cacheKey() + "|" + table.toLowerCase(Locale.ROOT));
    return entry != null && System.nanoTime() - entry.expiresAtNanos() <= 0 ? entry.shape() : null;
  }

  /**
   * The shape a first statement that reads one entity by its key may take instead of sampling:
   * the table's declared columns and the entity's own properties, read concurrently (two
   * requests instead of a sample's dozens). Only for {@code columns} it types exactly as any
   * sample holding that entity would: keys, Timestamp, declared columns, and properties the
   * entity holds as text (a column of text and anything else is VARCHAR, and reads each value as
   * text). Null when the entity is absent or a column is none of those; it is never cached, so
   * the next statement samples as usual.
   */
  public static TableShape provisional(Session session, String table, String partitionKey, String rowKey,
      List<String> columns) {
    RequestCounters counters = new RequestCounters();
    java.util.concurrent.CompletableFuture<List<Column>> declared =
        io.tablesql.store.Parallel.start(() -> DeclaredColumns.read(session, table));
    java.util.Optional<com.azure.data.tables.models.TableEntity> entity =
        session.store().get(table, partitionKey, rowKey, null, counters, "FIRST LOOKUP");
    List<Column> declaredColumns = declared.join();
    if (entity.isEmpty()) {
      return null;
    }
    TableShape shape = TableShape.infer(table, declaredColumns, List.of(entity.get()), false, -1);
    for (String name : columns) {
      Column column = shape.columns().stream().filter(c -> c.name().equals(name)).findFirst().orElse(null);
      boolean exact = column != null && (column.isKey() || column.name().equals(Column.TIMESTAMP)
          || declaredColumns.contains(column) || column.edmTypes().equals(java.util.Set.of(EdmType.STRING)));
      if (!exact) {
        return null;
      }
    }
    return shape;
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
