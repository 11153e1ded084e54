package io.tablesql.plan;

/** How a table is read; the names are the ones EXPLAIN and the README use. */
public enum AccessPath {
  POINT_LOOKUP("POINT LOOKUP"),
  MULTI_POINT_LOOKUP("MULTI-POINT LOOKUP"),
  RANGE_SCAN("RANGE SCAN"),
  PARTITION_SCAN("PARTITION SCAN"),
  MULTI_PARTITION_SCAN("MULTI-PARTITION SCAN"),
  TABLE_SCAN("TABLE SCAN");

  private final String label;

  AccessPath(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }
}
