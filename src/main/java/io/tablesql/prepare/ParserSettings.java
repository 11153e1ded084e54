package io.tablesql.prepare;

import io.tablesql.ddl.DdlParserFactory;
import java.util.Properties;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.validate.SqlConformanceEnum;

/**
 * The one parser configuration of tablesql, given to Calcite's connections as properties and
 * used as is wherever the driver parses SQL text itself (lifting literals, analysing INSERTs,
 * quoting reserved aliases), so that both always read a text the same way.
 */
public final class ParserSettings {
  /** Double-quoted identifiers, kept as written; matched case-insensitively, as Azure table names are. */
  public static final SqlParser.Config PARSER = SqlParser.config()
      .withQuoting(Quoting.DOUBLE_QUOTE)
      .withUnquotedCasing(Casing.UNCHANGED)
      .withQuotedCasing(Casing.UNCHANGED)
      .withCaseSensitive(false)
      .withConformance(SqlConformanceEnum.LENIENT)
      .withParserFactory(DdlParserFactory.INSTANCE);

  private ParserSettings() {
  }

  /** {@link #PARSER} as the properties of a Calcite connection. */
  public static Properties connectionProperties() {
    Properties properties = new Properties();
    properties.setProperty("quoting", PARSER.quoting().name());
    properties.setProperty("unquotedCasing", PARSER.unquotedCasing().name());
    properties.setProperty("quotedCasing", PARSER.quotedCasing().name());
    properties.setProperty("caseSensitive", String.valueOf(PARSER.caseSensitive()));
    properties.setProperty("conformance", ((SqlConformanceEnum) PARSER.conformance()).name());
    properties.setProperty("parserFactory", DdlParserFactory.class.getName() + "#INSTANCE");
    // the standard's functions first, then PostgreSQL's (value::type, ILIKE, LPAD, SPLIT_PART, ...),
    // which the clients of the PostgreSQL-protocol server write; a standard name keeps its meaning
    properties.setProperty("fun", "standard,postgresql");
    return properties;
  }
}
