package io.tablesql.store;

import static org.assertj.core.api.Assertions.assertThat;

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
}
