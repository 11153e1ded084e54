package io.tablesql.session;

import java.util.Locale;

/** What a SQL statement does, read from its first keyword (comments and parentheses skipped). */
public enum StatementKind {
  QUERY, INSERT, UPSERT, UPDATE, DELETE, DDL, OTHER;

  public static StatementKind of(String sql) {
    int i = 0;
    while (i < sql.length()) {
      char c = sql.charAt(i);
      if (Character.isWhitespace(c) || c == '(') {
        i++;
      } else if (sql.startsWith("--", i)) {
        int end = sql.indexOf('\n', i);
        i = end < 0 ? sql.length() : end + 1;
      } else if (sql.startsWith("/*", i)) {
        int end = sql.indexOf("*/", i + 2);
        i = end < 0 ? sql.length() : end + 2;
      } else {
        break;
      }
    }
    int end = i;
    while (end < sql.length() && Character.isLetter(sql.charAt(end))) {
      end++;
    }
    String keyword = sql.substring(i, end).toUpperCase(Locale.ROOT);
    if (keyword.equals("EXPLAIN")) {
      // EXPLAIN PLAN [...] FOR <statement>: the kind of the statement explained
      int forAt = sql.toUpperCase(Locale.ROOT).indexOf(" FOR ", end);
      return forAt < 0 ? QUERY : of(sql.substring(forAt + 5));
    }
    switch (keyword) {
      case "SELECT": case "WITH": case "VALUES": return QUERY;
      case "INSERT": return INSERT;
      case "UPSERT": return UPSERT;
      case "UPDATE": return UPDATE;
      case "DELETE": return DELETE;
      case "CREATE": case "DROP": case "ALTER": return DDL;
      default: return OTHER;
    }
  }

  /** Writes that change entities read by the same statement, conditional on their ETags. */
  public boolean readsBeforeWriting() {
    return this == UPDATE || this == DELETE;
  }
}
