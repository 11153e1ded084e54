package io.tablesql.prepare;

import io.tablesql.parser.TableSqlParserImpl;
import io.tablesql.plan.PlanningProgram;
import io.tablesql.plan.ScanBindable;
import io.tablesql.exec.QueryRunner;
import io.tablesql.plan.ViewMaterializations;
import io.tablesql.plan.WindowOrder;
import io.tablesql.session.CurrentStatement;
import java.io.Reader;
import java.lang.reflect.Type;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.config.CalciteConnectionConfigImpl;
import org.apache.calcite.config.CalciteConnectionProperty;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.plan.Contexts;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCostFactory;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.prepare.CalcitePrepareImpl;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.runtime.Bindable;
import org.apache.calcite.runtime.Hook;
import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.tools.Program;
import org.apache.calcite.util.CancelFlag;

/**
 * Calcite's preparation of a statement, validated by {@link TableSqlValidator}: Calcite's hook
 * for custom validation is a preparing statement of one's own ({@link #getPreparingStmt}). A
 * statement the driver parsed already is not parsed again: its tree is handed over for the
 * call that plans it ({@link CurrentStatement#handingOver}) and returned by the parser Calcite asks
 * for ({@link #createParser}).
 */
public final class TableSqlPrepare extends CalcitePrepareImpl {
  /** How this preparation offers materialized views to the planner (a new instance prepares each statement). */
  private Views views = Views.ALL;
  /** Whether the plan just prepared was implemented without generated code ({@link ScanBindable}). */
  private boolean implementedDirectly;
  /** The physical tables the plan reads through materialized views (checked at each execution: QueryRunner). */
  private Set<String> readThroughViews = Set.of();

  @Override
  protected RelOptPlanner createPlanner(CalcitePrepare.Context prepareContext,
      org.apache.calcite.plan.Context externalContext, RelOptCostFactory costFactory) {
    CurrentStatement.Bound bound = CurrentStatement.get().bound();
    if (bound != null) {
      CancelFlag flag = new CancelFlag(bound.expired());
      externalContext = externalContext == null ? Contexts.of(prepareContext.config(), flag)
          : Contexts.chain(Contexts.of(flag), externalContext);
    }
    if (views == Views.RULES_ONLY && prepareContext.config() instanceof CalciteConnectionConfigImpl config) {
      // the planner's substitution of materializations is what this setting turns off; the rules stay
      org.apache.calcite.plan.Context noSubstitution = Contexts.of(config.set(CalciteConnectionProperty.MATERIALIZATIONS_ENABLED, "false"));
      externalContext = externalContext == null ? noSubstitution : Contexts.chain(noSubstitution, externalContext);
    }
    return super.createPlanner(prepareContext, externalContext, costFactory);
  }

  /**
   * A plan that answered a query from a materialized view wrongly (ViewMaterializations.keepsOneRow).
   * An exception, not a return value: it leaves Calcite's prepare from inside its optimize step,
   * whose callers are Calcite's, so that the statement is prepared again with a fresh planner.
   */
  private static final class PlanWithoutViews extends RuntimeException {
    PlanWithoutViews() {
      super(null, null, false, false);
    }
  }

  /**
   * How materialized views are offered to the planner: by Calcite's substitution and its
   * aggregate materialized-view rules; by those rules only; not at all. A statement whose plan
   * answered it from a view wrongly is planned again with the next.
   */
  private enum Views { ALL, RULES_ONLY, NONE }

  /** Planned within the statement's query timeout, or a timeout: never a plan the planner was stopped in. */
  @Override
  public <T> CalciteSignature<T> prepareSql(Context context, Query<T> query, Type elementType, long maxRowCount) {
    CurrentStatement request = CurrentStatement.get();
    CurrentStatement.Bound bound = request.bound();
    CalciteSignature<T> signature;
    try {
      signature = prepareWithViewsIfRight(context, query, elementType, maxRowCount);
    } catch (RuntimeException e) {
      throw bound != null && bound.expired().get() ? bound.timeout() : e;
    }
    if (bound != null && bound.expired().get()) {
      throw bound.timeout();
    }
    if (!readThroughViews.isEmpty()) {
      signature.internalParameters.put(QueryRunner.READ_THROUGH_VIEWS, readThroughViews); // in each execution's DataContext
    }
    @SuppressWarnings("unchecked")
    CalciteSignature<Object> planned = (CalciteSignature<Object>) signature;
    request.prepared(implementedDirectly ? DirectPlan.of(planned) : null);
    PlannerWarmup.plannedOne();
    return signature;
  }

  /** The texts Calcite prepares by a shortcut that skips validation, labelling its column EXPR$0. */
  private static final java.util.Set<String> CALCITE_SHORTCUT = java.util.Set.of("SELECT 1", "select 1",
      "SELECT 1 FROM DUAL", "select 1 from dual", "values 1", "VALUES 1");

  private <T> CalciteSignature<T> prepareWithViewsIfRight(Context context, Query<T> query, Type elementType,
      long maxRowCount) {
    implementedDirectly = false;
    readThroughViews = Set.of();
    if (query.sql != null && CALCITE_SHORTCUT.contains(query.sql)
        && TableSqlValidator.postgresLabels(context.getRootSchema())) {
      // validated like any query, so that its column is labelled as PostgreSQL labels it (?column?);
      // the trailing blank is what keeps it off Calcite's shortcut
      query = Query.of(query.sql + " ");
    }
    try {
      for (Views offered : Views.values()) {
        views = offered;
        try {
          return super.prepareSql(context, query, elementType, maxRowCount);
        } catch (PlanWithoutViews e) {
          // planned again with fewer ways to use views; with none, this is never thrown
        }
      }
      throw new IllegalStateException("planned without views, and still a plan using them");
    } finally {
      views = Views.ALL;
    }
  }

  /** Calcite's convertlets, but for a TIMESTAMP cast to text, which keeps its milliseconds ({@link TimestampText}). */
  @Override
  protected SqlRexConvertletTable createConvertletTable() {
    return TimestampText.over(super.createConvertletTable());
  }

  @Override
  protected SqlParser createParser(String sql, SqlParser.Config parserConfig) {
    CurrentStatement.HandedOver parsed = CurrentStatement.get().take(sql);
    if (parsed == null) {
      StatementText.countParse();
      return super.createParser(sql, parserConfig);
    }
    return SqlParser.create(sql, parserConfig.withParserFactory(reader -> new ParsedAlready(reader, parsed)));
  }

  /** The grammar's parser, answering with a parse made before. */
  private static final class ParsedAlready extends TableSqlParserImpl {
    private final CurrentStatement.HandedOver parsed;

    ParsedAlready(Reader reader, CurrentStatement.HandedOver parsed) {
      super(reader);
      this.parsed = parsed;
    }

    @Override
    public SqlNode parseSqlStmtEof() throws Exception {
      if (parsed.error() != null) {
        throw parsed.error();
      }
      return parsed.tree();
    }
  }

  @Override
  protected CalcitePreparingStmt getPreparingStmt(Context context, Type elementType,
      CalciteCatalogReader catalogReader, RelOptPlanner planner) {
    JavaTypeFactory typeFactory = context.getTypeFactory();
    EnumerableRel.Prefer prefer = elementType == Object[].class ? EnumerableRel.Prefer.ARRAY
        : EnumerableRel.Prefer.CUSTOM;
    RelOptCluster cluster = createCluster(planner, new RexBuilder(typeFactory));
    cluster.setMetadataProvider(WindowOrder.PROVIDER); // a window keeps no order (Calcite 1.41 said it did)
    return new CalcitePreparingStmt(this, context, catalogReader, typeFactory, context.getRootSchema(), prefer,
        cluster, EnumerableConvention.INSTANCE, createConvertletTable()) {
      /** Whether the statement only reads: a write reads the rows it changes from its table itself. */
      private boolean query;

      @Override
      public PreparedResult prepareSql(SqlNode sqlQuery, Class runtimeContextClass, SqlValidator validator,
          boolean needsValidation) {
        SqlNode read = sqlQuery instanceof SqlExplain explain ? explain.getExplicandum() : sqlQuery;
        query = read.getKind().belongsTo(SqlKind.QUERY);
        return super.prepareSql(sqlQuery, runtimeContextClass, validator, needsValidation);
      }

      /** Materialized views are chosen in optimize, once the plan says which tables it reads. */
      @Override
      protected List<Prepare.Materialization> getMaterializations() {
        return List.of();
      }

      /** The materialized views the planner may answer a query from (ViewMaterializations). */
      @Override
      protected RelRoot optimize(RelRoot root, List<Prepare.Materialization> materializations,
          List<CalciteSchema.LatticeEntry> lattices) {
        List<Prepare.Materialization> usable = query && views != Views.NONE
            ? ViewMaterializations.usableBy(root.rel, ViewMaterializations.of(context.getRootSchema())) : List.of();
        usable.forEach(m -> populateMaterializations(context, cluster, m));
        RelRoot planned = super.optimize(root, usable, lattices);
        if (!usable.isEmpty() && !ViewMaterializations.keepsOneRow(root.rel, planned.rel)) {
          throw new PlanWithoutViews();
        }
        readThroughViews = usable.isEmpty() ? Set.of() : ViewMaterializations.answeredFromViews(root.rel, planned.rel);
        return planned;
      }

      /**
       * A plan that is one table access is implemented by {@link ScanBindable}: the code
       * Calcite would generate and compile for it only calls the table access.
       */
      @Override
      protected PreparedResult implement(RelRoot root) {
        ScanBindable direct = query && prefer == EnumerableRel.Prefer.ARRAY && root.isRefTrivial()
            && root.kind.belongsTo(SqlKind.QUERY) ? ScanBindable.of(root.rel, context.getTypeFactory()) : null;
        if (direct == null) {
          return super.implement(root);
        }
        Hook.PLAN_BEFORE_IMPLEMENTATION.run(root);
        implementedDirectly = true;
        return new PreparedResultImpl(root.rel.getRowType(), parameterRowType, fieldOrigins,
            root.collation.getFieldCollations().isEmpty() ? List.of() : List.of(root.collation), root.rel, null,
            false) {
          @Override
          public String getCode() {
            throw new UnsupportedOperationException();
          }

          @Override
          public Bindable getBindable(Meta.CursorFactory cursorFactory) {
            return direct;
          }

          @Override
          public Type getElementType() {
            return direct.getElementType();
          }
        };
      }

      @Override
      protected SqlValidator createSqlValidator(Prepare.CatalogReader reader,
          UnaryOperator<SqlValidator.Config> configTransform) {
        return TableSqlValidator.create(context, (CalciteCatalogReader) reader, configTransform);
      }

      @Override
      protected Program getProgram() {
        return PlanningProgram.PROGRAM;
      }
    };
  }
}
