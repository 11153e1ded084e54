package io.tablesql.server;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;

/**
 * The driver's outcomes as a PostgreSQL client expects them: SQLSTATEs where PostgreSQL's differ
 * from the ODBC-style ones the driver gives, and CommandComplete tags.
 */
final class PgErrors {
  /** The driver's states that PostgreSQL names otherwise; all others pass as they are. */
  private static final Map<String, String> STATES = Map.of(
      "42S02", PgStates.UNDEFINED_TABLE,
      "42S22", PgStates.UNDEFINED_COLUMN,
      "42S01", PgStates.DUPLICATE_TABLE,
      "42S21", PgStates.DUPLICATE_COLUMN,
      "42000", PgStates.SYNTAX_ERROR,
      "HYT00", PgStates.QUERY_CANCELED, // the query timeout: PostgreSQL's statement_timeout cancels
      "HY000", PgStates.INTERNAL_ERROR);

  private PgErrors() {
  }

  static String state(SQLException e) {
    String state = e.getSQLState();
    if (state == null || state.length() != 5) {
      return PgStates.INTERNAL_ERROR;
    }
    return STATES.getOrDefault(state, state);
  }

  /** The CommandComplete tag of a statement that returned no rows: {@code INSERT 0 3}, {@code CREATE TABLE}. */
  static String tag(List<String> words, long count) {
    String first = words.isEmpty() ? "" : words.get(0);
    String second = words.size() > 1 ? words.get(1) : "";
    return switch (first) {
      case "INSERT", "UPSERT" -> "INSERT 0 " + Math.max(count, 0);
      case "UPDATE", "DELETE", "MERGE" -> first + " " + Math.max(count, 0);
      case "CREATE", "DROP", "ALTER" -> first + " " + switch (second) {
        case "UNIQUE" -> "INDEX";
        case "MATERIALIZED" -> "MATERIALIZED VIEW";
        case "OR" -> words.size() > 2 && words.get(2).equals("REPLACE") ? "VIEW" : second;
        default -> second;
      };
      default -> first;
    };
  }
}
