package io.tablesql.store;

import io.tablesql.TableSqlMetricsMXBean;
import io.tablesql.settings.ConnectionSettings;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-JVM counters of one account and credential ({@link ConnectionSettings#principal()}),
 * shared by every connection to it and published as an MXBean while any is open: the first
 * {@link #acquire} publishes them, the last {@link #release} withdraws them, so the platform
 * MBean server does not pin the class loader of an application that stopped using the driver.
 * In a process where no MBean server runs yet, publishing waits until the first connection has
 * been used or half a second has passed ({@link #startServerAndPublish}).
 * The service counts come from {@link RequestCountingPolicy}; the caches add their hits and misses.
 */
public final class AccountMetrics implements TableSqlMetricsMXBean {
  private static final Logger LOG = LoggerFactory.getLogger(AccountMetrics.class);
  private static final String DOMAIN = "io.tablesql";
  /** Guards {@link #BY_PRINCIPAL} and every instance's {@link #users} and {@link #published}. */
  private static final Object LOCK = new Object();
  private static final Map<String, AccountMetrics> BY_PRINCIPAL = new HashMap<>();
  private static final AtomicBoolean PUBLISHER_STARTED = new AtomicBoolean();

  private final String principal;
  private final String endpoint;
  private final String account;
  /** The MXBean's name ({@link Jmx#name}); kept as text so that a JVM without JMX loads this class. */
  private final String name;
  private final LongAdder requests = new LongAdder();
  private final LongAdder retries = new LongAdder();
  private final LongAdder throttled = new LongAdder();
  private final LongAdder unanswered = new LongAdder();
  private final AtomicLong inFlight = new AtomicLong();
  private final LongAdder requestNanos = new LongAdder();
  private final LongAdder entitiesRead = new LongAdder();
  private final LongAdder entitiesWritten = new LongAdder();
  private final LongAdder bytesSent = new LongAdder();
  private final LongAdder bytesReceived = new LongAdder();
  private final LongAdder schemaHits = new LongAdder();
  private final LongAdder schemaMisses = new LongAdder();
  private final LongAdder lookupHits = new LongAdder();
  private final LongAdder lookupMisses = new LongAdder();
  private final LongAdder planHits = new LongAdder();
  private final LongAdder planMisses = new LongAdder();

  /** Stores (so connections) using these metrics now; at 0 they are withdrawn and forgotten. */
  private int users;
  /** Whether this copy registered the MXBean (another copy of the driver may hold the name). */
  private boolean published;

  private AccountMetrics(String principal, String endpoint, String account, String name) {
    this.principal = principal;
    this.endpoint = endpoint;
    this.account = account;
    this.name = name;
  }

  /**
   * Publishes, once the JVM's first connection has been used ({@link FirstUse}), the metrics
   * whose registration waited for the platform MBean server: its first start takes 0.15 s of CPU
   * here (it registers every platform MXBean), which a process's first statement need not wait
   * for. Metrics whose last connection closed by then are not published.
   */
  private static void startServerAndPublish() {
    if (!FirstUse.await()) {
      return;
    }
    try {
      Jmx.server();
    } catch (RuntimeException | LinkageError e) {
      return; // no JMX here: nothing is published, and no connection fails for it
    }
    synchronized (LOCK) {
      for (AccountMetrics metrics : BY_PRINCIPAL.values()) {
        if (metrics.users > 0 && !metrics.published) {
          metrics.register();
        }
      }
    }
  }

  /** Whether registering now costs nothing: the platform MBean server runs (tablesql's start or another's). */
  private static boolean serverRunning() {
    try {
      return Jmx.serverRunning();
    } catch (RuntimeException | LinkageError e) {
      return false;
    }
  }

  /**
   * The metrics of the settings' account and credential, counting one user more: the first user
   * gets fresh counts, registered as an MXBean. Each call must be matched by one {@link #release}.
   */
  public static AccountMetrics acquire(ConnectionSettings settings) {
    synchronized (LOCK) {
      AccountMetrics metrics = BY_PRINCIPAL.computeIfAbsent(settings.principal(), principal -> {
        String account = settings.accountName() == null ? "" : settings.accountName();
        return new AccountMetrics(principal, settings.tableEndpoint(), account,
            objectName(settings.tableEndpoint(), account, principal));
      });
      if (metrics.users++ == 0) {
        if (serverRunning()) {
          metrics.register();
        } else if (PUBLISHER_STARTED.compareAndSet(false, true)) {
          Thread publisher = new Thread(AccountMetrics::startServerAndPublish, "tablesql-metrics");
          publisher.setDaemon(true);
          publisher.start();
        }
      }
      return metrics;
    }
  }

  /** One user fewer; the last one unregisters the MXBean, and the next {@link #acquire} starts from zero. */
  public void release() {
    synchronized (LOCK) {
      if (users == 0) {
        throw new IllegalStateException("released more often than acquired");
      }
      if (--users == 0) {
        BY_PRINCIPAL.remove(principal, this);
        unregister();
      }
    }
  }

  /**
   * {@code io.tablesql:type=Metrics,account=...,endpoint="...",principal=<8 hex digits>}: the
   * principal holds a digest of the credential already; a digest of it keeps the name short.
   * Null where the JVM has no JMX (a runtime without the java.management module).
   */
  static String objectName(String endpoint, String account, String principal) {
    try {
      return Jmx.name(endpoint, account, principal);
    } catch (LinkageError e) {
      return null;
    }
  }

  /** Publishes these metrics; a JVM without JMX, or one that refuses it, never fails a connection. */
  private void register() {
    if (name == null) {
      return;
    }
    try {
      Jmx.register(this, name);
      published = true;
    } catch (Exception | LinkageError e) {
      // e.g. SecurityException, or InstanceAlreadyExistsException: another copy of the driver (in
      // another class loader) publishes this account's metrics; these count unpublished
      LOG.debug("Metrics of {} not published as an MXBean: {}", name, e.toString());
    }
  }

  /** Withdraws what {@link #register} published, and only that: another copy's MXBean stays. */
  private void unregister() {
    if (!published) {
      return;
    }
    published = false;
    try {
      Jmx.unregister(name);
    } catch (Exception | LinkageError e) {
      LOG.debug("Metrics MXBean {} not unregistered: {}", name, e.toString());
    }
  }

  /**
   * Everything that touches javax.management, loaded only when called: where the module is
   * missing, the call fails with a LinkageError the caller catches, not the class loading of the
   * metrics (which every connection needs).
   */
  private static final class Jmx {
    static String name(String endpoint, String account, String principal) {
      try {
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(principal.getBytes(StandardCharsets.UTF_8));
        return new ObjectName(DOMAIN + ":type=Metrics,account=" + ObjectName.quote(account) + ",endpoint="
            + ObjectName.quote(endpoint) + ",principal=" + HexFormat.of().formatHex(digest, 0, 4)).toString();
      } catch (NoSuchAlgorithmException | javax.management.MalformedObjectNameException e) {
        return null;
      }
    }

    static void server() {
      ManagementFactory.getPlatformMBeanServer();
    }

    /** Whether an MBean server (the platform's, once started) exists, found without starting one. */
    static boolean serverRunning() {
      return !javax.management.MBeanServerFactory.findMBeanServer(null).isEmpty();
    }

    static void register(Object metrics, String name) throws Exception {
      ManagementFactory.getPlatformMBeanServer().registerMBean(metrics, new ObjectName(name));
    }

    static void unregister(String name) throws Exception {
      ManagementFactory.getPlatformMBeanServer().unregisterMBean(new ObjectName(name));
    }
  }

  void requestStarted(boolean retry, long bytes) {
    requests.increment();
    if (retry) {
      retries.increment();
    }
    inFlight.incrementAndGet();
    if (bytes > 0) {
      bytesSent.add(bytes);
    }
  }

  /** An attempt ended: {@code status} 0 when it got no answer. */
  void requestEnded(int status, long nanos, long bytes) {
    inFlight.decrementAndGet();
    requestNanos.add(nanos);
    if (status == 0) {
      unanswered.increment();
    } else if (status == 429 || status == 503) {
      throttled.increment();
    }
    if (bytes > 0) {
      bytesReceived.add(bytes);
    }
  }

  void entitiesRead(long count) {
    entitiesRead.add(count);
  }

  void entitiesWritten(long count) {
    entitiesWritten.add(count);
  }

  public void schemaCache(boolean hit) {
    (hit ? schemaHits : schemaMisses).increment();
  }

  public void lookupCache(boolean hit) {
    (hit ? lookupHits : lookupMisses).increment();
  }

  public void planCache(boolean hit) {
    (hit ? planHits : planMisses).increment();
  }

  @Override
  public String getEndpoint() {
    return endpoint;
  }

  @Override
  public String getAccount() {
    return account;
  }

  @Override
  public long getRequests() {
    return requests.sum();
  }

  @Override
  public long getRetries() {
    return retries.sum();
  }

  @Override
  public long getThrottledResponses() {
    return throttled.sum();
  }

  @Override
  public long getUnansweredRequests() {
    return unanswered.sum();
  }

  @Override
  public long getInFlightRequests() {
    return inFlight.get();
  }

  @Override
  public long getRequestMillis() {
    return requestNanos.sum() / 1_000_000;
  }

  @Override
  public long getEntitiesRead() {
    return entitiesRead.sum();
  }

  @Override
  public long getEntitiesWritten() {
    return entitiesWritten.sum();
  }

  @Override
  public long getBytesSent() {
    return bytesSent.sum();
  }

  @Override
  public long getBytesReceived() {
    return bytesReceived.sum();
  }

  @Override
  public long getSchemaCacheHits() {
    return schemaHits.sum();
  }

  @Override
  public long getSchemaCacheMisses() {
    return schemaMisses.sum();
  }

  @Override
  public double getSchemaCacheHitRatio() {
    return ratio(schemaHits, schemaMisses);
  }

  @Override
  public long getLookupCacheHits() {
    return lookupHits.sum();
  }

  @Override
  public long getLookupCacheMisses() {
    return lookupMisses.sum();
  }

  @Override
  public double getLookupCacheHitRatio() {
    return ratio(lookupHits, lookupMisses);
  }

  @Override
  public long getPlanCacheHits() {
    return planHits.sum();
  }

  @Override
  public long getPlanCacheMisses() {
    return planMisses.sum();
  }

  @Override
  public double getPlanCacheHitRatio() {
    return ratio(planHits, planMisses);
  }

  private static double ratio(LongAdder hits, LongAdder misses) {
    long h = hits.sum();
    long total = h + misses.sum();
    return total == 0 ? 0 : (double) h / total;
  }
}
