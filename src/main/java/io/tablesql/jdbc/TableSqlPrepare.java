package io.tablesql.jdbc;

import java.lang.reflect.Type;
import java.util.function.UnaryOperator;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.prepare.CalcitePrepareImpl;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.sql.validate.SqlValidator;

/**
 * Calcite's preparation of a statement, validated by {@link TableSqlValidator}: Calcite's hook
 * for custom validation is a preparing statement of one's own ({@link #getPreparingStmt}).
 */
final class TableSqlPrepare extends CalcitePrepareImpl {
  @Override
  protected CalcitePreparingStmt getPreparingStmt(Context context, Type elementType,
      CalciteCatalogReader catalogReader, RelOptPlanner planner) {
    JavaTypeFactory typeFactory = context.getTypeFactory();
    EnumerableRel.Prefer prefer = elementType == Object[].class ? EnumerableRel.Prefer.ARRAY
        : EnumerableRel.Prefer.CUSTOM;
    return new CalcitePreparingStmt(this, context, catalogReader, typeFactory, context.getRootSchema(), prefer,
        createCluster(planner, new RexBuilder(typeFactory)), EnumerableConvention.INSTANCE, createConvertletTable()) {
      @Override
      protected SqlValidator createSqlValidator(Prepare.CatalogReader reader,
          UnaryOperator<SqlValidator.Config> configTransform) {
        return TableSqlValidator.create(context, (CalciteCatalogReader) reader, configTransform);
      }
    };
  }
}
