package io.tablesql.metadata;

import io.tablesql.PostgresTypeOids;
import java.util.Locale;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The PostgreSQL types {@code pg_type} lists: those tablesql's columns are described with (the
 * server's result columns use the same OIDs), and those the catalogs' own columns have.
 */
enum PgType {
  BOOL(16, "bool", "boolean", 1, 'B', SqlTypeName.BOOLEAN),
  BYTEA(17, "bytea", "bytea", -1, 'U', SqlTypeName.VARBINARY),
  CHAR(18, "char", "\"char\"", 1, 'Z', SqlTypeName.VARCHAR),
  NAME(19, "name", "name", 64, 'S', SqlTypeName.VARCHAR),
  INT8(20, "int8", "bigint", 8, 'N', SqlTypeName.BIGINT),
  INT2(21, "int2", "smallint", 2, 'N', SqlTypeName.SMALLINT),
  INT4(23, "int4", "integer", 4, 'N', SqlTypeName.INTEGER),
  REGPROC(24, "regproc", "regproc", 4, 'N', SqlTypeName.INTEGER),
  TEXT(25, "text", "text", -1, 'S', SqlTypeName.VARCHAR),
  OID(26, "oid", "oid", 4, 'N', SqlTypeName.INTEGER),
  FLOAT4(700, "float4", "real", 4, 'N', SqlTypeName.REAL),
  FLOAT8(701, "float8", "double precision", 8, 'N', SqlTypeName.DOUBLE),
  VARCHAR(1043, "varchar", "character varying", -1, 'S', SqlTypeName.VARCHAR),
  DATE(1082, "date", "date", 4, 'D', SqlTypeName.DATE),
  TIME(1083, "time", "time without time zone", 8, 'D', SqlTypeName.TIME),
  TIMESTAMP(1114, "timestamp", "timestamp without time zone", 8, 'D', SqlTypeName.TIMESTAMP),
  NUMERIC(1700, "numeric", "numeric", -1, 'N', SqlTypeName.DECIMAL),
  REGCLASS(2205, "regclass", "regclass", 4, 'N', SqlTypeName.INTEGER),
  REGTYPE(2206, "regtype", "regtype", 4, 'N', SqlTypeName.INTEGER),
  UUID(2950, "uuid", "uuid", 16, 'U', SqlTypeName.VARCHAR);

  /** pg_catalog's namespace OID, as in PostgreSQL. */
  static final int PG_CATALOG_NAMESPACE = 11;

  final int oid;
  final String typname;
  /** The name {@code format_type} gives it. */
  final String formatted;
  final int length;
  final char category;
  /** What a value of the type is in tablesql's SQL: {@code ::text} casts to it. */
  final SqlTypeName sqlType;

  PgType(int oid, String typname, String formatted, int length, char category, SqlTypeName sqlType) {
    this.oid = oid;
    this.typname = typname;
    this.formatted = formatted;
    this.length = length;
    this.category = category;
    this.sqlType = sqlType;
  }

  /** The type of a column of this JDBC type ({@code declared}: its declared type's name, UUID for one), as the server describes it. */
  static PgType ofColumn(int jdbcType, String declared) {
    return ofOid(PostgresTypeOids.of(jdbcType, declared));
  }

  static PgType ofOid(int oid) {
    for (PgType type : values()) {
      if (type.oid == oid) {
        return type;
      }
    }
    return null;
  }

  /** A type by its PostgreSQL name ({@code int4}, {@code text}; {@code pg_catalog.} allowed); null if not one of these. */
  static PgType named(String name) {
    String plain = name.toLowerCase(Locale.ROOT);
    plain = plain.startsWith("pg_catalog.") ? plain.substring("pg_catalog.".length()) : plain;
    for (PgType type : values()) {
      if (type.typname.equals(plain)) {
        return type;
      }
    }
    return null;
  }

  /**
   * The modifier PostgreSQL records for a column of this type (its {@code atttypmod}): a
   * numeric's precision and scale, a varchar's length, each plus 4; -1 where there is none.
   */
  static int modifier(PgType type, RelDataType column) {
    if (type == NUMERIC && column.getPrecision() > 0 && column.getPrecision() <= 1000) {
      return ((column.getPrecision() << 16) | Math.max(0, column.getScale())) + 4;
    }
    if (type == VARCHAR && column.getPrecision() > 0 && column.getPrecision() < 10_485_760) {
      return column.getPrecision() + 4;
    }
    return -1;
  }

  /** {@code format_type(oid, modifier)}: the type's name as SQL writes it, with its modifier. */
  static String format(Integer oid, Integer modifier) {
    PgType type = oid == null ? null : ofOid(oid);
    if (type == null) {
      return oid == null ? null : "???";
    }
    int mod = modifier == null ? -1 : modifier;
    if (type == NUMERIC && mod >= 4) {
      return "numeric(" + ((mod - 4) >> 16) + "," + ((mod - 4) & 0xffff) + ")";
    }
    if (type == VARCHAR && mod >= 4) {
      return "character varying(" + (mod - 4) + ")";
    }
    return type.formatted;
  }

  /** The SQL type a cast to it gives ({@code ::int4}, {@code ::text}). */
  RelDataType sqlType(RelDataTypeFactory types) {
    return types.createTypeWithNullability(types.createSqlType(sqlType), true);
  }
}
