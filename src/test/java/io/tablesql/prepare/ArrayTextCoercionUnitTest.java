package io.tablesql.prepare;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ArrayTextCoercionUnitTest {
  @Test
  void readsTheTextFormOfOneDimensionalArrays() {
    assertThat(ArrayTextCoercion.elements("{0}")).containsExactly("0");
    assertThat(ArrayTextCoercion.elements(" { 1 , 2 } ")).containsExactly("1", "2");
    assertThat(ArrayTextCoercion.elements("{}")).isEmpty();
    assertThat(ArrayTextCoercion.elements("{\"a b\",NULL,\"NULL\",c\\,d}"))
        .containsExactlyElementsOf(Arrays.asList("a b", null, "NULL", "c,d"));
    assertThat(ArrayTextCoercion.elements("{\"x\\\"y\"}")).containsExactly("x\"y");
  }

  @Test
  void textThatIsNoArrayIsNone() {
    assertThat(ArrayTextCoercion.elements("0")).isNull();
    assertThat(ArrayTextCoercion.elements("{{1},{2}}")).isNull();
    assertThat(ArrayTextCoercion.elements("{\"open}")).isNull();
  }

  @Test
  void readsABooleansTextAsPostgresqlDoes() {
    for (String yes : new String[] {"t", "TRUE", " tr ", "y", "yes", "on", "1"}) {
      assertThat(ArrayTextCoercion.booleanText(yes)).as(yes).isTrue();
    }
    for (String no : new String[] {"f", "false", "n", "NO", "off", "of", "0"}) {
      assertThat(ArrayTextCoercion.booleanText(no)).as(no).isFalse();
    }
    for (String neither : new String[] {"", "o", "x", "2", "truex"}) {
      assertThat(ArrayTextCoercion.booleanText(neither)).as(neither).isNull();
    }
  }
}
