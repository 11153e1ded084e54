package io.tablesql.schema;

import java.util.Locale;

/** Column definitions given in CREATE TABLE, kept in a table of the account itself. */
public final class DeclaredColumns {
  /** The metadata table; hidden from the schema. */
  public static final String METADATA_TABLE = "TablesqlColumns";

  private DeclaredColumns() {
  }

  public static boolean isMetadataTable(String name) {
    return METADATA_TABLE.toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT));
  }
}
