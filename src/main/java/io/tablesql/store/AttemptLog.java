package io.tablesql.store;

/**
 * What the attempts of one request came to, as far as the client can tell: whether any of them
 * may have been applied although the client never learnt it (its answer was lost, timed out, or
 * was a 500/504 "may or may not have succeeded"). A retry refused after such an attempt says
 * nothing about whether the request was applied.
 */
final class AttemptLog {
  static final String KEY = "tablesql.attempts";

  private volatile boolean outcomeUnknown;

  void answered(int status) {
    if (status == 408 || status == 500 || status == 504) {
      outcomeUnknown = true;
    }
  }

  /** An attempt that failed without an answer; one that never reached the service is no doubt. */
  void unanswered(Throwable failure) {
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof java.net.ConnectException || cause instanceof java.net.UnknownHostException
          || cause instanceof java.net.http.HttpConnectTimeoutException) {
        return;
      }
    }
    outcomeUnknown = true;
  }

  boolean outcomeUnknown() {
    return outcomeUnknown;
  }
}
