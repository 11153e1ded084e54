package io.tablesql.intent;

import com.azure.data.tables.models.TableEntity;
import io.tablesql.errors.SqlStates;
import io.tablesql.session.Session;
import io.tablesql.settings.DriverProperty;
import io.tablesql.store.EdmType;
import io.tablesql.store.ODataLiteral;
import io.tablesql.store.RequestCounters;
import io.tablesql.store.StoreException;
import io.tablesql.store.TableStore.EntityWrite;
import io.tablesql.txn.WriteOperation.Kind;
import io.tablesql.txn.WriteOperation;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Recovery of writes whose committer is gone, run by every connection: when it opens and then
 * once per {@code intentLeaseSeconds}, in the background. An intent whose header the service
 * last wrote more than a lease ago (by the service's clock) is claimed by a conditional write of
 * its header (of two recoverers one wins), read, and settled: committed if all its groups were
 * applied, undone otherwise ({@link IntentSettlement}). Step entities whose header was never
 * written are removed once a lease old. Parked intents and intents of a later format are left to
 * the user, and listed by {@code tablesql.pending_writes}.
 */
public final class IntentRecovery {
  private static final Logger LOG = LoggerFactory.getLogger(IntentRecovery.class);
  private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(runnable -> {
    Thread thread = new Thread(runnable, "tablesql-intent-recovery");
    thread.setDaemon(true);
    return thread;
  });
  private static final String LISTED = "RowKey eq '" + Intent.HEADER + "' or RowKey eq '" + Intent.stepRowKey(0) + "'";

  private IntentRecovery() {
  }

  /** An intent as listed: its header, and the ETag and Timestamp the service gave the header entity. */
  public record Listed(Intent.Header header, String etag, OffsetDateTime timestamp) {
  }

  /**
   * Starts this connection's share of recovery: looks for intents now (one request, before the
   * connection is handed out, when nothing in this JVM looked at this account with these
   * credentials within the lease) and then once per lease until the returned handle is closed.
   * What it finds is settled in the background.
   */
  public static AutoCloseable schedule(Session session) {
    long lease = session.settings().getInt(DriverProperty.INTENT_LEASE);
    List<TableEntity> found = List.of();
    try {
      found = listIfDue(session);
    } catch (RuntimeException e) {
      LOG.debug("Looking for unfinished writes did not work: {}", e.getMessage());
    }
    if (!found.isEmpty()) {
      List<TableEntity> listed = found;
      TIMER.execute(() -> settleQuietly(session, listed));
    }
    ScheduledFuture<?> task = TIMER.scheduleWithFixedDelay(() -> {
      try {
        settleQuietly(session, listIfDue(session));
      } catch (RuntimeException e) {
        LOG.debug("Looking for unfinished writes did not work: {}", e.getMessage());
      }
    }, lease, lease, TimeUnit.SECONDS);
    return () -> task.cancel(false);
  }

  /** When each account (endpoint and credentials) was last looked at in this JVM, in System.nanoTime(). */
  private static final java.util.concurrent.ConcurrentHashMap<String, Long> LAST_LOOK =
      new java.util.concurrent.ConcurrentHashMap<>();

  /** The intents' listed entities, if nobody in this JVM looked at the account within the lease; else none. */
  private static List<TableEntity> listIfDue(Session session) {
    long leaseNanos = TimeUnit.SECONDS.toNanos(session.settings().getInt(DriverProperty.INTENT_LEASE));
    long now = System.nanoTime();
    boolean[] due = {false};
    LAST_LOOK.compute(session.settings().principal(), (account, last) -> {
      due[0] = last == null || now - last >= leaseNanos - leaseNanos / 10;
      return due[0] ? now : last;
    });
    return due[0] ? listedEntities(session, new RequestCounters()) : List.of();
  }

  private static void settleQuietly(Session session, List<TableEntity> listed) {
    if (listed.isEmpty()) {
      return;
    }
    try {
      int settled = settleExpired(session, listed);
      if (settled > 0) {
        LOG.info("Recovery settled {} unfinished write(s) of {}", settled, Intent.TABLE);
      }
    } catch (RuntimeException e) {
      // a connection that may not write the intents' table (a narrow SAS), or a closed one
      LOG.debug("Recovery of unfinished writes did not run: {}", e.getMessage());
    }
  }

  /**
   * Deletes parked intents ({@code DELETE FROM tablesql.pending_writes}), once the user has dealt
   * with the rows their reasons name: each header on the condition that it is still as listed,
   * with its step entities. An intent that is not parked is recovery's to settle: refused (55000)
   * before anything is deleted. Returns how many were deleted.
   */
  public static long discardParked(Session session, java.util.Collection<String> ids) {
    RequestCounters counters = new RequestCounters();
    List<Listed> chosen = list(session, counters).stream().filter(l -> ids.contains(l.header().id())).toList();
    for (Listed listed : chosen) {
      if (!Intent.knows(listed.header().format())) {
        throw new StoreException("Intent " + listed.header().id() + " has format " + listed.header().format()
            + ", which this version of tablesql does not know: a later version wrote it. Delete it with that version. "
            + "Nothing was deleted.", SqlStates.NOT_IN_PREREQUISITE_STATE, null);
      }
      if (listed.header().state() != Intent.State.PARKED) {
        throw new StoreException("Intent " + listed.header().id() + " is " + (listed.header().state() == null
            ? "of a state this version does not know" : Intent.stateName(listed.header().state())) + ", not parked: "
            + "recovery finishes or undoes it within intentLeaseSeconds. Only parked intents can be deleted "
            + "(WHERE state = 'parked'). Nothing was deleted.", SqlStates.NOT_IN_PREREQUISITE_STATE, null);
      }
    }
    long deleted = 0;
    for (Listed listed : chosen) {
      IntentLease lease = new IntentLease(session, listed.header().id(), System.nanoTime(), listed.etag(), counters);
      deleted += lease.delete(listed.header().stepEntities()) ? 1 : 0;
    }
    return deleted;
  }

  /** The intents in the account, unfinished and parked, oldest first. */
  public static List<Listed> list(Session session, RequestCounters counters) {
    List<Listed> listed = new ArrayList<>();
    for (TableEntity entity : listedEntities(session, counters)) {
      if (entity.getRowKey().equals(Intent.HEADER)) {
        listed.add(new Listed(Intent.header(entity.getPartitionKey(), entity.getProperties()), entity.getETag(),
            entity.getTimestamp()));
      }
    }
    listed.sort(Comparator.comparing(l -> l.header().created() == null ? l.timestamp() : l.header().created()));
    return listed;
  }

  private static List<TableEntity> listedEntities(Session session, RequestCounters counters) {
    List<TableEntity> entities = new ArrayList<>();
    try {
      Iterator<List<TableEntity>> pages = session.store().query(Intent.TABLE, LISTED,
          List.of("PartitionKey", "RowKey", "Timestamp", "format", "state", "owner", "created", "tables", "entities",
              "groups", "stepEntities", "reason"), 1000, counters);
      pages.forEachRemaining(entities::addAll);
    } catch (StoreException e) {
      if (!SqlStates.TABLE_NOT_FOUND.equals(e.sqlState())) {
        throw e;
      }
    }
    return entities;
  }

  /** Settles every listed intent whose lease ran out; returns how many were settled. */
  private static int settleExpired(Session session, List<TableEntity> entities) {
    if (entities.isEmpty()) {
      return 0;
    }
    RequestCounters counters = new RequestCounters();
    long lease = session.settings().getInt(DriverProperty.INTENT_LEASE);
    OffsetDateTime now = session.store().serviceTime(Intent.TABLE, counters);
    java.util.Set<String> withHeader = new java.util.HashSet<>();
    entities.stream().filter(e -> e.getRowKey().equals(Intent.HEADER)).forEach(e -> withHeader.add(e.getPartitionKey()));
    int settled = 0;
    for (TableEntity entity : entities) {
      boolean expired = entity.getTimestamp().plusSeconds(lease).isBefore(now);
      if (!expired) {
        continue;
      }
      if (!entity.getRowKey().equals(Intent.HEADER)) {
        if (!withHeader.contains(entity.getPartitionKey())) {
          removeHeaderless(session, entity.getPartitionKey(), counters);
        }
        continue;
      }
      Intent.Header header = Intent.header(entity.getPartitionKey(), entity.getProperties());
      if (!Intent.knows(header.format()) || header.state() == Intent.State.PARKED) {
        continue; // a later version's, or the user's to look at
      }
      try {
        settled += recover(session, header, entity.getETag()) ? 1 : 0;
      } catch (StoreException e) {
        LOG.warn("Recovery of intent {} stopped and is tried again later: {}", header.id(), e.getMessage());
      }
    }
    return settled;
  }

  /**
   * Settles intent {@code id} now if its lease has run out (its writer stopped), as the periodic
   * recovery would: a writer that meets its mark need not wait for that. False if it is alive,
   * gone, parked, of a later version, or claimed by another connection first.
   */
  static boolean settleIfExpired(Session session, String id, RequestCounters counters) {
    Optional<TableEntity> header = IntentMarks.header(session, id, null, counters);
    if (header.isEmpty() || header.get().getTimestamp() == null) {
      return false;
    }
    long lease = session.settings().getInt(DriverProperty.INTENT_LEASE);
    if (!header.get().getTimestamp().plusSeconds(lease).isBefore(session.store().serviceTime(Intent.TABLE, counters))) {
      return false;
    }
    Intent.Header listed = Intent.header(id, header.get().getProperties());
    if (!Intent.knows(listed.format()) || listed.state() == Intent.State.PARKED) {
      return false;
    }
    try {
      return recover(session, listed, header.get().getETag());
    } catch (StoreException e) { // recovery tries again later
      LOG.debug("Settling expired intent {} stopped: {}", id, e.getMessage());
      return false;
    }
  }

  /** Claims one intent and settles it; false if another connection claimed it first. */
  private static boolean recover(Session session, Intent.Header listed, String etag) {
    long before = System.nanoTime();
    RequestCounters counters = new RequestCounters();
    EntityWrite claim = session.store().write(Intent.TABLE, new WriteOperation(Intent.TABLE, listed.id(),
        Intent.HEADER, Kind.MERGE, Map.of("owner", session.id()), etag, null), counters);
    if (!claim.written() || claim.etag() == null) {
      return false;
    }
    IntentLease lease = new IntentLease(session, listed.id(), before, claim.etag(), counters);
    Stored stored = read(session, listed.id(), lease.counters());
    if (stored == null) {
      return false; // settled and deleted by another connection meanwhile
    }
    Intent.Header header = stored.header();
    Intent intent;
    try {
      intent = stored.intent();
    } catch (IllegalStateException e) {
      lease.state(Intent.State.PARKED, e.getMessage());
      return true;
    }
    if (header.state() != null && header.state().committed()) { // its views and marks only are left to follow
      IntentSettlement.commit(session, intent, lease, header.stepEntities(), header.state());
      LOG.info("Recovery finished committed intent {}", listed.id());
      return true;
    }
    IntentSettlement.Result result = IntentSettlement.settle(session, intent, lease, header.stepEntities(),
        header.state() == Intent.State.UNDOING, Map.of(), header.undo());
    LOG.info("Recovery {} intent {} ({} entities in {} groups of {}){}", switch (result.outcome()) {
      case COMMITTED -> "finished";
      case UNDONE -> "undid";
      case PARKED -> "parked";
    }, listed.id(), header.entities(), header.groups(), header.tables(),
        result.reason() == null ? "" : ": " + result.reason());
    return true;
  }

  /** An intent as stored: its header, and its header's and step entities' properties (steps in RowKey order). */
  record Stored(Intent.Header header, Map<String, Object> headerProperties, List<Map<String, Object>> steps) {
    /** The intent; IllegalStateException for a format this version does not know, or steps it cannot read. */
    Intent intent() {
      return Intent.read(header, headerProperties, steps);
    }
  }

  /** Reads an intent's entities (one query); null if its header is gone. */
  static Stored read(Session session, String id, RequestCounters counters) {
    List<TableEntity> entities = new ArrayList<>();
    session.store().query(Intent.TABLE, ofIntent(id), null, 1000, counters).forEachRemaining(entities::addAll);
    TableEntity header = entities.stream().filter(e -> e.getRowKey().equals(Intent.HEADER)).findFirst().orElse(null);
    if (header == null) {
      return null;
    }
    List<Map<String, Object>> steps = entities.stream().filter(e -> !e.getRowKey().equals(Intent.HEADER))
        .sorted(Comparator.comparing(TableEntity::getRowKey)).map(TableEntity::getProperties).toList();
    return new Stored(Intent.header(id, header.getProperties()), header.getProperties(), steps);
  }

  /** The filter of one intent's entities. */
  private static String ofIntent(String id) {
    return "PartitionKey eq " + ODataLiteral.render(EdmType.STRING, id, false);
  }

  /** Removes the step entities of an intent whose header was never written: nothing of it was applied. */
  private static void removeHeaderless(Session session, String id, RequestCounters counters) {
    List<WriteOperation> deletes = new ArrayList<>();
    session.store().query(Intent.TABLE, ofIntent(id), List.of("PartitionKey", "RowKey"), 1000,
        counters).forEachRemaining(page -> page.forEach(e -> deletes.add(new WriteOperation(Intent.TABLE, id,
            e.getRowKey(), Kind.DELETE, Map.of(), e.getETag(), null))));
    if (!deletes.isEmpty() && deletes.stream().noneMatch(d -> d.rowKey().equals(Intent.HEADER))) {
      session.store().submit(Intent.TABLE, deletes, counters);
    }
  }
}
