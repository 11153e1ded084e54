package io.tablesql.session;

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
 * What the statement this thread works for carries into code that Calcite calls without an
 * argument of the driver's: the statement executing (its context, on which session), and what
 * its planning needs (the query timeout's bound, the parse handed over, the slot for the plan
 * made without generated code). Calcite's prepare ({@code CalciteConnection.prepareStatement},
 * {@code CalcitePrepareImpl}, its parser factory and DDL executor) and its enumerables take
 * none, so the request travels with the thread: {@link #CURRENT} is the driver's one
 * thread-local. A request is immutable; each scope ({@link #during}, {@link #bounded},
 * {@link #handingOver}, {@link #capturing}) runs with a copy of the one it is in plus what it
 * adds, and puts that one back when it ends.
 */
public final class CurrentStatement {
  /** The request of the statement this thread works for; none outside one. */
  private static final ThreadLocal<CurrentStatement> CURRENT = new ThreadLocal<>();
  private static final CurrentStatement NONE = new CurrentStatement(null, null, null, null, null);
  private static final ScheduledExecutorService PLANNING_TIMER = Executors.newSingleThreadScheduledExecutor(runnable -> {
    Thread thread = new Thread(runnable, "tablesql-planning-timer");
    thread.setDaemon(true);
    return thread;
  });

  private final Session session;
  private final StatementContext executing;
  private final Bound bound;
  private final HandedOver handedOver;
  private final AtomicReference<Object> captured;

  private CurrentStatement(Session session, StatementContext executing, Bound bound, HandedOver handedOver,
      AtomicReference<Object> captured) {
    this.session = session;
    this.executing = executing;
    this.bound = bound;
    this.handedOver = handedOver;
    this.captured = captured;
  }

  /** Ends a scope: the request it was opened in is the current one again. */
  public interface Scope extends AutoCloseable {
    @Override
    void close();
  }

  public static CurrentStatement get() {
    CurrentStatement request = CURRENT.get();
    return request == null ? NONE : request;
  }

  private static Scope open(CurrentStatement request, Runnable onClose) {
    CurrentStatement outer = CURRENT.get();
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

  /** The statement of {@code session} executing on this thread in this scope (see {@link Session#during}). */
  static Scope during(Session session, StatementContext context) {
    CurrentStatement outer = get();
    return open(new CurrentStatement(session, context, outer.bound, outer.handedOver, outer.captured), () -> { });
  }

  /** The statement of {@code on} this thread executes; null if it executes none of that session's. */
  StatementContext executing(Session on) {
    return session == on ? executing : null;
  }

  /**
   * A statement's query timeout applied to its planning: at the deadline the planner's cancel
   * flag is set, so that Calcite's planner stops exploring, and the statement fails with HYT00.
   */
  public static final class Bound {
    private final AtomicBoolean expired = new AtomicBoolean();
    private final int seconds;
    private final ScheduledFuture<?> timer;

    private Bound(int seconds) {
      this.seconds = seconds;
      this.timer = PLANNING_TIMER.schedule(() -> expired.set(true), seconds, TimeUnit.SECONDS);
    }

    /** Set at the deadline: the flag Calcite's planner polls. */
    public AtomicBoolean expired() {
      return expired;
    }

    public StoreException timeout() {
      return new StoreException("The statement took longer than its query timeout of " + seconds + " seconds "
          + "(Statement.setQueryTimeout) to plan and was stopped before it ran.", SqlStates.TIMEOUT, null);
    }
  }

  /** Bounds the planning in this scope by a query timeout in seconds (0: no bound). */
  public static Scope bounded(int timeoutSeconds) {
    if (timeoutSeconds <= 0) {
      return () -> { };
    }
    CurrentStatement outer = get();
    Bound bound = new Bound(timeoutSeconds);
    return open(new CurrentStatement(outer.session, outer.executing, bound, outer.handedOver, outer.captured),
        () -> bound.timer.cancel(false));
  }

  /** The planning's bound; null for none. */
  public Bound bound() {
    return bound;
  }

  /** Whether the planning has run past its query timeout. */
  public static boolean expired() {
    Bound bound = get().bound;
    return bound != null && bound.expired.get();
  }

  /** A tree (or the syntax error parsing gave) for the text it was parsed from; taken once. */
  public static final class HandedOver {
    private final String sql;
    private final SqlNode tree;
    private final SqlParseException error;
    private final AtomicBoolean taken = new AtomicBoolean();

    private HandedOver(String sql, SqlNode tree, SqlParseException error) {
      this.sql = sql;
      this.tree = tree;
      this.error = error;
    }

    public SqlNode tree() {
      return tree;
    }

    public SqlParseException error() {
      return error;
    }
  }

  /**
   * Hands Calcite, in this scope, the parse of {@code sql} (a tree, or the error parsing it gave)
   * for the first time it parses that text: Calcite may change a tree as it validates it.
   */
  public static Scope handingOver(String sql, SqlNode tree, SqlParseException error) {
    CurrentStatement outer = get();
    return open(new CurrentStatement(outer.session, outer.executing, outer.bound, new HandedOver(sql, tree, error),
        outer.captured), () -> { });
  }

  /** The parse handed over for {@code sql}, if there is one not yet taken; null otherwise. */
  public HandedOver take(String sql) {
    return handedOver != null && handedOver.sql.equals(sql) && handedOver.taken.compareAndSet(false, true)
        ? handedOver : null;
  }

  /**
   * Runs {@code prepare} in a scope that keeps, in {@code slot}, the plan made without generated
   * code of what it prepares (the prepare layer's type, which this layer does not know), or null.
   */
  public static <T> T capturing(AtomicReference<Object> slot, Session.Work<T> prepare) throws java.sql.SQLException {
    CurrentStatement outer = get();
    try (Scope ignored = open(new CurrentStatement(outer.session, outer.executing, outer.bound, outer.handedOver,
        slot), () -> { })) {
      return prepare.run();
    }
  }

  /** Keeps the plan just prepared (null: not a direct one) where the capturing scope looks for it. */
  public void prepared(Object direct) {
    if (captured != null) {
      captured.set(direct);
    }
  }
}
