package io.tablesql.ddl;

import io.tablesql.catalog.Catalog;
import io.tablesql.catalog.Column;
import io.tablesql.catalog.DeclaredColumns;
import io.tablesql.catalog.ShapeCache;
import io.tablesql.catalog.ViewDefinition;
import io.tablesql.errors.SqlStates;
import io.tablesql.exec.LookupCache;
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
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.ddl.SqlCheckConstraint;
import org.apache.calcite.sql.ddl.SqlColumnDeclaration;
import org.apache.calcite.sql.ddl.SqlCreateFunction;
import org.apache.calcite.sql.ddl.SqlCreateTable;
import org.apache.calcite.sql.ddl.SqlCreateView;
import org.apache.calcite.sql.ddl.SqlDropTable;
import org.apache.calcite.sql.ddl.SqlDropView;
import org.apache.calcite.sql.ddl.SqlKeyConstraint;
import org.apache.calcite.sql.dialect.CalciteSqlDialect;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * DDL on the storage account: CREATE and DROP of tables and views, and the index statements
 * (which arrive wrapped as CREATE FUNCTION, see {@link IndexStatement}); what Calcite's grammar
 * reads but tablesql cannot do (CREATE TABLE AS, other functions, CHECK) is refused. Calcite
 * calls the {@code execute} method matching the statement's node type.
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
   * with PartitionKey and RowKey among the columns, an Azure table whose column types are
   * remembered in the account.
   */
  public void execute(SqlCreateTable create, CalcitePrepare.Context context) {
    Session session = writableSession(context);
    String name = create.name.getSimple();
    if (create.query != null) {
      throw new StoreException("CREATE TABLE ... AS SELECT is not supported: CREATE TABLE, then INSERT INTO ... "
          + "SELECT.", SqlStates.FEATURE_NOT_SUPPORTED, null);
    }
    List<SqlColumnDeclaration> declarations = new ArrayList<>();
    List<SqlKeyConstraint> keys = new ArrayList<>();
    MappingClause.Mapping mapping = null;
    if (create.columnList != null) {
      for (SqlNode node : create.columnList) {
        if (node instanceof SqlColumnDeclaration declaration) {
          declarations.add(declaration);
        } else if (node instanceof SqlKeyConstraint key) {
          keys.add(key);
        } else if (node instanceof SqlCheckConstraint check) {
          mapping = mapping(check);
        }
      }
    }
    if (mapping != null) {
      DeclaredTables.map(session, name, create.ifNotExists, declarations, keys, mapping);
      return;
    }
    if (!keys.isEmpty()) {
      DeclaredTables.create(session, name, create.ifNotExists, declarations, keys);
      return;
    }
    boolean namesKeys = declarations.stream().map(d -> d.name.getSimple())
        .anyMatch(column -> column.equalsIgnoreCase(Column.PARTITION_KEY) || column.equalsIgnoreCase(Column.ROW_KEY));
    if (!declarations.isEmpty() && !namesKeys) {
      DeclaredTables.createWithoutKey(session, name, create.ifNotExists, declarations);
      return;
    }
    tableName(name);
    List<Column> columns = new ArrayList<>();
    for (SqlColumnDeclaration declaration : declarations) {
      columns.add(column(declaration));
    }
    if (!session.store().createTable(name, new RequestCounters())) {
      if (create.ifNotExists) {
        return;
      }
      throw new StoreException("Table " + name + " exists already. Use CREATE TABLE IF NOT EXISTS to accept that.",
          "42S01", null);
    }
    DeclaredColumns.write(session, name, columns);
    ShapeCache.invalidate(session, name);
    session.schemaChanged();
  }

  /** DROP TABLE [IF EXISTS] name: deletes the table and all its entities in one request. */
  public void execute(SqlDropTable drop, CalcitePrepare.Context context) {
    Session session = writableSession(context);
    String name = drop.name.getSimple();
    if (DeclaredColumns.isMetadataTable(name) || Catalog.isCatalogTable(name)) {
      throw new StoreException("Table " + name + " holds tablesql's catalog of declared tables and columns and "
          + "cannot be dropped through SQL. Drop the tables it declares instead.", SqlStates.INSUFFICIENT_PRIVILEGE,
          null);
    }
    if (DeclaredTables.drop(session, name)) {
      return;
    }
    if (!session.store().deleteTable(name, new RequestCounters())) {
      if (drop.ifExists) {
        return;
      }
      throw new StoreException("Table " + name + " does not exist. Use DROP TABLE IF EXISTS to accept that.",
          SqlStates.TABLE_NOT_FOUND, null);
    }
    DeclaredColumns.forget(session, name);
    ShapeCache.invalidate(session, name);
    LookupCache.invalidate(session, name);
    session.schemaChanged();
  }

  /**
   * CREATE, DROP and ALTER INDEX, which arrive wrapped as {@code CREATE FUNCTION "TABLESQL_INDEX"}
   * (see {@link IndexStatement}); other functions are not supported.
   */
  public void execute(SqlCreateFunction create, CalcitePrepare.Context context) {
    List<SqlNode> operands = create.getOperandList();
    if (!(operands.get(0) instanceof SqlIdentifier name && name.getSimple().equals(IndexStatement.CARRIER)
        && operands.get(1) instanceof SqlLiteral text)) {
      throw new StoreException("CREATE FUNCTION is not supported.", SqlStates.FEATURE_NOT_SUPPORTED, null);
    }
    Session session = writableSession(context);
    Indexes.execute(session, IndexStatement.parse(text.getValueAs(String.class)), session.executing()::warn);
  }

  /** CREATE [OR REPLACE] VIEW name [(columns)] AS query: the view, kept in the account's catalog. */
  public void execute(SqlCreateView create, CalcitePrepare.Context context) {
    Session session = writableSession(context);
    String name = create.name.getSimple();
    String sql = create.query.toSqlString(CalciteSqlDialect.DEFAULT).getSql();
    if (create.columnList != null) {
      List<String> columns = new ArrayList<>();
      create.columnList.forEach(column -> columns.add(CalciteSqlDialect.DEFAULT.quoteIdentifier(
          ((SqlIdentifier) column).getSimple())));
      sql = "SELECT * FROM (" + sql + ") AS \"v\" (" + String.join(", ", columns) + ")";
    }
    // a query that fails fails here, with the error it would give when run
    RelDataType rowType = new CalcitePrepareImpl().analyzeView(context, sql, false).rowType;
    boolean exists = Catalog.fresh(session).views().containsKey(name.toLowerCase(Locale.ROOT));
    if (schema(context).getTable(name) != null && !exists) {
      throw new StoreException("A table named " + name + " exists already; a view needs a name of its own.", "42S01",
          null);
    }
    if (exists && !create.getReplace()) {
      if (create.ifNotExists) {
        return;
      }
      throw new StoreException("View " + name + " exists already. Use CREATE OR REPLACE VIEW to replace it.", "42S01",
          null);
    }
    Catalog.add(session, ViewDefinition.of(name, sql, rowType), create.getReplace());
    session.schemaChanged();
  }

  /** DROP VIEW [IF EXISTS] name: removes the view from the catalog; its tables are untouched. */
  public void execute(SqlDropView drop, CalcitePrepare.Context context) {
    Session session = writableSession(context);
    String name = drop.name.getSimple();
    ViewDefinition view = Catalog.fresh(session).views().get(name.toLowerCase(Locale.ROOT));
    if (view == null) {
      if (drop.ifExists) {
        return;
      }
      throw new StoreException("View " + name + " does not exist. Use DROP VIEW IF EXISTS to accept that.",
          SqlStates.TABLE_NOT_FOUND, null);
    }
    Catalog.remove(session, view);
    session.schemaChanged();
  }

  /** The mapping an OVER clause was rewritten to (see {@link MappingClause}); other CHECK constraints are refused. */
  private static MappingClause.Mapping mapping(SqlCheckConstraint check) {
    List<SqlNode> operands = check.getOperandList();
    MappingClause.Mapping mapping = null;
    if (operands.get(0) instanceof SqlIdentifier name && name.getSimple().equals(MappingClause.NAME)
        && operands.get(1) instanceof SqlCall condition && condition.operand(0) instanceof SqlLiteral text) {
      mapping = MappingClause.mappingOf(text.getValueAs(String.class));
    }
    if (mapping == null) {
      throw new StoreException("CHECK constraints are not supported.", SqlStates.FEATURE_NOT_SUPPORTED, null);
    }
    return mapping;
  }

  /** Whether the service takes a name as a table's name. */
  static boolean isAzureTableName(String name) {
    return TABLE_NAME.matcher(name).matches() && !name.equalsIgnoreCase("tables");
  }

  /** Whether a name is one of the tables tablesql keeps its catalog in. */
  static boolean isReserved(String name) {
    return DeclaredColumns.isMetadataTable(name) || Catalog.isCatalogTable(name);
  }

  private static String tableName(String name) {
    if (!isAzureTableName(name)) {
      throw new StoreException("Invalid table name '" + name + "': Azure table names are 3 to 63 letters and "
          + "digits, start with a letter, and are not 'tables'.", SqlStates.SYNTAX_ERROR, null);
    }
    if (isReserved(name)) {
      throw new StoreException("Table name '" + name + "' is reserved for tablesql's catalog.",
          SqlStates.SYNTAX_ERROR, null);
    }
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
