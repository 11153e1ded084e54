package io.tablesql.plan;

import io.tablesql.settings.DriverProperty;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.schema.Table;

/**
 * The materialized views a query may be answered from, as Calcite's planner takes them
 * ({@link Prepare.Materialization}: the view's table and the query that derives it). Calcite
 * then rewrites the query onto a view where the view holds its answer (its substitution of
 * materializations) and keeps the rewrite when it costs fewer requests. Not Calcite's
 * MaterializationService: that is per thread and keyed by a root schema's identity, which fits
 * neither the plan cache nor schemas built per connection.
 */
public final class ViewMaterializations {
  private ViewMaterializations() {
  }

  /** The ready materialized views of the account's schemas, unless a schema's connection turned them off. */
  public static List<Prepare.Materialization> of(CalciteSchema root) {
    List<Prepare.Materialization> materializations = new ArrayList<>();
    for (CalciteSchema schema : root.getSubSchemaMap().values()) {
      if (!(schema.schema instanceof AzureSchema azure)
          || !azure.session().settings().getBoolean(DriverProperty.MATERIALIZED_VIEWS)) {
        continue;
      }
      for (String name : azure.getTableNames()) {
        Table table = azure.getTable(name);
        if (table instanceof AzureTable view && view.viewQuery() != null) {
          CalciteSchema.TableEntry entry = schema.getTable(name, true);
          if (entry != null) {
            materializations.add(new Prepare.Materialization(entry, view.viewQuery(), schema.path(null)));
          }
        }
      }
    }
    return materializations;
  }
}
