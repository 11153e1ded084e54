package io.tablesql.jdbc;

/**
 * What {@code version()} answers (the catalogs' function, {@code metadata.PgFunctions}): tablesql,
 * named after the PostgreSQL version the server reports (clients read its leading "PostgreSQL n.m").
 */
public final class PostgresFunctions {
  private PostgresFunctions() {
  }

  public static String version() {
    return "PostgreSQL 14.0 (tablesql " + CalciteDriver.MAJOR_VERSION + "." + CalciteDriver.MINOR_VERSION
        + ", SQL over Azure Table storage)";
  }
}
