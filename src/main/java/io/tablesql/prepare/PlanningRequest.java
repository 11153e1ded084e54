package io.tablesql.prepare;

import io.tablesql.errors.SqlStates;
import io.tablesql.store.StoreException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;

/**
 * What the planning of one statement carries into Calcite's call-backs ({@link TableSqlPrepare},
 * its parser, planner and preparing statement), and where they leave the direct plan they made.
 * Calcite's prepare ({@code CalciteConnection.prepareStatement}, {@code CalcitePrepareImpl})
 * takes no argument of the driver's, so the request travels with the planning thread: {@link
 * #CURRENT} is the one thread-local through which state reaches Calcite's call-backs. Each scope
 * ({@link #bounded}, {@link #handingOver}, {@link #capturing}) runs with a copy of the request it
 * is in plus what it knows, and puts that request back when it ends.
 */
public final class PlanningRequest {
  /** The request of the planning running on this thread; none outside one. */
  private static final ThreadLocal<PlanningRequest> CURRENT = new ThreadLocal<>();
  private static final PlanningRequest NONE = new PlanningRequest(null, null, null);
  private static final ScheduledExecutorService PLANNING_TIMER = Executors.newSingleThreadScheduledExecutor(runnable -> {
    Thread thread = new Thread(runnable, "tablesql-planning-timer");
    thread.setDaemon(true);
    return thread;
  });

  private final Bound bound;
  private final HandedOver handedOver;
  private final AtomicReference<DirectPlan> captured;

  private PlanningRequest(Bound bound, HandedOver handedOver, AtomicReference<DirectPlan> captured) {
    this.bound = bound;
    this.handedOver = handedOver;
    this.captured = captured;
  }

  /** Ends a scope of a request: the request it was opened in is the current one again. */
  public interface Scope extends AutoCloseable {
    @Override
    void close();
  }

  static PlanningRequest current() {
    PlanningRequest request = CURRENT.get();
    return request == null ? NONE : request;
  }

  private static Scope open(PlanningRequest request, Runnable onClose) {
    PlanningRequest outer = CURRENT.get();
    CURRENT.set(request);
    return () -> {
      if (outer == null) {
        CURRENT.remove();
      } else {
        CURRENT.set(outer);
      }
      onClose.run();
    };
  }

  /**
   * A statement's query timeout applied to its planning: at the deadline the planner's cancel
   * flag is set, so that Calcite's planner stops exploring, and the statement fails with HYT00.
   */
  static final class Bound {
    final AtomicBoolean expired = new AtomicBoolean();
    private final int seconds;
    private final ScheduledFuture<?> timer;

    private Bound(int seconds) {
      this.seconds = seconds;
      this.timer = PLANNING_TIMER.schedule(() -> expired.set(true), seconds, TimeUnit.SECONDS);
    }

    StoreException timeout() {
      return new StoreException("The statement took longer than its query timeout of " + seconds + " seconds "
          + "(Statement.setQueryTimeout) to plan and was stopped before it ran.", SqlStates.TIMEOUT, null);
    }
  }

  /** Bounds the planning in this scope by a query timeout in seconds (0: no bound). */
  public static Scope bounded(int timeoutSeconds) {
    if (timeoutSeconds <= 0) {
      return () -> { };
    }
    PlanningRequest outer = current();
    Bound bound = new Bound(timeoutSeconds);
    return open(new PlanningRequest(bound, outer.handedOver, outer.captured), () -> bound.timer.cancel(false));
  }

  /** The planning's bound; null for none. */
  Bound bound() {
    return bound;
  }

  /** Whether the planning has run past its query timeout. */
  static boolean expired() {
    Bound bound = current().bound;
    return bound != null && bound.expired.get();
  }

  /** A tree (or the syntax error parsing gave) for the text it was parsed from; taken once. */
  static final class HandedOver {
    private final String sql;
    private final SqlNode tree;
    private final SqlParseException error;
    private final AtomicBoolean taken = new AtomicBoolean();

    private HandedOver(String sql, SqlNode tree, SqlParseException error) {
      this.sql = sql;
      this.tree = tree;
      this.error = error;
    }

    SqlNode tree() {
      return tree;
    }

    SqlParseException error() {
      return error;
    }
  }

  /**
   * Hands Calcite, in this scope, the parse of {@code sql} (a tree, or the error parsing it gave)
   * for the first time it parses that text: Calcite may change a tree as it validates it.
   */
  static Scope handingOver(String sql, SqlNode tree, SqlParseException error) {
    PlanningRequest outer = current();
    return open(new PlanningRequest(outer.bound, new HandedOver(sql, tree, error), outer.captured), () -> { });
  }

  /** The parse handed over for {@code sql}, if there is one not yet taken; null otherwise. */
  HandedOver take(String sql) {
    return handedOver != null && handedOver.sql.equals(sql) && handedOver.taken.compareAndSet(false, true)
        ? handedOver : null;
  }

  /** Runs {@code prepare} in a scope that keeps the direct plan of what it prepares: the plan, or null. */
  static <T> T capturing(AtomicReference<DirectPlan> slot, SqlAction<T> prepare)
      throws java.sql.SQLException {
    PlanningRequest outer = current();
    try (Scope ignored = open(new PlanningRequest(outer.bound, outer.handedOver, slot), () -> { })) {
      return prepare.run();
    }
  }

  /** Keeps the plan just prepared (null: not a direct one) where the capturing scope looks for it. */
  void prepared(DirectPlan direct) {
    if (captured != null) {
      captured.set(direct);
    }
  }
}
