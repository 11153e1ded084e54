package io.tablesql.ddl;

import io.tablesql.parser.TableSqlParser;
import java.io.Reader;
import org.apache.calcite.server.DdlExecutor;
import org.apache.calcite.sql.parser.SqlAbstractParserImpl;
import org.apache.calcite.sql.parser.SqlParserImplFactory;

/**
 * tablesql's grammar (generated from Calcite's, see {@code src/main/codegen}), whose DDL
 * {@link AzureDdlExecutor} runs against the account.
 */
public final class DdlParserFactory implements SqlParserImplFactory {
  public static final DdlParserFactory INSTANCE = new DdlParserFactory();

  private DdlParserFactory() {
  }

  @Override
  public SqlAbstractParserImpl getParser(Reader stream) {
    return TableSqlParser.create(stream);
  }

  @Override
  public DdlExecutor getDdlExecutor() {
    return AzureDdlExecutor.INSTANCE;
  }
}
