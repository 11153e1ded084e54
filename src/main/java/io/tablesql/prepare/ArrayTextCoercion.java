package io.tablesql.prepare;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.implicit.TypeCoercionImpl;

/**
 * Calcite's implicit coercions, and three of PostgreSQL's that catalog queries rely on: a string
 * literal compared with an array is the array's text form ({@code pol.polroles = '{0}'}, as psql
 * writes it), read as an array of the other side's element type (PostgreSQL gives such a literal
 * the type of the other operand; Calcite would refuse the comparison); and text compared with any
 * element of an array of text ({@code 'd' = any(stxkind)}) is compared as text; and a string
 * literal compared with a boolean is read as PostgreSQL reads a boolean's text ({@code
 * ix.indisprimary = 'f'}, as SQLAlchemy writes it; {@code 't'}, {@code 'yes'}, {@code 'off'},
 * ...), where Calcite's cast takes only {@code 'true'} and {@code 'false'} and fails at run time.
 */
final class ArrayTextCoercion extends TypeCoercionImpl {
  ArrayTextCoercion(RelDataTypeFactory types, SqlValidator validator) {
    super(types, validator);
  }

  @Override
  public boolean binaryComparisonCoercion(SqlCallBinding binding) {
    if (binding.getOperandCount() == 2 && binding.getOperator().getKind().belongsTo(SqlKind.BINARY_COMPARISON)) {
      for (int side = 0; side < 2; side++) {
        RelDataType array = binding.getOperandType(side);
        SqlNode other = binding.operand(1 - side);
        Boolean truth = array.getSqlTypeName() == SqlTypeName.BOOLEAN && other instanceof SqlCharStringLiteral text
            ? booleanText(text.getValueAs(String.class)) : null;
        if (truth != null) {
          SqlNode value = SqlLiteral.createBoolean(truth, other.getParserPosition());
          binding.getCall().setOperand(1 - side, value);
          validator.deriveType(binding.getScope(), value);
          return true;
        }
        if (array.getSqlTypeName() == SqlTypeName.ARRAY && array.getComponentType() != null
            && other instanceof SqlCharStringLiteral literal) {
          List<String> elements = elements(literal.getValueAs(String.class));
          if (elements != null && !elements.isEmpty()) {
            SqlNode value = constructor(elements, array.getComponentType(), literal.getParserPosition());
            binding.getCall().setOperand(1 - side, value);
            validator.deriveType(binding.getScope(), value);
            return true;
          }
        }
      }
    }
    return super.binaryComparisonCoercion(binding);
  }

  /**
   * {@code 'd' = ANY(array)} over an array of VARCHAR: Calcite takes CHAR and VARCHAR for types
   * that need no cast, and then for types too unlike to compare; the CHAR text is cast to VARCHAR
   * (never the other way: a cast to CHAR(n) would cut longer text short).
   */
  @Override
  public boolean quantifyOperationCoercion(SqlCallBinding binding) {
    RelDataType value = binding.getOperandType(0);
    RelDataType element = binding.getOperandType(1).getComponentType();
    if (element != null && value.getSqlTypeName() == SqlTypeName.CHAR && element.getSqlTypeName() == SqlTypeName.VARCHAR) {
      SqlNode cast = SqlStdOperatorTable.CAST.createCall(binding.operand(0).getParserPosition(), binding.operand(0),
          SqlTypeUtil.convertTypeToSpec(element));
      binding.getCall().setOperand(0, cast);
      validator.deriveType(binding.getScope(), cast);
      return true;
    }
    return super.quantifyOperationCoercion(binding);
  }

  /** PostgreSQL's reading of a boolean's text: a prefix of true, false, yes, no, on or off (of two letters at least), 1, 0; else null. */
  static Boolean booleanText(String text) {
    String value = text.trim().toLowerCase(java.util.Locale.ROOT);
    if (value.isEmpty()) {
      return null;
    }
    boolean beyondO = value.length() >= 2; // "o" alone is on or off
    if ("true".startsWith(value) || "yes".startsWith(value) || beyondO && "on".startsWith(value) || value.equals("1")) {
      return Boolean.TRUE;
    }
    if ("false".startsWith(value) || "no".startsWith(value) || beyondO && "off".startsWith(value) || value.equals("0")) {
      return Boolean.FALSE;
    }
    return null;
  }

  private static SqlNode constructor(List<String> elements, RelDataType elementType, SqlParserPos pos) {
    List<SqlNode> values = new ArrayList<>();
    for (String element : elements) {
      SqlNode text = element == null ? SqlLiteral.createNull(pos) : SqlLiteral.createCharString(element, pos);
      values.add(SqlStdOperatorTable.CAST.createCall(pos, text, SqlTypeUtil.convertTypeToSpec(elementType)));
    }
    return SqlStdOperatorTable.ARRAY_VALUE_CONSTRUCTOR.createCall(pos, values);
  }

  /**
   * The elements of a one-dimensional array's text form ({@code {a,"b c",NULL}}); null for text
   * that is not one.
   */
  static List<String> elements(String text) {
    String trimmed = text.trim();
    if (trimmed.length() < 2 || trimmed.charAt(0) != '{' || trimmed.charAt(trimmed.length() - 1) != '}') {
      return null;
    }
    List<String> elements = new ArrayList<>();
    String body = trimmed.substring(1, trimmed.length() - 1);
    if (body.isBlank()) {
      return elements;
    }
    StringBuilder element = new StringBuilder();
    boolean quoted = false;
    boolean wasQuoted = false;
    for (int i = 0; i < body.length(); i++) {
      char c = body.charAt(i);
      if (c == '\\' && i + 1 < body.length()) {
        element.append(body.charAt(++i));
      } else if (c == '"') {
        quoted = !quoted;
        wasQuoted = true;
      } else if (c == '{' && !quoted) {
        return null; // a nested array
      } else if (c == ',' && !quoted) {
        elements.add(element(element, wasQuoted));
        element.setLength(0);
        wasQuoted = false;
      } else {
        element.append(c);
      }
    }
    if (quoted) {
      return null;
    }
    elements.add(element(element, wasQuoted));
    return elements;
  }

  private static String element(StringBuilder text, boolean quoted) {
    String value = quoted ? text.toString() : text.toString().trim();
    return !quoted && value.equalsIgnoreCase("NULL") ? null : value;
  }
}
