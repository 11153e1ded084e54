package io.tablesql.store;

import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpPipelineNextSyncPolicy;
import com.azure.core.http.HttpPipelinePosition;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import reactor.core.publisher.Mono;

/**
 * Counts every HTTP request that reaches the wire, retries included, into the
 * {@link RequestCounters} carried in the request's context. Sits after the retry policy so
 * that each attempt is counted.
 */
final class RequestCountingPolicy implements HttpPipelinePolicy {
  static final String COUNTERS_KEY = "tablesql.counters";

  @Override
  public Mono<HttpResponse> process(HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
    count(context);
    return next.process();
  }

  @Override
  public HttpResponse processSync(HttpPipelineCallContext context, HttpPipelineNextSyncPolicy next) {
    count(context);
    return next.processSync();
  }

  @Override
  public HttpPipelinePosition getPipelinePosition() {
    return HttpPipelinePosition.PER_RETRY;
  }

  private static void count(HttpPipelineCallContext context) {
    context.getData(COUNTERS_KEY).ifPresent(counters -> ((RequestCounters) counters).addRequest());
  }
}
