package io.tablesql.plan;

import java.lang.reflect.Type;
import java.util.Collection;
import java.util.List;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.schema.ModifiableTable;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.Schemas;

/**
 * A table whose INSERT, UPDATE and DELETE run through tablesql's write rule
 * ({@link AzureRules#MODIFY_TO_ENUMERABLE}) rather than on Calcite's modifiable collection.
 */
interface WrittenByTableSql extends ModifiableTable {
  @Override
  default TableModify toModificationRel(RelOptCluster cluster, RelOptTable table, Prepare.CatalogReader catalogReader,
      RelNode child, TableModify.Operation operation, List<String> updateColumnList,
      List<RexNode> sourceExpressionList, boolean flattened) {
    return AzureTableModify.create(table, catalogReader, child, operation, updateColumnList, sourceExpressionList);
  }

  /** No collection: the write rule turns rows into the table's own writes. */
  @Override
  default Collection<?> getModifiableCollection() {
    return null;
  }

  @Override
  default Type getElementType() {
    return Object[].class;
  }

  @Override
  default Expression getExpression(SchemaPlus schema, String tableName, Class clazz) {
    return Schemas.tableExpression(schema, getElementType(), tableName, clazz);
  }
}
