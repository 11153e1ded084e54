package io.tablesql.prepare;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.tablesql.session.StatementKind;
import io.tablesql.store.AccountMetrics;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A connection's planned statements, keyed by their text: a query's with literals lifted into
 * parameters ({@link LiteralLifter}), so an ad-hoc query differing only in literals is not
 * planned again; a statement prepared with parameter markers of its own (a query or a write) as
 * written, so that preparing it again, as Spring's JdbcTemplate and Hibernate do for each
 * execution, plans nothing. Each plan is a prepared statement of the underlying Calcite
 * connection; one in use (by an open result set or prepared statement) is never handed out twice.
 */
public final class PlanCache {
  private static final int IDLE_PER_PLAN = 4;

  private final Connection calcite;
  private final java.util.function.Consumer<PreparedStatement> beforeReuse;
  private final int capacity;
  private final LiftTemplates templates;
  /** Idle prepared statements per parameterized text; an evicted text's statements are closed. */
  private final Cache<String, Deque<PreparedStatement>> idle;
  /** Texts that cannot be planned with parameters (Calcite cannot type them): run as written. */
  private final Cache<String, Boolean> unplannable;
  /** The kind of each text whose plans are kept as written: known without parsing the text again. */
  private final Cache<String, StatementKind> keptKinds;
  /** Plans handed out and not yet given back; a plan lent before {@link #clear} is not taken back. */
  private final Set<PreparedStatement> lent = Collections.newSetFromMap(new IdentityHashMap<>());
  /** The direct plan of each plan that has one, until it is closed. */
  private final Map<PreparedStatement, DirectPlan> directPlans = new IdentityHashMap<>();
  private int plansMade;
  private final AccountMetrics metrics;

  /**
   * @param beforeReuse what a statement needs before it runs again (the JDBC layer clears its
   *                    cancel flag)
   */
  public PlanCache(Connection calcite, int capacity, AccountMetrics metrics,
      java.util.function.Consumer<PreparedStatement> beforeReuse) {
    this.calcite = calcite;
    this.beforeReuse = beforeReuse;
    this.metrics = metrics;
    this.capacity = capacity;
    this.templates = new LiftTemplates(Math.max(1, capacity));
    // evictions run in the caller's thread, under this cache's lock, like every other change
    this.idle = Caffeine.newBuilder().maximumSize(capacity).executor(Runnable::run)
        .<String, Deque<PreparedStatement>>removalListener((sql, pool, cause) -> {
          if (cause.wasEvicted() && pool != null) {
            pool.forEach(this::close);
          }
        }).build();
    this.unplannable = Caffeine.newBuilder().maximumSize(capacity).executor(Runnable::run).build();
    this.keptKinds = Caffeine.newBuilder().maximumSize(capacity).executor(Runnable::run).build();
  }

  /** A query with its literals lifted (see {@link LiteralLifter}), or null if it is not a plain query. */
  public LiteralLifter.Lifted lift(StatementText text) {
    return templates.lift(text);
  }

  public boolean enabled() {
    return capacity > 0;
  }

  /**
   * A prepared statement for the lifted query with its values bound, or null when the query
   * must run as written (it cannot be planned with parameters, or a value does not fit).
   */
  public synchronized PreparedStatement acquire(LiteralLifter.Lifted lifted) {
    if (unplannable.getIfPresent(lifted.sql()) != null) {
      return null;
    }
    PreparedStatement statement = null;
    try {
      statement = reuse(lifted.sql());
      if (statement == null) {
        statement = lendNew(DirectPlan.preparing(() -> calcite.prepareStatement(lifted.sql())));
      }
      if (bind(statement, lifted.values())) {
        return statement;
      }
      release(lifted.sql(), statement);
      return null;
    } catch (SQLException | RuntimeException | AssertionError | ExceptionInInitializerError e) { // planned as written, which reports it
      if (statement != null) {
        lent.remove(statement);
        close(statement);
      }
      unplannable.put(lifted.sql(), true);
      return null;
    }
  }

  /**
   * Whether this text was prepared as written before on this connection (so it is not lifted);
   * if so, its kind is known without a parse. A marker-free query goes through {@link #lift} first.
   */
  public boolean keptAsWritten(StatementText text) {
    StatementKind kind = keptKinds.getIfPresent(text.sql());
    if (kind != null) {
      text.known(kind);
    }
    return kind != null;
  }

  /**
   * An idle plan of a text prepared as written before on this connection, lent until its
   * statement is closed ({@link #release}); null if there is none.
   */
  public synchronized PreparedStatement reuse(String sql) {
    Deque<PreparedStatement> pool = idle.getIfPresent(sql);
    PreparedStatement statement = pool == null ? null : pool.poll();
    metrics.planCache(statement != null);
    if (statement != null) {
      lent.add(statement);
      beforeReuse.accept(statement); // a plan cancelled in an earlier execution runs again
    }
    return statement;
  }

  /** A plan just made for a text prepared as written, lent so that closing its statement keeps it. */
  public synchronized void lend(StatementText text, DirectPlan.Prepared prepared) {
    keptKinds.put(text.sql(), text.kind());
    lendNew(prepared);
  }

  /** Lends a plan just made, with its direct plan if it has one. */
  private PreparedStatement lendNew(DirectPlan.Prepared prepared) {
    lent.add(prepared.statement());
    if (prepared.direct() != null) {
      directPlans.put(prepared.statement(), prepared.direct());
    }
    plansMade++;
    return prepared.statement();
  }

  /**
   * Takes a plan back once its result set or its statement is closed, reset to how it was
   * planned; one lent before the cache was cleared (the schema changed) is closed instead.
   */
  public synchronized void release(String sql, PreparedStatement statement) {
    try {
      if (!lent.remove(statement) || statement.isClosed()) {
        close(statement);
        return;
      }
      statement.clearParameters();
      statement.clearBatch();
      statement.setMaxRows(0);
      statement.setMaxFieldSize(0);
      statement.setFetchDirection(java.sql.ResultSet.FETCH_FORWARD);
      statement.setFetchSize(0);
      statement.setQueryTimeout(0);
      statement.clearWarnings();
    } catch (SQLException e) {
      close(statement);
      return;
    }
    Deque<PreparedStatement> pool = idle.get(sql, k -> new ArrayDeque<>());
    if (pool.size() < IDLE_PER_PLAN) {
      pool.push(statement);
    } else {
      close(statement);
    }
  }

  /** The direct plan of a plan this cache lent, or null if it runs through Calcite. */
  public synchronized DirectPlan direct(PreparedStatement plan) {
    return directPlans.get(plan);
  }

  /** How many statements this cache has planned: a measure of its hits, for tests. */
  public synchronized int plansMade() {
    return plansMade;
  }

  /** How many texts have idle plans: at most the capacity. */
  public synchronized long plannedTexts() {
    idle.cleanUp();
    return idle.estimatedSize();
  }

  public synchronized void clear() {
    idle.asMap().values().forEach(pool -> pool.forEach(this::close));
    idle.invalidateAll();
    unplannable.invalidateAll();
    keptKinds.invalidateAll();
    lent.clear();
  }

  /** Binds lifted values where each fits its parameter's type exactly; false otherwise. */
  private static boolean bind(PreparedStatement statement, List<Object> values) throws SQLException {
    ParameterMetaData parameters = statement.getParameterMetaData();
    if (parameters.getParameterCount() != values.size()) {
      return false;
    }
    for (int i = 0; i < values.size(); i++) {
      Object value = values.get(i);
      int type = parameters.getParameterType(i + 1);
      try {
        if (value instanceof String text && (type == Types.VARCHAR || type == Types.CHAR)) {
          statement.setString(i + 1, text);
        } else if (value instanceof Boolean flag && type == Types.BOOLEAN) {
          statement.setBoolean(i + 1, flag);
        } else if (value instanceof BigDecimal number && isNumeric(type)) {
          bindNumber(statement, i + 1, type, number);
        } else {
          return false;
        }
      } catch (ArithmeticException e) {
        return false; // out of the parameter's range: the query runs as written
      }
    }
    return true;
  }

  private static boolean isNumeric(int type) {
    return type == Types.INTEGER || type == Types.SMALLINT || type == Types.TINYINT || type == Types.BIGINT
        || type == Types.DOUBLE || type == Types.FLOAT || type == Types.REAL || type == Types.DECIMAL;
  }

  private static void bindNumber(PreparedStatement statement, int index, int type, BigDecimal number)
      throws SQLException {
    switch (type) {
      case Types.BIGINT: statement.setLong(index, number.longValueExact()); break;
      case Types.INTEGER: statement.setInt(index, number.intValueExact()); break;
      case Types.SMALLINT: statement.setShort(index, number.shortValueExact()); break;
      case Types.TINYINT: statement.setByte(index, number.byteValueExact()); break;
      case Types.DECIMAL: statement.setBigDecimal(index, number); break;
      default: statement.setDouble(index, number.doubleValue()); break;
    }
  }

  private void close(PreparedStatement statement) {
    directPlans.remove(statement);
    try {
      statement.close();
    } catch (SQLException ignored) {
      // closing a cached plan cannot fail in a way the user needs to know
    }
  }
}
