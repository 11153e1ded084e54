package io.tablesql.store;

import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.HttpHeaders;
import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpPipelineNextSyncPolicy;
import com.azure.core.http.HttpPipelinePosition;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import io.tablesql.errors.SqlStates;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import reactor.core.publisher.Mono;

/**
 * Counts every HTTP request that reaches the wire, retries included, into the
 * {@link RequestCounters} carried in the request's context and into the account's
 * {@link AccountMetrics}, or fails it unsent once those counters were stopped; and notes in its
 * {@link AttemptLog} (for writes) each attempt whose outcome the client cannot know. Sits after
 * the retry policy so that each attempt is seen.
 */
final class RequestCountingPolicy implements HttpPipelinePolicy {
  static final String COUNTERS_KEY = "tablesql.counters";
  /** The attempts of one call so far: the call context outlives each attempt. */
  private static final String ATTEMPTS_KEY = "tablesql.attemptNumber";

  private final AccountMetrics metrics;

  RequestCountingPolicy(AccountMetrics metrics) {
    this.metrics = metrics;
  }

  @Override
  public Mono<HttpResponse> process(HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
    Attempt attempt;
    try {
      attempt = begin(context);
    } catch (StoreException stopped) {
      return Mono.error(stopped);
    }
    AttemptLog log = (AttemptLog) context.getData(AttemptLog.KEY).orElse(null);
    return next.process()
        .doOnNext(response -> {
          attempt.end(response);
          if (log != null) {
            log.answered(response.getStatusCode());
          }
        })
        .doOnError(e -> {
          attempt.end(null);
          if (log != null) {
            log.unanswered(e);
          }
        })
        .doOnCancel(() -> attempt.end(null));
  }

  @Override
  public HttpResponse processSync(HttpPipelineCallContext context, HttpPipelineNextSyncPolicy next) {
    Attempt attempt = begin(context);
    AttemptLog log = (AttemptLog) context.getData(AttemptLog.KEY).orElse(null);
    HttpResponse response;
    try {
      response = next.processSync();
    } catch (RuntimeException e) {
      attempt.end(null);
      if (log != null) {
        log.unanswered(e);
      }
      throw e;
    }
    attempt.end(response);
    if (log != null) {
      log.answered(response.getStatusCode());
    }
    return response;
  }

  @Override
  public HttpPipelinePosition getPipelinePosition() {
    return HttpPipelinePosition.PER_RETRY;
  }

  /** Counts an attempt about to be sent; refuses it if its statement's counters were stopped. */
  private Attempt begin(HttpPipelineCallContext context) {
    RequestCounters counters = (RequestCounters) context.getData(COUNTERS_KEY).orElse(null);
    if (counters != null) {
      if (counters.stopped()) {
        // not an IOException, so the retry policy gives up at once
        throw new StoreException("The request was not sent: the result set that needed it was closed.",
            SqlStates.QUERY_CANCELED, null);
      }
      if (counters.pastLastStart()) {
        throw new StoreException("The request was not sent: the lease of the write's intent runs out before its "
            + "answer could arrive (requestTimeoutSeconds), and recovery may then take the intent over.",
            SqlStates.TRANSACTION_RESOLUTION_UNKNOWN, null);
      }
      counters.addRequest();
    }
    AtomicInteger attempts = (AtomicInteger) context.getData(ATTEMPTS_KEY).orElse(null);
    if (attempts == null) {
      attempts = new AtomicInteger();
      context.setData(ATTEMPTS_KEY, attempts);
    }
    int number = attempts.incrementAndGet();
    metrics.requestStarted(number > 1, contentLength(context.getHttpRequest().getHeaders()));
    return new Attempt(context, number, System.nanoTime());
  }

  private static long contentLength(HttpHeaders headers) {
    String value = headers.getValue(HttpHeaderName.CONTENT_LENGTH);
    if (value == null) {
      return 0;
    }
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /** One attempt on the wire; ends once, whether answered, failed or cancelled. */
  private final class Attempt {
    private final HttpPipelineCallContext context;
    private final int number;
    private final long startNanos;
    private final AtomicBoolean ended = new AtomicBoolean();

    Attempt(HttpPipelineCallContext context, int number, long startNanos) {
      this.context = context;
      this.number = number;
      this.startNanos = startNanos;
    }

    void end(HttpResponse response) {
      if (!ended.compareAndSet(false, true)) {
        return;
      }
      long nanos = System.nanoTime() - startNanos;
      int status = response == null ? 0 : response.getStatusCode();
      metrics.requestEnded(status, nanos, response == null ? 0 : contentLength(response.getHeaders()));
      RequestLog.log(context, number, status, nanos);
    }
  }
}
