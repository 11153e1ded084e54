package io.tablesql.query;

/** How a table is read; the names are the ones EXPLAIN and the README use. */
public enum AccessPath {
  POINT_LOOKUP("POINT LOOKUP"),
  MULTI_POINT_LOOKUP("MULTI-POINT LOOKUP"),
  RANGE_SCAN("RANGE SCAN"),
  PARTITION_SCAN("PARTITION SCAN"),
  MULTI_PARTITION_SCAN("MULTI-PARTITION SCAN"),
  TABLE_SCAN("TABLE SCAN"),
  /** Entries of a secondary index by equality (or IN) on its columns, then the rows they name. */
  INDEX_LOOKUP("INDEX LOOKUP"),
  /** Entries of a secondary index in a range of its columns' values, then the rows they name. */
  INDEX_RANGE_SCAN("INDEX RANGE SCAN");

  private final String label;

  AccessPath(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }
}
