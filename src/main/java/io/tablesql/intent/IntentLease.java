package io.tablesql.intent;

import io.tablesql.errors.SqlStates;
import io.tablesql.session.Session;
import io.tablesql.settings.DriverProperty;
import io.tablesql.store.RequestCounters;
import io.tablesql.store.StoreException;
import io.tablesql.store.TableStore.EntityWrite;
import io.tablesql.txn.WriteOperation.Kind;
import io.tablesql.txn.WriteOperation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * This connection's hold on one intent, from the write of its header (committing) or of its
 * claim (recovering): every change of the header is conditional on the ETag this lease last
 * gave it, so a lease taken over by recovery fails the holder's next change rather than race it.
 * The lease runs on this JVM's monotonic clock from before the header write was sent, so it ends
 * before the service's lease (from the header's Timestamp) does; no request carrying
 * {@link #counters()} starts once its answer could arrive after that, and the lease is renewed
 * when a third of it is gone (docs/architecture/intents.md, "Leases").
 */
final class IntentLease {
  private final Session session;
  private final String id;
  private final long leaseNanos;
  private final long requestNanos;
  private final RequestCounters counters;
  private String etag;
  private long startNanos;

  IntentLease(Session session, String id, long startNanos, String etag, RequestCounters counters) {
    this.session = session;
    this.id = id;
    this.leaseNanos = TimeUnit.SECONDS.toNanos(session.settings().getInt(DriverProperty.INTENT_LEASE));
    this.requestNanos = TimeUnit.SECONDS.toNanos(session.settings().getInt(DriverProperty.REQUEST_TIMEOUT));
    this.counters = counters;
    this.etag = etag;
    started(startNanos);
  }

  String id() {
    return id;
  }

  /** The same hold, its requests counted by {@code other} (work behind the statement that committed). */
  synchronized IntentLease countedBy(RequestCounters other) {
    return new IntentLease(session, id, startNanos, etag, other);
  }

  /** The counters of every request made under this lease: they carry its deadline. */
  RequestCounters counters() {
    return counters;
  }

  private void started(long nanos) {
    startNanos = nanos;
    counters.startNoAttemptAfter(nanos + leaseNanos - requestNanos);
  }

  /** Renews the lease if a third of it is gone; throws 08007 if recovery took the intent. */
  synchronized void renewIfDue() {
    if (System.nanoTime() - startNanos > leaseNanos / 3) {
      update(Map.of("owner", session.id()));
    }
  }

  /** Changes the header (and so renews the lease), on the condition that this lease still holds it. */
  synchronized void update(Map<String, Object> changes) {
    long before = System.nanoTime();
    EntityWrite written;
    try {
      written = session.store().write(Intent.TABLE,
          new WriteOperation(Intent.TABLE, id, Intent.HEADER, Kind.MERGE, changes, etag, null), counters);
    } catch (StoreException e) {
      throw lost("its header could not be written (" + e.getMessage() + ")");
    }
    if (!written.written() || written.etag() == null) {
      throw lost("another connection's recovery took it over");
    }
    etag = written.etag();
    started(before);
  }

  /** Sets the intent's state, and its reason when parked. */
  void state(Intent.State state, String reason) {
    update(reason == null ? Map.of("state", Intent.stateName(state))
        : Map.of("state", Intent.stateName(state), "reason", reason));
  }

  /**
   * Deletes the intent: its header (on this lease's condition) and its step entities, in one
   * entity group transaction. Returns false if the header was changed by another connection.
   */
  synchronized boolean delete(int stepEntities) {
    List<WriteOperation> deletes = new ArrayList<>();
    deletes.add(new WriteOperation(Intent.TABLE, id, Intent.HEADER, Kind.DELETE, Map.of(), etag, null));
    for (int e = 0; e < stepEntities; e++) {
      deletes.add(new WriteOperation(Intent.TABLE, id, Intent.stepRowKey(e), Kind.DELETE, Map.of(), null, null));
    }
    try {
      session.store().submit(Intent.TABLE, deletes, counters);
      return true;
    } catch (StoreException e) {
      if (SqlStates.SERIALIZATION_FAILURE.equals(e.sqlState())) {
        return false;
      }
      throw e;
    }
  }

  /** The failure of a write whose intent this connection no longer holds: recovery settles it. */
  StoreException lost(String why) {
    return new StoreException("The write's intent " + id + " is no longer held by this connection: " + why + ". "
        + "Recovery settles it all or nothing within intentLeaseSeconds; SELECT * FROM tablesql.pending_writes shows "
        + "it until then.", SqlStates.TRANSACTION_RESOLUTION_UNKNOWN, null);
  }
}
