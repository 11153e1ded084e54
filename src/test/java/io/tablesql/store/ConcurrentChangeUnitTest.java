package io.tablesql.store;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ConcurrentChangeUnitTest {
  @Test
  void saysWhatWasMetThatNothingWasWrittenAndToRunItAgain() {
    StoreException refused = ConcurrentChange.uniqueValue("ByEmail", "Email 'a@x'", "changed while it was written");
    assertThat(refused.sqlState()).isEqualTo("40001");
    assertThat(refused.getMessage()).isEqualTo("Concurrent change: the value of Email 'a@x' in UNIQUE index ByEmail "
        + "changed while it was written. Nothing was written; run the statement again.");
  }
}
