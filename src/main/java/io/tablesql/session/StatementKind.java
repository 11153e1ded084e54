package io.tablesql.session;

/** What a SQL statement does, as its parse says (the driver's {@code StatementText}). */
public enum StatementKind {
  QUERY, INSERT, UPSERT, UPDATE, DELETE, DDL, OTHER;

  /** Writes that change entities read by the same statement, conditional on their ETags. */
  public boolean readsBeforeWriting() {
    return this == UPDATE || this == DELETE;
  }
}
