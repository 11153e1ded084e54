package io.tablesql.prepare;

import io.tablesql.session.StatementKind;
import java.util.function.BooleanSupplier;

/**
 * The one choice of how a statement runs, for each JDBC call that runs or prepares SQL: without
 * the planner, on a plan of the plan cache (a query's literals lifted into its parameters, or a
 * text's own plan kept as written), as DDL run when executed, or planned by Calcite as written.
 * The JDBC objects carry the route out; when the plan cache cannot serve a route (a lifted query
 * whose plan cannot take its values), {@link #unlifted} gives the route to take instead.
 */
public final class StatementRouter {
  /** The JDBC call a statement comes through. */
  public enum Call {
    /** {@code Statement.executeQuery}. */
    EXECUTE_QUERY,
    /** {@code Statement.execute}. */
    EXECUTE,
    /** {@code Statement.executeUpdate} and {@code executeLargeUpdate}. */
    EXECUTE_UPDATE,
    /** {@code Connection.prepareStatement} with the default cursor (forward-only, read-only). */
    PREPARE,
    /** {@code Connection.prepareStatement} with another cursor: not on the plan cache, whose plans have the default. */
    PREPARE_WITH_CURSOR
  }

  /** How the statement runs. */
  public enum Route {
    /**
     * A Statement's query tried without the planner ({@link UnplannedQuery}) while the JVM has
     * planned nothing yet (or always, by setting); when it cannot, {@link #planned} routes it.
     */
    UNPLANNED,
    /** A query without parameter markers run on a plan of the plan cache, its literals lifted. */
    LIFTED,
    /** A statement prepared as written, on its text's plan kept in the plan cache. */
    KEPT_PLAN,
    /** DDL prepared: Calcite would run it as it prepares it, so it runs when executed instead. */
    DEFERRED_DDL,
    /** A query planned by Calcite as written, its result set the statement's. */
    QUERY_AS_WRITTEN,
    /** Any statement planned by Calcite as written. */
    AS_WRITTEN
  }

  /** A route, with the lifted query for {@link Route#LIFTED}. */
  public record Routed(Route route, LiteralLifter.Lifted lifted) {
    static Routed of(Route route) {
      return new Routed(route, null);
    }
  }

  private final PlanCache cache;
  private final BooleanSupplier unplannedAllowed;

  /** Routes on {@code cache}; {@code unplannedAllowed} tells whether a query may run unplanned now. */
  public StatementRouter(PlanCache cache, BooleanSupplier unplannedAllowed) {
    this.cache = cache;
    this.unplannedAllowed = unplannedAllowed;
  }

  /**
   * The route of {@code text} through {@code call}, on a statement with {@code maxRows} (Calcite
   * applies it when it plans, so such a query is planned as written).
   */
  public Routed route(StatementText text, Call call, long maxRows) {
    return switch (call) {
      case EXECUTE_UPDATE -> Routed.of(Route.AS_WRITTEN);
      case PREPARE -> prepared(text);
      case PREPARE_WITH_CURSOR -> Routed.of(text.kind() == StatementKind.DDL ? Route.DEFERRED_DDL : Route.AS_WRITTEN);
      case EXECUTE_QUERY -> unplannedAllowed.getAsBoolean() ? Routed.of(Route.UNPLANNED) : planned(text, maxRows);
      case EXECUTE -> {
        if (unplannedAllowed.getAsBoolean() && text.kind() == StatementKind.QUERY) {
          yield Routed.of(Route.UNPLANNED);
        }
        LiteralLifter.Lifted lifted = lifted(text, maxRows);
        yield lifted != null ? new Routed(Route.LIFTED, lifted)
            : Routed.of(cache.enabled() && text.kind() == StatementKind.QUERY ? Route.QUERY_AS_WRITTEN
                : Route.AS_WRITTEN);
      }
    };
  }

  /** A Statement's query planned: on the plan cache with its literals lifted, or as written. */
  public Routed planned(StatementText text, long maxRows) {
    LiteralLifter.Lifted lifted = lifted(text, maxRows);
    return lifted != null ? new Routed(Route.LIFTED, lifted) : Routed.of(Route.QUERY_AS_WRITTEN);
  }

  /** The route of a statement whose lifted plan could not serve it: as written, for {@code call}. */
  public Routed unlifted(StatementText text, Call call) {
    return call == Call.PREPARE ? preparedAsWritten(text) : Routed.of(Route.QUERY_AS_WRITTEN);
  }

  private Routed prepared(StatementText text) {
    if (cache.enabled() && cache.keptAsWritten(text)) {
      return Routed.of(Route.KEPT_PLAN); // not lifted: a text with markers would be parsed to learn that
    }
    // a query written without parameter markers, as BI tools send ad-hoc SQL, runs on the plan of its
    // shape like Statement.executeQuery: preparing it again with other literals plans nothing
    LiteralLifter.Lifted lifted = cache.enabled() ? cache.lift(text) : null;
    return lifted != null ? new Routed(Route.LIFTED, lifted) : preparedAsWritten(text);
  }

  /** Queries and writes are planned once per text and kept; DDL runs when executed; the rest as written. */
  private Routed preparedAsWritten(StatementText text) {
    if (cache.enabled() && switch (text.kind()) {
      case QUERY, INSERT, UPSERT, UPDATE, DELETE -> true;
      default -> false;
    }) {
      return Routed.of(Route.KEPT_PLAN);
    }
    return Routed.of(text.kind() == StatementKind.DDL ? Route.DEFERRED_DDL : Route.AS_WRITTEN);
  }

  private LiteralLifter.Lifted lifted(StatementText text, long maxRows) {
    return !cache.enabled() || maxRows != 0 ? null : cache.lift(text);
  }
}
