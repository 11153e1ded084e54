package io.tablesql.jdbc;

import io.tablesql.prepare.ParserSettings;
import java.util.List;
import org.apache.calcite.config.NullCollation;
import org.apache.calcite.sql.parser.SqlParser;

/**
 * What {@link java.sql.DatabaseMetaData} tells tools about the SQL tablesql reads, taken from the
 * parser and executor it runs rather than from Calcite's generic answers. The function lists are
 * the JDBC escape functions ({@code {fn NAME(...)}}, JDBC 4.3 appendix D) that run; a test calls
 * each one, so a name is added here only with a call that proves it.
 */
final class DialectFacts {
  static final List<String> NUMERIC_FUNCTIONS = List.of("ABS", "ACOS", "ASIN", "ATAN", "ATAN2", "CBRT", "CEILING",
      "COS", "COT", "DEGREES", "EXP", "FLOOR", "LOG", "LOG10", "MOD", "PI", "POWER", "RADIANS", "RAND", "ROUND", "SIGN",
      "SIN", "SQRT", "TAN", "TRUNCATE");
  static final List<String> STRING_FUNCTIONS = List.of("ASCII", "CHAR", "CONCAT", "DIFFERENCE", "INSERT", "LCASE",
      "LEFT", "LENGTH", "LOCATE", "LTRIM", "REPEAT", "REPLACE", "RIGHT", "RTRIM", "SOUNDEX", "SPACE", "SUBSTRING",
      "UCASE");
  /** Calcite's list without CONVERT_TIMEZONE, which its executor cannot run. */
  static final List<String> TIME_DATE_FUNCTIONS = List.of("CURDATE", "CURTIME", "DAYNAME", "DAYOFMONTH", "DAYOFWEEK",
      "DAYOFYEAR", "HOUR", "MINUTE", "MONTH", "MONTHNAME", "NOW", "QUARTER", "SECOND", "TIMESTAMPADD", "TIMESTAMPDIFF",
      "TO_DATE", "TO_TIMESTAMP", "WEEK", "YEAR");
  /** Calcite's list without USER, which would name Calcite's built-in user, not the account. */
  static final List<String> SYSTEM_FUNCTIONS = List.of("CONVERT", "DATABASE", "IFNULL");

  /** Where ORDER BY puts nulls unless told: Calcite's default, sorted as if higher than any value. */
  static final NullCollation NULL_COLLATION = NullCollation.HIGH;

  private DialectFacts() {
  }

  /** The parser's reserved words that SQL:2003 does not reserve, as JDBC wants them. */
  static String keywords() {
    return SqlParser.create("", ParserSettings.PARSER).getMetadata()
        .getJdbcKeywords();
  }
}
