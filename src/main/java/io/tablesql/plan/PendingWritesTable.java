package io.tablesql.plan;

import io.tablesql.errors.SqlStates;
import io.tablesql.intent.IntentRecovery;
import io.tablesql.session.Session;
import io.tablesql.store.RequestCounters;
import io.tablesql.store.StoreException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.linq4j.QueryProvider;
import org.apache.calcite.linq4j.Queryable;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.logical.LogicalTableScan;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * {@code tablesql.pending_writes}: the writes of several entity groups that are in flight,
 * waiting for recovery, or parked (the guide's poison queue), one row per intent of
 * {@code TablesqlIntents}, read when queried. A system table, so tools list it apart from the
 * account's tables. {@code DELETE} removes parked intents (see {@link #delete}); nothing else
 * writes it.
 */
public final class PendingWritesTable extends AbstractTable implements ScannableTable, WrittenByTableSql,
    TranslatableTable {
  public static final String SCHEMA = SystemSchema.NAME;
  public static final String NAME = "pending_writes";

  private final Session session;

  private PendingWritesTable(Session session) {
    this.session = session;
  }

  /** The {@code tablesql} schema, holding this table. */
  public static Schema schema(Session session) {
    return new SystemSchema(session, new PendingWritesTable(session));
  }

  @Override
  public RelDataType getRowType(RelDataTypeFactory types) {
    RelDataTypeFactory.Builder row = types.builder();
    row.add("id", SqlTypeName.VARCHAR).nullable(false);
    row.add("created", SqlTypeName.TIMESTAMP).nullable(true);
    row.add("state", SqlTypeName.VARCHAR).nullable(true);
    row.add("tables", SqlTypeName.VARCHAR).nullable(true);
    row.add("entities", SqlTypeName.INTEGER).nullable(false);
    row.add("entity_groups", SqlTypeName.INTEGER).nullable(false);
    row.add("owner", SqlTypeName.VARCHAR).nullable(true);
    row.add("last_written", SqlTypeName.TIMESTAMP).nullable(true);
    row.add("format", SqlTypeName.INTEGER).nullable(false);
    row.add("reason", SqlTypeName.VARCHAR).nullable(true);
    return row.build();
  }

  @Override
  public Schema.TableType getJdbcTableType() {
    return Schema.TableType.SYSTEM_TABLE;
  }

  @Override
  public Enumerable<Object[]> scan(DataContext root) {
    List<Object[]> rows = new ArrayList<>();
    for (IntentRecovery.Listed listed : IntentRecovery.list(session, new RequestCounters())) {
      var header = listed.header();
      rows.add(new Object[] {header.id(), millis(header.created()),
          header.state() == null ? "unknown" : header.state().name().toLowerCase(java.util.Locale.ROOT),
          String.join(",", header.tables()), header.entities(), header.groups(), header.owner(),
          millis(listed.timestamp()), header.format(), header.reason()});
    }
    return Linq4j.asEnumerable(rows);
  }

  /**
   * Runs a write of this table, called by the code Calcite generates for an
   * {@link EnumerablePendingWritesModify}: a DELETE removes the parked intents among its rows
   * (the first column is the id); any other write is refused.
   */
  public static Enumerable<Long> write(PendingWritesTable table, String operation, Enumerable<?> rows,
      boolean scalarRows) {
    if (!operation.equals(TableModify.Operation.DELETE.name())) {
      throw new StoreException(SCHEMA + "." + NAME + " lists the intents of writes across entity groups; it takes "
          + "DELETE of parked intents only, not " + operation + ".", SqlStates.FEATURE_NOT_SUPPORTED, null);
    }
    try {
      table.session.requireWritable();
    } catch (java.sql.SQLException e) {
      throw StoreException.of(e);
    }
    java.util.Set<String> ids = new java.util.LinkedHashSet<>();
    for (Object row : rows) {
      ids.add(String.valueOf(scalarRows ? row : ((Object[]) row)[0]));
    }
    return Linq4j.singletonEnumerable(ids.isEmpty() ? 0L : IntentRecovery.discardParked(table.session, ids));
  }


  /**
   * Read as Calcite reads a table it can scan, with tablesql's write rule brought in: an UPDATE
   * reads the table and reaches no {@code toModificationRel}, and must be refused as a write.
   */
  @Override
  public RelNode toRel(RelOptTable.ToRelContext context, RelOptTable relOptTable) {
    AzureRules.registerWrites(context.getCluster().getPlanner());
    return LogicalTableScan.create(context.getCluster(), relOptTable, context.getTableHints());
  }


  @Override
  @SuppressWarnings("unchecked")
  public <T> Queryable<T> asQueryable(QueryProvider queryProvider, SchemaPlus schema, String tableName) {
    return (Queryable<T>) scan(null).asQueryable(); // the rows as the scan lists them
  }



  /** A TIMESTAMP as Calcite's scans give it: milliseconds since the epoch, UTC. */
  private static Long millis(OffsetDateTime time) {
    return time == null ? null : time.toInstant().toEpochMilli();
  }
}
