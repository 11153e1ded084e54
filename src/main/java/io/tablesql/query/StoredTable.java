package io.tablesql.query;

import io.tablesql.catalog.TableDefinition;
import io.tablesql.session.Session;

/**
 * The table a query reads or a write changes, as running them needs it: the connection's session,
 * the Azure table the entities are stored in, and the table's declaration (null for a table whose
 * columns are sampled).
 */
public record StoredTable(Session session, String name, TableDefinition definition) {
  /** A declared table, or the entries of an index, stored in its physical table. */
  public StoredTable(Session session, TableDefinition definition) {
    this(session, definition.physicalTable(), definition);
  }
}
