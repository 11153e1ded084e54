package io.tablesql.ddl;

import java.io.Reader;
import org.apache.calcite.server.DdlExecutor;
import org.apache.calcite.sql.parser.SqlAbstractParserImpl;
import org.apache.calcite.sql.parser.SqlParserImplFactory;
import org.apache.calcite.sql.parser.ddl.SqlDdlParserImpl;

/** Calcite's parser with DDL, whose statements {@link AzureDdlExecutor} runs against the account. */
public final class DdlParserFactory implements SqlParserImplFactory {
  public static final DdlParserFactory INSTANCE = new DdlParserFactory();

  private DdlParserFactory() {
  }

  @Override
  public SqlAbstractParserImpl getParser(Reader stream) {
    return SqlDdlParserImpl.FACTORY.getParser(stream);
  }

  @Override
  public DdlExecutor getDdlExecutor() {
    return AzureDdlExecutor.INSTANCE;
  }
}
