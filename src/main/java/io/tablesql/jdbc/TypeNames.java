package io.tablesql.jdbc;

import io.tablesql.plan.AzureTable;
import java.sql.JDBCType;
import java.util.regex.Pattern;
import org.apache.calcite.schema.Table;

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

  /**
   * The type name of a declared column where SQL's type says less: UUID, which is text in SQL
   * (VARCHAR its JDBC type), for a column declared UUID (an Edm Guid); null for any other.
   */
  static String declared(Table table, String columnName) {
    if (!(table instanceof AzureTable azure) || azure.definition() == null || columnName == null) {
      return null;
    }
    int index = azure.shape().indexOf(columnName);
    String declared = index < 0 ? null : azure.shape().columns().get(index).describeType();
    return "UUID".equals(declared) ? declared : null;
  }
}
