package io.tablesql.exec;

import io.tablesql.catalog.Column;
import io.tablesql.query.AccessPath;
import io.tablesql.query.Operand;
import io.tablesql.query.ServiceFilter.Comparison;
import io.tablesql.query.ServiceFilter;
import io.tablesql.query.TableQuery;
import io.tablesql.session.Session;
import io.tablesql.settings.DriverProperty;
import io.tablesql.store.EdmType;
import io.tablesql.store.Parallel;
import io.tablesql.store.RequestCounters;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Splits a large scan into PartitionKey ranges that are read concurrently and concatenated in
 * range order, so rows still come in key order (the service serves different key ranges from
 * different servers; one chain of continuation pages is read one request at a time).
 *
 * <p>Where the boundaries come from: first the PartitionKeys of the table's sample, which is
 * spread over its key space ({@code SpreadSample}), with the widest gaps between them halved
 * where it saw fewer than the ranges asked for. Where earlier scans saw the table's pages end
 * ({@link PageEnds}), those keys come first: they are spread by rows, the sample only over the key
 * space; a table without a sample (declared or mapped) has only them. Neither costs a request. Where
 * neither gives a boundary in the scanned range, {@code auto} reads one chain and a number of
 * ranges has the key space probed. A probe is one {@code $top=1} request with
 * {@code $select=PartitionKey} and {@code PartitionKey ge 'x'}: the service seeks to the first
 * key at or after x. Points are spread evenly over the part of the key space not yet ruled out,
 * reading keys as fractions whose digits are the characters of a small alphabet: a fixed
 * skeleton spanning ASCII and the Unicode blocks, plus every character of the keys found so far
 * (so {@code p00..p49} is refined along the digits its keys use, not the 65,536 code units).
 * Each round's probes run concurrently; a probe that finds nothing ends the key space there,
 * and the next round refines between consecutive keys found. After a few rounds the boundaries
 * are picked evenly among the keys found. Boundaries are real keys, so no range is empty
 * except by a concurrent delete; a poor spread only makes ranges uneven, never rows wrong,
 * since the ranges are disjoint and cover the whole scan.
 */
public final class KeyRangeSplitter {
  /**
   * Pages each range of a split scan reads ahead of the reader (the ranges share a budget of this
   * many per range read at once, see {@link PrefetchingConcatenation}).
   */
  static final int PAGES_AHEAD = 3;
  /** Probe rounds at most: each costs one round trip of concurrent probes. */
  static final int ROUNDS = 4;
  private static final String SKELETON = "-02468AEIMQUYaeimquy\u00c0\u0400\u3000\uac00";
  private static final int MAX_ALPHABET = 200;

  private KeyRangeSplitter() {
  }

  /** The ranges a scan is split into as planned (EXPLAIN shows it when above 1); 1: not split. */
  public static int plannedRanges(TableQuery query) {
    boolean splittable = (query.path() == AccessPath.TABLE_SCAN || query.path() == AccessPath.RANGE_SCAN)
        && !query.fixesPartition() && query.keys().isEmpty() && query.partitions().isEmpty()
        && ServiceFilter.SequentialRanges.split(query.filter()) == null // read range after range instead
        && (query.filter() == null ? 0 : query.filter().comparisons()) + 2 <= ServiceFilter.MAX_COMPARISONS;
    if (!splittable) {
      return 1;
    }
    Session session = query.table().session();
    java.util.OptionalInt given = session.settings().wholeOrAuto(DriverProperty.SCAN_SPLITS);
    if (given.isPresent()) {
      return Math.max(1, given.getAsInt());
    }
    // auto: only scans expected to be large (a table larger than its sample, more than one page;
    // a table without a sample where earlier scans saw pages end) and without a row limit (a
    // LIMIT ? is usually small, and one chain reads no more than needed).
    int pageSize = session.settings().getInt(DriverProperty.PAGE_SIZE);
    boolean large = !sampled(query) || !query.shape().completeSample() && query.estimatedRows() > pageSize;
    // ranges read ahead while the reader is on an earlier one: in a small heap (64 MiB) that
    // costs more in garbage collection than it gains, and one chain streams faster
    int ranges = Math.max(1, session.maxConcurrency());
    boolean roomToReadAhead = PrefetchingConcatenation.heapPages() >= 2 * ranges;
    if (!large || query.limit() != null || !roomToReadAhead) {
      return 1;
    }
    // no range smaller than about a page: a whole table's scan gets as many ranges as the pages its
    // sample expects (a table of 3,000 entities, in pages of 1,000, three), never more than are read at once
    long expected = query.shape().estimatedEntities();
    if (sampled(query) && expected > 0 && query.partitionKeyComparisons().isEmpty()) {
      ranges = (int) Math.min(ranges, (expected + pageSize - 1) / pageSize);
      if (ranges < 2) {
        return 1;
      }
    }
    // literal bounds in which the sample saw too few keys (or no page end is known): one chain,
    // and EXPLAIN says so
    boolean literalBounds = query.partitionKeyComparisons().stream().noneMatch(bound -> bound.value().isParameter());
    return literalBounds ? plannedBoundaries(query, ranges).size() + 1 : ranges;
  }

  /** {@code scanSplits=auto}: split large scans where the sample or earlier scans' page ends give the boundaries. */
  private static boolean automatic(Session session) {
    return session.settings().wholeOrAuto(DriverProperty.SCAN_SPLITS).isEmpty();
  }

  /**
   * The $filter of each range, in key order: the query's filter and the range's bounds; or null
   * when the scan should not be split (fewer than two ranges found). {@code probe} returns, for
   * each point, the first PartitionKey at or after it, or null.
   */
  static List<String> rangeFilters(TableQuery query, int ranges, Function<Operand, Object> values,
      Function<List<String>, List<String>> probe) {
    String[] scanned = scannedRange(query, values);
    if (scanned == null) {
      return null; // a NULL bound matches nothing; nothing to split
    }
    String lower = scanned[0];
    String upper = scanned[1];
    List<String> boundaries = knownBoundaries(query, lower, upper, ranges);
    if (boundaries.isEmpty() && !automatic(query.table().session())) { // auto splits on what it knows only
      boundaries = boundaries(lower, upper, ranges, probe);
    }
    if (boundaries.isEmpty()) {
      return null;
    }
    List<String> filters = new ArrayList<>();
    for (int i = 0; i <= boundaries.size(); i++) {
      List<ServiceFilter> parts = new ArrayList<>();
      if (i > 0) {
        parts.add(bound(ServiceFilter.Op.GE, boundaries.get(i - 1)));
      }
      if (i < boundaries.size()) {
        parts.add(bound(ServiceFilter.Op.LT, boundaries.get(i)));
      }
      if (query.filter() != null) {
        parts.add(query.filter());
      }
      filters.add(new ServiceFilter.And(parts).render(values));
    }
    return filters;
  }

  /**
   * The boundaries a split of the scan takes from earlier scans' page ends or the table's sample
   * ({@link #knownBoundaries}), as EXPLAIN shows them; empty when they are known at execution only
   * (a bound is a parameter, or neither gives two keys in the range, which a number of ranges
   * probes for and auto reads as one chain).
   */
  public static List<String> plannedBoundaries(TableQuery query, int ranges) {
    if (query.partitionKeyComparisons().stream().anyMatch(bound -> bound.value().isParameter())) {
      return List.of();
    }
    String[] scanned = scannedRange(query, operand -> operand.literal());
    return scanned == null ? List.of() : knownBoundaries(query, scanned[0], scanned[1], ranges);
  }

  /**
   * Boundaries the driver knows without a request: where earlier scans saw the table's pages end,
   * which are spread by rows (so the ranges are even); else, for a sampled table, its sample's
   * keys, which are spread over the key space only.
   *
   * <p>With {@code auto}, a scan that returns every entity of its PartitionKey range (no other
   * condition for the service, so its pages are those the earlier scans saw) is cut into ranges of
   * at most {@link #PAGES_AHEAD} pages where the page ends allow, more ranges than are read at once:
   * the ranges are consumed in key order, and a range is one chain of pages, so with few long ranges
   * the scan would go on at one page per round trip once the read-ahead budget is full; short ones
   * keep {@code maxConcurrency} chains going over the whole scan.
   */
  private static List<String> knownBoundaries(TableQuery query, String lower, String upper, int ranges) {
    Session session = query.table().session();
    boolean everyEntity = query.filter() == null
        || query.filter().comparisons() == query.partitionKeyComparisons().size();
    int pagesPerRange = automatic(session) && everyEntity ? PAGES_AHEAD : Integer.MAX_VALUE;
    List<String> pageEnds = PageEnds.boundaries(session, query.table().name(), lower, upper, ranges, pagesPerRange,
        session.settings().getInt(DriverProperty.PAGE_SIZE));
    return !pageEnds.isEmpty() || !sampled(query) ? pageEnds
        : sampledBoundaries(query.shape().sampledPartitionKeys(), lower, upper, ranges);
  }

  /** A table whose shape comes from a sample (not declared, not mapped). */
  static boolean sampled(TableQuery query) {
    return query.table().definition() == null;
  }

  /** The scan's PartitionKey range: {lower, upper} (upper null: unbounded); null when a bound is NULL. */
  private static String[] scannedRange(TableQuery query, Function<Operand, Object> values) {
    String lower = "";
    String upper = null;
    for (Comparison bound : query.partitionKeyComparisons()) {
      Object value = values.apply(bound.value());
      if (!(value instanceof String key)) {
        return null;
      }
      switch (bound.op()) {
        case GE, GT -> lower = key.compareTo(lower) > 0 ? key : lower;
        case LT -> upper = upper == null || key.compareTo(upper) < 0 ? key : upper;
        case LE -> {
          String after = key + '\u0000'; // the smallest string above key: used in comparisons only
          upper = upper == null || after.compareTo(upper) < 0 ? after : upper;
        }
        default -> { }
      }
    }
    return new String[] {lower, upper};
  }

  /**
   * Up to {@code ranges - 1} boundaries inside (lower, upper) from the PartitionKeys the table's
   * sample saw, which is spread over its key space, and one an average gap past the last: no
   * request. When that makes fewer keys than ranges, the widest gaps between them (read as
   * numbers, see {@link KeySpace}) are halved until there are enough. Empty when it saw fewer than two keys there: the key space is probed instead.
   * Keys deleted since the sample still split correctly: any strings do, only the ranges' sizes
   * depend on them.
   */
  static List<String> sampledBoundaries(List<String> sampled, String lower, String upper, int ranges) {
    List<String> inside = sampled.stream()
        .filter(key -> key.compareTo(lower) > 0 && (upper == null || key.compareTo(upper) < 0)).toList();
    if (inside.size() < 2) {
      return List.of();
    }
    TreeSet<String> keys = new TreeSet<>(inside);
    KeySpace space = new KeySpace(inside, lower, upper);
    // keys go on past the last one sampled (the table is larger than its sample): one more
    // boundary, an average gap further, so that the last range is not the whole tail
    long first = space.toNumber(inside.get(0));
    long last = space.toNumber(inside.get(inside.size() - 1));
    String beyond = space.toKey(last + (last - first) / (inside.size() - 1));
    if (beyond.compareTo(inside.get(inside.size() - 1)) > 0 && (upper == null || beyond.compareTo(upper) < 0)) {
      keys.add(beyond);
    }
    while (keys.size() < ranges) {
      String from = null;
      String to = null;
      long widest = 1;
      String previous = null;
      for (String key : keys) {
        if (previous != null && space.toNumber(key) - space.toNumber(previous) > widest) {
          widest = space.toNumber(key) - space.toNumber(previous);
          from = previous;
          to = key;
        }
        previous = key;
      }
      List<String> middle = from == null ? List.of() : space.between(from, to, 1);
      if (middle.isEmpty()) {
        break; // no gap left to halve
      }
      keys.add(middle.get(0));
    }
    return pickEvenly(new ArrayList<>(keys), ranges);
  }

  /** Up to {@code ranges - 1} PartitionKeys that split a whole Azure table into ranges of similar size. */
  public static List<String> partitionKeyBoundaries(Session session, String table, int ranges) {
    RequestCounters requests = new RequestCounters();
    return boundaries("", null, ranges, points -> Parallel.map(points, session.maxConcurrency(),
        point -> QueryRunner.firstKeyFrom(session.store(), table, point, requests, "KEY RANGES")));
  }

  private static ServiceFilter bound(ServiceFilter.Op op, String key) {
    return new Comparison(Column.PARTITION_KEY, op, EdmType.STRING, Operand.literal(key), false);
  }

  /**
   * Up to {@code ranges - 1} boundaries inside [lower, upper) (upper null: unbounded), each a
   * key found by probing, in order; empty when the keys found allow no split.
   */
  static List<String> boundaries(String lower, String upper, int ranges, Function<List<String>, List<String>> probe) {
    int perRound = 2 * ranges;
    TreeSet<String> found = new TreeSet<>();
    TreeSet<String> probed = new TreeSet<>();
    String end = upper;
    List<String> points = new ArrayList<>();
    points.add(lower);
    points.addAll(new KeySpace(found, lower, end).between(lower, end, perRound - 1));
    for (int round = 0; round < ROUNDS && !points.isEmpty(); round++) {
      probed.addAll(points);
      List<String> keys = probe.apply(points);
      for (int i = 0; i < points.size(); i++) {
        String key = keys.get(i);
        if (key == null || end != null && key.compareTo(end) >= 0) {
          // no key at or after this point within the scan: the key space ends before it
          end = end == null || points.get(i).compareTo(end) < 0 ? points.get(i) : end;
        } else if (key.compareTo(lower) >= 0) {
          found.add(key);
        }
      }
      if (found.size() >= 2 * ranges || round == ROUNDS - 1 || found.isEmpty()) {
        break;
      }
      // refine between consecutive keys found, and after the last one up to the end
      KeySpace space = new KeySpace(found, lower, end);
      List<String> starts = new ArrayList<>(found);
      int per = Math.max(1, perRound / starts.size());
      points = new ArrayList<>();
      // keys often share a long prefix (tenant-..., 2024-05-...): the successors of the first and the
      // last key found at each length find where their prefixes end, which spread points seldom hit
      for (String key : List.of(found.first(), found.last())) {
        for (String point : space.successors(key, end)) {
          if (probed.add(point)) {
            points.add(point);
          }
        }
      }
      for (int i = 0; i < starts.size(); i++) {
        String to = i + 1 < starts.size() ? starts.get(i + 1) : end;
        for (String point : space.between(starts.get(i), to, per)) {
          if (probed.add(point)) {
            points.add(point);
          }
        }
      }
    }
    return pickEvenly(new ArrayList<>(found), ranges);
  }

  /** {@code ranges - 1} of the keys after the first, spread evenly by their rank among those found. */
  private static List<String> pickEvenly(List<String> keys, int ranges) {
    List<String> picked = new ArrayList<>();
    if (keys.size() < 2) {
      return picked;
    }
    if (keys.size() <= ranges) {
      return new ArrayList<>(keys.subList(1, keys.size()));
    }
    for (int i = 1; i < ranges; i++) {
      picked.add(keys.get((int) Math.round((double) i * keys.size() / ranges)));
    }
    return picked;
  }

  /**
   * Strings read as fractions over an alphabet (digit 0: the string has ended; digit d: the
   * d-th character of the alphabet, or any character from it up to the next), to spread points
   * between two strings.
   */
  static final class KeySpace {
    private final char[] alphabet;
    private final int depth;
    private final long base;
    private final long top;

    KeySpace(Iterable<String> keys, String lower, String upper) {
      TreeSet<Character> chars = new TreeSet<>();
      for (char c : SKELETON.toCharArray()) {
        chars.add(c);
      }
      List<String> all = new ArrayList<>();
      keys.forEach(all::add);
      all.add(lower);
      if (upper != null) {
        all.add(upper);
      }
      for (String key : all) {
        for (int i = 0; i < Math.min(key.length(), 12) && chars.size() < MAX_ALPHABET; i++) {
          char c = key.charAt(i);
          // a digit or letter seen stands for its whole class: keys that use some digits use the others
          char[] range = c >= '0' && c <= '9' ? new char[] {'0', '9'} : c >= 'A' && c <= 'Z' ? new char[] {'A', 'Z'}
              : c >= 'a' && c <= 'z' ? new char[] {'a', 'z'} : new char[] {c, c};
          for (char member = range[0]; member <= range[1]; member++) {
            if (member >= 0x20 && (member < 0x7f || member > 0x9f) && !Character.isSurrogate(member)) {
              chars.add(member);
            }
          }
        }
      }
      this.alphabet = new char[chars.size()];
      int i = 0;
      for (char c : chars) {
        alphabet[i++] = c;
      }
      this.base = alphabet.length + 1L;
      int d = 0;
      long span = 1;
      while (d < 8 && span <= Long.MAX_VALUE / base / 1024) { // room to multiply by a point count
        span *= base;
        d++;
      }
      this.depth = d;
      this.top = span;
    }

    long toNumber(String key) {
      long n = 0;
      for (int i = 0; i < depth; i++) {
        n = n * base + (i < key.length() ? digit(key.charAt(i)) : 0);
      }
      return n;
    }

    private int digit(char c) {
      int low = 0;
      int high = alphabet.length - 1;
      int found = 0; // below the alphabet: counts as its first character
      while (low <= high) {
        int mid = (low + high) >>> 1;
        if (alphabet[mid] <= c) {
          found = mid;
          low = mid + 1;
        } else {
          high = mid - 1;
        }
      }
      return found + 1;
    }

    String toKey(long n) {
      int[] digits = new int[depth];
      for (int i = depth - 1; i >= 0; i--) {
        digits[i] = (int) (n % base);
        n /= base;
      }
      int length = depth;
      while (length > 0 && digits[length - 1] == 0) {
        length--;
      }
      StringBuilder key = new StringBuilder();
      for (int i = 0; i < length; i++) {
        key.append(alphabet[Math.max(1, digits[i]) - 1]);
      }
      return key.toString();
    }

    /** For each prefix of {@code key} (up to 12 characters), the prefix with its last character raised by one in the alphabet. */
    List<String> successors(String key, String end) {
      List<String> points = new ArrayList<>();
      for (int length = 1; length <= Math.min(key.length(), 12); length++) {
        int next = digit(key.charAt(length - 1)); // the index of the next character in the alphabet
        if (next < alphabet.length) {
          String point = key.substring(0, length - 1) + alphabet[next];
          if (point.compareTo(key) > 0 && (end == null || point.compareTo(end) < 0)) {
            points.add(point);
          }
        }
      }
      return points;
    }

    /** Up to {@code count} distinct strings strictly between from and to (null: the end), evenly spread. */
    List<String> between(String from, String to, int count) {
      long a = toNumber(from);
      long b = to == null ? top : toNumber(to);
      TreeSet<String> points = new TreeSet<>();
      for (int k = 1; k <= count && b > a; k++) {
        String point = toKey(a + (b - a) / (count + 1) * k + (b - a) % (count + 1) * k / (count + 1));
        if (point.compareTo(from) > 0 && (to == null || point.compareTo(to) < 0)) {
          points.add(point);
        }
      }
      return new ArrayList<>(points);
    }
  }
}
