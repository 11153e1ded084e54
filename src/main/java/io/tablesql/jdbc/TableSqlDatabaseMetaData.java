package io.tablesql.jdbc;

import static io.tablesql.jdbc.JdbcCalls.call;

import io.tablesql.catalog.IndexDefinition;
import io.tablesql.keys.KeyLayout;
import io.tablesql.settings.ConnectionSettings;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
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
final class TableSqlDatabaseMetaData extends ForwardingDatabaseMetaData {
  private final DatabaseMetaData delegate;
  private final TableSqlConnection connection;

  TableSqlDatabaseMetaData(DatabaseMetaData delegate, TableSqlConnection connection) {
    this.delegate = delegate;
    this.connection = connection;
  }

  @Override
  DatabaseMetaData delegate() {
    return delegate;
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

  /** Every metadata result set is owned ({@link #owned}); getColumns' type names are plain already ({@link PlainTypeColumns}). */
  @Override
  ResultSet result(ResultSet metadata) throws SQLException {
    return owned(metadata);
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
    return true;
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

  // The order of NULLs, the keywords and the function lists come from DialectFacts. The rest of
  // DatabaseMetaData forwards to Calcite's (ForwardingDatabaseMetaData).

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







}
