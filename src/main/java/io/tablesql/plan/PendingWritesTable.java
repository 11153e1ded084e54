package io.tablesql.plan;

import io.tablesql.exec.IntentRecovery;
import io.tablesql.session.Session;
import io.tablesql.store.RequestCounters;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * {@code tablesql.pending_writes}: the writes of several entity groups that are in flight,
 * waiting for recovery, or parked (the guide's poison queue), one row per intent of
 * {@code TablesqlIntents}, read when queried. A system table, so tools list it apart from the
 * account's tables.
 */
public final class PendingWritesTable extends AbstractTable implements ScannableTable {
  public static final String SCHEMA = "tablesql";
  public static final String NAME = "pending_writes";

  private final Session session;

  private PendingWritesTable(Session session) {
    this.session = session;
  }

  /** The {@code tablesql} schema, holding this table. */
  public static Schema schema(Session session) {
    Table table = new PendingWritesTable(session);
    return new AbstractSchema() {
      @Override
      protected Map<String, Table> getTableMap() {
        return Map.of(NAME, table);
      }
    };
  }

  @Override
  public RelDataType getRowType(RelDataTypeFactory types) {
    RelDataTypeFactory.Builder row = types.builder();
    row.add("id", SqlTypeName.VARCHAR).nullable(false);
    row.add("created", SqlTypeName.TIMESTAMP).nullable(true);
    row.add("state", SqlTypeName.VARCHAR).nullable(true);
    row.add("tables", SqlTypeName.VARCHAR).nullable(true);
    row.add("entities", SqlTypeName.INTEGER).nullable(false);
    row.add("groups", SqlTypeName.INTEGER).nullable(false);
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

  /** A TIMESTAMP as Calcite's scans give it: milliseconds since the epoch, UTC. */
  private static Long millis(OffsetDateTime time) {
    return time == null ? null : time.toInstant().toEpochMilli();
  }
}
