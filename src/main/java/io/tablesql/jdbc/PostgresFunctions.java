package io.tablesql.jdbc;

/**
 * Functions PostgreSQL's clients call that Calcite's PostgreSQL library lacks, added to each
 * connection's root schema so that they are found unqualified: {@code version()} names tablesql
 * after the PostgreSQL version the server reports (clients read its leading "PostgreSQL n.m").
 */
public final class PostgresFunctions {
  private PostgresFunctions() {
  }

  public static String version() {
    return "PostgreSQL 14.0 (tablesql " + CalciteDriver.MAJOR_VERSION + "." + CalciteDriver.MINOR_VERSION
        + ", SQL over Azure Table storage)";
  }
}
