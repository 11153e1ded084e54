package io.tablesql.jdbc;

import io.tablesql.store.RequestCounters;
import io.tablesql.store.TableStore;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Whether the service answers one cheap request within a time limit: Connection.isValid. */
final class ServiceProbe {
  private ServiceProbe() {
  }

  /** {@code timeoutSeconds} bounds the whole probe, retries included; 0 leaves it to the request timeout. */
  static boolean answers(TableStore store, int timeoutSeconds) {
    FutureTask<Void> probe = new FutureTask<>(() -> {
      store.probe(new RequestCounters());
      return null;
    });
    try {
      if (timeoutSeconds == 0) {
        probe.run();
        probe.get();
        return true;
      }
      // The SDK's own timeouts bound each attempt, not the attempts and back-offs together.
      Thread thread = new Thread(probe, "tablesql-isValid");
      thread.setDaemon(true);
      thread.start();
      probe.get(timeoutSeconds, TimeUnit.SECONDS);
      return true;
    } catch (TimeoutException e) {
      probe.cancel(true);
      return false;
    } catch (ExecutionException e) {
      return false;
    } catch (InterruptedException e) {
      probe.cancel(true);
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
