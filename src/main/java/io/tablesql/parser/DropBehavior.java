package io.tablesql.parser;

/** The SQL standard's drop behavior of DROP TABLE, DROP VIEW and ALTER TABLE ... DROP COLUMN. */
public enum DropBehavior {
  /** Neither word was written: tablesql's behavior before drop behaviors (see README). */
  UNSPECIFIED,
  /** Drop what depends on the object with it. */
  CASCADE,
  /** Refuse while anything depends on the object. */
  RESTRICT;

  void unparse(org.apache.calcite.sql.SqlWriter writer) {
    if (this != UNSPECIFIED) {
      writer.keyword(name());
    }
  }
}
