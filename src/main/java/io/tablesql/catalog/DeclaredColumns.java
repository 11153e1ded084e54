package io.tablesql.catalog;

import com.azure.data.tables.models.TableEntity;
import io.tablesql.errors.SqlStates;
import io.tablesql.session.Session;
import io.tablesql.store.EdmType;
import io.tablesql.store.ODataLiteral;
import io.tablesql.store.RequestCounters;
import io.tablesql.store.StoreException;
import io.tablesql.store.TableStore;
import io.tablesql.txn.WriteOperation;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Column definitions given in CREATE TABLE, kept in a table of the account itself so every
 * connection sees them: one entity per column, PartitionKey = the table's name in lower case,
 * RowKey = the column's position.
 */
public final class DeclaredColumns {
  /** The metadata table; hidden from the schema. */
  public static final String METADATA_TABLE = "TablesqlColumns";

  private DeclaredColumns() {
  }

  public static boolean isMetadataTable(String name) {
    return METADATA_TABLE.equalsIgnoreCase(name);
  }

  /** The columns declared for a table, in declaration order; empty if none. */
  static List<Column> read(Session session, String table) {
    List<Column> columns = new ArrayList<>();
    try {
      String filter = "PartitionKey eq " + ODataLiteral.render(EdmType.STRING, partitionOf(table), false);
      Iterator<List<TableEntity>> pages = session.store().query(METADATA_TABLE, filter, null, 1000,
          new RequestCounters());
      while (pages.hasNext()) {
        for (TableEntity entity : pages.next()) {
          columns.add(Column.of((String) entity.getProperty("Name"),
              java.util.Set.of(EdmType.valueOf((String) entity.getProperty("EdmType")))));
        }
      }
    } catch (StoreException e) {
      // none declared yet, or a SAS scoped to the user's tables may not read the catalog: the
      // columns are then inferred from the table's entities alone
      if (!SqlStates.TABLE_NOT_FOUND.equals(e.sqlState()) && !SqlStates.INSUFFICIENT_PRIVILEGE.equals(e.sqlState())) {
        throw e;
      }
    }
    return columns;
  }

  /** Records a table's declared columns, replacing any earlier declaration. */
  public static void write(Session session, String table, List<Column> columns) {
    TableStore store = session.store();
    RequestCounters counters = new RequestCounters();
    forget(session, table);
    if (columns.isEmpty()) {
      return;
    }
    store.createTable(METADATA_TABLE, counters);
    List<WriteOperation> operations = new ArrayList<>();
    for (int i = 0; i < columns.size(); i++) {
      Column column = columns.get(i);
      operations.add(new WriteOperation(METADATA_TABLE, partitionOf(table), String.format("%04d", i),
          WriteOperation.Kind.UPSERT_REPLACE, Map.of("Name", column.name(), "EdmType",
          column.singleEdmType().name()), null, "CREATE TABLE " + table));
    }
    submitInGroups(store, operations, counters);
  }

  /** The service takes at most 100 operations per entity group transaction. */
  private static void submitInGroups(TableStore store, List<WriteOperation> operations, RequestCounters counters) {
    for (int i = 0; i < operations.size(); i += 100) {
      store.submit(METADATA_TABLE, operations.subList(i, Math.min(operations.size(), i + 100)), counters);
    }
  }

  /** Removes a table's declared columns. */
  public static void forget(Session session, String table) {
    List<WriteOperation> deletes = new ArrayList<>();
    for (int i = 0; i < read(session, table).size(); i++) {
      deletes.add(new WriteOperation(METADATA_TABLE, partitionOf(table), String.format("%04d", i),
          WriteOperation.Kind.DELETE, Map.of(), null, "DROP TABLE " + table));
    }
    if (!deletes.isEmpty()) {
      submitInGroups(session.store(), deletes, new RequestCounters());
    }
  }

  private static String partitionOf(String table) {
    return table.toLowerCase(Locale.ROOT);
  }
}
