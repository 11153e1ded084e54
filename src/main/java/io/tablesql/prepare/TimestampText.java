package io.tablesql.prepare;

import org.apache.calcite.avatica.util.DateTimeUtils;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeTransforms;
import org.apache.calcite.sql.validate.SqlUserDefinedFunction;
import org.apache.calcite.sql2rel.SqlRexContext;
import org.apache.calcite.sql2rel.SqlRexConvertlet;
import org.apache.calcite.sql2rel.SqlRexConvertletTable;

/**
 * A TIMESTAMP cast to text keeps its fraction of a second, written as PostgreSQL writes it
 * ({@code 2024-05-01 10:00:00.123}; {@code .1} for 100 ms; none for whole seconds). Calcite's
 * cast (Avatica's {@code unixTimestampToString} without a precision) drops the milliseconds,
 * silently, in {@code CAST(ts AS VARCHAR)}, {@code ts::text} and the casts concatenation adds. A
 * convertlet, so that every such cast, written or implied, becomes a call of {@link #text}.
 */
public final class TimestampText implements SqlRexConvertlet {
  private static final SqlUserDefinedFunction TEXT = new SqlUserDefinedFunction(
      new SqlIdentifier("TABLESQL_TIMESTAMP_TEXT", SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION,
      ReturnTypes.explicit(SqlTypeName.VARCHAR).andThen(SqlTypeTransforms.TO_NULLABLE), null, null,
      implementation());

  private final SqlRexConvertletTable others;

  private TimestampText(SqlRexConvertletTable others) {
    this.others = others;
  }

  /** {@code others} with the casts of a TIMESTAMP to text converted by this class. */
  static SqlRexConvertletTable over(SqlRexConvertletTable others) {
    TimestampText casts = new TimestampText(others);
    return call -> call.getKind() == SqlKind.CAST && call.operandCount() == 2 ? casts : others.get(call);
  }

  @Override
  public RexNode convertCall(SqlRexContext context, SqlCall call) {
    // casts the validator did not see (made while converting: unions, VALUES) are Calcite's
    RelDataType from = context.getValidator().getValidatedNodeTypeIfKnown(call.operand(0));
    RelDataType to = context.getValidator().getValidatedNodeTypeIfKnown(call);
    if (from == null || to == null || from.getSqlTypeName() != SqlTypeName.TIMESTAMP
        || to.getFamily() != SqlTypeFamily.CHARACTER) {
      return others.get(call).convertCall(context, call);
    }
    RexBuilder rex = context.getRexBuilder();
    return rex.makeCast(to, rex.makeCall(TEXT, context.convertExpression(call.operand(0))), true, false);
  }

  private static InternalFunction implementation() {
    try {
      return new InternalFunction(TimestampText.class.getMethod("text", long.class), SqlTypeName.VARCHAR,
          SqlTypeName.TIMESTAMP);
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The text of a TIMESTAMP as Calcite holds it (the milliseconds of its wall clock). */
  public static String text(long millis) {
    String text = DateTimeUtils.unixTimestampToString(millis, 3);
    int end = text.length();
    while (text.charAt(end - 1) == '0') {
      end--;
    }
    return text.charAt(end - 1) == '.' ? text.substring(0, end - 1) : text.substring(0, end);
  }
}
