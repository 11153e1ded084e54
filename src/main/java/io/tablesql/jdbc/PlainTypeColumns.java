package io.tablesql.jdbc;

import io.tablesql.plan.AzureTable;
import org.apache.calcite.avatica.MetaImpl.MetaColumn;
import org.apache.calcite.jdbc.CalciteMetaColumnFactoryImpl;
import org.apache.calcite.schema.Table;

/**
 * Calcite's hook for the rows of {@code DatabaseMetaData.getColumns} (its connection property
 * {@code metaColumnFactory}): each column's TYPE_NAME as tools show it ({@link TypeNames}).
 * Public, with {@link #INSTANCE}, because Calcite creates it from its class name.
 */
public final class PlainTypeColumns extends CalciteMetaColumnFactoryImpl {
  public static final PlainTypeColumns INSTANCE = new PlainTypeColumns();

  private PlainTypeColumns() {
  }

  @Override
  public MetaColumn createColumn(Table table, String tableCat, String tableSchem, String tableName, String columnName,
      int dataType, String typeName, Integer columnSize, Integer decimalDigits, int numPrecRadix, int nullable,
      Integer charOctetLength, int ordinalPosition, String isNullable) {
    return super.createColumn(table, tableCat, tableSchem, tableName, columnName, dataType,
        declaredUuid(table, columnName) ? "UUID" : TypeNames.plain(typeName, dataType), columnSize, decimalDigits,
        numPrecRadix, nullable, charOctetLength, ordinalPosition, isNullable);
  }

  /**
   * Whether the column is a declared UUID (an Edm Guid): its values are text in SQL (VARCHAR, the
   * DATA_TYPE), and its TYPE_NAME says what the DDL said.
   */
  private static boolean declaredUuid(Table table, String columnName) {
    AzureTable azure = table instanceof AzureTable found ? found : null;
    if (azure == null || azure.definition() == null) {
      return false;
    }
    int index = azure.shape().indexOf(columnName);
    return index >= 0 && "UUID".equals(azure.shape().columns().get(index).describeType());
  }
}
