package io.tablesql.intent;

import io.tablesql.session.Session;
import io.tablesql.store.RequestCounters;
import io.tablesql.txn.WriteOperation;
import java.sql.SQLException;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;

/**
 * What the intent protocol asks of the index and view upkeep above it ({@code io.tablesql.exec}):
 * how writes fall into entity groups, how a group or an undo is sent with its rows' index entries,
 * which index entries an intent marked, and the materialized views a write derives. The commit,
 * its settlement and recovery call it; it calls the protocol only to read marks, never to commit.
 *
 * <p>The one implementation lives in the layer above, so it is found through
 * {@link ServiceLoader} ({@code META-INF/services}), once per class loader.
 */
public interface GroupUpkeep {
  /** The upkeep this driver was built with. */
  static GroupUpkeep installed() {
    return Installed.UPKEEP;
  }

  /** The writes in entity groups, as they are sent: one table and partition each, within the service's limits. */
  List<List<WriteOperation>> groups(Session session, List<WriteOperation> writes) throws SQLException;

  /** Refuses groups that would give one UNIQUE index value to two rows (23505). */
  void checkUniqueAcrossGroups(Session session, List<List<WriteOperation>> groups);

  /**
   * Sends one group of an intent with its rows' index entries; returns the rows' ETags, in order.
   * Null, with nothing sent, when the group takes a UNIQUE value from a row of
   * {@code pendingRows}, which another group writes: it waits for that group.
   */
  List<String> submit(Session session, List<WriteOperation> group, RequestCounters counters,
      Set<WriteOperation.EntityKey> pendingRows);

  /** Sends the undo of one group of the intent {@code undoing}, with its rows' index entries; false if it waits, as {@link #submit}. */
  boolean submitUndo(Session session, List<WriteOperation> undo, RequestCounters counters,
      Set<WriteOperation.EntityKey> pendingRows, String undoing);

  /** A table the commit is about to write: what is cached of it is stale. */
  void tableChanged(Session session, String table);

  /**
   * The clearing of the intent's marks on the LOCAL index entries of a step's row (the old entry
   * kept for readers deleted, the new one written without the mark), conditional on ETags just read.
   */
  List<WriteOperation> localEntryClearings(Session session, Intent intent, Intent.Step step,
      RequestCounters counters);

  /**
   * The removal of the GLOBAL UNIQUE entries the intent kept as its tombstones for a step's row:
   * of its old values after a commit, of the values its groups gave back up after an undo
   * ({@code undone}); conditional on ETags just read.
   */
  List<WriteOperation> keptUniqueEntries(Session session, Intent intent, Intent.Step step, boolean undone,
      RequestCounters counters);

  /** Whether the writes change tables that materialized views are derived from. */
  boolean derives(Session session, List<WriteOperation> writes);

  /** Refuses writes whose views cannot hold them; then waits for the summaries they change to be ready. */
  void checkViews(Session session, List<WriteOperation> writes);

  /** Whether a summary's build began before its scan could see an intent recorded just now. */
  boolean summaryBuildBegan(Session session, List<WriteOperation> writes);

  /** Waits for the summaries the writes change to be built afresh (after {@link #summaryBuildBegan}). */
  void awaitFreshSummaries(Session session, List<WriteOperation> writes);

  /** Brings the views derived from the intent's rows up to date, as committed or as undone. */
  void repairViews(Session session, Intent intent, boolean committed, RequestCounters counters);

  /** Holds the implementation, loaded on first use. */
  final class Installed {
    private static final GroupUpkeep UPKEEP = ServiceLoader.load(GroupUpkeep.class, GroupUpkeep.class.getClassLoader())
        .findFirst().orElseThrow(() -> new IllegalStateException("No " + GroupUpkeep.class.getName()
            + " in META-INF/services: the driver's jar is incomplete."));

    private Installed() {
    }
  }
}
