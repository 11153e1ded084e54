package io.tablesql.catalog;

import io.tablesql.errors.SqlStates;
import io.tablesql.store.StoreException;

/**
 * The failures of naming a table, view, index or column that DDL meets, one message per kind:
 * the SQLState, the name, and what to write instead.
 */
public final class ObjectErrors {
  private ObjectErrors() {
  }

  /**
   * A CREATE of a name that is taken ({@code 42S01}).
   *
   * @param kind   what the name denotes, capitalised ("Table", "Materialized view")
   * @param create the statement that accepts it with IF NOT EXISTS ("CREATE TABLE")
   */
  public static StoreException exists(String kind, String name, String create) {
    return new StoreException(kind + " " + name + " exists already. Use " + create + " IF NOT EXISTS to accept "
        + "that, or another name.", SqlStates.OBJECT_EXISTS, null);
  }

  /**
   * A DROP or ALTER of a name nothing has ({@code 42S02}).
   *
   * @param drop the statement that accepts that with IF EXISTS ("DROP TABLE"), or null where none does
   */
  public static StoreException missing(String kind, String name, String drop) {
    return new StoreException(kind + " " + name + " does not exist."
        + (drop == null ? "" : " Use " + drop + " IF EXISTS to accept that."), SqlStates.TABLE_NOT_FOUND, null);
  }

  /**
   * A column a statement names that its table lacks ({@code 42S22}).
   *
   * @param role how the statement names it ("Column", "PRIMARY KEY column")
   */
  public static StoreException noSuchColumn(String role, String column, String table) {
    return new StoreException(role + " " + column + " is not a column of " + table + ".", SqlStates.COLUMN_NOT_FOUND,
        null);
  }

  /** A table name tablesql keeps for its own tables ({@code 42000}). */
  public static StoreException reservedName(String name) {
    return new StoreException("Table name '" + name + "' is reserved for tablesql's catalog: choose another name.",
        SqlStates.SYNTAX_ERROR, null);
  }
}
