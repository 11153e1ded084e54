package io.tablesql.plan;

import io.tablesql.catalog.LayoutFinder;
import io.tablesql.errors.SqlStates;
import io.tablesql.session.Session;
import io.tablesql.settings.DriverProperty;
import io.tablesql.store.RequestCounters;
import io.tablesql.store.StoreException;
import io.tablesql.store.TableStore;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * {@code TABLE(tablesql.suggest_tables('AzureTable'))}: one row per layout of the table's
 * entities that {@link LayoutFinder} finds in a sample spread over its key space (sampleSize
 * entities), with the {@code CREATE TABLE ... OVER} statement that maps it.
 */
public final class SuggestedTables extends AbstractTable implements ScannableTable {
  static final String FUNCTION = "suggest_tables";

  private final String azureTable;

  private SuggestedTables(String azureTable) {
    this.azureTable = azureTable;
  }

  /** The function's body, as Calcite calls it (with a NULL argument while only planning). */
  public static ScannableTable suggestTables(String azureTable) {
    return new SuggestedTables(azureTable);
  }

  @Override
  public RelDataType getRowType(RelDataTypeFactory types) {
    RelDataTypeFactory.Builder row = types.builder();
    row.add("layout", SqlTypeName.VARCHAR).nullable(false);
    row.add("kind", SqlTypeName.VARCHAR).nullable(false);
    row.add("discriminator", SqlTypeName.VARCHAR).nullable(true);
    row.add("partition_key", SqlTypeName.VARCHAR).nullable(false);
    row.add("row_key", SqlTypeName.VARCHAR).nullable(false);
    row.add("columns", SqlTypeName.VARCHAR).nullable(false);
    row.add("sampled_entities", SqlTypeName.INTEGER).nullable(false);
    row.add("ddl", SqlTypeName.VARCHAR).nullable(false);
    return row.build();
  }

  @Override
  public Enumerable<Object[]> scan(DataContext root) {
    if (azureTable == null) {
      throw new StoreException(SystemSchema.NAME + "." + FUNCTION + " needs the name of an Azure table, not NULL.",
          SqlStates.INVALID_PARAMETER_VALUE, null);
    }
    Session session = SystemSchema.session(root);
    TableStore.Sample sample = session.store().sample(azureTable, session.settings().getInt(DriverProperty.SAMPLE_SIZE),
        new RequestCounters());
    List<Object[]> rows = new ArrayList<>();
    for (LayoutFinder.Layout layout : LayoutFinder.find(azureTable, sample.entities())) {
      rows.add(new Object[] {layout.name(), layout.kind(), layout.discriminator(), layout.partitionKeyTemplate(),
          layout.rowKeyTemplate(), layout.columns(), layout.sampledEntities(), layout.ddl()});
    }
    return Linq4j.asEnumerable(rows);
  }
}
