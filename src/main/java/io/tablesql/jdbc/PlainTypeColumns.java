package io.tablesql.jdbc;

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
        plain(table, columnName, typeName, dataType), columnSize, decimalDigits, numPrecRadix, nullable,
        charOctetLength, ordinalPosition, isNullable);
  }

  private static String plain(Table table, String columnName, String typeName, int dataType) {
    String declared = TypeNames.declared(table, columnName);
    return declared != null ? declared : TypeNames.plain(typeName, dataType);
  }
}
