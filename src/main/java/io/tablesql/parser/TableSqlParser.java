package io.tablesql.parser;

import java.io.Reader;
import org.apache.calcite.sql.parser.SqlAbstractParserImpl;
import org.apache.calcite.sql.parser.SqlParserImplFactory;

/** tablesql's parser: the generated grammar, reading its tokens with PostgreSQL's rules ({@link PostgresTokens}). */
public final class TableSqlParser {
  /** The parsers, for tests that take a factory; DdlParserFactory is the driver's. */
  public static final SqlParserImplFactory FACTORY = TableSqlParser::create;

  private TableSqlParser() {
  }

  /** A parser of {@code stream}. */
  public static SqlAbstractParserImpl create(Reader stream) {
    return PostgresTokens.install((TableSqlParserImpl) TableSqlParserImpl.FACTORY.getParser(stream));
  }
}
