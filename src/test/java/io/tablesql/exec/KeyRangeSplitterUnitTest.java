package io.tablesql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The boundaries of a split scan, probed over key sets held in memory (a probe is "the first key
 * at or after x", as the service answers it): always inside the scan, ordered and distinct, and
 * spread well enough over common key designs that no range holds most of the keys.
 */
class KeyRangeSplitterUnitTest {
  private int probes;

  private Function<List<String>, List<String>> probeOf(TreeSet<String> keys) {
    return points -> {
      List<String> found = new ArrayList<>();
      for (String point : points) {
        probes++;
        found.add(keys.ceiling(point));
      }
      return found;
    };
  }

  /** The largest share of keys any range holds. */
  private static double largestShare(TreeSet<String> keys, List<String> boundaries) {
    int largest = 0;
    String from = null;
    for (int i = 0; i <= boundaries.size(); i++) {
      String to = i < boundaries.size() ? boundaries.get(i) : null;
      int size = (from == null ? (to == null ? keys : keys.headSet(to)) : to == null ? keys.tailSet(from)
          : keys.subSet(from, to)).size();
      largest = Math.max(largest, size);
      from = to;
    }
    return (double) largest / keys.size();
  }

  private List<String> split(TreeSet<String> keys, int ranges) {
    List<String> boundaries = KeyRangeSplitter.boundaries("", null, ranges, probeOf(keys));
    assertThat(boundaries).isSorted().doesNotHaveDuplicates().hasSizeLessThan(ranges);
    assertThat(keys).containsAll(boundaries);
    assertThat(boundaries).doesNotContain(keys.first());
    return boundaries;
  }

  @Test
  void theSamplesKeysSplitWithoutProbes() {
    List<String> sampled = List.of("p00", "p05", "p10", "p15", "p20", "p25", "p30", "p35", "p40", "p45");
    // the sampled keys and one an average gap past the last (p50), picked evenly
    assertThat(KeyRangeSplitter.sampledBoundaries(sampled, "", null, 4)).containsExactly("p15", "p30", "p40");
    assertThat(KeyRangeSplitter.sampledBoundaries(sampled, "p10", null, 4)).containsExactly("p25", "p35", "p45");
    // fewer keys than ranges: the widest gaps between them are halved
    List<String> halved = KeyRangeSplitter.sampledBoundaries(List.of("p00", "p01", "p10", "p12", "p25", "p37"), "",
        null, 8);
    assertThat(halved).hasSize(7).isSorted().doesNotHaveDuplicates().contains("p01", "p10", "p12", "p25", "p37");
    assertThat(halved.get(6)).isGreaterThan("p37"); // past the last key sampled
    assertThat(halved.get(3)).isBetween("p13", "p25").isNotEqualTo("p25"); // the widest gap, p12 to p25, halved
    // fewer than two keys inside the range (the lower bound starts the first range): probed instead
    assertThat(KeyRangeSplitter.sampledBoundaries(sampled, "p40", null, 4)).isEmpty();
    assertThat(KeyRangeSplitter.sampledBoundaries(sampled, "p10", "p15", 4)).isEmpty();
  }

  @Test
  void numberedPartitionsAreSpread() {
    TreeSet<String> keys = new TreeSet<>();
    for (int p = 0; p < 50; p++) {
      keys.add(String.format("p%02d", p));
    }
    List<String> boundaries = split(keys, 8);
    assertThat(boundaries).hasSizeGreaterThanOrEqualTo(5);
    assertThat(largestShare(keys, boundaries)).isLessThanOrEqualTo(0.4);
    assertThat(probes).isLessThanOrEqualTo(KeyRangeSplitter.ROUNDS * 16 + 16);
  }

  @Test
  void guidsAndWordsAreSpread() {
    TreeSet<String> guids = new TreeSet<>();
    Random random = new Random(3);
    for (int i = 0; i < 5000; i++) {
      guids.add(new UUID(random.nextLong(), random.nextLong()).toString());
    }
    List<String> boundaries = split(guids, 8);
    assertThat(boundaries).hasSize(7);
    assertThat(largestShare(guids, boundaries)).isLessThanOrEqualTo(0.4);
    TreeSet<String> tenants = new TreeSet<>();
    for (int i = 0; i < 2000; i++) {
      tenants.add("tenant-" + (char) ('a' + random.nextInt(26)) + (char) ('a' + random.nextInt(26)) + i);
    }
    boundaries = split(tenants, 8);
    assertThat(largestShare(tenants, boundaries)).isLessThanOrEqualTo(0.5);
  }

  @Test
  void unicodeKeysAndBoundsAreRespected() {
    TreeSet<String> keys = new TreeSet<>(List.of("p0", "p1", "p2", "p3", "Q'x", "ü-part", "日本", "p 7", "😀x"));
    List<String> boundaries = split(keys, 8);
    assertThat(boundaries).hasSizeGreaterThanOrEqualTo(4);
    List<String> inside = KeyRangeSplitter.boundaries("p1", "p3", 4, probeOf(keys));
    assertThat(inside).allMatch(key -> key.compareTo("p1") > 0 && key.compareTo("p3") < 0);
    assertThat(KeyRangeSplitter.boundaries("", null, 4, probeOf(new TreeSet<>()))).isEmpty();
    assertThat(KeyRangeSplitter.boundaries("", null, 4, probeOf(new TreeSet<>(List.of("only"))))).isEmpty();
  }
}
