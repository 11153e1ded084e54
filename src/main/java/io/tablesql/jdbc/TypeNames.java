package io.tablesql.jdbc;

import java.sql.JDBCType;
import java.util.regex.Pattern;

/**
 * Type names as tools show them, plain: Calcite writes precision, character set and
 * nullability into its ({@code VARCHAR CHARACTER SET "UTF-16LE" NOT NULL}, {@code TIMESTAMP(3)})
 * and names a Java-typed column after its class.
 */
final class TypeNames {
  private static final Pattern DECORATION =
      Pattern.compile("\\([^)]*\\)| CHARACTER SET \"[^\"]*\"| COLLATE \"[^\"]*\"| NOT NULL");

  private TypeNames() {
  }

  /** The plain name of a type Calcite names {@code name}, of JDBC type {@code jdbcType} (java.sql.Types). */
  static String plain(String name, int jdbcType) {
    if (name == null) {
      return null;
    }
    if (name.startsWith("JavaType(")) {
      try {
        return JDBCType.valueOf(jdbcType).getName();
      } catch (IllegalArgumentException e) {
        return JDBCType.OTHER.getName(); // a type code of Calcite's own
      }
    }
    return DECORATION.matcher(name).replaceAll("").trim();
  }
}
