package io.tablesql.plan;

import io.tablesql.query.Operand;
import io.tablesql.query.RowLimit;
import io.tablesql.query.TableQuery;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.adapter.enumerable.EnumerableRules;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelCollationTraitDef;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.TableModify;
import java.util.LinkedHashSet;
import java.util.Set;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.plan.volcano.RelSubset;
import org.apache.calcite.rel.core.CorrelationId;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalSort;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.tools.RelBuilderFactory;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * The planner rules of Azure tables: filters, projections, sorts and limits move into an
 * {@link AzureTableScan}, joins onto a table become {@link LookupJoin}s, and scans and writes
 * become executable.
 */
public final class AzureRules {
  private AzureRules() {
  }

  /** WHERE over a table: the access path, the $filter, and a residual Filter for the client. */
  static final RelOptRule FILTER = new RuleConfig("AzureFilterRule",
      b0 -> b0.operand(LogicalFilter.class).oneInput(b1 -> b1.operand(AzureTableScan.class)
          .predicate(scan -> FullScans.isUnconstrained(scan.query())).noInputs()),
      config -> new RelRule<>(config) {
        @Override
        public void onMatch(RelOptRuleCall call) {
          Filter filter = call.rel(0);
          AzureTableScan scan = call.rel(1);
          RexBuilder rexBuilder = filter.getCluster().getRexBuilder();
          FilterTranslator.Result result = IndexPaths.cheapest(scan.query(), filter.getCondition(), rexBuilder,
              new FilterTranslator(scan.query(), rexBuilder).translate(filter.getCondition()));
          if (FullScans.isUnconstrained(result.query())) {
            return; // nothing the service can do
          }
          RelBuilder builder = call.builder().push(scan.filtered(result.query(), result.correlated(),
              filter.getCondition(), result.residual() == null));
          if (result.residual() != null) {
            builder.filter(result.residual());
          }
          call.transformTo(builder.build());
        }
      }).toRule();

  /** SELECT list over a table: only the columns used are asked for ($select). */
  static final RelOptRule PROJECT = new RuleConfig("AzureProjectRule",
      b0 -> b0.operand(LogicalProject.class).oneInput(b1 -> b1.operand(AzureTableScan.class).noInputs()),
      config -> new RelRule<>(config) {
        @Override
        public void onMatch(RelOptRuleCall call) {
          Project project = call.rel(0);
          AzureTableScan scan = call.rel(1);
          ImmutableBitSet used = RelOptUtil.InputFinder.bits(project.getProjects(), null);
          AzureTableScan narrowed = narrow(scan, used);
          if (narrowed == null) {
            return;
          }
          RexShuttle renumber = renumbering(used);
          RelBuilder builder = call.builder().push(narrowed);
          builder.project(renumber.apply(project.getProjects()), project.getRowType().getFieldNames());
          call.transformTo(builder.build());
        }
      }).toRule();

  /** SELECT list over a WHERE the service could not take whole: columns of both. */
  static final RelOptRule PROJECT_FILTER = new RuleConfig("AzureProjectFilterRule",
      b0 -> b0.operand(LogicalProject.class).oneInput(b1 -> b1.operand(LogicalFilter.class)
          .oneInput(b2 -> b2.operand(AzureTableScan.class).noInputs())),
      config -> new RelRule<>(config) {
        @Override
        public void onMatch(RelOptRuleCall call) {
          Project project = call.rel(0);
          Filter filter = call.rel(1);
          AzureTableScan scan = call.rel(2);
          ImmutableBitSet used = RelOptUtil.InputFinder.bits(project.getProjects(), filter.getCondition());
          AzureTableScan narrowed = narrow(scan, used);
          if (narrowed == null) {
            return;
          }
          RexShuttle renumber = renumbering(used);
          RelBuilder builder = call.builder().push(narrowed);
          builder.filter(filter.getCondition().accept(renumber));
          builder.project(renumber.apply(project.getProjects()), project.getRowType().getFieldNames());
          call.transformTo(builder.build());
        }
      }).toRule();

  /**
   * ORDER BY and LIMIT over a table. An ORDER BY the scan's rows come in already (see {@link
   * AbstractAzureScan#keyCollations}) needs no client sort, and a LIMIT then stops the paging
   * once enough rows have come, as it does without ORDER BY. An ORDER BY in reverse key order is
   * sorted in the client (the service reads forwards only), which EXPLAIN says at the scan.
   */
  static final RelOptRule SORT = new RuleConfig("AzureSortRule",
      b0 -> b0.operand(LogicalSort.class).oneInput(b1 -> b1.operand(AzureTableScan.class)
          .predicate(scan -> scan.query().limit() == null && scan.sortAbove.getFieldCollations().isEmpty())
          .noInputs()),
      config -> new RelRule<>(config) {
        @Override
        public void onMatch(RelOptRuleCall call) {
          Sort sort = call.rel(0);
          AzureTableScan scan = call.rel(1);
          RelCollation order = sort.getCollation();
          AzureTableScan input = order.getFieldCollations().isEmpty() ? scan : scan.under(order);
          if (!inKeyOrder(order, input)) {
            if (scan.isReverseKeyOrder(order)) {
              call.transformTo(sort.copy(sort.getTraitSet(), input, order, sort.offset, sort.fetch));
            }
            return;
          }
          RowLimit limit = rowLimit(sort);
          if (limit != null) {
            input = input.withQuery(input.query().withLimit(limit));
          }
          if (input != scan) {
            call.transformTo(sort.copy(sort.getTraitSet(), input, order, sort.offset, sort.fetch));
          }
        }
      }).toRule();

  /** Implements the logical scan by the one that runs in Calcite's enumerable engine. */
  static final RelOptRule TO_ENUMERABLE = ConverterRule.Config.INSTANCE
      .withConversion(AzureTableScan.class, Convention.NONE, EnumerableConvention.INSTANCE, "AzureToEnumerableRule")
      .withRuleFactory(config -> new ConverterRule(config) {
        @Override
        public RelNode convert(RelNode rel) {
          return EnumerableAzureTableScan.create((AzureTableScan) rel);
        }
      }).toRule();

  /** Makes a write executable, its input (the rows to write) too. */
  static final RelOptRule MODIFY_TO_ENUMERABLE = ConverterRule.Config.INSTANCE
      .withConversion(TableModify.class, modify -> modify.getTable().unwrap(AzureTable.class) != null
              || modify.getTable().unwrap(PendingWritesTable.class) != null,
          Convention.NONE, EnumerableConvention.INSTANCE, "AzureModifyToEnumerableRule")
      .withRuleFactory(config -> new ConverterRule(config) {
        @Override
        public RelNode convert(RelNode rel) {
          TableModify modify = (TableModify) rel;
          RelNode input = convert(modify.getInput(), modify.getTraitSet().replace(EnumerableConvention.INSTANCE));
          return modify.getTable().unwrap(PendingWritesTable.class) != null
              ? EnumerablePendingWritesModify.create(modify, input) : EnumerableAzureTableModify.create(modify, input);
        }
      }).toRule();

  /** Writes to Azure tables run through this rule only: Calcite's own expects a collection. */
  static void registerWrites(RelOptPlanner planner) {
    planner.removeRule(EnumerableRules.ENUMERABLE_TABLE_MODIFICATION_RULE);
    planner.addRule(MODIFY_TO_ENUMERABLE);
  }

  /** Left rows per batch of a lookup join: one multi-point lookup of at most this many keys. */
  static final int LOOKUP_BATCH = FilterTranslator.MAX_POINTS;

  /**
   * The left rows per batch of a lookup join. The code Calcite generates for a condition on the
   * right side that the service cannot take captures each row of the batch and each of its
   * fields the condition reads, and a JVM method takes at most 255 parameters: a condition of
   * three left fields in batches of 100 failed to compile (303). So fewer rows per batch where
   * the condition reads more of a left row.
   */
  private static int batchSize(LogicalJoin join) {
    int leftFields = join.getLeft().getRowType().getFieldCount();
    int read = (int) RelOptUtil.InputFinder.bits(join.getCondition()).asList().stream()
        .filter(field -> field < leftFields).count();
    return Math.max(1, Math.min(LOOKUP_BATCH, 240 / (read + 1)));
  }

  /**
   * A join whose right side is an Azure table, as a {@link LookupJoin}: the right side filtered,
   * for each batch of left rows, by the join condition with the batch's values, which the
   * filter rule turns into lookups of exactly those keys. The planner weighs it against reading
   * the right side whole by cost (the batches' keys against the table's size).
   */
  static final RelOptRule LOOKUP_JOIN = new RuleConfig("AzureLookupJoinRule",
      b0 -> b0.operand(LogicalJoin.class).predicate(join -> join.getJoinType() == JoinRelType.INNER
          || join.getJoinType() == JoinRelType.LEFT || join.getJoinType() == JoinRelType.SEMI
          || join.getJoinType() == JoinRelType.ANTI).anyInputs(),
      config -> new RelRule<>(config) {
        @Override
        public void onMatch(RelOptRuleCall call) {
          LogicalJoin join = call.rel(0);
          if (!readsAzureTable(join.getRight(), 4) || join.analyzeCondition().leftKeys.isEmpty()) {
            return; // without an equality of the two sides, no batch of left rows names keys to read
          }
          RelOptCluster cluster = join.getCluster();
          RexBuilder rexBuilder = cluster.getRexBuilder();
          int leftFields = join.getLeft().getRowType().getFieldCount();
          Set<CorrelationId> variables = new LinkedHashSet<>();
          List<RexNode> batch = new ArrayList<>();
          ImmutableBitSet.Builder required = ImmutableBitSet.builder();
          for (int i = 0; i < batchSize(join); i++) {
            CorrelationId id = cluster.createCorrel();
            variables.add(id);
            RexNode row = rexBuilder.makeCorrel(join.getLeft().getRowType(), id);
            batch.add(join.getCondition().accept(new RexShuttle() {
              @Override
              public RexNode visitInputRef(RexInputRef ref) {
                if (ref.getIndex() >= leftFields) {
                  return rexBuilder.makeInputRef(ref.getType(), ref.getIndex() - leftFields);
                }
                required.set(ref.getIndex());
                return rexBuilder.makeFieldAccess(row, ref.getIndex());
              }
            }));
          }
          RelBuilder builder = call.builder().push(join.getRight());
          RelNode right = builder.filter(builder.or(batch)).build();
          RelTraitSet enumerable = cluster.traitSetOf(EnumerableConvention.INSTANCE);
          call.transformTo(LookupJoin.lookup(convert(join.getLeft(), enumerable),
              new LookupSide(convert(right, enumerable)),
              join.getCondition(), required.build(), variables, join.getJoinType()));
        }
      }).toRule();

  public static final List<RelOptRule> PUSHDOWN = List.of(FILTER, PROJECT, PROJECT_FILTER, SORT, LOOKUP_JOIN,
      CoreRules.FILTER_MERGE);

  /** Whether a plan (or a set of equivalent plans) reads an Azure table, looking a few levels down. */
  private static boolean readsAzureTable(RelNode node, int depth) {
    if (node instanceof RelSubset subset) {
      return subset.getRelList().stream().anyMatch(rel -> readsAzureTable(rel, depth));
    }
    if (node instanceof AbstractAzureScan) {
      return true;
    }
    return depth > 0 && node.getInputs().size() == 1 && readsAzureTable(node.getInput(0), depth - 1);
  }

  /** The scan reading only the {@code used} fields (at least one), or null if that changes nothing. */
  private static AzureTableScan narrow(AzureTableScan scan, ImmutableBitSet used) {
    TableQuery narrowed = narrowed(scan.query(), used);
    return narrowed == null ? null : scan.withQuery(narrowed);
  }

  /** The query reading only the {@code used} fields of its projection (at least one), or null if that changes nothing. */
  static TableQuery narrowed(TableQuery query, ImmutableBitSet used) {
    List<Integer> projection = query.projection();
    if (used.cardinality() == projection.size()) {
      return null;
    }
    List<Integer> narrowed = new ArrayList<>();
    for (int field : used.isEmpty() ? ImmutableBitSet.of(0) : used) {
      narrowed.add(projection.get(field));
    }
    return query.withProjection(narrowed);
  }

  /** Renumbers references to the fields of a scan after {@link #narrow} kept only {@code used}. */
  private static RexShuttle renumbering(ImmutableBitSet used) {
    List<Integer> kept = used.asList();
    return new RexShuttle() {
      @Override
      public RexNode visitInputRef(RexInputRef ref) {
        return new RexInputRef(kept.indexOf(ref.getIndex()), ref.getType());
      }
    };
  }

  /** The rows a LIMIT and OFFSET need, literals or parameters; null without LIMIT or with other expressions. */
  private static RowLimit rowLimit(Sort sort) {
    if (sort.fetch == null) {
      return null;
    }
    List<Operand> terms = new ArrayList<>();
    for (RexNode node : sort.offset == null ? List.of(sort.fetch) : List.of(sort.fetch, sort.offset)) {
      if (node instanceof RexLiteral literal) {
        terms.add(Operand.literal(RexLiteral.longValue(literal)));
      } else if (node instanceof RexDynamicParam parameter) {
        terms.add(Operand.parameter(parameter.getIndex()));
      } else {
        return null;
      }
    }
    return new RowLimit(terms);
  }

  /** Whether the sort asks for nothing or for an order the scan's rows come in already. */
  private static boolean inKeyOrder(RelCollation order, AzureTableScan scan) {
    return order.getFieldCollations().isEmpty() || scan.getTraitSet().getTraits(RelCollationTraitDef.INSTANCE)
        .stream().anyMatch(provided -> provided.satisfies(order));
  }

  /** A rule configuration written out by hand, since Calcite generates its own with Immutables. */
  private record RuleConfig(String description, RelRule.OperandTransform operandSupplier,
      RelBuilderFactory relBuilderFactory, Function<RuleConfig, RelOptRule> factory) implements RelRule.Config {
    RuleConfig(String description, RelRule.OperandTransform operands, Function<RuleConfig, RelOptRule> factory) {
      this(description, operands, RelFactories.LOGICAL_BUILDER, factory);
    }

    @Override
    public RelOptRule toRule() {
      return factory.apply(this);
    }

    @Override
    public RelRule.Config withRelBuilderFactory(RelBuilderFactory newFactory) {
      return new RuleConfig(description, operandSupplier, newFactory, factory);
    }

    @Override
    public RelRule.Config withDescription(String newDescription) {
      return new RuleConfig(newDescription, operandSupplier, relBuilderFactory, factory);
    }

    @Override
    public RelRule.Config withOperandSupplier(RelRule.OperandTransform transform) {
      return new RuleConfig(description, transform, relBuilderFactory, factory);
    }
  }
}
