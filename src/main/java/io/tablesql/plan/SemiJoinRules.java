package io.tablesql.plan;

import java.util.List;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.rules.SemiJoinRule;

/**
 * Calcite's rules that turn a join with a distinct right side into a semi-join, made safe:
 *
 * <ul>
 *   <li>Not over an aggregate without GROUP BY keys. Such an aggregate gives exactly one row even
 *       over no rows, while the semi-join with its input gives none: Calcite's rule takes a
 *       sub-query's {@code COUNT(*)} joined to every row (from {@code x IN (SELECT ...)} under
 *       OR) for "at least one row", and {@code c < 90 OR (... x IN (empty) ...)} returned no
 *       rows ({@code SubqueryOracleTest}).
 *   <li>Only over logical joins: a {@link LookupJoin} is a join too, and the rule would take its
 *       per-batch right side out of the join that defines its correlation variables.
 * </ul>
 */
final class SemiJoinRules {
  private static final List<RelOptRule> SAFE = List.of(
      CoreRules.PROJECT_TO_SEMI_JOIN.config
          .withOperandSupplier(b0 -> b0.operand(LogicalProject.class).oneInput(b1 -> b1.operand(LogicalJoin.class)
              .predicate(SemiJoinRules::supported).inputs(
                  b2 -> b2.operand(RelNode.class).anyInputs(),
                  b3 -> b3.operand(Aggregate.class).predicate(SemiJoinRules::grouped).anyInputs())))
          .as(SemiJoinRule.ProjectToSemiJoinRule.ProjectToSemiJoinRuleConfig.class).toRule(),
      CoreRules.JOIN_TO_SEMI_JOIN.config
          .withOperandSupplier(b0 -> b0.operand(LogicalJoin.class).predicate(SemiJoinRules::supported).inputs(
              b1 -> b1.operand(RelNode.class).anyInputs(),
              b2 -> b2.operand(Aggregate.class).predicate(SemiJoinRules::grouped).anyInputs()))
          .as(SemiJoinRule.JoinToSemiJoinRule.JoinToSemiJoinRuleConfig.class).toRule(),
      CoreRules.JOIN_ON_UNIQUE_TO_SEMI_JOIN.config
          .withOperandSupplier(b0 -> b0.operand(LogicalProject.class).oneInput(b1 -> b1.operand(LogicalJoin.class)
              .predicate(SemiJoinRules::supported).inputs(
                  b2 -> b2.operand(RelNode.class).anyInputs(),
                  b3 -> b3.operand(RelNode.class).anyInputs())))
          .as(SemiJoinRule.JoinOnUniqueToSemiJoinRule.JoinOnUniqueToSemiJoinRuleConfig.class).toRule());

  private SemiJoinRules() {
  }

  /** Replaces Calcite's semi-join rules in the planner by the safe ones. */
  static void replace(RelOptPlanner planner) {
    for (RelOptRule rule : planner.getRules()) {
      if (rule instanceof SemiJoinRule) {
        planner.removeRule(rule);
      }
    }
    SAFE.forEach(planner::addRule);
  }

  private static boolean supported(LogicalJoin join) {
    return join.getJoinType() == JoinRelType.INNER || join.getJoinType() == JoinRelType.LEFT;
  }

  private static boolean grouped(Aggregate aggregate) {
    return aggregate.getGroupCount() > 0;
  }
}
