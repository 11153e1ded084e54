package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablesql.testing.FaultyProxy;
import io.tablesql.testing.FaultyProxy.Fault;
import io.tablesql.testing.FaultyProxy.Request;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import org.junit.jupiter.api.AfterEach;

/**
 * The write oracle through the faulty proxy: scans with pages ended early, throttled requests,
 * and writes applied whose answers are lost. The tables must end up the same, and every count
 * must be the oracle's.
 */
class FaultyWriteOracleTest extends WriteOracleTest {
  private FaultyProxy proxy;

  @Override
  Connection connectPushed() throws Exception {
    proxy = new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port());
    Connection connection = FaultTest.connectThrough(proxy, "maxRetries=5");
    proxy.endPagesEarly(40, true);
    java.util.function.Predicate<Request> everyFourthBatch = FaultyProxy.everyNth(4);
    proxy.inject(Fault.LOSE_ANSWER, request -> request.isBatch() && everyFourthBatch.test(request), Integer.MAX_VALUE);
    proxy.inject(Fault.BUSY, FaultyProxy.everyNth(25), Integer.MAX_VALUE);
    return connection;
  }

  @AfterEach
  void faultsWereInjected() {
    assertThat(proxy.faults()).isGreaterThan(10);
    proxy.close();
  }
}
