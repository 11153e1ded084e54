package io.tablesql;

/**
 * What the driver did for one account and credential in this JVM while connections to it were
 * open: requests at the service, what they carried, and how the driver's caches served.
 * Registered with the platform MBean server as
 * {@code io.tablesql:type=Metrics,account=<account>,endpoint="<table endpoint>",principal=<digest>}
 * (the digest tells credentials apart without naming them) when the first connection opens, and
 * unregistered when the last one closes; the next connection starts a new bean from zero. While
 * it is registered, every count only grows.
 */
public interface TableSqlMetricsMXBean {
  /** The Table endpoint, as the connections name it. */
  String getEndpoint();

  /** The storage account's name. */
  String getAccount();

  /** HTTP requests sent, retries included. */
  long getRequests();

  /** Requests that were attempts after the first of their call (the SDK's retries). */
  long getRetries();

  /** Answers asking the driver to back off: 429 Too Many Requests and 503 Server Busy. */
  long getThrottledResponses();

  /** Requests that got no answer (connection refused or reset, timeout). */
  long getUnansweredRequests();

  /** Requests sent and not yet answered, now. */
  long getInFlightRequests();

  /** Total time from sending requests to their answers' headers, in milliseconds. */
  long getRequestMillis();

  /** Entities received from queries and point reads. */
  long getEntitiesRead();

  /** Entities written by entity group transactions that the service applied. */
  long getEntitiesWritten();

  /** Request body bytes sent (as their Content-Length declares). */
  long getBytesSent();

  /** Response body bytes received (as their Content-Length declares). */
  long getBytesReceived();

  /** Inferred table shapes served from the schema cache. */
  long getSchemaCacheHits();

  /** Table shapes inferred anew (by sampling the table). */
  long getSchemaCacheMisses();

  /** Hits over lookups of the schema cache; 0 before the first lookup. */
  double getSchemaCacheHitRatio();

  /** Reads of lookup tables served from the lookup cache. */
  long getLookupCacheHits();

  /** Reads of lookup tables that read the whole table from the service. */
  long getLookupCacheMisses();

  /** Hits over lookups of the lookup cache; 0 before the first lookup. */
  double getLookupCacheHitRatio();

  /** Ad-hoc statements run on a plan reused from the connections' plan caches. */
  long getPlanCacheHits();

  /** Ad-hoc statements that had to be planned for the plan cache. */
  long getPlanCacheMisses();

  /** Hits over lookups of the plan caches; 0 before the first lookup. */
  double getPlanCacheHitRatio();
}
