package io.tablesql.exec;

import io.tablesql.jdbc.ConnectionSettings;
import io.tablesql.jdbc.DriverProperty;
import io.tablesql.store.RequestCounters;
import io.tablesql.store.TableStore;

/**
 * The state one connection shares with the tables it plans and runs: settings, the store, and
 * the statement currently executing (whose counters and page size its scans use).
 */
public final class Session {
  private final ConnectionSettings settings;
  private final TableStore store;
  private volatile StatementContext current;

  public Session(ConnectionSettings settings, TableStore store) {
    this.settings = settings;
    this.store = store;
  }

  public ConnectionSettings settings() {
    return settings;
  }

  public TableStore store() {
    return store;
  }

  public boolean pushdown() {
    return settings.getBoolean(DriverProperty.PUSHDOWN);
  }

  public int maxConcurrency() {
    return settings.getInt(DriverProperty.MAX_CONCURRENCY);
  }

  /** Makes {@code context} the one that table accesses started from now on report to. */
  public void begin(StatementContext context) {
    this.current = context;
  }

  /**
   * The context of the statement executing on this connection. Result sets read lazily, so a
   * scan started while a second statement runs on the same connection reports to the newer one.
   */
  public StatementContext current() {
    StatementContext context = current;
    return context != null ? context
        : new StatementContext(new RequestCounters(), settings.getInt(DriverProperty.PAGE_SIZE));
  }
}
