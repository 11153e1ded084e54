package io.tablesql.store;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What one statement cost at the service: HTTP requests sent (retries included) and entities
 * received. Updated concurrently by parallel lookups and scans.
 */
public final class RequestCounters {
  private final AtomicLong requests = new AtomicLong();
  private final AtomicLong entities = new AtomicLong();

  public void addRequest() {
    requests.incrementAndGet();
  }

  public void addEntities(long count) {
    entities.addAndGet(count);
  }

  public long requests() {
    return requests.get();
  }

  public long entities() {
    return entities.get();
  }

  @Override
  public String toString() {
    return requests() + " requests, " + entities() + " entities";
  }
}
