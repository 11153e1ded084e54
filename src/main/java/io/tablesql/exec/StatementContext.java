package io.tablesql.exec;

import io.tablesql.store.RequestCounters;

/** What the execution of one JDBC statement carries down to its table accesses. */
public record StatementContext(RequestCounters counters, int pageSize) {
}
