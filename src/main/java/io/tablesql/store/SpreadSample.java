package io.tablesql.store;

import com.azure.data.tables.models.TableEntity;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A sample of a table spread over its whole key space, so that an entity type or a property that
 * first appears late in key order is seen. Entities come back in key order only, so a table's
 * first entities are often all of one kind; the keys seen tell where to look further:
 *
 * <ol>
 *   <li>the head: the first three quarters of the budget, read from the start (a table that fits
 *       is read whole, so a small table's sample stays complete, in one request by default);</li>
 *   <li>scouts: one entity each, past the head's last key: the next key, then the first key past
 *       ever larger blocks of keys sharing a prefix with the last one (its last varying character
 *       advanced by one, then the one before...), across partitions and inside the head's last
 *       partition. They find how far the keys reach, whatever their alphabet;</li>
 *   <li>closer scouts: one entity each, at points spread evenly between the farthest key the
 *       scouts found and the first block where they found nothing, so that the end of the keys is
 *       known closely (a first block found empty may lie far past the last key);</li>
 *   <li>pages: the rest of the budget, in equal pages at points spread evenly between the head's
 *       last key and the first point where the scouts found nothing, plus one from the farthest
 *       key found.</li>
 * </ol>
 *
 * <p>Scouts and pages are each sent {@code maxConcurrency} at a time. What it can still miss: a kind
 * of entity living only between two sampled points, in a share of the key space smaller than the
 * gaps between them.
 */
final class SpreadSample {
  /** Below this budget the sample is the table's first entities, as before. */
  static final int SMALLEST_SPREAD = 64;
  /** Scouts per key (PartitionKey, RowKey). */
  private static final int SCOUTS = 8;
  /** Pages per key. */
  private static final int PAGES = 8;
  /** Characters past a common prefix that place a key; later ones rarely matter for spreading. */
  private static final int PLACES = 8;

  private final TableStore store;
  private final String table;
  private final RequestCounters counters;
  private final Map<String, TableEntity> seen = new LinkedHashMap<>();

  private SpreadSample(TableStore store, String table, RequestCounters counters) {
    this.store = store;
    this.table = table;
    this.counters = counters;
  }

  static TableStore.Sample take(TableStore store, String table, int size, RequestCounters counters) {
    if (size < SMALLEST_SPREAD) {
      return store.head(table, size, counters);
    }
    TableStore.Sample head = store.head(table, size - size / 4, counters);
    if (head.complete() || head.entities().isEmpty()) {
      return head;
    }
    SpreadSample sample = new SpreadSample(store, table, counters);
    head.entities().forEach(sample::add);
    sample.spread(size);
    List<TableEntity> entities = new ArrayList<>(sample.seen.values());
    entities.sort(Comparator.comparing(TableEntity::getPartitionKey).thenComparing(TableEntity::getRowKey));
    return new TableStore.Sample(entities, false, estimate(head.entities(), entities));
  }

  /**
   * How many entities the table holds, as the head's share of the key space the sample found
   * tells: the head's entities over the part of the PartitionKeys (or, for a head within one
   * partition with nothing past it, of its RowKeys) from the first key to the head's last, taken
   * against the part up to the farthest key seen. Rough where keys are dense in some places and
   * sparse in others; -1 when the keys seen tell nothing (all in the head's last partition or row).
   */
  static long estimate(List<TableEntity> head, List<TableEntity> seen) {
    TableEntity first = head.get(0);
    TableEntity headLast = head.get(head.size() - 1);
    TableEntity farthest = seen.get(seen.size() - 1);
    double share;
    if (!farthest.getPartitionKey().equals(first.getPartitionKey())) {
      share = KeySpace.share(first.getPartitionKey(), headLast.getPartitionKey(), farthest.getPartitionKey(),
          seen.stream().map(TableEntity::getPartitionKey).distinct().toList());
    } else {
      share = KeySpace.share(first.getRowKey(), headLast.getRowKey(), farthest.getRowKey(),
          seen.stream().map(TableEntity::getRowKey).toList());
    }
    return share > 0 && share <= 1 ? Math.max(seen.size(), Math.round(head.size() / share)) : -1;
  }

  private void spread(int size) {
    List<TableEntity> head = List.copyOf(seen.values());
    TableEntity last = head.get(head.size() - 1);
    String partition = last.getPartitionKey();
    String inPartition = "PartitionKey eq " + literal(partition) + " and ";
    Dimension partitions = new Dimension("PartitionKey", "", partition,
        head.stream().map(TableEntity::getPartitionKey).distinct().toList());
    Dimension rows = new Dimension("RowKey", inPartition, last.getRowKey(),
        head.stream().filter(e -> e.getPartitionKey().equals(partition)).map(TableEntity::getRowKey).toList());

    List<String> scouts = new ArrayList<>(partitions.scouts());
    scouts.addAll(rows.scouts());
    List<TableEntity> found = fetch(scouts);
    int split = partitions.scouts().size();
    partitions.scouted(found.subList(0, split), TableEntity::getPartitionKey);
    rows.scouted(found.subList(split, found.size()), TableEntity::getRowKey);
    found.stream().filter(java.util.Objects::nonNull).forEach(this::add);

    // where the keys end, between the farthest key found and the first block found empty: the
    // pages are spread up to there, so none is spent past the last key
    List<String> closer = new ArrayList<>(partitions.closer());
    int closerSplit = closer.size();
    closer.addAll(rows.closer());
    if (!closer.isEmpty()) {
      List<TableEntity> near = fetch(closer);
      partitions.scouted(near.subList(0, closerSplit), TableEntity::getPartitionKey);
      rows.scouted(near.subList(closerSplit, near.size()), TableEntity::getRowKey);
      near.stream().filter(java.util.Objects::nonNull).forEach(this::add);
    }

    List<String> pages = new ArrayList<>(partitions.pages());
    pages.addAll(rows.pages());
    int budget = size - seen.size();
    if (pages.isEmpty() || budget < pages.size()) {
      return;
    }
    for (TableEntity entity : fetchPages(pages, Math.min(1000, budget / pages.size()))) {
      if (seen.size() < size) {
        add(entity);
      }
    }
  }

  /**
   * One key of the table to spread over: PartitionKeys across the table, or RowKeys inside the
   * head's last partition. Its scouts start past the last key read, at the end of ever larger
   * blocks of keys sharing a prefix with it (the next key, then the next block of ten, of a
   * hundred...), so they find how far the keys reach whatever their alphabet.
   */
  private static final class Dimension {
    private final String property;
    private final String condition;
    private final String last;
    private final List<String> known = new ArrayList<>();
    private final List<String> points = new ArrayList<>();
    private final List<String> scouts = new ArrayList<>();
    private String farthest;
    private String beyond;

    Dimension(String property, String condition, String last, List<String> head) {
      this.property = property;
      this.condition = condition;
      this.last = last;
      known.addAll(head);
      points.add(null); // the next key
      scouts.add(condition + property + " gt " + literal(last));
      int varies = Math.min(KeySpace.firstDifference(head), last.length() - 1);
      for (int place = varies; place >= 0 && points.size() < SCOUTS; place--) {
        char c = last.charAt(place);
        if (c < Character.MAX_VALUE) {
          String point = last.substring(0, place) + (char) (c + 1);
          points.add(point);
          scouts.add(condition + property + " ge " + literal(point) + " and " + property + " gt " + literal(last));
        }
      }
    }

    List<String> scouts() {
      return scouts;
    }

    /**
     * The second round of scouts: points spread evenly between the farthest key found and the
     * first block the scouts found empty, where the keys end; none when that is known already.
     * Each asks for the first key at or past its point, and replaces the scouts' points.
     */
    List<String> closer() {
      if (farthest == null || beyond == null || beyond.compareTo(farthest) <= 0) {
        return List.of();
      }
      points.clear();
      List<String> probes = new ArrayList<>();
      for (String point : KeySpace.between(farthest, beyond, SCOUTS - 1, known)) {
        points.add(point);
        probes.add(condition + property + " ge " + literal(point) + " and " + property + " gt " + literal(last));
      }
      return probes; // a point found empty lowers beyond; one found keys raises farthest
    }

    /** What the scouts found, in their order: the first entity at or past each point, or null for none. */
    void scouted(List<TableEntity> found, java.util.function.Function<TableEntity, String> keyOf) {
      for (int i = 0; i < found.size(); i++) {
        String point = points.get(i);
        if (found.get(i) != null) {
          String key = keyOf.apply(found.get(i));
          known.add(key);
          farthest = max(farthest, key);
        } else if (point != null && (beyond == null || point.compareTo(beyond) < 0)) {
          beyond = point;
        }
      }
    }

    /** Pages spread evenly past the last key, up to where the scouts found none, and one from the farthest key found. */
    List<String> pages() {
      if (farthest == null) {
        return List.of(); // nothing past the head
      }
      String end = beyond != null && beyond.compareTo(farthest) > 0 ? beyond : farthest;
      List<String> pages = new ArrayList<>();
      for (String point : KeySpace.between(last, end, PAGES - 1, known)) {
        pages.add(condition + property + " ge " + literal(point) + " and " + property + " gt " + literal(last));
      }
      pages.add(condition + property + " ge " + literal(farthest));
      return pages;
    }
  }

  private void add(TableEntity entity) {
    seen.putIfAbsent(entity.getPartitionKey() + '\u0000' + entity.getRowKey(), entity);
  }

  /** The first entity of each filter, or null where there is none. */
  private List<TableEntity> fetch(List<String> filters) {
    return Parallel.map(filters, store.maxConcurrency(), filter -> {
      List<TableEntity> page = firstPage(filter, 1);
      return page.isEmpty() ? null : page.get(0);
    });
  }

  private List<TableEntity> fetchPages(List<String> filters, int top) {
    List<TableEntity> all = new ArrayList<>();
    Parallel.map(filters, store.maxConcurrency(), filter -> firstPage(filter, top)).forEach(all::addAll);
    return all;
  }

  /** One request: the service may answer with fewer entities than asked, and that is enough here. */
  private List<TableEntity> firstPage(String filter, int top) {
    Iterator<List<TableEntity>> pages = store.query(table, filter, null, top, counters, "SAMPLE");
    return pages.hasNext() ? pages.next() : List.of();
  }

  private static String max(String a, String b) {
    return a == null || b.compareTo(a) > 0 ? b : a;
  }

  private static String literal(String text) {
    return ODataLiteral.render(EdmType.STRING, text, false);
  }

  /**
   * Keys past a common prefix read as numbers in [0, 1), so that points spread evenly between two
   * keys are spread in key order: each place a digit of the alphabet the known keys use there
   * (widened to whole classes: all digits, all letters of a case), the end of a key a digit
   * below all of them.
   */
  static final class KeySpace {
    private final String prefix;
    private final char[] lowest = new char[PLACES];
    private final char[] highest = new char[PLACES];
    private final int places;

    private KeySpace(String prefix, List<String> known) {
      this.prefix = prefix;
      java.util.Arrays.fill(lowest, Character.MAX_VALUE);
      for (String key : known) {
        for (int i = 0; i < PLACES && prefix.length() + i < key.length(); i++) {
          char c = key.charAt(prefix.length() + i);
          lowest[i] = (char) Math.min(lowest[i], c >= '0' && c <= '9' ? '0' : c >= 'A' && c <= 'Z' ? 'A'
              : c >= 'a' && c <= 'z' ? 'a' : c);
          highest[i] = (char) Math.max(highest[i], c >= '0' && c <= '9' ? '9' : c >= 'A' && c <= 'Z' ? 'Z'
              : c >= 'a' && c <= 'z' ? 'z' : c);
        }
      }
      int seen = 0;
      while (seen < PLACES && lowest[seen] <= highest[seen]) {
        seen++;
      }
      places = Math.max(1, seen); // past the longest known key, nothing tells the alphabet
      if (seen == 0) {
        lowest[0] = '0';
        highest[0] = 'z';
      }
    }

    /** {@code count} keys spread evenly between {@code low} and {@code high}, both excluded. */
    static List<String> between(String low, String high, int count, List<String> known) {
      KeySpace space = spanning(low, high, known);
      double from = space.position(low);
      double to = space.position(high);
      List<String> points = new ArrayList<>();
      for (int i = 1; i <= count; i++) {
        String point = space.key(from + (to - from) * i / (count + 1));
        if (point.compareTo(low) > 0 && point.compareTo(high) < 0
            && (points.isEmpty() || !points.get(points.size() - 1).equals(point))) {
          points.add(point);
        }
      }
      return points;
    }

    /**
     * The share of the key space from {@code first} to {@code end} that lies before {@code middle};
     * 0 where the keys tell none (all equal).
     */
    static double share(String first, String middle, String end, List<String> known) {
      KeySpace space = spanning(first, end, known);
      double from = space.position(first);
      double to = space.position(end);
      return to > from ? (space.position(middle) - from) / (to - from) : 0;
    }

    /** The space of the keys past the common prefix of {@code low} and {@code high}, in the alphabet of the known ones. */
    private static KeySpace spanning(String low, String high, List<String> known) {
      int common = 0;
      while (common < Math.min(low.length(), high.length()) && low.charAt(common) == high.charAt(common)) {
        common++;
      }
      String prefix = high.substring(0, common);
      return new KeySpace(prefix, known.stream().filter(key -> key.startsWith(prefix)).toList());
    }

    /** The first place at which the keys differ (a shorter key differs where it ends). */
    static int firstDifference(List<String> keys) {
      String first = keys.get(0);
      int place = Integer.MAX_VALUE;
      for (String key : keys) {
        int i = 0;
        while (i < Math.min(first.length(), key.length()) && first.charAt(i) == key.charAt(i)) {
          i++;
        }
        if (i < first.length() || i < key.length()) {
          place = Math.min(place, i);
        }
      }
      return place;
    }

    private int base(int place) {
      return highest[place] - lowest[place] + 2;
    }

    double position(String key) {
      double position = 0;
      double scale = 1;
      for (int i = 0; i < places; i++) {
        scale /= base(i);
        int at = prefix.length() + i;
        int digit = at < key.length() ? Math.max(0, Math.min(highest[i], key.charAt(at)) - lowest[i]) + 1 : 0;
        position += digit * scale;
      }
      return position;
    }

    String key(double position) {
      StringBuilder key = new StringBuilder(prefix);
      double rest = position;
      for (int i = 0; i < places; i++) {
        rest *= base(i);
        int digit = (int) Math.min(base(i) - 1, Math.floor(rest));
        rest -= digit;
        if (digit == 0) {
          break; // the end of the key
        }
        key.append((char) (lowest[i] + digit - 1));
      }
      return key.toString();
    }
  }
}
