package io.tablesql.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.OffsetDateTime;
import org.junit.jupiter.api.Test;

/** The Timestamp an entity version's ETag names, as the service writes ETags. */
class EtagTimestampUnitTest {
  @Test
  void anEtagNamesItsVersionsTimestamp() {
    assertThat(TableStore.timestampOf("W/\"datetime'2024-05-01T10%3A00%3A00.1234567Z'\""))
        .isEqualTo(OffsetDateTime.parse("2024-05-01T10:00:00.1234567Z"));
    // Azurite's answer to an insert lacks the closing quote
    assertThat(TableStore.timestampOf("W/\"datetime'2024-05-01T10%3A00%3A00.123Z'"))
        .isEqualTo(OffsetDateTime.parse("2024-05-01T10:00:00.123Z"));
  }

  @Test
  void anEtagOfAnotherFormNamesNone() {
    assertThat(TableStore.timestampOf(null)).isNull();
    assertThat(TableStore.timestampOf("*")).isNull();
    assertThat(TableStore.timestampOf("W/\"datetime'not a time'\"")).isNull();
    assertThat(TableStore.timestampOf("\"0x8DC1234\"")).isNull();
  }
}
