package io.tablesql.store;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What one statement cost at the service: HTTP requests sent (retries included) and entities
 * received. Updated concurrently by parallel lookups and scans. Counters made by
 * {@link #stoppable()} add to these and can stop the requests that carry them.
 */
public final class RequestCounters {
  private final AtomicLong requests = new AtomicLong();
  private final AtomicLong entities = new AtomicLong();
  private final RequestCounters total;
  private volatile boolean stopped;
  /** System.nanoTime() after which no attempt may start (a lease's end less a request's time); 0: none. */
  private volatile long lastStartNanos;

  public RequestCounters() {
    this(null);
  }

  private RequestCounters(RequestCounters total) {
    this.total = total;
  }

  /** Counters adding to these, for requests that may be stopped together (scans started ahead). */
  public RequestCounters stoppable() {
    return new RequestCounters(this);
  }

  /** Makes every later attempt of a request carrying these counters fail before it is sent. */
  public void stop() {
    stopped = true;
  }

  boolean stopped() {
    return stopped;
  }

  /**
   * Makes every attempt of a request carrying these counters that would start after
   * {@code lastStartNanos} (System.nanoTime()) fail before it is sent: a write under an intent's
   * lease must be answered, or have timed out, before the lease may run out.
   */
  public void startNoAttemptAfter(long lastStartNanos) {
    this.lastStartNanos = lastStartNanos;
  }

  boolean pastLastStart() {
    long last = lastStartNanos;
    return last != 0 && System.nanoTime() - last > 0;
  }

  public void addRequest() {
    requests.incrementAndGet();
    if (total != null) {
      total.addRequest();
    }
  }

  public void addEntities(long count) {
    entities.addAndGet(count);
    if (total != null) {
      total.addEntities(count);
    }
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
