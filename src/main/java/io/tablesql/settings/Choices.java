package io.tablesql.settings;

/**
 * The values of the driver properties that take one of a few words, as Java types: a property
 * declares its enum ({@link PropertyKind#choice}), its words are the constants' names in lower
 * case, and code reads it with {@link ConnectionSettings#choice}, never by comparing text.
 */
public final class Choices {
  private Choices() {
  }

  /** {@code unplannedLookups}: when a point lookup may skip the planner. */
  public enum UnplannedLookups { COLD, ALWAYS, NEVER }

  /** {@code columnLabels}: Calcite's labels for expressions, or PostgreSQL's. */
  public enum ColumnLabels { CALCITE, POSTGRESQL }

  /** {@code httpClient}: the HTTP client the Azure SDK sends requests with. */
  public enum HttpClient { JDK, NETTY }

  /** {@code upsertMode}: what an UPSERT does to the properties it does not name. */
  public enum UpsertMode { MERGE, REPLACE }

  /** {@code keyOrder}: whether the service returns entities in key order. */
  public enum KeyOrder { AUTO, SORTED, UNSORTED }
}
