package io.tablesql.plan;

import io.tablesql.catalog.Column;
import io.tablesql.catalog.ShapeCache;
import io.tablesql.catalog.TableDefinition;
import io.tablesql.catalog.TableShape;
import io.tablesql.exec.LookupCache;
import io.tablesql.query.StoredTable;
import io.tablesql.query.TableQuery;
import io.tablesql.session.Session;
import java.util.List;
import org.apache.calcite.linq4j.QueryProvider;
import org.apache.calcite.linq4j.Queryable;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.Statistic;
import org.apache.calcite.schema.Statistics;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * One Azure table as a SQL table. Its columns come from sampling (see {@link ShapeCache}), or,
 * for a table declared with a primary key, from its definition in the {@link io.tablesql.catalog.Catalog}.
 */
public final class AzureTable extends AbstractTable implements TranslatableTable, WrittenByTableSql {
  private final Session session;
  private final String name;
  private final TableDefinition definition;

  AzureTable(Session session, String name) {
    this(session, name, null);
  }

  private AzureTable(Session session, String name, TableShape provisional) {
    this.session = session;
    this.name = name;
    this.definition = null;
    this.viewOf = null;
    this.viewQuery = null;
    this.summary = false;
    this.provisional = provisional;
  }

  /**
   * This sampled table with the shape one statement takes instead of sampling
   * ({@link ShapeCache#provisional}); only that statement sees it.
   */
  public AzureTable withProvisionalShape(TableShape shape) {
    if (definition != null) {
      throw new IllegalStateException(name + " is declared: its shape is its definition");
    }
    return new AzureTable(session, name, shape);
  }

  /** A sampled table's shape for one statement, or null: the cached sample's. */
  private final TableShape provisional;

  /** The base table a materialized view is kept from, or null for a table. */
  private final String viewOf;
  /** The query a materialized view is kept by, or null for a table. */
  private final String viewQuery;
  /** Whether this is a summary view: one entity per group. */
  private final boolean summary;

  AzureTable(Session session, TableDefinition definition) {
    this(session, definition, null, null, false);
  }

  private AzureTable(Session session, TableDefinition definition, String viewOf, String viewQuery, boolean summary) {
    this.session = session;
    this.name = definition.physicalTable();
    this.definition = definition;
    this.viewOf = viewOf;
    this.viewQuery = viewQuery;
    this.summary = summary;
    this.provisional = null;
  }

  /** A materialized view's entities, read as a declared table; writes are refused. */
  static AzureTable materializedView(Session session, TableDefinition entries, String baseTable, String query,
      boolean summary) {
    return new AzureTable(session, entries, baseTable, query, summary);
  }

  /** Whether this is a summary view: one entity per group of its table's rows. */
  boolean summary() {
    return summary;
  }

  /**
   * How a scan of this table is costed against its base table's: a copy holds at most as many
   * entities as its table has rows, costed 1 % more so that at equal cost the table's own plan (never
   * behind a write in flight) is kept; a summary holds one per group, far fewer, costed at a tenth.
   */
  double costFactor() {
    return viewOf == null ? 1.0 : summary ? 0.1 : 1.01;
  }

  /** The query a materialized view is kept by, or null if this is no materialized view. */
  String viewQuery() {
    return viewQuery;
  }

  /** The table a materialized view is kept from, or null if this is no materialized view. */
  public String viewOf() {
    return viewOf;
  }

  /** The table a write names, refused (42809) if it is a materialized view: views are kept from their base tables. */
  static AzureTable checkWritable(RelOptTable table) {
    AzureTable azure = table.unwrap(AzureTable.class);
    if (azure != null && azure.viewOf != null) {
      throw new io.tablesql.store.StoreException(azure.definition.name() + " is a materialized view, which tablesql "
          + "keeps from table " + azure.viewOf + ": write " + azure.viewOf + " instead.",
          io.tablesql.errors.SqlStates.WRONG_OBJECT_TYPE, null);
    }
    return azure;
  }

  /**
   * Also the lineage of its scans' columns and their predicates, which Calcite asks the table for
   * (ScanLineage, ScanPredicates).
   */
  @Override
  public <C> C unwrap(Class<C> aClass) {
    if (aClass == org.apache.calcite.rel.metadata.BuiltInMetadata.ExpressionLineage.Handler.class) {
      return aClass.cast(ScanLineage.INSTANCE);
    }
    if (aClass == org.apache.calcite.rel.metadata.BuiltInMetadata.AllPredicates.Handler.class) {
      return aClass.cast(ScanPredicates.INSTANCE);
    }
    return super.unwrap(aClass);
  }

  @Override
  public Schema.TableType getJdbcTableType() {
    return viewOf != null ? Schema.TableType.MATERIALIZED_VIEW : Schema.TableType.TABLE;
  }

  /** The Azure table the entities are stored in. */
  public String name() {
    return name;
  }

  /** The table's declaration, or null for a table whose columns are sampled. */
  public TableDefinition definition() {
    return definition;
  }

  public Session session() {
    return session;
  }

  /** The table as its queries and writes name it. */
  StoredTable stored() {
    return new StoredTable(session, name, definition);
  }

  public TableShape shape() {
    return definition != null ? definition.shape() : provisional != null ? provisional
        : ShapeCache.shape(session, name);
  }

  @Override
  public RelDataType getRowType(RelDataTypeFactory typeFactory) {
    return rowType(typeFactory, shape().columns());
  }

  /** The SQL row type of some columns: keys and NOT NULL columns NOT NULL, others nullable. */
  public static RelDataType rowType(RelDataTypeFactory typeFactory, List<Column> columns) {
    RelDataTypeFactory.Builder builder = typeFactory.builder();
    for (Column column : columns) {
      RelDataType type = column.sqlType() == SqlTypeName.TIMESTAMP
          ? typeFactory.createSqlType(SqlTypeName.TIMESTAMP, 3)
          : column.precision() >= 0 ? typeFactory.createSqlType(column.sqlType(), column.precision(), column.scale())
          : typeFactory.createSqlType(column.sqlType());
      builder.add(column.name(), typeFactory.createTypeWithNullability(type, column.nullable()));
    }
    return builder.build();
  }

  @Override
  public Statistic getStatistic() {
    // No keys or collations here: they would be read against the full row, while scans project
    // columns away. Scans declare their key order as a trait instead.
    return Statistics.of(shape().estimatedRowCount(), null);
  }



  @Override
  public <T> Queryable<T> asQueryable(QueryProvider queryProvider, SchemaPlus schema, String tableName) {
    throw new UnsupportedOperationException("tables are read through their scans");
  }



  @Override
  public RelNode toRel(RelOptTable.ToRelContext context, RelOptTable relOptTable) {
    return AzureTableScan.create(context.getCluster(), relOptTable, fullScan());
  }

  /** The query of the whole table, as its scans start before rules narrow them. */
  TableQuery fullScan() {
    return FullScans.fullScan(stored(), shape(), LookupCache.serves(session, name));
  }
}
