package io.tablesql.schema;

import io.tablesql.exec.Session;
import io.tablesql.jdbc.DriverProperty;
import io.tablesql.store.RequestCounters;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;

/**
 * The tables of one storage account as a Calcite schema. The table list is read when the
 * connection opens; the connection reads it again when it is older than the schema TTL or a
 * statement names a table it does not hold (see {@code TableSqlConnection#refreshSchema}).
 */
public final class AzureSchema extends AbstractSchema {
  private final Session session;
  private Map<String, Table> tables;
  private long expiresAtNanos;

  public AzureSchema(Session session, List<String> tableNames) {
    this.session = session;
    this.tables = toTables(tableNames);
    this.expiresAtNanos = System.nanoTime() + ttlNanos();
  }

  public Session session() {
    return session;
  }

  @Override
  protected synchronized Map<String, Table> getTableMap() {
    return tables;
  }

  public synchronized boolean isStale() {
    return System.nanoTime() - expiresAtNanos > 0;
  }

  /** Reads the table list again, keeping the table objects of tables that remain. */
  public synchronized void refresh() {
    tables = toTables(session.store().listTables(new RequestCounters()));
    expiresAtNanos = System.nanoTime() + ttlNanos();
  }

  private Map<String, Table> toTables(List<String> names) {
    Map<String, Table> map = new LinkedHashMap<>();
    for (String name : names) {
      if (DeclaredColumns.isMetadataTable(name)) {
        continue;
      }
      Table existing = tables == null ? null : tables.get(name);
      map.put(name, existing != null ? existing : new AzureTable(session, name));
    }
    return map;
  }

  private long ttlNanos() {
    return session.settings().getInt(DriverProperty.SCHEMA_TTL) * 1_000_000_000L;
  }
}
