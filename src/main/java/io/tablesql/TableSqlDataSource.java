package io.tablesql;

import io.tablesql.errors.SqlExceptions;
import io.tablesql.errors.SqlStates;
import io.tablesql.jdbc.TableSqlConnection;
import io.tablesql.settings.ConnectionSettings;
import io.tablesql.settings.DriverProperty;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A {@link DataSource} for Java applications and connection pools, configured by bean setters:
 * the Azure Storage connection string and any driver property. Connections with the same
 * settings share the JVM's schema caches.
 *
 * <pre>{@code
 * TableSqlDataSource dataSource = new TableSqlDataSource();
 * dataSource.setConnectionString("UseDevelopmentStorage=true");
 * dataSource.setMaxConcurrency(16);
 * }</pre>
 */
public class TableSqlDataSource implements DataSource {
  private String connectionString;
  private final Properties properties = new Properties();
  private int loginTimeout;
  private PrintWriter logWriter;

  /** The Azure Storage connection string, with or without the {@code jdbc:tablesql:} prefix. */
  public void setConnectionString(String connectionString) {
    this.connectionString = connectionString;
  }

  public String getConnectionString() {
    return connectionString;
  }

  /** Same as {@link #setConnectionString}, for tools that configure every DataSource by URL. */
  public void setUrl(String url) {
    setConnectionString(url);
  }

  /** Sets any driver property by its name in connection strings. */
  public void setProperty(String name, String value) {
    properties.setProperty(name, value);
  }

  public void setPushdown(boolean pushdown) {
    set(DriverProperty.PUSHDOWN, pushdown);
  }

  public void setMaterializedViews(boolean materializedViews) {
    set(DriverProperty.MATERIALIZED_VIEWS, materializedViews);
  }

  public void setDirectExecution(boolean directExecution) {
    set(DriverProperty.DIRECT_EXECUTION, directExecution);
  }

  public void setUnplannedLookups(String unplannedLookups) {
    set(DriverProperty.UNPLANNED_LOOKUPS, unplannedLookups);
  }

  public void setColumnLabels(String columnLabels) {
    set(DriverProperty.COLUMN_LABELS, columnLabels);
  }

  public void setSampleSize(int sampleSize) {
    set(DriverProperty.SAMPLE_SIZE, sampleSize);
  }

  public void setSchemaTtlSeconds(int seconds) {
    set(DriverProperty.SCHEMA_TTL, seconds);
  }

  public void setPageSize(int pageSize) {
    set(DriverProperty.PAGE_SIZE, pageSize);
  }

  public void setMaxConcurrency(int maxConcurrency) {
    set(DriverProperty.MAX_CONCURRENCY, maxConcurrency);
  }

  /** {@code auto} or a number of key ranges (1: never split): how table scans are split. */
  public void setScanSplits(String scanSplits) {
    set(DriverProperty.SCAN_SPLITS, scanSplits);
  }

  public void setIndexGraceSeconds(int seconds) {
    set(DriverProperty.INDEX_GRACE, seconds);
  }

  public void setBlobGraceSeconds(int seconds) {
    set(DriverProperty.BLOB_GRACE, seconds);
  }

  public void setIntentLeaseSeconds(int seconds) {
    set(DriverProperty.INTENT_LEASE, seconds);
  }

  public void setOptimisticRetries(int retries) {
    set(DriverProperty.OPTIMISTIC_RETRIES, retries);
  }

  public void setRequestTimeoutSeconds(int seconds) {
    set(DriverProperty.REQUEST_TIMEOUT, seconds);
  }

  public void setMaxRetries(int maxRetries) {
    set(DriverProperty.MAX_RETRIES, maxRetries);
  }

  /** Tables to use without listing the account's tables (a SAS scoped to them), comma-separated. */
  public void setTables(String tables) {
    set(DriverProperty.TABLES, tables);
  }

  /** {@code auto}, {@code sorted} or {@code unsorted}: whether the service returns rows in key order. */
  public void setKeyOrder(String keyOrder) {
    set(DriverProperty.KEY_ORDER, keyOrder);
  }

  public void setTableDeleteWaitSeconds(int seconds) {
    set(DriverProperty.TABLE_DELETE_WAIT, seconds);
  }

  public void setCatalog(boolean catalog) {
    set(DriverProperty.CATALOG, catalog);
  }

  public void setStrictAtomicity(boolean strictAtomicity) {
    set(DriverProperty.STRICT_ATOMICITY, strictAtomicity);
  }

  /** {@code jdk} or {@code netty}: the HTTP client requests go through. */
  public void setHttpClient(String httpClient) {
    set(DriverProperty.HTTP_CLIENT, httpClient);
  }

  /** {@code merge} or {@code replace}: what UPSERT does to an existing entity. */
  public void setUpsertMode(String upsertMode) {
    set(DriverProperty.UPSERT_MODE, upsertMode);
  }

  public void setPlanCacheSize(int planCacheSize) {
    set(DriverProperty.PLAN_CACHE_SIZE, planCacheSize);
  }

  /** Lookup tables served from the JVM's cache, comma-separated. */
  public void setLookupTables(String lookupTables) {
    set(DriverProperty.LOOKUP_TABLES, lookupTables);
  }

  public void setLookupCacheMaxEntities(int entities) {
    set(DriverProperty.LOOKUP_CACHE_MAX_ENTITIES, entities);
  }

  public void setLookupCacheTtlSeconds(int seconds) {
    set(DriverProperty.LOOKUP_CACHE_TTL, seconds);
  }

  public void setMaxRequestsPerSecond(int requestsPerSecond) {
    set(DriverProperty.MAX_REQUESTS_PER_SECOND, requestsPerSecond);
  }

  private void set(DriverProperty property, Object value) {
    properties.setProperty(property.key(), String.valueOf(value));
  }

  @Override
  public Connection getConnection() throws SQLException {
    if (connectionString == null) {
      throw SqlExceptions.of("The DataSource has no connection string: call setConnectionString, for "
          + "example with \"UseDevelopmentStorage=true\".", SqlStates.CONNECTION_REJECTED);
    }
    String url = ConnectionSettings.acceptsUrl(connectionString) ? connectionString
        : ConnectionSettings.URL_PREFIX + connectionString;
    return TableSqlConnection.open(ConnectionSettings.parse(url, properties));
  }

  /** The account's credentials come from the connection string; user and password are ignored. */
  @Override
  public Connection getConnection(String username, String password) throws SQLException {
    return getConnection();
  }

  @Override
  public PrintWriter getLogWriter() {
    return logWriter;
  }

  @Override
  public void setLogWriter(PrintWriter out) {
    this.logWriter = out;
  }

  @Override
  public void setLoginTimeout(int seconds) {
    this.loginTimeout = seconds;
  }

  @Override
  public int getLoginTimeout() {
    return loginTimeout;
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw new SQLFeatureNotSupportedException("tablesql does not log through java.util.logging");
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    if (iface.isInstance(this)) {
      return iface.cast(this);
    }
    throw SqlExceptions.of("Not a wrapper for " + iface.getName() + ".", SqlStates.GENERAL_ERROR);
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) {
    return iface.isInstance(this);
  }

  @Override
  public String toString() {
    return "TableSqlDataSource{properties=" + properties + "}"; // the connection string holds secrets
  }
}
