package io.tablesql.ddl;

import io.tablesql.catalog.Catalog;
import io.tablesql.catalog.Column;
import io.tablesql.catalog.DeclaredColumns;
import io.tablesql.catalog.ObjectErrors;
import io.tablesql.catalog.ShapeCache;
import io.tablesql.catalog.TableDefinition;
import io.tablesql.catalog.ViewDefinition;
import io.tablesql.errors.SqlStates;
import io.tablesql.exec.LookupCache;
import io.tablesql.intent.Intent;
import io.tablesql.parser.AlterIndexNode;
import io.tablesql.parser.AlterMaterializedViewNode;
import io.tablesql.parser.AlterTableNode;
import io.tablesql.parser.CreateIndexNode;
import io.tablesql.parser.CreateMaterializedViewNode;
import io.tablesql.parser.CreateTableNode;
import io.tablesql.parser.CreateViewNode;
import io.tablesql.parser.DropBehavior;
import io.tablesql.parser.DropIndexNode;
import io.tablesql.parser.DropMaterializedViewNode;
import io.tablesql.parser.DropTableNode;
import io.tablesql.parser.DropViewNode;
import io.tablesql.parser.TableKeyNode;
import io.tablesql.plan.AzureSchema;
import io.tablesql.session.Session;
import io.tablesql.store.EdmType;
import io.tablesql.store.RequestCounters;
import io.tablesql.store.StoreException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.prepare.CalcitePrepareImpl;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.server.DdlExecutorImpl;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.ddl.SqlColumnDeclaration;
import org.apache.calcite.sql.ddl.SqlKeyConstraint;
import org.apache.calcite.sql.dialect.CalciteSqlDialect;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * DDL on the storage account, as tablesql's grammar reads it (see {@code src/main/codegen}):
 * CREATE and DROP of tables and views, ALTER TABLE, and CREATE, DROP and ALTER INDEX; what the
 * grammar reads but tablesql cannot do (CREATE TABLE AS, CHECK, DEFAULT) is refused by name.
 * Calcite calls the {@code execute} method matching the statement's node type.
 */
public final class AzureDdlExecutor extends DdlExecutorImpl {
  static final AzureDdlExecutor INSTANCE = new AzureDdlExecutor();

  /** Azure's rule for table names. */
  private static final Pattern TABLE_NAME = Pattern.compile("[A-Za-z][A-Za-z0-9]{2,62}");

  private AzureDdlExecutor() {
  }

  /**
   * CREATE TABLE [IF NOT EXISTS] name (columns): with a PRIMARY KEY, or without one (keys made up
   * per row), a declared table (see {@link DeclaredTables}); OVER an existing table, a mapping;
   * with columns named PartitionKey and RowKey (as a PRIMARY KEY or not), an Azure table whose
   * entities keep exactly those keys and whose column types are remembered in the account.
   */
  public void execute(CreateTableNode create, CalcitePrepare.Context context) {
    Session session = writableSession(context);
    String name = Names.last(create.name);
    if (create.query != null) {
      throw new StoreException("CREATE TABLE ... AS SELECT is not supported: CREATE TABLE, then INSERT INTO ... "
          + "SELECT.", SqlStates.FEATURE_NOT_SUPPORTED, null);
    }
    if (!create.checkConstraints().isEmpty()) {
      throw new StoreException("CHECK constraints are not supported.", SqlStates.FEATURE_NOT_SUPPORTED, null);
    }
    List<SqlColumnDeclaration> declarations = create.columns();
    for (SqlColumnDeclaration declaration : declarations) {
      if (declaration.expression != null) {
        throw new StoreException("Column " + declaration.name.getSimple() + " has a DEFAULT, which tablesql does not "
            + "support: a row inserted without the column holds NULL. Leave DEFAULT out and give the value in each "
            + "INSERT.", SqlStates.FEATURE_NOT_SUPPORTED, null);
      }
    }
    List<TableKeyNode> keys = create.primaryKeys();
    if (keys.size() > 1) {
      throw new StoreException("Table " + name + " declares more than one PRIMARY KEY; a table has one.",
          SqlStates.SYNTAX_ERROR, null);
    }
    TableKeyNode key = keys.isEmpty() ? null : keys.get(0);
    List<Unique> uniques = uniques(create.uniqueConstraints());
    for (io.tablesql.parser.BlobReferenceNode reference : create.blobReferences()) {
      if (!reference.referencesBlob()) {
        throw new StoreException("Column " + reference.column.getSimple() + " of " + name + " REFERENCES "
            + reference.referenced + ": foreign keys are not supported. REFERENCES BLOB declares a column whose "
            + "property names a blob.", SqlStates.FEATURE_NOT_SUPPORTED, null);
      }
      if (create.mapping == null) {
        throw new StoreException("Column " + reference.column.getSimple() + " of " + name + " REFERENCES BLOB, which "
            + "maps an application's blob names in a table CREATE TABLE ... OVER maps; a table tablesql creates "
            + "keeps long values itself: declare the column CLOB or BLOB.", SqlStates.FEATURE_NOT_SUPPORTED, null);
      }
    }
    if (create.mapping != null) {
      if (!uniques.isEmpty()) {
        throw noIndexOnMapped(name);
      }
      DeclaredTables.map(session, name, Names.quoted(create.name), create.ifNotExists, declarations, key,
          create.mapping, create.blobReferences().stream().map(r -> r.column.getSimple()).toList());
      return;
    }
    boolean namesServiceKeys = declarations.stream().map(d -> d.name.getSimple())
        .anyMatch(column -> column.equalsIgnoreCase(Column.PARTITION_KEY) || column.equalsIgnoreCase(Column.ROW_KEY));
    if (key != null && !namesServiceKeys) {
      if (DeclaredTables.create(session, name, Names.quoted(create.name), create.ifNotExists, declarations, key)) {
        addUniqueIndexes(session, name, uniques, key.columnNames());
      }
      return;
    }
    if (key == null && !declarations.isEmpty() && !namesServiceKeys) {
      if (DeclaredTables.createWithoutKey(session, name, Names.quoted(create.name), create.ifNotExists,
          declarations)) {
        addUniqueIndexes(session, name, uniques, List.of());
      }
      return;
    }
    createAzureTable(session, name, create.ifNotExists, declarations, key, uniques);
  }

  /**
   * An Azure table whose entities keep the keys the PartitionKey and RowKey columns give, with
   * its columns' types remembered: the raw layout, written with or without {@code PRIMARY KEY
   * (PartitionKey, RowKey)}.
   */
  private static void createAzureTable(Session session, String name, boolean ifNotExists,
      List<SqlColumnDeclaration> declarations, TableKeyNode key, List<Unique> uniques) {
    if (key != null && !isServiceKey(key)) {
      throw new StoreException("The PRIMARY KEY of " + name + " names the service's own key columns: over "
          + "PartitionKey and RowKey the key is PRIMARY KEY (PartitionKey, RowKey), in that order and ascending, "
          + "which keeps each entity's keys as written. A key of other columns needs other column names.",
          SqlStates.SYNTAX_ERROR, null);
    }
    if (!uniques.isEmpty()) {
      throw new StoreException("Table " + name + " has PartitionKey and RowKey columns, so its entities are the "
          + "Azure table's own and other programs may write them without an index; UNIQUE needs a table declared "
          + "over other column names.", SqlStates.FEATURE_NOT_SUPPORTED, null);
    }
    tableName(name);
    List<Column> columns = new ArrayList<>();
    for (SqlColumnDeclaration declaration : declarations) {
      columns.add(column(declaration));
    }
    if (key != null) {
      for (String keyColumn : key.columnNames()) {
        if (columns.stream().noneMatch(column -> column.name().equalsIgnoreCase(keyColumn))) {
          throw ObjectErrors.noSuchColumn("PRIMARY KEY column", keyColumn, name);
        }
      }
    }
    if (!session.store().createTable(name, new RequestCounters())) {
      if (ifNotExists) {
        return;
      }
      throw ObjectErrors.exists("Table", name, "CREATE TABLE");
    }
    DeclaredColumns.write(session, name, columns);
    ShapeCache.invalidate(session, name);
    session.schemaChanged();
  }

  /** {@code PRIMARY KEY (PartitionKey, RowKey)} (or with the PartitionKey in its own parentheses), ascending. */
  private static boolean isServiceKey(TableKeyNode key) {
    List<String> columns = key.columnNames();
    return columns.size() == 2 && key.partitionColumns == 1 && columns.get(0).equalsIgnoreCase(Column.PARTITION_KEY)
        && columns.get(1).equalsIgnoreCase(Column.ROW_KEY) && !key.descending.contains(true);
  }

  /** A UNIQUE constraint: its name as written (null without CONSTRAINT name) and its columns. */
  private record Unique(String name, List<String> columns) {
    /** The index's name: the constraint's, or {@code <table>_<columns>_key} as PostgreSQL names it. */
    String indexName(String table) {
      return name != null ? name : table + "_" + String.join("_", columns) + "_key";
    }
  }

  private static List<Unique> uniques(List<SqlKeyConstraint> constraints) {
    List<Unique> uniques = new ArrayList<>();
    for (SqlKeyConstraint constraint : constraints) {
      List<String> columns = new ArrayList<>();
      for (SqlNode column : (SqlNodeList) constraint.getOperandList().get(1)) {
        columns.add(((SqlIdentifier) column).getSimple());
      }
      SqlIdentifier name = (SqlIdentifier) constraint.getOperandList().get(0);
      uniques.add(new Unique(name == null ? null : name.getSimple(), columns));
    }
    return uniques;
  }

  /**
   * The UNIQUE indexes a new table's UNIQUE constraints declare, named as PostgreSQL names them
   * ({@code <table>_<columns>_key}); one over exactly the key's columns is the key itself. If one
   * cannot be made, the table is dropped again: nothing half-made stays.
   */
  private static void addUniqueIndexes(Session session, String table, List<Unique> uniques,
      List<String> keyColumns) {
    try {
      for (Unique unique : uniques) {
        List<String> columns = unique.columns();
        if (columns.size() == keyColumns.size() && columns.stream().map(c -> c.toLowerCase(Locale.ROOT)).toList()
            .containsAll(keyColumns.stream().map(c -> c.toLowerCase(Locale.ROOT)).toList())) {
          continue;
        }
        Indexes.execute(session, IndexStatement.unique(unique.indexName(table), table, columns),
            session.executing()::warn);
      }
    } catch (RuntimeException e) {
      DeclaredTables.drop(session, table);
      throw e;
    }
  }

  /**
   * DROP TABLE [IF EXISTS] name [CASCADE | RESTRICT]: deletes the table and all its entities in one
   * request (a declared table's indexes with it). RESTRICT refuses while a view reads it; CASCADE
   * drops those views too; without either the views stay (and fail when read).
   */
  public void execute(DropTableNode drop, CalcitePrepare.Context context) {
    Session session = writableSession(context);
    String name = Names.last(drop.name);
    if (isReserved(name)) {
      throw new StoreException("Table " + name + " holds tablesql's catalog of declared tables and columns and "
          + "cannot be dropped through SQL. Drop the tables it declares instead.", SqlStates.INSUFFICIENT_PRIVILEGE,
          null);
    }
    // without a drop behavior no view is looked at: no catalog read beyond the one the drop makes
    List<ViewDefinition> dependents = drop.behavior == DropBehavior.UNSPECIFIED ? List.of()
        : dependents(name, drop.behavior, Catalog.fresh(session));
    DeclaredTables.Dropped dropped = DeclaredTables.drop(session, drop.name);
    if (dropped != DeclaredTables.Dropped.DROPPED) {
      // a quoted name of another case than a declared table's denotes no table, nor the Azure table holding it
      if (dropped == DeclaredTables.Dropped.OTHER_CASE || !isAzureTableName(name)
          || !session.store().deleteTable(name, new RequestCounters())) {
        if (drop.ifExists) {
          return;
        }
        throw ObjectErrors.missing("Table", name, "DROP TABLE");
      }
      DeclaredColumns.forget(session, name);
      ShapeCache.invalidate(session, name);
      LookupCache.invalidate(session, name);
    }
    dropViews(session, dependents);
    session.schemaChanged();
  }

  /** CREATE [OR REPLACE] VIEW name [(columns)] AS query: the view, kept in the account's catalog. */
  public void execute(CreateViewNode create, CalcitePrepare.Context context) {
    Session session = writableSession(context);
    String name = Names.last(create.name);
    String sql = create.query.toSqlString(CalciteSqlDialect.DEFAULT).getSql();
    if (create.columnList != null) {
      List<String> columns = new ArrayList<>();
      create.columnList.forEach(column -> columns.add(CalciteSqlDialect.DEFAULT.quoteIdentifier(
          ((SqlIdentifier) column).getSimple())));
      sql = "SELECT * FROM (" + sql + ") AS \"v\" (" + String.join(", ", columns) + ")";
    }
    // a query that fails fails here, with the error it would give when run
    RelDataType rowType = new CalcitePrepareImpl().analyzeView(context, sql, false).rowType;
    boolean exists = Catalog.fresh(session).view(name, false) != null; // views of names differing only in case: not yet
    if (schema(context).getTable(name) != null && !exists) {
      throw new StoreException("A table named " + name + " exists already; a view needs a name of its own.", SqlStates.OBJECT_EXISTS,
          null);
    }
    if (exists && !create.getReplace()) {
      if (create.ifNotExists) {
        return;
      }
      throw new StoreException("View " + name + " exists already. Use CREATE OR REPLACE VIEW to replace it.", SqlStates.OBJECT_EXISTS,
          null);
    }
    Catalog.add(session, ViewDefinition.of(name, sql, rowType), create.getReplace());
    session.schemaChanged();
  }

  /**
   * DROP VIEW [IF EXISTS] name [CASCADE | RESTRICT]: removes the view from the catalog; its tables
   * are untouched. RESTRICT refuses while another view reads it; CASCADE drops those too.
   */
  public void execute(DropViewNode drop, CalcitePrepare.Context context) {
    Session session = writableSession(context);
    String name = Names.last(drop.name);
    Catalog.Contents catalog = Catalog.fresh(session);
    ViewDefinition view = catalog.view(name, Names.quoted(drop.name));
    if (view == null) {
      if (drop.ifExists) {
        return;
      }
      throw ObjectErrors.missing("View", name, "DROP VIEW");
    }
    List<ViewDefinition> dependents = dependents(view.name(), drop.behavior, catalog);
    Catalog.remove(session, view);
    dropViews(session, dependents);
    session.schemaChanged();
  }

  /**
   * The views a drop takes with it: with CASCADE every view that reads the object, directly or
   * through another view; with RESTRICT none, and the drop is refused if there is any; without a
   * drop behavior none.
   */
  private static List<ViewDefinition> dependents(String name, DropBehavior behavior, Catalog.Contents catalog) {
    if (behavior == DropBehavior.UNSPECIFIED) {
      return List.of();
    }
    List<ViewDefinition> dependents = ViewDependencies.of(name, catalog.views().values());
    if (behavior == DropBehavior.RESTRICT && !dependents.isEmpty()) {
      throw new StoreException("Cannot drop " + name + ": " + (dependents.size() == 1 ? "view " : "views ")
          + String.join(", ", dependents.stream().map(ViewDefinition::name).toList()) + " depend"
          + (dependents.size() == 1 ? "s" : "") + " on it. Drop " + (dependents.size() == 1 ? "it" : "them")
          + " first, or use CASCADE to drop them with it.", SqlStates.DEPENDENT_OBJECTS, null);
    }
    return dependents;
  }

  private static void dropViews(Session session, List<ViewDefinition> views) {
    for (ViewDefinition view : views) {
      Catalog.remove(session, view);
    }
  }

  /** CREATE [UNIQUE] INDEX. */
  public void execute(CreateIndexNode create, CalcitePrepare.Context context) {
    if (create.getReplace()) {
      throw new StoreException("CREATE OR REPLACE INDEX is not supported: DROP INDEX, then CREATE INDEX.",
          SqlStates.FEATURE_NOT_SUPPORTED, null);
    }
    Session session = writableSession(context);
    Indexes.execute(session, IndexStatement.of(create), session.executing()::warn);
  }

  /** DROP INDEX [IF EXISTS]. */
  public void execute(DropIndexNode drop, CalcitePrepare.Context context) {
    Session session = writableSession(context);
    Indexes.execute(session, IndexStatement.of(drop), session.executing()::warn);
  }

  /** CREATE MATERIALIZED VIEW. */
  public void execute(CreateMaterializedViewNode create, CalcitePrepare.Context context) {
    Session session = writableSession(context);
    MaterializedViews.create(session, create, session.executing()::warn);
  }

  /** DROP MATERIALIZED VIEW [IF EXISTS]. */
  public void execute(DropMaterializedViewNode drop, CalcitePrepare.Context context) {
    Session session = writableSession(context);
    MaterializedViews.drop(session, Names.last(drop.name), drop.ifExists);
  }

  /** ALTER MATERIALIZED VIEW ... VERIFY | REBUILD. */
  public void execute(AlterMaterializedViewNode alter, CalcitePrepare.Context context) {
    Session session = writableSession(context);
    MaterializedViews.rebuild(session, Names.last(alter.name), alter.rebuild, session.executing()::warn);
  }

  /** ALTER INDEX ... VERIFY | REBUILD. */
  public void execute(AlterIndexNode alter, CalcitePrepare.Context context) {
    Session session = writableSession(context);
    Indexes.execute(session, IndexStatement.of(alter), session.executing()::warn);
  }

  /**
   * ALTER TABLE ... ADD [COLUMN] or DROP [COLUMN] on a declared table: a change of its definition
   * in the catalog, no entity rewritten. An added column is nullable (rows written before hold
   * NULL); a key column cannot be dropped, nor an indexed one unless CASCADE drops its indexes.
   */
  public void execute(AlterTableNode alter, CalcitePrepare.Context context) {
    Session session = writableSession(context);
    String name = Names.last(alter.table);
    Catalog.Contents catalog = Catalog.fresh(session);
    TableDefinition table = catalog.table(name, Names.quoted(alter.table));
    if (table == null) {
      if (catalog.table(name, false) == null && schema(context).getTable(name) != null) {
        throw new StoreException("Table " + name + " is an Azure table whose columns are the properties its "
            + "entities hold: a column appears when a row holds it, and ALTER TABLE changes only tables declared with "
            + "CREATE TABLE.", SqlStates.FEATURE_NOT_SUPPORTED, null);
      }
      throw ObjectErrors.missing("Table", name, null);
    }
    if (alter.verify) {
      verify(session, table);
      return;
    }
    if (alter.altered != null) {
      DeclaredTables.alterColumnType(session, table, alter.altered.getSimple(), alter.type);
      LookupCache.invalidate(session, table.physicalTable());
      session.schemaChanged();
      return;
    }
    if (alter.dropped != null) {
      DeclaredTables.dropColumn(session, table, alter.dropped.getSimple(), alter.behavior);
    } else {
      if (alter.added.stream().anyMatch(io.tablesql.parser.BlobReferenceNode.class::isInstance)) {
        throw new StoreException("ALTER TABLE cannot add a column with REFERENCES: a column that REFERENCES BLOB is "
            + "declared when the table is mapped (CREATE TABLE ... OVER), and foreign keys are not supported.",
            SqlStates.FEATURE_NOT_SUPPORTED, null);
      }
      if (alter.added.stream().anyMatch(TableKeyNode.class::isInstance)) {
        throw new StoreException("ALTER TABLE cannot add a PRIMARY KEY column: a table's key is fixed when it is "
            + "created.", SqlStates.FEATURE_NOT_SUPPORTED, null);
      }
      List<Unique> uniques = uniques(alter.added.stream().filter(SqlKeyConstraint.class::isInstance)
          .map(SqlKeyConstraint.class::cast).toList());
      if (!uniques.isEmpty() && table.layout().isMapped()) {
        throw noIndexOnMapped(table.name());
      }
      DeclaredTables.addColumn(session, table, alter.addedColumn());
      for (Unique unique : uniques) {
        Indexes.execute(session, IndexStatement.unique(unique.indexName(table.name()), table.name(),
            unique.columns()), session.executing()::warn);
      }
    }
    LookupCache.invalidate(session, table.physicalTable());
    session.schemaChanged();
  }

  /** ALTER TABLE ... VERIFY: removes the blobs of long values that no row names, and says what it did. */
  private static void verify(Session session, TableDefinition table) {
    io.tablesql.exec.BlobValues.Verification outcome = io.tablesql.exec.BlobValues.removeOrphans(session, table);
    if (table.columns().stream().noneMatch(io.tablesql.catalog.Column::blobs)) {
      session.executing().warn("Table " + table.name() + " keeps no values in Blob storage: nothing to verify.");
      return;
    }
    session.executing().warn("Table " + table.name() + ": " + outcome.blobs() + " blobs of long values, "
        + outcome.deleted() + " that no row names deleted" + (outcome.kept().isEmpty() ? "."
            : "; none deleted, since " + outcome.kept() + ". Run it again when they have ended."));
  }

  static StoreException noIndexOnMapped(String table) {
    return new StoreException("Table " + table + " is mapped over an existing Azure table (OVER): declare its "
        + "UNIQUE constraints as indexes once it is mapped (CREATE UNIQUE INDEX name ON " + table + " (column)).",
        SqlStates.FEATURE_NOT_SUPPORTED, null);
  }

  /** Whether the service takes a name as a table's name. */
  static boolean isAzureTableName(String name) {
    return TABLE_NAME.matcher(name).matches() && !name.equalsIgnoreCase("tables");
  }

  /** Whether a name is one of the tables tablesql keeps its catalog or intents in. */
  private static boolean isReserved(String name) {
    return DeclaredColumns.isMetadataTable(name) || Catalog.isCatalogTable(name) || Intent.isIntentTable(name);
  }

  /** Refuses to create a table of a {@link #isReserved reserved} name. */
  static void checkNotReserved(String name) {
    if (isReserved(name)) {
      throw ObjectErrors.reservedName(name);
    }
  }

  private static String tableName(String name) {
    if (!isAzureTableName(name)) {
      throw new StoreException("Invalid table name '" + name + "': Azure table names are 3 to 63 letters and "
          + "digits, start with a letter, and are not 'tables'.", SqlStates.SYNTAX_ERROR, null);
    }
    checkNotReserved(name);
    return name;
  }

  /**
   * A column of an Azure table whose types are remembered: the Edm type of the declared SQL type,
   * as for declared tables, except that DECIMAL stays a Double here, as it always has.
   */
  private static Column column(SqlColumnDeclaration declaration) {
    String name = declaration.name.getSimple();
    String type = declaration.dataType.getTypeName().getSimple().toUpperCase(Locale.ROOT);
    SqlTypeName sqlType = DeclaredTables.sqlType(type);
    Column declared = sqlType == null ? null : Column.declared(name, sqlType, type.equals("UUID"), -1, -1, true);
    if (declared == null) {
      throw new StoreException("Column " + name + " has type " + type + ", which Azure Table storage cannot "
          + "hold. Use VARCHAR, INTEGER, BIGINT, DOUBLE, BOOLEAN, TIMESTAMP, VARBINARY or UUID.",
          SqlStates.FEATURE_NOT_SUPPORTED, null);
    }
    EdmType edmType = sqlType == SqlTypeName.DECIMAL ? EdmType.DOUBLE : declared.singleEdmType();
    Column column = Column.of(name, Set.of(edmType));
    if (column.isKey() && edmType != EdmType.STRING) {
      throw new StoreException(name + " is always VARCHAR.", SqlStates.DATA_TYPE_MISMATCH, null);
    }
    return column;
  }

  private static Session writableSession(CalcitePrepare.Context context) {
    Session session = session(context);
    try {
      session.requireWritable();
    } catch (SQLException e) {
      throw StoreException.of(e);
    }
    return session;
  }

  private static Session session(CalcitePrepare.Context context) {
    return schema(context).session();
  }

  private static AzureSchema schema(CalcitePrepare.Context context) {
    List<String> path = context.getDefaultSchemaPath();
    CalciteSchema schema = context.getRootSchema().getSubSchema(path.get(path.size() - 1), false);
    return (AzureSchema) schema.schema;
  }
}
