package io.tablesql.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.models.TableEntity;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SpreadSampleUnitTest {
  @Test
  void pointsBetweenTwoKeysAreInKeyOrderAndUseTheKeysAlphabet() {
    List<String> points = SpreadSample.KeySpace.between("entry000499", "entry01", 7,
        List.of("entry000000", "entry000499", "entry001000"));
    assertThat(points).hasSize(7).isSorted().allSatisfy(point -> {
      assertThat(point).startsWith("entry00").isGreaterThan("entry000499").isLessThan("entry01");
      assertThat(point.substring(5)).containsOnlyDigits();
    });
    assertThat(points).anySatisfy(point -> assertThat(point).startsWith("entry005"));
  }

  @Test
  void pointsBetweenNamesSpreadOverTheLetters() {
    List<String> points = SpreadSample.KeySpace.between("Engineering", "Sales", 7, List.of("Engineering", "Sales"));
    assertThat(points).hasSize(7).isSorted()
        .allSatisfy(point -> assertThat(point).isGreaterThan("Engineering").isLessThan("Sales"));
    assertThat(points.get(0).charAt(0)).isLessThan(points.get(6).charAt(0));
  }

  @Test
  void keysDifferFirstWhereOneChangesOrEnds() {
    assertThat(SpreadSample.KeySpace.firstDifference(List.of("store000", "store004"))).isEqualTo(7);
    assertThat(SpreadSample.KeySpace.firstDifference(List.of("ab", "abc"))).isEqualTo(2);
    assertThat(SpreadSample.KeySpace.firstDifference(List.of("same"))).isEqualTo(Integer.MAX_VALUE);
  }

  /** Entities {@code p<from>..p<to>} (three digits), {@code perPartition} each. */
  private static List<TableEntity> partitions(int from, int to, int perPartition) {
    List<TableEntity> entities = new ArrayList<>();
    for (int p = from; p <= to; p++) {
      for (int r = 0; r < perPartition; r++) {
        entities.add(new TableEntity(String.format("p%03d", p), String.format("r%03d", r)));
      }
    }
    return entities;
  }

  /** A table's size from the head's share of the key space the sample found: 3,000 entities in 30 partitions. */
  @Test
  void theTablesSizeIsEstimatedFromTheHeadsShareOfTheKeys() {
    List<TableEntity> head = partitions(0, 7, 100).subList(0, 750); // p000 to the middle of p007
    List<TableEntity> seen = new ArrayList<>(head);
    seen.addAll(partitions(8, 8, 1));
    seen.addAll(partitions(13, 13, 15));
    seen.addAll(partitions(29, 29, 15)); // the farthest key found
    assertThat(SpreadSample.estimate(head, seen)).isBetween(2_500L, 3_500L);
    // within one partition, by its RowKeys: 750 rows read, the farthest r2999 of 3,000
    List<TableEntity> rows = new ArrayList<>();
    for (int r = 0; r < 750; r++) {
      rows.add(new TableEntity("p", String.format("r%04d", r)));
    }
    List<TableEntity> spread = new ArrayList<>(rows);
    spread.add(new TableEntity("p", "r2999"));
    assertThat(SpreadSample.estimate(rows, spread)).isBetween(2_500L, 3_500L);
    // nothing past the head's own last key: nothing to tell
    assertThat(SpreadSample.estimate(rows.subList(0, 1), rows.subList(0, 1))).isEqualTo(-1);
  }
}
