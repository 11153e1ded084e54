package io.tablesql.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablesql.store.StoreException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** PostgreSQL's date_trunc on the values as Calcite holds them: milliseconds of a UTC wall clock. */
class PgTimeFunctionsUnitTest {
  private static long at(String wallClock) {
    return LocalDateTime.parse(wallClock).toInstant(ZoneOffset.UTC).toEpochMilli();
  }

  private static String trunc(String unit, String wallClock) {
    return LocalDateTime.ofEpochSecond(Math.floorDiv(PgTimeFunctions.date_trunc(unit, at(wallClock)), 1000), 0,
        ZoneOffset.UTC).toString();
  }

  @Test
  void truncatesToEachUnitAsPostgresqlDoes() {
    String t = "2024-05-17T10:11:12.345";
    assertThat(trunc("second", t)).isEqualTo("2024-05-17T10:11:12");
    assertThat(trunc("minute", t)).isEqualTo("2024-05-17T10:11");
    assertThat(trunc("HOUR", t)).isEqualTo("2024-05-17T10:00");
    assertThat(trunc("day", t)).isEqualTo("2024-05-17T00:00");
    assertThat(trunc("week", t)).isEqualTo("2024-05-13T00:00"); // the Monday of its ISO week
    assertThat(trunc("month", t)).isEqualTo("2024-05-01T00:00");
    assertThat(trunc("quarter", t)).isEqualTo("2024-04-01T00:00");
    assertThat(trunc("year", t)).isEqualTo("2024-01-01T00:00");
    assertThat(trunc("decade", t)).isEqualTo("2020-01-01T00:00");
    assertThat(trunc("century", t)).isEqualTo("2001-01-01T00:00");
    assertThat(trunc("millennium", t)).isEqualTo("2001-01-01T00:00");
    assertThat(PgTimeFunctions.date_trunc("milliseconds", at(t))).isEqualTo(at(t));
  }

  @Test
  void timesBeforeTheEpochTruncateDownwards() {
    assertThat(trunc("hour", "1969-12-31T23:59:59.500")).isEqualTo("1969-12-31T23:00");
    assertThat(trunc("day", "1969-12-31T23:59:59.500")).isEqualTo("1969-12-31T00:00");
    assertThat(trunc("week", "1970-01-01T00:00")).isEqualTo("1969-12-29T00:00");
    assertThat(trunc("century", "1900-06-01T00:00")).isEqualTo("1801-01-01T00:00");
  }

  @Test
  void anUnknownUnitIsAnInvalidParameter() {
    assertThatThrownBy(() -> PgTimeFunctions.date_trunc("fortnight", 0)).isInstanceOfSatisfying(
        StoreException.class, e -> assertThat(e.sqlState()).isEqualTo("22023"));
  }
}
