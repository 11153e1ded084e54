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

  /** Whether the name's last part was written in double quotes: then it matches only in its own case. */
  static boolean quoted(SqlIdentifier name) {
    return name.isComponentQuoted(name.names.size() - 1);
  }
}
