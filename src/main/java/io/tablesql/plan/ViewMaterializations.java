package io.tablesql.plan;

import io.tablesql.settings.DriverProperty;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
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

  /** A ready materialized view the planner may use: its materialization, its table's SQL name, whether a summary. */
  public record Candidate(Prepare.Materialization materialization, String baseTable, boolean summary) {
  }

  /** The ready materialized views of the account's schemas, unless a schema's connection turned them off. */
  public static List<Candidate> of(CalciteSchema root) {
    List<Candidate> candidates = new ArrayList<>();
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
            candidates.add(new Candidate(new Prepare.Materialization(entry, view.viewQuery(), schema.path(null)),
                view.viewOf(), view.summary()));
          }
        }
      }
    }
    return candidates;
  }

  /**
   * The views that may answer a plan: those of the declared tables it reads; none if it reads a
   * materialized view itself (it is answered from that view as written).
   */
  public static List<Prepare.Materialization> usableBy(RelNode plan, List<Candidate> candidates) {
    if (candidates.isEmpty()) {
      return List.of();
    }
    Set<String> tables = new HashSet<>();
    for (RelOptTable read : RelOptUtil.findAllTables(plan)) {
      AzureTable table = read.unwrap(AzureTable.class);
      if (table != null && table.viewOf() != null) {
        return List.of();
      }
      if (table != null && table.definition() != null) {
        tables.add(table.definition().name());
      }
    }
    boolean innerTotals = hasInnerTotal(plan, true);
    return candidates.stream().filter(c -> tables.contains(c.baseTable()) && !(c.summary() && innerTotals))
        .map(Candidate::materialization).toList();
  }

  /**
   * Whether a plan has an aggregate without GROUP BY below its top (under a join, a subquery).
   * Calcite's substitution answers such an aggregate over one group of a summary with that group's
   * row, dropping the aggregate: no row where SQL gives one when no group matches. At the top,
   * {@link #keepsOneRow} catches that; below it, summaries are not offered.
   */
  private static boolean hasInnerTotal(RelNode rel, boolean top) {
    if (!top && rel instanceof Aggregate aggregate && aggregate.getGroupSet().isEmpty()) {
      return true;
    }
    boolean inputsOnTop = top && (rel instanceof Project || rel instanceof Calc || rel instanceof Sort);
    for (RelNode input : rel.getInputs()) {
      if (hasInnerTotal(input, inputsOnTop)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a planned query still returns a row whenever the query as written does (an aggregate
   * without GROUP BY always returns one): false means the plan answered it from a summary wrongly
   * (see {@link #hasInnerTotal}), and it is planned again without views.
   */
  public static boolean keepsOneRow(RelNode written, RelNode planned) {
    RelMetadataQuery mq = written.getCluster().getMetadataQuery();
    Double before = mq.getMinRowCount(written);
    Double after = mq.getMinRowCount(planned);
    return before == null || before < 1 || (after != null && after >= 1);
  }
}
