package io.tablesql.plan;

import java.util.List;
import org.apache.calcite.plan.RelOptLattice;
import org.apache.calcite.plan.RelOptMaterialization;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.plan.hep.HepMatchOrder;
import org.apache.calcite.plan.hep.HepProgram;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.logical.LogicalWindow;
import org.apache.calcite.rel.metadata.DefaultRelMetadataProvider;
import org.apache.calcite.rel.metadata.RelMetadataProvider;
import org.apache.calcite.plan.RelOptRules;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.rules.JoinAssociateRule;
import org.apache.calcite.rel.rules.JoinCommuteRule;
import org.apache.calcite.rel.rules.JoinPushThroughJoinRule;
import org.apache.calcite.rel.rules.materialize.MaterializedViewRules;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.tools.Program;
import org.apache.calcite.tools.Programs;

/**
 * The sequence of planning steps for every statement: Calcite's standard program, with joins of
 * many tables ordered heuristically. The cost-based planner finds a join order by commuting and
 * reassociating joins, which explores every order: a star join of 6 tables written in the order
 * SQLite's select5 conformance file writes them took 20 seconds to plan, of 9 tables more than
 * ten minutes. From 4 joins on, the joins are gathered into one
 * MultiJoin and ordered by {@link CoreRules#MULTI_JOIN_OPTIMIZE} (row counts, selectivity), and
 * the exhaustive join rules are taken out, as Calcite's {@code Programs.heuristicJoinOrder} does;
 * everything else (tablesql's access paths and lookup joins) is planned by cost as before.
 */
public final class PlanningProgram {
  /** Joins in a statement from which their order is chosen heuristically (a test raises it to plan exhaustively). */
  static volatile int heuristicFromJoins = 4;

  private static final RelMetadataProvider METADATA = DefaultRelMetadataProvider.INSTANCE;
  private static final HepProgram GATHER_JOINS = new HepProgramBuilder()
      .addRuleInstance(CoreRules.FILTER_INTO_JOIN)
      .addMatchOrder(HepMatchOrder.BOTTOM_UP)
      .addRuleInstance(CoreRules.JOIN_TO_MULTI_JOIN)
      .build();

  private static final Program DECORRELATE = Programs.decorrelate();

  public static final Program PROGRAM = Programs.sequence(
      Programs.subQuery(METADATA),
      PlanningProgram::decorrelate,
      Programs.measure(METADATA),
      Programs.trim(),
      PlanningProgram::orderJoins,
      PlanningProgram::windowsFirst,
      PlanningProgram::plan,
      Programs.calc(METADATA));

  private PlanningProgram() {
  }

  /**
   * Calcite's decorrelation, or the statement as it is where that fails: the decorrelator throws
   * on some correlated sub-queries (a NullPointerException in its value generator for two scalar
   * sub-queries correlated by conditions on the outer row alone, as SQLAlchemy's column reflection
   * writes them). A correlated plan answers the same, each sub-query run per outer row.
   */
  private static RelNode decorrelate(RelOptPlanner planner, RelNode rel, RelTraitSet requiredOutputTraits,
      List<RelOptMaterialization> materializations, List<RelOptLattice> lattices) {
    try {
      return DECORRELATE.run(planner, rel, requiredOutputTraits, materializations, lattices);
    } catch (NullPointerException | IllegalStateException | AssertionError e) {
      return rel;
    }
  }

  /** Gathers the joins of a statement with many into a MultiJoin, and keeps the planner from exploring every order. */
  private static RelNode orderJoins(RelOptPlanner planner, RelNode rel, RelTraitSet requiredOutputTraits,
      List<RelOptMaterialization> materializations, List<RelOptLattice> lattices) {
    if (RelOptUtil.countJoins(rel) < heuristicFromJoins) {
      return rel;
    }
    RelNode gathered = Programs.of(GATHER_JOINS, false, METADATA)
        .run(planner, rel, requiredOutputTraits, materializations, lattices);
    for (RelOptRule rule : planner.getRules()) {
      if (rule instanceof JoinCommuteRule || rule instanceof JoinAssociateRule
          || rule instanceof JoinPushThroughJoinRule) {
        planner.removeRule(rule);
      }
    }
    planner.addRule(CoreRules.MULTI_JOIN_OPTIMIZE);
    return gathered;
  }

  private static final HepProgram WINDOWS = new HepProgramBuilder()
      .addRuleInstance(CoreRules.PROJECT_TO_LOGICAL_PROJECT_AND_WINDOW)
      .build();

  /**
   * Window functions as Window operators before the cost-based planning, each without an order:
   * a Window emits its rows partition by partition, not in its input's order. Calcite 1.41 turns
   * a projection's window functions into a Window only after that planning (its calc program), so
   * the planner took the projection for one that keeps its input's order and dropped an ORDER BY
   * that the scan's key order seemed to satisfy ({@link WindowOrder}, the metadata side).
   */
  private static RelNode windowsFirst(RelOptPlanner planner, RelNode rel, RelTraitSet requiredOutputTraits,
      List<RelOptMaterialization> materializations, List<RelOptLattice> lattices) {
    if (!hasWindowFunctions(rel)) {
      return rel;
    }
    RelNode windowed = Programs.of(WINDOWS, false, WindowOrder.PROVIDER)
        .run(planner, rel, requiredOutputTraits, materializations, lattices);
    return windowed.accept(new RelShuttleImpl() {
      @Override
      public RelNode visit(RelNode other) {
        RelNode visited = super.visit(other);
        return visited instanceof LogicalWindow window
            ? window.copy(window.getTraitSet().replace(RelCollations.EMPTY), window.getInputs()) : visited;
      }
    });
  }

  private static boolean hasWindowFunctions(RelNode rel) {
    if (rel instanceof Project project && project.getProjects().stream().anyMatch(RexOver::containsOver)) {
      return true;
    }
    return rel.getInputs().stream().anyMatch(PlanningProgram::hasWindowFunctions);
  }

  /** The cost-based planning of Calcite's standard program. */
  private static RelNode plan(RelOptPlanner planner, RelNode rel, RelTraitSet requiredOutputTraits,
      List<RelOptMaterialization> materializations, List<RelOptLattice> lattices) {
    materializations.forEach(planner::addMaterialization);
    // Queries are answered from views by the planner's substitution of materializations (exact
    // unification of the query with each view's plan), which yields Calcs: split into filters and
    // projections, which tablesql's rules push into the view's scan. Of Calcite's lineage-based
    // materialized-view rules (scans give their columns' lineage: ScanLineage) only the
    // aggregate ones are kept, which roll a total up from a summary's groups: the filter and join
    // ones failed on plans the substitution answers anyway (MaterializedViewTest).
    RelOptRules.MATERIALIZATION_RULES.forEach(planner::removeRule);
    SemiJoinRules.replace(planner);
    if (!materializations.isEmpty()) {
      planner.addRule(CoreRules.CALC_SPLIT);
      planner.addRule(MaterializedViewRules.AGGREGATE);
      planner.addRule(MaterializedViewRules.PROJECT_AGGREGATE);
    }
    lattices.forEach(planner::addLattice);
    planner.setRoot(rel);
    RelNode root = rel.getTraitSet().equals(requiredOutputTraits) ? rel : planner.changeTraits(rel, requiredOutputTraits);
    planner.setRoot(root);
    return planner.chooseDelegate().findBestExp();
  }
}
