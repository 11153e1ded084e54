package io.tablesql.ddl;

import io.tablesql.catalog.Catalog;
import io.tablesql.catalog.Column;
import io.tablesql.catalog.IndexDefinition.IndexColumn;
import io.tablesql.catalog.IndexDefinition;
import io.tablesql.catalog.ObjectErrors;
import io.tablesql.catalog.TableDefinition;
import io.tablesql.errors.SqlStates;
import io.tablesql.exec.IndexBuild;
import io.tablesql.keys.KeyLayout;
import io.tablesql.keys.TemplateKey;
import io.tablesql.plan.FullScans;
import io.tablesql.session.Session;
import io.tablesql.store.RequestCounters;
import io.tablesql.store.StoreException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** Runs CREATE INDEX, DROP INDEX and ALTER INDEX ({@link IndexStatement}) against the catalog and the account. */
final class Indexes {
  private Indexes() {
  }

  static void execute(Session session, IndexStatement statement, Consumer<String> progress) {
    switch (statement.kind()) {
      case CREATE -> create(session, statement, progress);
      case DROP -> drop(session, statement);
      default -> rebuild(session, statement, progress);
    }
  }

  private static void create(Session session, IndexStatement statement, Consumer<String> progress) {
    Catalog.Contents catalog = Catalog.fresh(session);
    if (owner(catalog, statement.name()) != null) {
      if (statement.ifExistsClause()) {
        return;
      }
      throw ObjectErrors.exists("Index", statement.name(), "CREATE INDEX");
    }
    TableDefinition table = catalog.table(statement.table(), statement.tableQuoted());
    if (table == null) {
      throw new StoreException("Table " + statement.table() + " is not a table declared with CREATE TABLE, so it "
          + "cannot have an index: declare one (CREATE TABLE ... with a PRIMARY KEY, or without one) and INSERT its "
          + "rows.", SqlStates.TABLE_NOT_FOUND, null);
    }
    if (table.layout().isMapped() && statement.adoptedRowKey() == null && statement.local()) {
      throw new StoreException("A LOCAL index of " + table.name() + ", mapped over an existing Azure table, would "
          + "write tablesql's entries into the application's partitions. Leave LOCAL out for a GLOBAL index (its "
          + "entries in a table of their own), or adopt the entities the application keeps as its index (LOCAL ROW "
          + "KEY 'prefix_{column}').", SqlStates.FEATURE_NOT_SUPPORTED, null);
    }
    if (statement.local() && table.rowParts() != null) {
      throw new StoreException("Table " + table.name() + " keeps each row as several entities (a wide row), which a "
          + "LOCAL index's entries beside them are not yet. Leave LOCAL out for a GLOBAL index (its entries in a "
          + "table of their own).", SqlStates.FEATURE_NOT_SUPPORTED, null);
    }
    if (!table.layout().isMapped() && statement.adoptedRowKey() != null) {
      throw new StoreException("ROW KEY adopts the entities an application keeps as index entries of a table mapped "
          + "OVER its data; " + table.name() + " is declared, so tablesql writes its index entries itself. Leave "
          + "ROW KEY out.", SqlStates.FEATURE_NOT_SUPPORTED, null);
    }
    List<IndexColumn> columns = new ArrayList<>();
    for (IndexColumn named : statement.columns()) {
      Column column = column(table, named.column());
      if (column.referencesBlob()) {
        throw referencesBlob(column);
      }
      if (TableDefinition.keyColumn(column, false) == null) {
        throw new StoreException("Column " + column.name() + " (" + column.sqlType() + ") cannot be indexed: index "
            + "entries are keyed by their values, and keys hold text, numbers, dates, timestamps, booleans, UUIDs "
            + "and binary values.", SqlStates.FEATURE_NOT_SUPPORTED, null);
      }
      if (columns.stream().anyMatch(c -> c.column().equals(column.name()))) {
        throw new StoreException("Column " + column.name() + " is named twice in index " + statement.name() + ".",
            SqlStates.SYNTAX_ERROR, null);
      }
      columns.add(new IndexColumn(column.name(), named.descending()));
    }
    List<String> include = new ArrayList<>();
    for (String named : statement.include()) {
      Column column = column(table, named);
      if (column.referencesBlob()) {
        throw referencesBlob(column);
      }
      if (table.shape().keyPosition(column) >= 0 || columns.stream().anyMatch(c -> c.column().equals(column.name()))) {
        continue; // entries name the row's keys and hold the indexed values anyway
      }
      include.add(column.name());
    }
    io.tablesql.catalog.WideRows.checkCopy("Index " + statement.name(), columns.size() + include.size() + 2);
    checkScope(table, statement, columns);
    if (statement.adoptedRowKey() != null) {
      checkAdoption(table, statement, columns);
    }
    if (table.layout().isMapped()) {
      for (TableDefinition other : catalog.tables().values()) {
        if (other != table && other.physicalTable().equalsIgnoreCase(table.physicalTable())
            && (!other.indexes().isEmpty() || !other.materializedViews().isEmpty())) {
          throw new StoreException("Table " + other.name() + ", mapped over the same Azure table, has indexes or "
              + "materialized views already: one table over an Azure table keeps them, so that every write knows "
              + "which to keep.", SqlStates.FEATURE_NOT_SUPPORTED, null);
        }
      }
    }
    String physical = statement.local() ? table.physicalTable()
        : DeclaredTables.createPhysicalTable(session, "ix" + table.name() + statement.name(), true);
    String prefix = statement.local() && statement.adoptedRowKey() == null
        ? IndexDefinition.LOCAL_MARK + randomToken() + "!" : null;
    IndexDefinition index = new IndexDefinition(statement.name(), columns, include, statement.unique(), physical,
        prefix, statement.adoptedRowKey(), false, null, false).builtVerifiedIfItCan();
    TableDefinition declared;
    try {
      declared = Catalog.update(session, table.name(), definition -> {
        if (definition.index(index.name()) != null) {
          throw new StoreException("Index " + index.name() + " exists already.", SqlStates.OBJECT_EXISTS, null);
        }
        List<IndexDefinition> indexes = new ArrayList<>(definition.indexes());
        indexes.add(index);
        return definition.withIndexes(indexes);
      });
    } catch (RuntimeException e) {
      if (!index.local()) {
        session.store().deleteTable(physical, new RequestCounters());
      }
      throw e;
    }
    session.schemaChanged();
    try {
      report(index, build(session, declared, index, false, progress), progress);
    } catch (StoreException e) {
      if (SqlStates.UNIQUE_VIOLATION.equals(e.sqlState())) {
        drop(session, table, index); // the rows break it: nothing of it stays
        throw new StoreException("CREATE UNIQUE INDEX " + index.name() + " failed: " + e.getMessage()
            .replace(" Nothing was written.", "") + " The index was not created.", e.sqlState(), null);
      }
      throw new StoreException(e.getMessage() + " Index " + index.name() + " is recorded but not ready; ALTER INDEX "
          + index.name() + " REBUILD goes on from where this build stopped.", e.sqlState(), e);
    }
    session.schemaChanged();
  }

  /** An index would copy or key a blob's content, which tablesql reads but does not keep. */
  static StoreException referencesBlob(Column column) {
    return new StoreException("Column " + column.name() + " REFERENCES BLOB: its value is read from the application's "
        + "blob each time, and is not kept in an index or a materialized view.", SqlStates.FEATURE_NOT_SUPPORTED, null);
  }

  private static Column column(TableDefinition table, String name) {
    return table.columns().stream().filter(c -> c.name().equalsIgnoreCase(name)).findFirst()
        .orElseThrow(() -> ObjectErrors.noSuchColumn("Column", name, table.name()));
  }

  /**
   * What each scope can do: UNIQUE needs GLOBAL, INCLUDE on GLOBAL needs a declared table, LOCAL
   * needs declared partition columns.
   */
  private static void checkScope(TableDefinition table, IndexStatement statement, List<IndexColumn> columns) {
    if (!statement.local()) {
      if (!statement.include().isEmpty() && table.layout().isMapped()) {
        throw new StoreException("INCLUDE on a GLOBAL index of " + table.name() + ", mapped over an existing Azure "
            + "table, is refused: a covering entry is trusted once verified, and the application's own writes to "
            + "its rows would not mark it unverified first, so a query could read values the row no longer holds. "
            + "Leave INCLUDE out (each row found is read to check it), or keep the copies as a materialized view "
            + "keyed by the indexed columns.", SqlStates.FEATURE_NOT_SUPPORTED, null);
      }
      return;
    }
    if (statement.unique()) {
      throw new StoreException("A UNIQUE index must be GLOBAL: a LOCAL index's entries sit in each row's partition, "
          + "so it cannot see another partition's values. Leave LOCAL out.", SqlStates.FEATURE_NOT_SUPPORTED, null);
    }
    if (table.layout().isGenerated()) {
      throw new StoreException("Table " + table.name() + " has no PRIMARY KEY, so no query can name a partition of it "
          + "for a LOCAL index to serve. Leave LOCAL out for a GLOBAL index.", SqlStates.FEATURE_NOT_SUPPORTED, null);
    }
    for (IndexColumn column : columns) {
      if (table.layout().partition().stream().anyMatch(key -> key.name().equals(column.column()))) {
        throw new StoreException("Column " + column.column() + " makes up the partition that a LOCAL index's entries "
            + "live in already; index the other columns.", SqlStates.SYNTAX_ERROR, null);
      }
    }
  }

  /**
   * What adopting an application's index entities needs: a LOCAL index without INCLUDE (the
   * entities are whole copies of the row), a RowKey template over exactly the indexed columns, and
   * rows that hold their RowKey's fields as properties (KEY PROPERTIES), by which an entity names
   * its row.
   */
  private static void checkAdoption(TableDefinition table, IndexStatement statement, List<IndexColumn> columns) {
    String template = statement.adoptedRowKey();
    if (!statement.local() || !statement.include().isEmpty()) {
      throw new StoreException("Index " + statement.name() + " adopts entities in each row's partition, copies of "
          + "the whole row: write it LOCAL ROW KEY '" + template + "', without INCLUDE.",
          SqlStates.FEATURE_NOT_SUPPORTED, null);
    }
    List<String> fields;
    try {
      // read as the index's entries will be: fields of the indexed columns only
      fields = TemplateKey.parse(template, name -> columns.stream().filter(c -> c.column().equalsIgnoreCase(name))
          .findFirst().map(c -> TableDefinition.keyColumn(table.column(c.column()), false)).orElse(null))
          .columns().stream().map(KeyLayout.KeyColumn::name).toList();
    } catch (IllegalArgumentException e) {
      throw new StoreException("The ROW KEY template '" + template + "' of index " + statement.name() + " cannot be "
          + "used: " + e.getMessage() + ". It must be made of the indexed columns ("
          + String.join(", ", columns.stream().map(IndexColumn::column).toList()) + ").", SqlStates.SYNTAX_ERROR, e);
    }
    if (fields.size() != columns.size() || new java.util.HashSet<>(fields).size() != fields.size()) {
      throw new StoreException("The ROW KEY template '" + template + "' of index " + statement.name() + " must be "
          + "made of the indexed columns (" + String.join(", ", columns.stream().map(IndexColumn::column).toList())
          + "), each once, as the application composes its index entities' RowKeys.", SqlStates.SYNTAX_ERROR, null);
    }
    List<String> missing = table.layout().row().stream().map(key -> key.name())
        .filter(name -> !table.layout().keyProperties().contains(name)).toList();
    if (!missing.isEmpty()) {
      throw new StoreException("Index " + statement.name() + " adopts entities that name their row by its key "
          + "fields held as properties, and " + table.name() + " does not declare " + String.join(", ", missing)
          + " so: map it with KEY PROPERTIES (" + String.join(", ", missing) + "), as the application stores them.",
          SqlStates.FEATURE_NOT_SUPPORTED, null);
    }
  }

  /** Six random base-36 characters: a local index's entries are never taken for a dropped one's. */
  private static String randomToken() {
    return Long.toString(36L * 36 * 36 * 36 * 36 + java.util.concurrent.ThreadLocalRandom.current()
        .nextLong(35L * 36 * 36 * 36 * 36 * 36), 36);
  }

  private static void drop(Session session, IndexStatement statement) {
    TableDefinition table = owner(Catalog.fresh(session), statement.name());
    if (table == null) {
      if (statement.ifExistsClause()) {
        return;
      }
      throw ObjectErrors.missing("Index", statement.name(), "DROP INDEX");
    }
    drop(session, table, table.index(statement.name()));
  }

  /** Forgets an index, then deletes its entries: a global one's with their table (one request). */
  static void drop(Session session, TableDefinition table, IndexDefinition index) {
    Catalog.update(session, table.name(), definition -> {
      IndexDefinition current = definition.index(index.name());
      if (current == null) {
        return null;
      }
      List<IndexDefinition> indexes = new ArrayList<>(definition.indexes());
      indexes.remove(current);
      return definition.withIndexes(indexes);
    });
    // an adopted index's entities are the application's: dropping it stops keeping them, never deletes them
    if (index.local() && !index.adopted()) {
      IndexBuild.deleteLocalEntries(session, index, FullScans.fullScan(session, index.entries(table)));
    } else if (!index.local()) {
      session.store().deleteTable(index.table(), new RequestCounters());
    }
    session.schemaChanged();
  }

  private static void rebuild(Session session, IndexStatement statement, Consumer<String> progress) {
    TableDefinition table = owner(Catalog.fresh(session), statement.name());
    if (table == null) {
      throw ObjectErrors.missing("Index", statement.name(), null);
    }
    IndexDefinition index = table.index(statement.name());
    boolean resume = statement.kind() == IndexStatement.Kind.REBUILD && !index.ready();
    report(index, build(session, table, index, resume, progress), progress);
    session.schemaChanged();
  }

  /** Builds an index, reading the table's rows and the index's entries as every read of them does. */
  private static IndexBuild.Outcome build(Session session, TableDefinition table, IndexDefinition index,
      boolean resume, Consumer<String> progress) {
    return IndexBuild.run(session, table, index, FullScans.fullScan(session, table),
        FullScans.fullScan(session, index.entries(table)), resume, progress);
  }

  /** What a build or verification did, as the statement's last warning. */
  private static void report(IndexDefinition index, IndexBuild.Outcome outcome, Consumer<String> progress) {
    progress.accept("Index " + index.name() + ": " + outcome.rows() + " rows indexed, "
        + (index.adopted() ? outcome.entriesMissing() + " missing and " + (outcome.entriesWritten()
        - outcome.entriesMissing()) + " differing entries written (the others were right), " : "")
        + outcome.entriesChecked() + " entries checked, " + outcome.staleRemoved()
        + (index.adopted() ? " orphaned" : " stale") + " entries removed"
        + (outcome.staleLeft() == 0 ? "" : ", " + outcome.staleLeft() + (index.adopted()
        ? " left (entities that name no row by their key properties: the application's)"
        : " left (younger than indexGraceSeconds: their writes may be under way)"))
        + (index.coveringGlobal() ? ", " + outcome.entriesSettled() + " entries verified or given their rows' values"
            + " (entries younger than indexGraceSeconds are verified when read later)" : "") + ".");
  }

  /** The declared table with an index of this name, or null. */
  static TableDefinition owner(Catalog.Contents catalog, String indexName) {
    return catalog.tables().values().stream().filter(t -> t.index(indexName) != null).findFirst().orElse(null);
  }
}
