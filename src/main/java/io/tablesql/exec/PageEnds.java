package io.tablesql.exec;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.tablesql.session.Session;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.NavigableSet;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Where scans of a table saw its pages end: the PartitionKey of the first entity of each page
 * after the first (where the service continued), per account, credentials and physical table,
 * shared by the JVM's connections. A later scan splits at them (see {@link KeyRangeSplitter})
 * with no request. A page holds up to a page size of entities, so the keys are spread about
 * evenly by rows, where a sample's are spread over the key space only; a declared or mapped
 * table has no sample, so its first scan in a JVM reads one chain and records them. Kept ten
 * minutes from the first scan, so a table that shrank is read as one chain again soon. They are
 * a hint only: any strings split a scan correctly (the ranges are disjoint and cover it), so keys
 * deleted since change only how even the ranges are.
 */
public final class PageEnds {
  /** Keys kept per table at most: beyond it every other one is dropped, which keeps them spread. */
  static final int MAX_KEYS = 1024;
  private static final Cache<String, Seen> SEEN = Caffeine.newBuilder().maximumSize(10_000)
      .expireAfterWrite(Duration.ofMinutes(10)).build();

  /**
   * A table's page ends, and the most entities one scan read across pages, counted as its pages
   * times its page size: the keys of several scans (split ones begin their pages at their
   * ranges, another page size begins them elsewhere) add up, so their number says how the table
   * can be cut, not how many pages it has.
   */
  private record Seen(NavigableSet<String> keys, AtomicLong entitiesSpanned) {
    Seen() {
      this(new ConcurrentSkipListSet<>(), new AtomicLong());
    }
  }

  private PageEnds() {
  }

  /**
   * Records the page ends of one scan of {@code table} in pages of {@code pageSize}; a scan of
   * one page records nothing, and keeps no entry.
   */
  static Consumer<String> recorder(Session session, String table, int pageSize) {
    String key = key(session, table);
    AtomicLong pages = new AtomicLong(1); // this scan's: its first page, then one per page end
    return partitionKey -> {
      Seen seen = SEEN.get(key, k -> new Seen());
      NavigableSet<String> keys = seen.keys();
      keys.add(partitionKey);
      if (keys.size() > MAX_KEYS) {
        synchronized (keys) {
          thin(keys);
        }
      }
      seen.entitiesSpanned().accumulateAndGet(pages.incrementAndGet() * pageSize, Math::max);
    };
  }

  private static void thin(NavigableSet<String> keys) {
    boolean drop = false;
    for (Iterator<String> i = keys.iterator(); i.hasNext() && keys.size() > MAX_KEYS / 2; ) {
      i.next();
      if (drop) {
        i.remove();
      }
      drop = !drop;
    }
  }

  /**
   * Recorded keys strictly inside (lower, upper) (upper null: unbounded), spread evenly by rank, in
   * order, that split it into at least {@code ranges} ranges (fewer where fewer keys are known), and
   * into more where that leaves more than {@code pagesPerRange} pages of {@code pageSize} in a
   * range (the pages estimated from the most one scan spanned, in the share of the keys inside);
   * empty when fewer than two are known there (a range of about two pages or less, read as one chain).
   */
  static List<String> boundaries(Session session, String table, String lower, String upper, int ranges,
      int pagesPerRange, int pageSize) {
    Seen seen = SEEN.getIfPresent(key(session, table));
    if (seen == null) {
      return List.of();
    }
    NavigableSet<String> keys = seen.keys();
    List<String> inside = new ArrayList<>(upper == null ? keys.tailSet(lower, false)
        : lower.compareTo(upper) >= 0 ? List.of() : keys.subSet(lower, false, upper, false));
    if (inside.size() < 2) {
      return List.of();
    }
    double pages = (double) seen.entitiesSpanned().get() / pageSize * inside.size() / Math.max(1, keys.size());
    int wanted = (int) Math.max(ranges, Math.min(inside.size() + 1, Math.ceil(pages / pagesPerRange)));
    if (inside.size() < wanted) {
      return inside;
    }
    // n keys end n + 1 stretches: the i-th range ends after about i * (n + 1) / wanted of them
    List<String> picked = new ArrayList<>();
    for (int i = 1; i < wanted; i++) {
      picked.add(inside.get((int) Math.round((double) i * (inside.size() + 1) / wanted) - 1));
    }
    return picked.stream().distinct().toList();
  }

  /** Forgets a table's page ends (it was dropped or emptied). */
  public static void forget(Session session, String table) {
    SEEN.invalidate(key(session, table));
  }

  private static String key(Session session, String table) {
    return session.settings().cacheKey() + "|" + table.toLowerCase(Locale.ROOT);
  }
}
