package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablesql.testing.JarProgram;
import io.tablesql.testing.TestAccount;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A value larger than the heap, written and read through JDBC's streams by an application on the
 * driver jar alone: a JVM of {@code -Xmx256m} writes a 100 MiB BLOB and a text of 40 million
 * characters (setBinaryStream, setCharacterStream of generated streams) and reads both back
 * (getBinaryStream, getCharacterStream), checking every byte and character. It works only if no
 * step holds a value whole.
 */
class LongValueStreamIT {
  @Test
  void aValueLargerThanTheHeapStreamsBothWays() throws Exception {
    String table = "LongStream" + System.nanoTime() % 100_000;
    JarProgram.Outcome outcome = JarProgram.run("LongValueStreamer", List.of("-Xmx256m"),
        List.of(TestAccount.url(), table, String.valueOf(100L << 20), "40000000"), 600);
    assertThat(outcome.output()).as("exit %s", outcome.exitCode()).contains("ok");
    assertThat(outcome.exitCode()).isZero();
  }
}
