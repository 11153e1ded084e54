package io.tablesql.ddl;

import org.apache.calcite.sql.SqlIdentifier;

/** Names of tables and views in DDL, as written: unquoted ones match ignoring case, quoted ones exactly. */
final class Names {
  private Names() {
  }

  /** The last part of a possibly qualified name: the object within the account's one schema. */
  static String last(SqlIdentifier name) {
    return name.names.get(name.names.size() - 1);
  }

  /**
   * Whether a name as written denotes the declared table or view named {@code declared} (found
   * ignoring case): unquoted, yes; quoted, only in the same case.
   */
  static boolean denotes(SqlIdentifier name, String declared) {
    int last = name.names.size() - 1;
    return !name.isComponentQuoted(last) || name.names.get(last).equals(declared);
  }
}
