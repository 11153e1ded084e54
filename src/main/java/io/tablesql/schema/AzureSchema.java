package io.tablesql.schema;

import io.tablesql.exec.Session;
import io.tablesql.jdbc.DriverProperty;
import io.tablesql.store.RequestCounters;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;

/**
 * The tables of one storage account as a Calcite schema. The table list is read when the
 * connection opens and again once the schema TTL has passed.
 */
public final class AzureSchema extends AbstractSchema {
  private final Session session;
  private Map<String, Table> tables;
  private long expiresAtNanos;

  public AzureSchema(Session session, java.util.List<String> tableNames) {
    this.session = session;
    this.tables = toTables(tableNames);
    this.expiresAtNanos = System.nanoTime() + ttlNanos();
  }

  @Override
  protected synchronized Map<String, Table> getTableMap() {
    if (System.nanoTime() - expiresAtNanos > 0) {
      tables = toTables(session.store().listTables(new RequestCounters()));
      expiresAtNanos = System.nanoTime() + ttlNanos();
    }
    return tables;
  }

  /** Reads the table list again now, for example after a table was created or dropped. */
  public synchronized void refresh() {
    expiresAtNanos = System.nanoTime();
  }

  private Map<String, Table> toTables(java.util.List<String> names) {
    Map<String, Table> map = new LinkedHashMap<>();
    for (String name : names) {
      Table existing = tables == null ? null : tables.get(name);
      map.put(name, existing != null ? existing : new AzureTable(session, name));
    }
    return map;
  }

  private long ttlNanos() {
    return session.settings().getInt(DriverProperty.SCHEMA_TTL) * 1_000_000_000L;
  }
}
