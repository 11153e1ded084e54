/**
 * A connection's state: its settings, store, transaction and pending writes ({@code Session}),
 * and what one statement's execution accumulates ({@code StatementContext}: counters, page size,
 * rows and ETags read, warnings).
 */
package io.tablesql.session;
