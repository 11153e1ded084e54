package io.tablesql.jdbc;

import static io.tablesql.jdbc.JdbcCalls.call;

import io.tablesql.catalog.IndexDefinition;
import io.tablesql.keys.KeyLayout;
import io.tablesql.settings.ConnectionSettings;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.RowIdLifetime;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.config.NullCollation;

/**
 * Calcite's database metadata, completed with what BI tools look for: the product and driver,
 * a URL without secrets, each table's key (PartitionKey and RowKey, or a declared table's key
 * columns) as its primary key and first index, a declared table's secondary indexes, the
 * transactions a connection gives, and the SQL tablesql reads ({@link DialectFacts}).
 */
final class TableSqlDatabaseMetaData implements DatabaseMetaData {
  private static final String PRODUCT_VERSION = "2019-02-02"; // the Table service REST API version

  private final DatabaseMetaData delegate;
  private final TableSqlConnection connection;

  TableSqlDatabaseMetaData(DatabaseMetaData delegate, TableSqlConnection connection) {
    this.delegate = delegate;
    this.connection = connection;
  }

  @Override
  public String getURL() {
    return ConnectionSettings.URL_PREFIX + "TableEndpoint=" + connection.session().settings().tableEndpoint();
  }

  @Override
  public String getUserName() {
    return connection.session().settings().accountName();
  }

  @Override
  public String getDatabaseProductName() {
    return "Azure Table storage";
  }

  @Override
  public String getDatabaseProductVersion() {
    return PRODUCT_VERSION;
  }

  @Override
  public String getDriverName() {
    return "tablesql";
  }

  @Override
  public String getDriverVersion() {
    return DriverVersion.MAJOR + "." + DriverVersion.MINOR;
  }

  @Override
  public int getDriverMajorVersion() {
    return DriverVersion.MAJOR;
  }

  @Override
  public int getDriverMinorVersion() {
    return DriverVersion.MINOR;
  }

  @Override
  public Connection getConnection() {
    return connection;
  }

  @Override
  public ResultSet getPrimaryKeys(String catalog, String schema, String table) throws SQLException {
    List<Object[]> rows = new ArrayList<>();
    for (String[] name : tables(catalog, schema, table)) {
      List<KeyLayout.KeyColumn> keys = connection.declaredKey(name[1]);
      if (keys == null) {
        rows.add(new Object[] {null, name[0], name[1], "PartitionKey", 1, "PK_" + name[1]});
        rows.add(new Object[] {null, name[0], name[1], "RowKey", 2, "PK_" + name[1]});
        continue;
      }
      for (int i = 0; i < keys.size(); i++) {
        rows.add(new Object[] {null, name[0], name[1], keys.get(i).name(), i + 1, "PK_" + name[1]});
      }
    }
    return values(new String[] {"TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ", "PK_NAME"},
        new String[] {"VARCHAR", "VARCHAR", "VARCHAR", "VARCHAR", "SMALLINT", "VARCHAR"}, rows);
  }

  @Override
  public ResultSet getIndexInfo(String catalog, String schema, String table, boolean unique, boolean approximate)
      throws SQLException {
    List<Object[]> rows = new ArrayList<>();
    for (String[] name : tables(catalog, schema, table)) {
      List<KeyLayout.KeyColumn> keys = connection.declaredKey(name[1]);
      if (keys == null) {
        rows.add(new Object[] {null, name[0], name[1], false, null, "PK_" + name[1], tableIndexClustered,
            1, "PartitionKey", "A", null, null, null});
        rows.add(new Object[] {null, name[0], name[1], false, null, "PK_" + name[1], tableIndexClustered,
            2, "RowKey", "A", null, null, null});
        continue;
      }
      for (int i = 0; i < keys.size(); i++) {
        rows.add(new Object[] {null, name[0], name[1], false, null, "PK_" + name[1], tableIndexClustered,
            i + 1, keys.get(i).name(), keys.get(i).descending() ? "D" : "A", null, null, null});
      }
      for (IndexDefinition index : connection.declaredIndexes(name[1])) {
        if (unique && !index.unique()) {
          continue;
        }
        for (int i = 0; i < index.columns().size(); i++) {
          IndexDefinition.IndexColumn column = index.columns().get(i);
          rows.add(new Object[] {null, name[0], name[1], !index.unique(), null, index.name(), tableIndexOther,
              i + 1, column.column(), column.descending() ? "D" : "A", null, null, null});
        }
      }
    }
    return values(new String[] {"TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "NON_UNIQUE", "INDEX_QUALIFIER",
        "INDEX_NAME", "TYPE", "ORDINAL_POSITION", "COLUMN_NAME", "ASC_OR_DESC", "CARDINALITY", "PAGES",
        "FILTER_CONDITION"}, new String[] {"VARCHAR", "VARCHAR", "VARCHAR", "BOOLEAN", "VARCHAR", "VARCHAR",
        "SMALLINT", "SMALLINT", "VARCHAR", "VARCHAR", "BIGINT", "BIGINT", "VARCHAR"}, rows);
  }

  /** Schema and name of the account's tables matching the patterns. */
  private List<String[]> tables(String catalog, String schema, String table) throws SQLException {
    return call(() -> {
      List<String[]> names = new ArrayList<>();
      try (ResultSet tables = delegate.getTables(catalog, schema, table, new String[] {"TABLE"})) {
        while (tables.next()) {
          names.add(new String[] {tables.getString("TABLE_SCHEM"), tables.getString("TABLE_NAME")});
        }
      }
      return names;
    });
  }

  /** A result set of literal rows, built as a VALUES query so it is an ordinary JDBC result set. */
  private ResultSet values(String[] columns, String[] types, List<Object[]> rows) throws SQLException {
    StringBuilder sql = new StringBuilder("SELECT * FROM (VALUES ");
    List<Object[]> body = rows.isEmpty() ? List.<Object[]>of(new Object[columns.length]) : rows;
    for (int r = 0; r < body.size(); r++) {
      sql.append(r == 0 ? "(" : ", (");
      for (int c = 0; c < columns.length; c++) {
        Object value = body.get(r)[c];
        String literal = value == null ? "NULL" : value instanceof String text ? "'" + text.replace("'", "''") + "'"
            : value.toString();
        sql.append(c == 0 ? "" : ", ").append("CAST(").append(literal).append(" AS ").append(types[c]).append(')');
      }
      sql.append(')');
    }
    sql.append(") AS t(\"").append(String.join("\", \"", columns)).append("\")");
    if (rows.isEmpty()) {
      sql.append(" WHERE 1 = 0");
    }
    Statement statement = connection.createStatement();
    try {
      statement.closeOnCompletion(); // the statement exists only for this result
      return statement.executeQuery(sql.toString());
    } catch (SQLException | RuntimeException e) {
      statement.close();
      throw e;
    }
  }

  /** Calcite's metadata result with plain type names ({@link TypeNames}); see {@link #owned}. */
  private ResultSet withPlainTypeNames(ResultSet metadata) throws SQLException {
    WrappedResultSet owned = owned(metadata);
    try {
      return owned.withPlainTypeNames();
    } catch (SQLException | RuntimeException e) {
      owned.close(); // closes its statement too
      throw e;
    }
  }

  /**
   * Calcite's metadata result as one of the driver's (its errors translated), owned by a
   * statement of its own that closing it closes, so that the connection keeps nothing open.
   */
  private WrappedResultSet owned(ResultSet metadata) throws SQLException {
    try {
      return ((WrappedStatement) connection.createStatement()).own(metadata);
    } catch (SQLException | RuntimeException e) {
      metadata.close();
      throw e;
    }
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    return call(() -> iface.isInstance(this) ? iface.cast(this) : delegate.unwrap(iface));
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) throws SQLException {
    return call(() -> iface.isInstance(this) || delegate.isWrapperFor(iface));
  }

  // Transactions: what Connection.commit gives (one entity group transaction), not Calcite's defaults.

  @Override
  public boolean isReadOnly() throws SQLException {
    return connection.isReadOnly();
  }

  @Override
  public boolean supportsTransactions() {
    return true;
  }

  /** Each connection keeps its own pending writes, so several can be in a transaction at once. */
  @Override
  public boolean supportsMultipleTransactions() {
    return true;
  }

  @Override
  public int getDefaultTransactionIsolation() {
    return TransactionIsolation.LEVEL;
  }

  @Override
  public boolean supportsTransactionIsolationLevel(int level) {
    return TransactionIsolation.supports(level);
  }

  /** DDL runs at once, outside the transaction, neither committing nor discarding its pending writes. */
  @Override
  public boolean supportsDataManipulationTransactionsOnly() {
    return true;
  }

  @Override
  public boolean supportsDataDefinitionAndDataManipulationTransactions() {
    return false;
  }

  @Override
  public boolean dataDefinitionCausesTransactionCommit() {
    return false;
  }

  @Override
  public boolean dataDefinitionIgnoredInTransactions() {
    return false;
  }

  @Override
  public boolean supportsSavepoints() {
    return false;
  }

  /** Commit and rollback only send or discard pending writes: result sets and statements stay usable. */
  @Override
  public boolean supportsOpenCursorsAcrossCommit() {
    return true;
  }

  @Override
  public boolean supportsOpenCursorsAcrossRollback() {
    return true;
  }

  @Override
  public boolean supportsOpenStatementsAcrossCommit() {
    return true;
  }

  @Override
  public boolean supportsOpenStatementsAcrossRollback() {
    return true;
  }

  // The rest of DatabaseMetaData: forwards to Calcite's, except the order of NULLs, the keywords
  // and the function lists, which come from DialectFacts.

  @Override
  public boolean allProceduresAreCallable() throws SQLException {
    return call(() -> delegate.allProceduresAreCallable());
  }

  @Override
  public boolean allTablesAreSelectable() throws SQLException {
    return call(() -> delegate.allTablesAreSelectable());
  }

  @Override
  public boolean nullsAreSortedHigh() throws SQLException {
    return DialectFacts.NULL_COLLATION == NullCollation.HIGH;
  }

  @Override
  public boolean nullsAreSortedLow() throws SQLException {
    return DialectFacts.NULL_COLLATION == NullCollation.LOW;
  }

  @Override
  public boolean nullsAreSortedAtStart() throws SQLException {
    return DialectFacts.NULL_COLLATION == NullCollation.FIRST;
  }

  @Override
  public boolean nullsAreSortedAtEnd() throws SQLException {
    return DialectFacts.NULL_COLLATION == NullCollation.LAST;
  }

  @Override
  public boolean usesLocalFiles() throws SQLException {
    return call(() -> delegate.usesLocalFiles());
  }

  @Override
  public boolean usesLocalFilePerTable() throws SQLException {
    return call(() -> delegate.usesLocalFilePerTable());
  }

  @Override
  public boolean supportsMixedCaseIdentifiers() throws SQLException {
    return call(() -> delegate.supportsMixedCaseIdentifiers());
  }

  @Override
  public boolean storesUpperCaseIdentifiers() throws SQLException {
    return call(() -> delegate.storesUpperCaseIdentifiers());
  }

  @Override
  public boolean storesLowerCaseIdentifiers() throws SQLException {
    return call(() -> delegate.storesLowerCaseIdentifiers());
  }

  @Override
  public boolean storesMixedCaseIdentifiers() throws SQLException {
    return call(() -> delegate.storesMixedCaseIdentifiers());
  }

  @Override
  public boolean supportsMixedCaseQuotedIdentifiers() throws SQLException {
    return call(() -> delegate.supportsMixedCaseQuotedIdentifiers());
  }

  @Override
  public boolean storesUpperCaseQuotedIdentifiers() throws SQLException {
    return call(() -> delegate.storesUpperCaseQuotedIdentifiers());
  }

  @Override
  public boolean storesLowerCaseQuotedIdentifiers() throws SQLException {
    return call(() -> delegate.storesLowerCaseQuotedIdentifiers());
  }

  @Override
  public boolean storesMixedCaseQuotedIdentifiers() throws SQLException {
    return call(() -> delegate.storesMixedCaseQuotedIdentifiers());
  }

  @Override
  public String getIdentifierQuoteString() throws SQLException {
    return call(() -> delegate.getIdentifierQuoteString());
  }

  @Override
  public String getSQLKeywords() throws SQLException {
    return DialectFacts.keywords();
  }

  @Override
  public String getNumericFunctions() throws SQLException {
    return String.join(",", DialectFacts.NUMERIC_FUNCTIONS);
  }

  @Override
  public String getStringFunctions() throws SQLException {
    return String.join(",", DialectFacts.STRING_FUNCTIONS);
  }

  @Override
  public String getSystemFunctions() throws SQLException {
    return String.join(",", DialectFacts.SYSTEM_FUNCTIONS);
  }

  @Override
  public String getTimeDateFunctions() throws SQLException {
    return String.join(",", DialectFacts.TIME_DATE_FUNCTIONS);
  }

  @Override
  public String getSearchStringEscape() throws SQLException {
    return call(() -> delegate.getSearchStringEscape());
  }

  @Override
  public String getExtraNameCharacters() throws SQLException {
    return call(() -> delegate.getExtraNameCharacters());
  }

  @Override
  public boolean supportsAlterTableWithAddColumn() throws SQLException {
    return call(() -> delegate.supportsAlterTableWithAddColumn());
  }

  @Override
  public boolean supportsAlterTableWithDropColumn() throws SQLException {
    return call(() -> delegate.supportsAlterTableWithDropColumn());
  }

  @Override
  public boolean supportsColumnAliasing() throws SQLException {
    return call(() -> delegate.supportsColumnAliasing());
  }

  @Override
  public boolean nullPlusNonNullIsNull() throws SQLException {
    return call(() -> delegate.nullPlusNonNullIsNull());
  }

  @Override
  public boolean supportsConvert() throws SQLException {
    return call(() -> delegate.supportsConvert());
  }

  @Override
  public boolean supportsConvert(int fromType, int toType) throws SQLException {
    return call(() -> delegate.supportsConvert(fromType, toType));
  }

  @Override
  public boolean supportsTableCorrelationNames() throws SQLException {
    return call(() -> delegate.supportsTableCorrelationNames());
  }

  @Override
  public boolean supportsDifferentTableCorrelationNames() throws SQLException {
    return call(() -> delegate.supportsDifferentTableCorrelationNames());
  }

  @Override
  public boolean supportsExpressionsInOrderBy() throws SQLException {
    return call(() -> delegate.supportsExpressionsInOrderBy());
  }

  @Override
  public boolean supportsOrderByUnrelated() throws SQLException {
    return call(() -> delegate.supportsOrderByUnrelated());
  }

  @Override
  public boolean supportsGroupBy() throws SQLException {
    return call(() -> delegate.supportsGroupBy());
  }

  @Override
  public boolean supportsGroupByUnrelated() throws SQLException {
    return call(() -> delegate.supportsGroupByUnrelated());
  }

  @Override
  public boolean supportsGroupByBeyondSelect() throws SQLException {
    return call(() -> delegate.supportsGroupByBeyondSelect());
  }

  @Override
  public boolean supportsLikeEscapeClause() throws SQLException {
    return call(() -> delegate.supportsLikeEscapeClause());
  }

  @Override
  public boolean supportsMultipleResultSets() throws SQLException {
    return call(() -> delegate.supportsMultipleResultSets());
  }

  @Override
  public boolean supportsNonNullableColumns() throws SQLException {
    return call(() -> delegate.supportsNonNullableColumns());
  }

  @Override
  public boolean supportsMinimumSQLGrammar() throws SQLException {
    return call(() -> delegate.supportsMinimumSQLGrammar());
  }

  @Override
  public boolean supportsCoreSQLGrammar() throws SQLException {
    return call(() -> delegate.supportsCoreSQLGrammar());
  }

  @Override
  public boolean supportsExtendedSQLGrammar() throws SQLException {
    return call(() -> delegate.supportsExtendedSQLGrammar());
  }

  @Override
  public boolean supportsANSI92EntryLevelSQL() throws SQLException {
    return call(() -> delegate.supportsANSI92EntryLevelSQL());
  }

  @Override
  public boolean supportsANSI92IntermediateSQL() throws SQLException {
    return call(() -> delegate.supportsANSI92IntermediateSQL());
  }

  @Override
  public boolean supportsANSI92FullSQL() throws SQLException {
    return call(() -> delegate.supportsANSI92FullSQL());
  }

  @Override
  public boolean supportsIntegrityEnhancementFacility() throws SQLException {
    return call(() -> delegate.supportsIntegrityEnhancementFacility());
  }

  @Override
  public boolean supportsOuterJoins() throws SQLException {
    return call(() -> delegate.supportsOuterJoins());
  }

  @Override
  public boolean supportsFullOuterJoins() throws SQLException {
    return call(() -> delegate.supportsFullOuterJoins());
  }

  @Override
  public boolean supportsLimitedOuterJoins() throws SQLException {
    return call(() -> delegate.supportsLimitedOuterJoins());
  }

  @Override
  public String getSchemaTerm() throws SQLException {
    return call(() -> delegate.getSchemaTerm());
  }

  @Override
  public String getProcedureTerm() throws SQLException {
    return call(() -> delegate.getProcedureTerm());
  }

  @Override
  public String getCatalogTerm() throws SQLException {
    return call(() -> delegate.getCatalogTerm());
  }

  @Override
  public boolean isCatalogAtStart() throws SQLException {
    return call(() -> delegate.isCatalogAtStart());
  }

  @Override
  public String getCatalogSeparator() throws SQLException {
    return call(() -> delegate.getCatalogSeparator());
  }

  @Override
  public boolean supportsSchemasInDataManipulation() throws SQLException {
    return call(() -> delegate.supportsSchemasInDataManipulation());
  }

  @Override
  public boolean supportsSchemasInProcedureCalls() throws SQLException {
    return call(() -> delegate.supportsSchemasInProcedureCalls());
  }

  @Override
  public boolean supportsSchemasInTableDefinitions() throws SQLException {
    return call(() -> delegate.supportsSchemasInTableDefinitions());
  }

  @Override
  public boolean supportsSchemasInIndexDefinitions() throws SQLException {
    return call(() -> delegate.supportsSchemasInIndexDefinitions());
  }

  @Override
  public boolean supportsSchemasInPrivilegeDefinitions() throws SQLException {
    return call(() -> delegate.supportsSchemasInPrivilegeDefinitions());
  }

  @Override
  public boolean supportsCatalogsInDataManipulation() throws SQLException {
    return call(() -> delegate.supportsCatalogsInDataManipulation());
  }

  @Override
  public boolean supportsCatalogsInProcedureCalls() throws SQLException {
    return call(() -> delegate.supportsCatalogsInProcedureCalls());
  }

  @Override
  public boolean supportsCatalogsInTableDefinitions() throws SQLException {
    return call(() -> delegate.supportsCatalogsInTableDefinitions());
  }

  @Override
  public boolean supportsCatalogsInIndexDefinitions() throws SQLException {
    return call(() -> delegate.supportsCatalogsInIndexDefinitions());
  }

  @Override
  public boolean supportsCatalogsInPrivilegeDefinitions() throws SQLException {
    return call(() -> delegate.supportsCatalogsInPrivilegeDefinitions());
  }

  @Override
  public boolean supportsPositionedDelete() throws SQLException {
    return call(() -> delegate.supportsPositionedDelete());
  }

  @Override
  public boolean supportsPositionedUpdate() throws SQLException {
    return call(() -> delegate.supportsPositionedUpdate());
  }

  @Override
  public boolean supportsSelectForUpdate() throws SQLException {
    return call(() -> delegate.supportsSelectForUpdate());
  }

  @Override
  public boolean supportsStoredProcedures() throws SQLException {
    return call(() -> delegate.supportsStoredProcedures());
  }

  @Override
  public boolean supportsSubqueriesInComparisons() throws SQLException {
    return call(() -> delegate.supportsSubqueriesInComparisons());
  }

  @Override
  public boolean supportsSubqueriesInExists() throws SQLException {
    return call(() -> delegate.supportsSubqueriesInExists());
  }

  @Override
  public boolean supportsSubqueriesInIns() throws SQLException {
    return call(() -> delegate.supportsSubqueriesInIns());
  }

  @Override
  public boolean supportsSubqueriesInQuantifieds() throws SQLException {
    return call(() -> delegate.supportsSubqueriesInQuantifieds());
  }

  @Override
  public boolean supportsCorrelatedSubqueries() throws SQLException {
    return call(() -> delegate.supportsCorrelatedSubqueries());
  }

  @Override
  public boolean supportsUnion() throws SQLException {
    return call(() -> delegate.supportsUnion());
  }

  @Override
  public boolean supportsUnionAll() throws SQLException {
    return call(() -> delegate.supportsUnionAll());
  }



  @Override
  public int getMaxBinaryLiteralLength() throws SQLException {
    return call(() -> delegate.getMaxBinaryLiteralLength());
  }

  @Override
  public int getMaxCharLiteralLength() throws SQLException {
    return call(() -> delegate.getMaxCharLiteralLength());
  }

  @Override
  public int getMaxColumnNameLength() throws SQLException {
    return call(() -> delegate.getMaxColumnNameLength());
  }

  @Override
  public int getMaxColumnsInGroupBy() throws SQLException {
    return call(() -> delegate.getMaxColumnsInGroupBy());
  }

  @Override
  public int getMaxColumnsInIndex() throws SQLException {
    return call(() -> delegate.getMaxColumnsInIndex());
  }

  @Override
  public int getMaxColumnsInOrderBy() throws SQLException {
    return call(() -> delegate.getMaxColumnsInOrderBy());
  }

  @Override
  public int getMaxColumnsInSelect() throws SQLException {
    return call(() -> delegate.getMaxColumnsInSelect());
  }

  @Override
  public int getMaxColumnsInTable() throws SQLException {
    return call(() -> delegate.getMaxColumnsInTable());
  }

  @Override
  public int getMaxConnections() throws SQLException {
    return call(() -> delegate.getMaxConnections());
  }

  @Override
  public int getMaxCursorNameLength() throws SQLException {
    return call(() -> delegate.getMaxCursorNameLength());
  }

  @Override
  public int getMaxIndexLength() throws SQLException {
    return call(() -> delegate.getMaxIndexLength());
  }

  @Override
  public int getMaxSchemaNameLength() throws SQLException {
    return call(() -> delegate.getMaxSchemaNameLength());
  }

  @Override
  public int getMaxProcedureNameLength() throws SQLException {
    return call(() -> delegate.getMaxProcedureNameLength());
  }

  @Override
  public int getMaxCatalogNameLength() throws SQLException {
    return call(() -> delegate.getMaxCatalogNameLength());
  }

  @Override
  public int getMaxRowSize() throws SQLException {
    return call(() -> delegate.getMaxRowSize());
  }

  @Override
  public boolean doesMaxRowSizeIncludeBlobs() throws SQLException {
    return call(() -> delegate.doesMaxRowSizeIncludeBlobs());
  }

  @Override
  public int getMaxStatementLength() throws SQLException {
    return call(() -> delegate.getMaxStatementLength());
  }

  @Override
  public int getMaxStatements() throws SQLException {
    return call(() -> delegate.getMaxStatements());
  }

  @Override
  public int getMaxTableNameLength() throws SQLException {
    return call(() -> delegate.getMaxTableNameLength());
  }

  @Override
  public int getMaxTablesInSelect() throws SQLException {
    return call(() -> delegate.getMaxTablesInSelect());
  }

  @Override
  public int getMaxUserNameLength() throws SQLException {
    return call(() -> delegate.getMaxUserNameLength());
  }





  @Override
  public ResultSet getProcedures(String catalog, String schemaPattern, String procedureNamePattern) throws SQLException {
    return call(() -> owned(delegate.getProcedures(catalog, schemaPattern, procedureNamePattern)));
  }

  @Override
  public ResultSet getProcedureColumns(String catalog, String schemaPattern, String procedureNamePattern, String columnNamePattern) throws SQLException {
    return call(() -> withPlainTypeNames(delegate.getProcedureColumns(catalog, schemaPattern, procedureNamePattern, columnNamePattern)));
  }

  @Override
  public ResultSet getTables(String catalog, String schemaPattern, String tableNamePattern, String types[]) throws SQLException {
    return call(() -> owned(delegate.getTables(catalog, schemaPattern, tableNamePattern, types)));
  }

  @Override
  public ResultSet getSchemas() throws SQLException {
    return call(() -> owned(delegate.getSchemas()));
  }

  @Override
  public ResultSet getCatalogs() throws SQLException {
    return call(() -> owned(delegate.getCatalogs()));
  }

  @Override
  public ResultSet getTableTypes() throws SQLException {
    return call(() -> owned(delegate.getTableTypes()));
  }

  @Override
  public ResultSet getColumns(String catalog, String schemaPattern, String tableNamePattern, String columnNamePattern) throws SQLException {
    return call(() -> withPlainTypeNames(delegate.getColumns(catalog, schemaPattern, tableNamePattern, columnNamePattern)));
  }

  @Override
  public ResultSet getColumnPrivileges(String catalog, String schema, String table, String columnNamePattern) throws SQLException {
    return call(() -> owned(delegate.getColumnPrivileges(catalog, schema, table, columnNamePattern)));
  }

  @Override
  public ResultSet getTablePrivileges(String catalog, String schemaPattern, String tableNamePattern) throws SQLException {
    return call(() -> owned(delegate.getTablePrivileges(catalog, schemaPattern, tableNamePattern)));
  }

  @Override
  public ResultSet getBestRowIdentifier(String catalog, String schema, String table, int scope, boolean nullable) throws SQLException {
    return call(() -> owned(delegate.getBestRowIdentifier(catalog, schema, table, scope, nullable)));
  }

  @Override
  public ResultSet getVersionColumns(String catalog, String schema, String table) throws SQLException {
    return call(() -> owned(delegate.getVersionColumns(catalog, schema, table)));
  }

  @Override
  public ResultSet getImportedKeys(String catalog, String schema, String table) throws SQLException {
    return call(() -> owned(delegate.getImportedKeys(catalog, schema, table)));
  }

  @Override
  public ResultSet getExportedKeys(String catalog, String schema, String table) throws SQLException {
    return call(() -> owned(delegate.getExportedKeys(catalog, schema, table)));
  }

  @Override
  public ResultSet getCrossReference( String parentCatalog, String parentSchema, String parentTable, String foreignCatalog, String foreignSchema, String foreignTable ) throws SQLException {
    return call(() -> owned(delegate.getCrossReference(parentCatalog, parentSchema, parentTable, foreignCatalog, foreignSchema, foreignTable)));
  }

  @Override
  public ResultSet getTypeInfo() throws SQLException {
    return call(() -> withPlainTypeNames(delegate.getTypeInfo()));
  }

  @Override
  public boolean supportsResultSetType(int type) throws SQLException {
    return call(() -> delegate.supportsResultSetType(type));
  }

  @Override
  public boolean supportsResultSetConcurrency(int type, int concurrency) throws SQLException {
    return call(() -> delegate.supportsResultSetConcurrency(type, concurrency));
  }

  @Override
  public boolean ownUpdatesAreVisible(int type) throws SQLException {
    return call(() -> delegate.ownUpdatesAreVisible(type));
  }

  @Override
  public boolean ownDeletesAreVisible(int type) throws SQLException {
    return call(() -> delegate.ownDeletesAreVisible(type));
  }

  @Override
  public boolean ownInsertsAreVisible(int type) throws SQLException {
    return call(() -> delegate.ownInsertsAreVisible(type));
  }

  @Override
  public boolean othersUpdatesAreVisible(int type) throws SQLException {
    return call(() -> delegate.othersUpdatesAreVisible(type));
  }

  @Override
  public boolean othersDeletesAreVisible(int type) throws SQLException {
    return call(() -> delegate.othersDeletesAreVisible(type));
  }

  @Override
  public boolean othersInsertsAreVisible(int type) throws SQLException {
    return call(() -> delegate.othersInsertsAreVisible(type));
  }

  @Override
  public boolean updatesAreDetected(int type) throws SQLException {
    return call(() -> delegate.updatesAreDetected(type));
  }

  @Override
  public boolean deletesAreDetected(int type) throws SQLException {
    return call(() -> delegate.deletesAreDetected(type));
  }

  @Override
  public boolean insertsAreDetected(int type) throws SQLException {
    return call(() -> delegate.insertsAreDetected(type));
  }

  @Override
  public boolean supportsBatchUpdates() throws SQLException {
    return call(() -> delegate.supportsBatchUpdates());
  }

  @Override
  public ResultSet getUDTs(String catalog, String schemaPattern, String typeNamePattern, int[] types) throws SQLException {
    return call(() -> owned(delegate.getUDTs(catalog, schemaPattern, typeNamePattern, types)));
  }

  @Override
  public boolean supportsNamedParameters() throws SQLException {
    return call(() -> delegate.supportsNamedParameters());
  }

  @Override
  public boolean supportsMultipleOpenResults() throws SQLException {
    return call(() -> delegate.supportsMultipleOpenResults());
  }

  @Override
  public boolean supportsGetGeneratedKeys() throws SQLException {
    return call(() -> delegate.supportsGetGeneratedKeys());
  }

  @Override
  public ResultSet getSuperTypes(String catalog, String schemaPattern, String typeNamePattern) throws SQLException {
    return call(() -> owned(delegate.getSuperTypes(catalog, schemaPattern, typeNamePattern)));
  }

  @Override
  public ResultSet getSuperTables(String catalog, String schemaPattern, String tableNamePattern) throws SQLException {
    return call(() -> owned(delegate.getSuperTables(catalog, schemaPattern, tableNamePattern)));
  }

  @Override
  public ResultSet getAttributes(String catalog, String schemaPattern, String typeNamePattern, String attributeNamePattern) throws SQLException {
    return call(() -> owned(delegate.getAttributes(catalog, schemaPattern, typeNamePattern, attributeNamePattern)));
  }

  @Override
  public boolean supportsResultSetHoldability(int holdability) throws SQLException {
    return call(() -> delegate.supportsResultSetHoldability(holdability));
  }

  @Override
  public int getResultSetHoldability() throws SQLException {
    return call(() -> delegate.getResultSetHoldability());
  }

  @Override
  public int getDatabaseMajorVersion() throws SQLException {
    return call(() -> delegate.getDatabaseMajorVersion());
  }

  @Override
  public int getDatabaseMinorVersion() throws SQLException {
    return call(() -> delegate.getDatabaseMinorVersion());
  }

  @Override
  public int getJDBCMajorVersion() throws SQLException {
    return call(() -> delegate.getJDBCMajorVersion());
  }

  @Override
  public int getJDBCMinorVersion() throws SQLException {
    return call(() -> delegate.getJDBCMinorVersion());
  }

  @Override
  public int getSQLStateType() throws SQLException {
    return call(() -> delegate.getSQLStateType());
  }

  @Override
  public boolean locatorsUpdateCopy() throws SQLException {
    return call(() -> delegate.locatorsUpdateCopy());
  }

  @Override
  public boolean supportsStatementPooling() throws SQLException {
    return call(() -> delegate.supportsStatementPooling());
  }

  @Override
  public RowIdLifetime getRowIdLifetime() throws SQLException {
    return call(() -> delegate.getRowIdLifetime());
  }

  @Override
  public ResultSet getSchemas(String catalog, String schemaPattern) throws SQLException {
    return call(() -> owned(delegate.getSchemas(catalog, schemaPattern)));
  }

  @Override
  public boolean supportsStoredFunctionsUsingCallSyntax() throws SQLException {
    return call(() -> delegate.supportsStoredFunctionsUsingCallSyntax());
  }

  @Override
  public boolean autoCommitFailureClosesAllResultSets() throws SQLException {
    return call(() -> delegate.autoCommitFailureClosesAllResultSets());
  }

  @Override
  public ResultSet getClientInfoProperties() throws SQLException {
    return call(() -> owned(delegate.getClientInfoProperties()));
  }

  @Override
  public ResultSet getFunctions(String catalog, String schemaPattern, String functionNamePattern) throws SQLException {
    return call(() -> owned(delegate.getFunctions(catalog, schemaPattern, functionNamePattern)));
  }

  @Override
  public ResultSet getFunctionColumns(String catalog, String schemaPattern, String functionNamePattern, String columnNamePattern) throws SQLException {
    return call(() -> withPlainTypeNames(delegate.getFunctionColumns(catalog, schemaPattern, functionNamePattern, columnNamePattern)));
  }

  @Override
  public ResultSet getPseudoColumns(String catalog, String schemaPattern, String tableNamePattern, String columnNamePattern) throws SQLException {
    return call(() -> owned(delegate.getPseudoColumns(catalog, schemaPattern, tableNamePattern, columnNamePattern)));
  }

  @Override
  public boolean generatedKeyAlwaysReturned() throws SQLException {
    return call(() -> delegate.generatedKeyAlwaysReturned());
  }

}
