package io.tablesql;

import java.sql.SQLException;

/**
 * Control of the cached lookup tables (driver property {@code lookupTables}). Reach it with
 * {@code connection.unwrap(LookupTables.class)}.
 */
public interface LookupTables {
  /** Drops the cached copy of every lookup table, so the next query reads them again. */
  void refreshLookupTables() throws SQLException;
}
