package io.tablesql.plan;

import io.tablesql.catalog.Catalog;
import io.tablesql.catalog.DeclaredColumns;
import io.tablesql.catalog.MaterializedViewDefinition;
import io.tablesql.catalog.NameMatch;
import io.tablesql.catalog.TableDefinition;
import io.tablesql.catalog.ViewDefinition;
import io.tablesql.intent.Intent;
import io.tablesql.session.Session;
import io.tablesql.settings.DriverProperty;
import io.tablesql.store.RequestCounters;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.schema.impl.ViewTable;
import org.apache.calcite.schema.lookup.LikePattern;
import org.apache.calcite.schema.lookup.Lookup;
import org.apache.calcite.schema.lookup.Named;

/**
 * The tables of one storage account as a Calcite schema, with the tables and views declared in
 * its {@link Catalog}. The table list is read when the
 * connection opens; the connection reads it again when it is older than the schema TTL or a
 * statement names a table it does not hold (see {@code TableSqlConnection#refreshSchema}).
 *
 * <p>Credentials that may not list tables (a SAS scoped to a table) get a schema of the tables
 * they name (driver property {@code tables}, the SAS's own table) plus each table a statement
 * names and a probe finds readable.
 */
public final class AzureSchema extends AbstractSchema {
  private final Session session;
  private final boolean listed;
  private Map<String, Table> tables;
  private long expiresAtNanos;
  /** Tables found by names no Azure table can have (PostgreSQL's catalogs, unqualified); none by default. */
  private volatile java.util.function.Function<String, Named<Table>> alsoFound = name -> null;

  /** A schema of the account's tables, or, if {@code listed} is false, of the names given. */
  public AzureSchema(Session session, List<String> tableNames, boolean listed) {
    this.session = session;
    this.listed = listed;
    this.tables = toTables(tableNames);
    this.expiresAtNanos = System.nanoTime() + ttlNanos();
  }

  public Session session() {
    return session;
  }

  /** Whether the table list is the account's, rather than the tables named or found so far. */
  public boolean listed() {
    return listed;
  }

  @Override
  protected synchronized Map<String, Table> getTableMap() {
    return tables;
  }

  /**
   * Finds tables by name as {@link NameMatch} does (a quoted name's case is checked by tablesql's
   * validator, which knows it was quoted; the service's own names match ignoring case). Calcite's own lookup,
   * which it uses when a schema has none, takes the first of several in its own order, so a
   * table mapped as {@code orders} over the Azure table {@code Orders} was read as the latter.
   * Needs a root schema that keeps no snapshot of the names ({@code UncachedSchemaFactory}).
   */
  @Override
  public Lookup<Table> tables() {
    return new Lookup<>() {
      @Override
      public Table get(String name) {
        Table table = getTableMap().get(name);
        Named<Table> also = table == null ? alsoFound.apply(name) : null;
        return table != null ? table : also != null && also.name().equals(name) ? also.entity() : null;
      }

      @Override
      public Named<Table> getIgnoreCase(String name) {
        Map<String, Table> map = getTableMap();
        String found = NameMatch.find(map.keySet(), name, false);
        return found == null ? alsoFound.apply(name) : new Named<>(found, map.get(found));
      }

      @Override
      public Set<String> getNames(LikePattern pattern) {
        return getTableMap().keySet().stream().filter(pattern.matcher()::apply)
            .collect(java.util.stream.Collectors.toSet());
      }
    };
  }

  /**
   * Also finds, after the account's tables, the tables {@code lookup} names (by a name ignoring
   * case; null for none), without listing them: PostgreSQL's clients name {@code pg_catalog}'s
   * tables unqualified, as its search path allows, and no Azure table can be named like them
   * (Azure table names hold letters and digits only).
   */
  public void alsoFind(java.util.function.Function<String, Named<Table>> lookup) {
    alsoFound = lookup;
  }

  public synchronized boolean isStale() {
    return listed && System.nanoTime() - expiresAtNanos > 0;
  }

  /** Reads the table list again, keeping the table objects of tables that remain. */
  public synchronized void refresh() {
    if (listed) {
      tables = toTables(session.store().listTables(new RequestCounters()));
      expiresAtNanos = System.nanoTime() + ttlNanos();
    }
  }

  /**
   * Adds a table a statement named that the schema does not hold, if one request reading it
   * succeeds; a table the credentials may not read fails here with 42501, naming it.
   */
  public synchronized void discover(String name) {
    session.store().query(name, null, null, 1, new RequestCounters()).hasNext();
    List<String> names = new ArrayList<>(tables.keySet());
    names.add(name);
    tables = toTables(names);
  }

  /**
   * The tables of the given Azure tables: declared tables (from the catalog) under their SQL
   * names in place of the Azure tables holding them, the others as sampled tables.
   */
  private Map<String, Table> toTables(List<String> names) {
    Catalog.Contents catalog = Catalog.forTables(session, names, listed);
    Map<String, TableDefinition> declared = catalog.tables();
    Set<String> holding = new HashSet<>();
    declared.values().stream().filter(definition -> !definition.layout().isMapped()) // mapped ones' stay visible
        .forEach(definition -> holding.add(definition.physicalTable().toLowerCase(Locale.ROOT)));
    declared.values().forEach(definition -> definition.indexes().stream() // global index entries are no table
        .filter(index -> !index.local()).forEach(index -> holding.add(index.table().toLowerCase(Locale.ROOT))));
    declared.values().forEach(definition -> definition.materializedViews() // read under the views' names
        .forEach(view -> holding.add(view.table().toLowerCase(Locale.ROOT))));
    Map<String, Table> map = new LinkedHashMap<>();
    for (String name : names) {
      if (DeclaredColumns.isMetadataTable(name) || Catalog.isCatalogTable(name) || Intent.isIntentTable(name)
          || holding.contains(name.toLowerCase(Locale.ROOT))) {
        continue;
      }
      Table existing = tables == null ? null : tables.get(name);
      map.put(name, existing instanceof AzureTable table && table.definition() == null ? existing
          : new AzureTable(session, name));
    }
    for (TableDefinition definition : declared.values()) {
      Table existing = tables == null ? null : tables.get(definition.name());
      map.put(definition.name(), existing instanceof AzureTable table && definition.equals(table.definition())
          ? existing : new AzureTable(session, definition));
    }
    for (TableDefinition definition : declared.values()) {
      for (MaterializedViewDefinition view : definition.materializedViews()) {
        if (view.ready()) { // while built, its entities are not all there
          TableDefinition entries = view.entries(definition);
          Table existing = tables == null ? null : tables.get(view.name());
          map.put(view.name(), existing instanceof AzureTable table && entries.equals(table.definition())
              ? existing : AzureTable.materializedView(session, entries, definition.name(), view.query(),
              view.summary()));
        }
      }
    }
    List<String> schemaPath = List.of(session.settings().schemaName());
    for (ViewDefinition view : catalog.views().values()) {
      map.put(view.name(), new ViewTable(Object[].class, view.rowType(), view.sql(), schemaPath,
          List.of(schemaPath.get(0), view.name())));
    }
    return map;
  }

  private long ttlNanos() {
    return session.settings().getInt(DriverProperty.SCHEMA_TTL) * 1_000_000_000L;
  }
}
