package io.tablesql.plan;

import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Calcite's type system with two changes. A SUM (and an AVG) of TINYINT, SMALLINT or INTEGER
 * values is a BIGINT, as a SUM is in PostgreSQL, Trino and H2. Calcite's default keeps the
 * argument's type, so a sum past 2^31 wrapped around silently on the table's plan, while a
 * summary view, which keeps its sums as 64-bit integers, gave the true total: the same query
 * answered two ways. A BIGINT sum of integers of 32 bits or fewer cannot overflow below 2^32 rows.
 * And text of different lengths brought together (the branches of a CASE, the rows of a UNION
 * or VALUES) is a VARCHAR, as in PostgreSQL, H2 and SQLite, not a CHAR that pads the shorter values
 * with spaces ({@code CASE ... THEN 'TABLE' ELSE 'MATERIALIZED VIEW' END} gave {@code 'TABLE            '}).
 */
public final class TableSqlTypeSystem extends RelDataTypeSystemImpl {
  public static final TableSqlTypeSystem INSTANCE = new TableSqlTypeSystem();

  private TableSqlTypeSystem() {
  }

  @Override
  public RelDataType deriveSumType(RelDataTypeFactory typeFactory, RelDataType argumentType) {
    return isShortInteger(argumentType) ? bigint(typeFactory, argumentType)
        : super.deriveSumType(typeFactory, argumentType);
  }

  /**
   * AVG of such values too: Calcite computes it as its SUM cast to the AVG's type, divided by the
   * count, so an INTEGER AVG failed (out of range) once the sum passed 2^31. Still an integer
   * division, as before.
   */
  @Override
  public RelDataType deriveAvgAggType(RelDataTypeFactory typeFactory, RelDataType argumentType) {
    return isShortInteger(argumentType) ? bigint(typeFactory, argumentType)
        : super.deriveAvgAggType(typeFactory, argumentType);
  }

  @Override
  public boolean shouldConvertRaggedUnionTypesToVarying() {
    return true;
  }

  /**
   * A TIMESTAMP written without a precision ({@code CAST(x AS TIMESTAMP)}) keeps milliseconds,
   * the most Calcite keeps, as declared TIMESTAMP columns do: Calcite's default is 0, so a cast
   * of {@code '2024-05-01 10:00:00.123'} dropped the fraction and wrote {@code 10:00:00}
   * (PostgreSQL's TIMESTAMP keeps microseconds).
   */
  @Override
  public int getDefaultPrecision(SqlTypeName typeName) {
    return typeName == SqlTypeName.TIMESTAMP || typeName == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE
        ? getMaxPrecision(typeName) : super.getDefaultPrecision(typeName);
  }

  private static boolean isShortInteger(RelDataType type) {
    SqlTypeName name = type.getSqlTypeName();
    return name == SqlTypeName.TINYINT || name == SqlTypeName.SMALLINT || name == SqlTypeName.INTEGER;
  }

  private static RelDataType bigint(RelDataTypeFactory typeFactory, RelDataType like) {
    return typeFactory.createTypeWithNullability(typeFactory.createSqlType(SqlTypeName.BIGINT), like.isNullable());
  }
}
