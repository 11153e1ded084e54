package io.tablesql.txn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.tablesql.txn.WriteOperation.Kind;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The service's limits on one entity and on an entity group transaction, as the driver checks
 * them before sending: each rule at its boundary, with the SQLState and a message that names the
 * entity and the rule. (What the service itself answers is in EntityGroupRulesTest.)
 */
class EntityRulesUnitTest {
  private static WriteOperation write(String partitionKey, String rowKey, Map<String, Object> properties) {
    return new WriteOperation("T", partitionKey, rowKey, Kind.INSERT, properties, null, "row 1");
  }

  private static SQLException refused(WriteOperation operation) {
    return catchThrowableOfType(SQLException.class, () -> EntityRules.validate(operation));
  }

  @Test
  void keysRefuseTheServicesCharactersAndMoreThanOneKibibyte() {
    for (String key : List.of("a/b", "a\\b", "a#b", "a?b", "a\u0001b", "a\u007fb")) {
      SQLException error = refused(write(key, "r", Map.of()));
      assertThat((Throwable) error).as(key).isNotNull();
      assertThat(error.getSQLState()).isEqualTo("22000");
      assertThat(error.getMessage()).contains("PartitionKey contains").contains("(PartitionKey '" + key);
    }
    assertThatCode(() -> EntityRules.validate(write("é~ !'%*", "x".repeat(1024), Map.of()))).doesNotThrowAnyException();
    assertThat(refused(write("p", "x".repeat(1025), Map.of())).getMessage()).contains("RowKey is longer than 1 KiB");
    // the limit counts UTF-8 bytes: 512 two-byte characters fill it
    assertThat(refused(write("é".repeat(513), "r", Map.of())).getMessage()).contains("longer than 1 KiB");
    assertThat(refused(write(null, "r", Map.of())).getMessage()).contains("PartitionKey is NULL");
  }

  @Test
  void valuesStayWithinTheServicesSizesAndDates() {
    assertThatCode(() -> EntityRules.validate(write("p", "r", Map.of("S", "x".repeat(32_768),
        "B", new byte[65_536])))).doesNotThrowAnyException();
    assertThat(refused(write("p", "r", Map.of("S", "x".repeat(32_769)))).getMessage())
        .contains("property S is a string of 32769 characters");
    assertThat(refused(write("p", "r", Map.of("B", new byte[65_537]))).getMessage())
        .contains("property B holds 65537 bytes");
    assertThat(refused(write("p", "r", Map.of("D", OffsetDateTime.parse("1600-12-31T23:59:59Z")))).getMessage())
        .contains("between 1601-01-01 and 9999-12-31");
    assertThatCode(() -> EntityRules.validate(write("p", "r", Map.of("D", OffsetDateTime.parse("1601-01-01T00:00:00Z")))))
        .doesNotThrowAnyException();
  }

  @Test
  void anEntityHoldsAtMost252PropertiesAndOneMebibyte() {
    Map<String, Object> properties = new HashMap<>();
    for (int i = 0; i < 252; i++) {
      properties.put("P" + i, i);
    }
    assertThatCode(() -> EntityRules.validate(write("p", "r", properties))).doesNotThrowAnyException();
    properties.put("Null", null); // a NULL is not stored, so it does not count
    assertThatCode(() -> EntityRules.validate(write("p", "r", properties))).doesNotThrowAnyException();
    properties.put("P252", 252);
    assertThat(refused(write("p", "r", properties)).getMessage()).contains("it has 253 properties");

    Map<String, Object> large = new HashMap<>();
    for (int i = 0; i < 17; i++) {
      large.put("B" + i, new byte[65_536]);
    }
    assertThat(refused(write("p", "r", large)).getMessage()).contains("an entity holds at most 1 MiB");
  }

  @Test
  void aDeleteIsCheckedForItsKeysOnly() {
    WriteOperation delete = new WriteOperation("T", "p", "r", Kind.DELETE, Map.of("S", "x".repeat(40_000)), "*", null);
    assertThatCode(() -> EntityRules.validate(delete)).doesNotThrowAnyException();
  }

  @Test
  void aGroupIsOneTableOnePartitionEachEntityOnceAtMost100Operations() {
    List<WriteOperation> hundred = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      hundred.add(write("p", "r" + i, Map.of("N", i)));
    }
    assertThatCode(() -> EntityRules.checkGroup(hundred)).doesNotThrowAnyException();

    List<WriteOperation> more = new ArrayList<>(hundred);
    more.add(write("p", "r100", Map.of()));
    assertGroupRefused(more, "at most 100 operations");
    assertGroupRefused(List.of(write("p", "a", Map.of()), write("q", "b", Map.of())), "one partition only");
    assertGroupRefused(List.of(write("p", "a", Map.of()),
        new WriteOperation("U", "p", "b", Kind.INSERT, Map.of(), null, null)), "one table only");
    assertGroupRefused(List.of(write("p", "a", Map.of()), write("p", "a", Map.of())), "each entity once");
    // table names compare as the service does, ignoring case
    assertThatCode(() -> EntityRules.checkGroup(List.of(write("p", "a", Map.of()),
        new WriteOperation("t", "p", "b", Kind.INSERT, Map.of(), null, null)))).doesNotThrowAnyException();
  }

  @Test
  void aGroupsRequestHoldsAtMostFourMebibytes() {
    List<WriteOperation> group = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      // 15 binary values of 64 KiB: about 1.3 MB each as base64
      Map<String, Object> properties = new HashMap<>();
      for (int j = 0; j < 15; j++) {
        properties.put("B" + j, new byte[65_536]);
      }
      group.add(write("p", "r" + i, properties));
    }
    assertThatCode(() -> EntityRules.checkGroup(group.subList(0, 3))).doesNotThrowAnyException();
    assertGroupRefused(group, "at most 4 MiB");
  }

  private static void assertGroupRefused(List<WriteOperation> group, String rule) {
    SQLException error = catchThrowableOfType(SQLException.class, () -> EntityRules.checkGroup(group));
    assertThat((Throwable) error).as(rule).isNotNull();
    assertThat(error.getSQLState()).isEqualTo("25000");
    assertThat(error.getMessage()).contains(rule);
  }
}
