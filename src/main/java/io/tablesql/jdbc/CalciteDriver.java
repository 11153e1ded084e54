package io.tablesql.jdbc;

import io.tablesql.prepare.TableSqlPrepare;
import org.apache.calcite.avatica.DriverVersion;

/**
 * Calcite's driver, which tablesql's connections run on, giving JDBC metadata tablesql's name
 * and version and the service's (Calcite's hook for them) instead of Calcite's own, and
 * connections whose root schema finds table names through tablesql's lookup
 * ({@link UncachedSchemaFactory}) and validate with tablesql's validator ({@link TableSqlPrepare}).
 */
public final class CalciteDriver extends org.apache.calcite.jdbc.Driver {
  public static final int MAJOR_VERSION = 0;
  public static final int MINOR_VERSION = 1;
  /** The Table service REST API version the SDK speaks. */
  private static final String PRODUCT_VERSION = "2019-02-02";

  public CalciteDriver() {
    super(TableSqlPrepare::new);
  }

  @Override
  protected String getFactoryClassName(JdbcVersion jdbcVersion) {
    return UncachedSchemaFactory.class.getName();
  }

  @Override
  protected DriverVersion createDriverVersion() {
    return new DriverVersion("tablesql", MAJOR_VERSION + "." + MINOR_VERSION, "Azure Table storage", PRODUCT_VERSION,
        false, MAJOR_VERSION, MINOR_VERSION, 2019, 2);
  }
}
