package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablesql.testing.FaultyProxy;
import io.tablesql.testing.FaultyProxy.Fault;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import org.junit.jupiter.api.AfterAll;

/**
 * The query oracle corpus through the faulty proxy: pages ended early (every other one empty),
 * throttled requests, connections reset mid-answer, and the service's own limits enforced. The
 * answers must not change.
 */
class FaultyOracleTest extends OracleTest {
  private FaultyProxy proxy;

  @Override
  Connection connectPushed() throws Exception {
    proxy = new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port());
    Connection connection = FaultTest.connectThrough(proxy, "maxRetries=5");
    proxy.endPagesEarly(50, true);
    proxy.inject(Fault.BUSY, FaultyProxy.everyNth(60), Integer.MAX_VALUE);
    proxy.inject(Fault.RESET, FaultyProxy.everyNth(83), Integer.MAX_VALUE);
    return connection;
  }

  @Override
  int corpusSize() {
    return 90; // every query pays for its faults' retries: the hand-written ones and a random share
  }

  @AfterAll
  void faultsWereInjected() {
    assertThat(proxy.faults()).isGreaterThan(20);
    proxy.close();
  }
}
