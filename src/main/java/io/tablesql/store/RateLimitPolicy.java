package io.tablesql.store;

import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpPipelineNextSyncPolicy;
import com.azure.core.http.HttpPipelinePosition;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import io.tablesql.errors.SqlStates;
import io.tablesql.settings.ConnectionSettings;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import reactor.core.publisher.Mono;

/**
 * Spaces the requests to one account evenly so that they never exceed maxRequestsPerSecond,
 * shared by every connection of the JVM to that account with the same credential, so that a bulk
 * load paces itself instead of being throttled by the service. Retries count too: it sits after
 * the retry policy.
 */
final class RateLimitPolicy implements HttpPipelinePolicy {
  private static final Map<String, RateLimitPolicy> BY_ACCOUNT = new ConcurrentHashMap<>();

  private final long intervalNanos;
  private long nextSlotNanos = System.nanoTime();

  private RateLimitPolicy(int requestsPerSecond) {
    this.intervalNanos = Duration.ofSeconds(1).toNanos() / requestsPerSecond;
  }

  /** The limiter of an account and credential (see ConnectionSettings.principal()) at this rate. */
  static RateLimitPolicy of(String principal, int requestsPerSecond) {
    return BY_ACCOUNT.computeIfAbsent(principal + "|" + requestsPerSecond, k -> new RateLimitPolicy(requestsPerSecond));
  }

  @Override
  public Mono<HttpResponse> process(HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
    long wait = reserve();
    return wait <= 0 ? next.process() : Mono.delay(Duration.ofNanos(wait)).then(next.process());
  }

  @Override
  public HttpResponse processSync(HttpPipelineCallContext context, HttpPipelineNextSyncPolicy next) {
    long deadline = System.nanoTime() + reserve();
    for (long left; (left = deadline - System.nanoTime()) > 0; ) {
      LockSupport.parkNanos(left);
      if (Thread.interrupted()) {
        Thread.currentThread().interrupt();
        throw new StoreException("Interrupted while waiting for a request slot (maxRequestsPerSecond).",
            SqlStates.QUERY_CANCELED, null);
      }
    }
    return next.processSync();
  }

  /** Takes the next free slot; how long to wait for it, in nanoseconds. */
  private synchronized long reserve() {
    long now = System.nanoTime();
    long slot = Math.max(now, nextSlotNanos);
    nextSlotNanos = slot + intervalNanos;
    return slot - now;
  }

  @Override
  public HttpPipelinePosition getPipelinePosition() {
    return HttpPipelinePosition.PER_RETRY;
  }
}
