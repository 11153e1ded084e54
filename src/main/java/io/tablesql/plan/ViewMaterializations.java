package io.tablesql.plan;

import io.tablesql.settings.DriverProperty;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.plan.RelOptPredicateList;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.schema.Table;
import org.apache.calcite.util.ImmutableBitSet;

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
      // a table this transaction has written: its views hold those writes only once it commits
      if (table != null && table.definition() != null
          && !table.session().pending().writes(table.definition().physicalTable())) {
        tables.add(table.definition().name());
      }
    }
    boolean noSummaries = hasInnerTotal(plan, true) || aggregatesItsGroupKeys(plan);
    Set<String> readTwice = tablesReadTwice(plan);
    return candidates.stream().filter(c -> tables.contains(c.baseTable())
        && !(c.summary() && (noSummaries || readTwice.contains(c.baseTable()))))
        .map(Candidate::materialization).toList();
  }

  /**
   * Whether an aggregate of the plan aggregates its own group keys ({@code MIN(Dept) ... GROUP BY
   * Dept, Grp}). Calcite 1.41's substitution rebuilds such a call over a summary's groups and
   * drops the query's filter on the way ({@code SubstitutionVisitor.unifyAggregates}): the
   * summary's every group came back, or its assertion failed. Summaries are not offered to them.
   */
  private static boolean aggregatesItsGroupKeys(RelNode rel) {
    if (rel instanceof Aggregate aggregate && !aggregate.getAggCallList().isEmpty()) {
      // a column the input fixes by equality is a group key once Calcite pulls constants up
      ImmutableBitSet keys = aggregate.getGroupSet().union(fixedColumns(aggregate.getInput()));
      if (aggregate.getAggCallList().stream().anyMatch(call ->
          !call.getArgList().isEmpty() && keys.contains(ImmutableBitSet.of(call.getArgList())))) {
        return true;
      }
    }
    return rel.getInputs().stream().anyMatch(ViewMaterializations::aggregatesItsGroupKeys);
  }

  /** The columns of a plan's rows that its filters fix to one value. */
  private static ImmutableBitSet fixedColumns(RelNode rel) {
    RelOptPredicateList predicates = rel.getCluster().getMetadataQuery().getPulledUpPredicates(rel);
    ImmutableBitSet.Builder fixed = ImmutableBitSet.builder();
    for (RexNode expression : predicates.constantMap.keySet()) {
      if (expression instanceof RexInputRef ref) {
        fixed.set(ref.getIndex());
      }
    }
    return fixed.build();
  }

  /**
   * The declared tables a plan scans more than once (a self-join). Calcite's aggregate rules
   * tell a table's two scans apart by their inputs' identity, which the planner merges when both
   * scans read the same rows: one side's filter was then taken for both, and a summary answered
   * {@code a.Dept = 'A' AND b.Dept = 'B'} as if both were 'A'. Summaries are not offered to them.
   */
  private static Set<String> tablesReadTwice(RelNode plan) {
    java.util.Map<String, Integer> scans = new java.util.HashMap<>();
    new org.apache.calcite.rel.RelVisitor() {
      @Override
      public void visit(RelNode node, int ordinal, RelNode parent) {
        AzureTable table = node.getTable() == null ? null : node.getTable().unwrap(AzureTable.class);
        if (node instanceof org.apache.calcite.rel.core.TableScan && table != null && table.definition() != null) {
          scans.merge(table.definition().name(), 1, Integer::sum);
        }
        super.visit(node, ordinal, parent);
      }
    }.go(plan);
    Set<String> twice = new HashSet<>();
    scans.forEach((name, count) -> {
      if (count > 1) {
        twice.add(name);
      }
    });
    return twice;
  }

  /**
   * The physical tables a planned query reads through their materialized views (every view it
   * scans, when views were offered: a plan that names a view is offered none), to check at each
   * execution that the transaction has not written them since ({@code QueryRunner}).
   */
  public static Set<String> answeredFromViews(RelNode written, RelNode planned) {
    java.util.Map<String, String> physical = new java.util.HashMap<>();
    for (RelOptTable read : RelOptUtil.findAllTables(written)) {
      AzureTable table = read.unwrap(AzureTable.class);
      if (table != null && table.definition() != null) {
        physical.put(table.definition().name(), table.definition().physicalTable());
      }
    }
    Set<String> bases = new HashSet<>();
    for (RelOptTable read : RelOptUtil.findAllTables(planned)) {
      AzureTable table = read.unwrap(AzureTable.class);
      if (table != null && table.viewOf() != null && physical.containsKey(table.viewOf())) {
        bases.add(physical.get(table.viewOf()));
      }
    }
    return bases;
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
