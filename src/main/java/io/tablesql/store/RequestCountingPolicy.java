package io.tablesql.store;

import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpPipelineNextSyncPolicy;
import com.azure.core.http.HttpPipelinePosition;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import io.tablesql.SqlStates;
import reactor.core.publisher.Mono;

/**
 * Counts every HTTP request that reaches the wire, retries included, into the
 * {@link RequestCounters} carried in the request's context, or fails it unsent once those counters
 * were stopped; and notes in its {@link AttemptLog} (for writes) each attempt whose outcome the
 * client cannot know. Sits after the retry policy so that each attempt is seen.
 */
final class RequestCountingPolicy implements HttpPipelinePolicy {
  static final String COUNTERS_KEY = "tablesql.counters";

  @Override
  public Mono<HttpResponse> process(HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
    try {
      count(context);
    } catch (StoreException stopped) {
      return Mono.error(stopped);
    }
    AttemptLog log = (AttemptLog) context.getData(AttemptLog.KEY).orElse(null);
    return log == null ? next.process()
        : next.process().doOnNext(response -> log.answered(response.getStatusCode())).doOnError(log::unanswered);
  }

  @Override
  public HttpResponse processSync(HttpPipelineCallContext context, HttpPipelineNextSyncPolicy next) {
    count(context);
    AttemptLog log = (AttemptLog) context.getData(AttemptLog.KEY).orElse(null);
    if (log == null) {
      return next.processSync();
    }
    try {
      HttpResponse response = next.processSync();
      log.answered(response.getStatusCode());
      return response;
    } catch (RuntimeException e) {
      log.unanswered(e);
      throw e;
    }
  }

  @Override
  public HttpPipelinePosition getPipelinePosition() {
    return HttpPipelinePosition.PER_RETRY;
  }

  private static void count(HttpPipelineCallContext context) {
    RequestCounters counters = (RequestCounters) context.getData(COUNTERS_KEY).orElse(null);
    if (counters == null) {
      return;
    }
    if (counters.stopped()) {
      // not an IOException, so the retry policy gives up at once
      throw new StoreException("The request was not sent: the result set that needed it was closed.",
          SqlStates.QUERY_CANCELED, null);
    }
    counters.addRequest();
  }
}
