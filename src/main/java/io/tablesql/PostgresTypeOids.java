package io.tablesql;

import java.sql.Types;

/**
 * tablesql's column types in PostgreSQL's terms: the OID of the PostgreSQL type a column of a JDBC
 * type is described with, by the PostgreSQL-protocol server (its result columns and parameters)
 * and by the {@code pg_catalog} every connection has, so that both describe a column alike.
 */
public interface PostgresTypeOids {
  int BOOL = 16;
  int BYTEA = 17;
  int INT8 = 20;
  int INT2 = 21;
  int INT4 = 23;
  int TEXT = 25;
  int FLOAT4 = 700;
  int FLOAT8 = 701;
  int VARCHAR = 1043;
  int DATE = 1082;
  int TIME = 1083;
  int TIMESTAMP = 1114;
  int NUMERIC = 1700;
  int UUID = 2950;

  /**
   * The OID of a column of {@code jdbcType} whose type is named {@code typeName} (null if not
   * known): UUID for a column declared UUID (its JDBC type is VARCHAR), text for a type PostgreSQL
   * has no match for.
   */
  static int of(int jdbcType, String typeName) {
    if ("UUID".equalsIgnoreCase(typeName)) {
      return UUID;
    }
    return switch (jdbcType) {
      case Types.BOOLEAN, Types.BIT -> BOOL;
      case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY, Types.BLOB -> BYTEA;
      case Types.BIGINT -> INT8;
      case Types.SMALLINT, Types.TINYINT -> INT2;
      case Types.INTEGER -> INT4;
      case Types.REAL -> FLOAT4;
      case Types.DOUBLE, Types.FLOAT -> FLOAT8;
      case Types.DECIMAL, Types.NUMERIC -> NUMERIC;
      case Types.DATE -> DATE;
      case Types.TIME -> TIME;
      case Types.TIMESTAMP, Types.TIMESTAMP_WITH_TIMEZONE -> TIMESTAMP;
      case Types.VARCHAR, Types.CHAR, Types.LONGVARCHAR, Types.NVARCHAR, Types.NCHAR -> VARCHAR;
      default -> TEXT;
    };
  }
}
