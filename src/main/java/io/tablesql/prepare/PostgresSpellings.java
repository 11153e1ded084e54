package io.tablesql.prepare;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJsonConstructorNullClause;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL spellings that Calcite's validator would take otherwise, written as what they mean,
 * one node at a time before validation:
 * <ul>
 *   <li>a catalog function named in any case ({@code PG_CATALOG.PG_GET_EXPR});</li>
 *   <li>an {@code E'...'} string in the connection's character set;</li>
 *   <li>{@code string_to_array} of a literal splitting text into text (not into the literal's
 *       {@code CHAR(n)}, which pads);</li>
 *   <li>{@code json_build_object(k, v, ...)} as the standard's {@code JSON_OBJECT(KEY k VALUE v,
 *       ... NULL ON NULL)};</li>
 *   <li>a cast to {@code regclass}, {@code regtype}, {@code regnamespace} or {@code regproc}
 *       ({@code CAST(x AS REGCLASS)}, as {@code x::regclass} already is) as the catalog function
 *       of that name, and a {@code regclass} cast to text as the relation's name
 *       ({@code c.oid::regclass::text}), which is what PostgreSQL prints for one;</li>
 *   <li>pg_index's int2vector columns cast to text as PostgreSQL prints them
 *       ({@code ix.indkey::varchar}, {@code "1 2"}; a user's text or integer column of that name casts as before).</li>
 * </ul>
 */
final class PostgresSpellings {
  private static final Set<String> CATALOG_SCHEMAS = Set.of("pg_catalog", "information_schema");
  private static final Set<String> OID_TYPES = Set.of("regclass", "regtype", "regnamespace", "regproc");
  /** pg_index's int2vector columns: arrays in the catalogs, whose text in PostgreSQL is their elements between blanks. */
  private static final Set<String> VECTOR_COLUMNS = Set.of("indkey", "indoption");

  private PostgresSpellings() {
  }

  /** {@code node} as written out, or {@code node} itself. */
  static SqlNode rewrite(SqlNode node) {
    if (node instanceof SqlBasicCall call && call.getOperator() instanceof SqlUnresolvedFunction function
        && function.getSqlIdentifier() != null && function.getSqlIdentifier().names.size() == 2
        && CATALOG_SCHEMAS.contains(function.getSqlIdentifier().names.get(0).toLowerCase(Locale.ROOT))) {
      // a catalog function named in upper case (HoneySQL writes PG_CATALOG.PG_GET_EXPR): Calcite finds a
      // qualified function only in the case it was registered in, the catalogs' lower case
      SqlIdentifier name = function.getSqlIdentifier();
      List<String> lower = name.names.stream().map(part -> part.toLowerCase(Locale.ROOT)).toList();
      if (!lower.equals(name.names)) {
        call.setOperator(new SqlUnresolvedFunction(new SqlIdentifier(lower, name.getParserPosition()), null, null,
            null, null, function.getFunctionType()));
      }
    }
    if (node instanceof SqlCharStringLiteral literal && literal.getNlsString().getCharset() != null
        && literal.getNlsString().getCharset().name().startsWith("UTF-16")) {
      // Calcite's parser gives E'...' strings UTF-16, whose text does not compare or concatenate with
      // the connection's (UTF-8): the same characters, in the connection's character set
      return SqlLiteral.createCharString(literal.getValueAs(String.class), literal.getParserPosition());
    }
    if (node instanceof SqlCall split && split.getKind() == SqlKind.STRING_TO_ARRAY && split.operandCount() > 0
        && split.operand(0) instanceof SqlCharStringLiteral text) {
      // PostgreSQL splits text into text; Calcite would type the parts as the literal, CHAR(n), padded to its length
      split.setOperand(0, SqlStdOperatorTable.CAST.createCall(text.getParserPosition(), text,
          new SqlDataTypeSpec(new SqlBasicTypeNameSpec(SqlTypeName.VARCHAR, text.getParserPosition()),
              text.getParserPosition())));
      return split;
    }
    if (node instanceof SqlBasicCall json && json.getOperator() instanceof SqlUnresolvedFunction function
        && function.getSqlIdentifier() != null && isCatalogFunction(function.getSqlIdentifier(), "json_build_object")
        && json.operandCount() % 2 == 0) {
      // PostgreSQL's json_build_object(key, value, ...) is the standard's JSON_OBJECT, nulls kept
      List<SqlNode> operands = new java.util.ArrayList<>();
      operands.add(SqlLiteral.createSymbol(SqlJsonConstructorNullClause.NULL_ON_NULL, json.getParserPosition()));
      operands.addAll(json.getOperandList());
      return SqlStdOperatorTable.JSON_OBJECT.createCall(json.getParserPosition(), operands);
    }
    if (!(node instanceof SqlCall cast) || cast.getKind() != SqlKind.CAST || cast.operandCount() != 2
        || !(cast.operand(1) instanceof SqlDataTypeSpec type)) {
      return node;
    }
    String target = type.getTypeName().names.get(type.getTypeName().names.size() - 1).toLowerCase(Locale.ROOT);
    SqlNode value = cast.operand(0);
    if (OID_TYPES.contains(target)) {
      return catalogCall(target, value, cast.getParserPosition());
    }
    SqlTypeName targetType = SqlTypeName.get(target.toUpperCase(Locale.ROOT));
    boolean toText = target.equals("text") || target.equals("name")
        || targetType != null && SqlTypeName.CHAR_TYPES.contains(targetType);
    if (toText && value instanceof SqlIdentifier column
        && VECTOR_COLUMNS.contains(column.names.get(column.names.size() - 1).toLowerCase(Locale.ROOT))) {
      // ix.indkey::varchar, as SQLAlchemy reads an index's columns: "1 2" (a user's text or integer column of that name casts as before)
      return catalogCall("int2vectorout", value, cast.getParserPosition());
    }
    SqlNode relation = toText ? asRegclass(value) : null;
    return relation == null ? node : catalogCall("regclassout", relation, cast.getParserPosition());
  }

  /** {@code node} as the call giving a relation's OID if it is a cast to regclass ({@code x::regclass}, {@code CAST(x AS REGCLASS)}); else null. */
  private static SqlNode asRegclass(SqlNode node) {
    if (node instanceof SqlBasicCall call && call.getOperator() instanceof SqlUnresolvedFunction function
        && function.getSqlIdentifier() != null && isCatalogFunction(function.getSqlIdentifier(), "regclass")) {
      return call;
    }
    if (node instanceof SqlCall cast && cast.getKind() == SqlKind.CAST && cast.operandCount() == 2
        && cast.operand(1) instanceof SqlDataTypeSpec type
        && type.getTypeName().names.get(type.getTypeName().names.size() - 1).equalsIgnoreCase("regclass")) {
      return catalogCall("regclass", cast.operand(0), cast.getParserPosition());
    }
    return null;
  }

  private static boolean isCatalogFunction(SqlIdentifier name, String function) {
    List<String> names = name.names;
    return names.get(names.size() - 1).equalsIgnoreCase(function)
        && (names.size() == 1 || names.get(names.size() - 2).equalsIgnoreCase("pg_catalog"));
  }

  private static SqlNode catalogCall(String function, SqlNode argument, SqlParserPos pos) {
    SqlIdentifier name = new SqlIdentifier(List.of("pg_catalog", function), pos);
    return new SqlUnresolvedFunction(name, null, null, null, null, SqlFunctionCategory.USER_DEFINED_FUNCTION)
        .createCall(pos, argument);
  }
}
