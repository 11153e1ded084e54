package io.tablesql.catalog;

import io.tablesql.errors.SqlStates;
import io.tablesql.keys.KeyLayout;
import io.tablesql.store.StoreException;
import java.util.ArrayList;
import java.util.List;

/**
 * Which entity of a wide row holds each column (docs/architecture/large-values.md, "Wide rows"): a
 * table created with more columns than one entity holds keeps each row as several entities of its
 * partition, and the catalog records each column's {@link Column#part part}. Columns are placed in
 * the order declared, filling each part up to {@link #PROPERTIES_PER_PART}; a table whose columns
 * fit one entity is kept as it always was.
 */
public final class WideRows {
  /**
   * Properties of columns one part holds: the service's 252, less room for what belongs to no
   * column (the row stamp, intent marks) and for long values' parts beyond their weight.
   */
  public static final int PROPERTIES_PER_PART = 240;
  /**
   * Properties of columns placed in part 1 when a wide table is created: the rest of its 240 is
   * room for columns added later, which go there because a connection whose definition predates
   * them (another JVM's, until {@code schemaTtlSeconds}) writes properties it does not know to
   * part 1 too.
   */
  public static final int FIRST_PART_PLACED = 200;
  /** Parts of one row: all are written in one entity group transaction of at most 100 operations. */
  public static final int MAX_PARTS = 8;
  /**
   * Columns of a declared table: what a statement naming all of them compiles to (Calcite's
   * generated code of a prepared INSERT of 1,600 values exceeds what the JVM takes), tested.
   */
  public static final int MAX_COLUMNS = 1_000;
  /**
   * What a column of long values counts in a wide row's part: all the properties its value may
   * take ({@link ValueParts#MAX_PARTS} parts, the count and the blob reference), since a part is
   * not moved to Blob storage for its count of properties.
   */
  private static final int LONG_VALUE_WEIGHT = ValueParts.MAX_PARTS + 2;

  private WideRows() {
  }

  /** What a column counts against its part's properties. */
  static int weight(Column column) {
    return column.large() ? LONG_VALUE_WEIGHT : 1;
  }

  /**
   * Refuses a copy of a table's columns (a materialized view, an index's entries) that one entity
   * could never hold, as a wide table's may be: a copy is one entity per row.
   */
  public static void checkCopy(String what, int columns) {
    if (columns > io.tablesql.txn.EntityRules.MAX_PROPERTIES) {
      throw new StoreException(what + " copies " + columns + " columns, more than one entity holds ("
          + io.tablesql.txn.EntityRules.MAX_PROPERTIES + " properties): its entities are one per row. Copy fewer "
          + "columns.",
          SqlStates.PROGRAM_LIMIT_EXCEEDED, null);
    }
  }

  /** Whether a column is a property of its row's entities (not a key column, which the keys hold). */
  private static boolean isProperty(Column column, KeyLayout layout) {
    return layout.columns().stream().noneMatch(key -> key.name().equals(column.name()));
  }

  /**
   * The columns of a new table with their parts: all in part 1 when they fit one entity, else
   * filled in order. Only tables whose keys tablesql encodes may be wide (a later part's key
   * follows every row's).
   */
  public static List<Column> place(String table, List<Column> columns, KeyLayout layout, boolean encodedKeys) {
    if (columns.size() > MAX_COLUMNS) {
      throw new StoreException("Table " + table + " declares " + columns.size() + " columns; a table holds at most "
          + MAX_COLUMNS + ". Split it into tables of the same key, joined on it.", SqlStates.PROGRAM_LIMIT_EXCEEDED,
          null);
    }
    // whether a row needs more than one entity counts a column as one property, as before wide rows
    if (columns.stream().filter(c -> isProperty(c, layout)).count() <= PROPERTIES_PER_PART) {
      return columns;
    }
    if (!encodedKeys) {
      if (columns.size() > io.tablesql.txn.EntityRules.MAX_PROPERTIES) {
        throw new StoreException("Table " + table + " has " + columns.size() + " columns, more than one entity holds: "
            + "its rows would be kept as several entities, which needs keys tablesql makes. Declare a PRIMARY KEY "
            + "(README, Wide rows).", SqlStates.FEATURE_NOT_SUPPORTED, null);
      }
      return columns; // as before wide rows: a row of more properties than an entity holds is refused when written
    }
    List<Column> placed = new ArrayList<>(columns.size());
    int part = 1;
    int used = 0;
    for (Column column : columns) {
      if (!isProperty(column, layout)) {
        placed.add(column);
        continue;
      }
      if (used + weight(column) > (part == 1 ? FIRST_PART_PLACED : PROPERTIES_PER_PART)) {
        part++;
        used = 0;
      }
      used += weight(column);
      placed.add(part == 1 ? column : column.inPart(part));
    }
    if (part > MAX_PARTS) {
      throw new StoreException("Table " + table + "'s columns need " + part + " entities per row; a row is kept in at "
          + "most " + MAX_PARTS + " (" + MAX_PARTS * PROPERTIES_PER_PART + " properties; a column of long values "
          + "counts " + LONG_VALUE_WEIGHT + ").", SqlStates.PROGRAM_LIMIT_EXCEEDED, null);
    }
    return placed;
  }

  /**
   * A column added to a table: where a wide table's last part has room (every row has all its
   * parts, so no row is rewritten); a table of one entity per row keeps it in that entity, as
   * always. A wide table whose last part is full refuses it.
   */
  /**
   * Checks a change to a wide table's columns ({@code changed}: a column added, or widened to
   * long values): it must stay in part 1 with room there. A connection whose definition predates
   * the change (another JVM's, until {@code schemaTtlSeconds}) writes the properties it does not
   * know to part 1, so a column anywhere else would be read where that connection never wrote it.
   */
  public static void checkChange(TableDefinition table, Column changed, String change) {
    if (table.rowParts() == null) {
      return;
    }
    int used = table.columns().stream().filter(c -> c.part() == 1 && isProperty(c, table.layout())
        && !c.name().equals(changed.name())).mapToInt(WideRows::weight).sum();
    if (changed.part() != 1 || used + weight(changed) > PROPERTIES_PER_PART) {
      throw new StoreException("Cannot " + change + ": table " + table.name() + " keeps each row as several "
          + "entities (a wide row), and " + (changed.part() != 1 ? "the column is in entity " + changed.part()
          + ", whose columns cannot change" : "the first entity, where changed columns go, has no room left ("
          + used + " of its " + PROPERTIES_PER_PART + " places taken; a column of long values takes "
          + LONG_VALUE_WEIGHT + ")") + ". Create a table with the columns you need and copy the rows "
          + "(INSERT INTO ... SELECT).", SqlStates.FEATURE_NOT_SUPPORTED, null);
    }
  }
}
