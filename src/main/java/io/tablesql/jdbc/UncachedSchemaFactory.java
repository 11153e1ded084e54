package io.tablesql.jdbc;

import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.Properties;
import java.util.TimeZone;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaFactory;
import org.apache.calcite.avatica.AvaticaPreparedStatement;
import org.apache.calcite.avatica.AvaticaResultSet;
import org.apache.calcite.avatica.AvaticaSpecificDatabaseMetaData;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.QueryState;
import org.apache.calcite.avatica.UnregisteredDriver;
import org.apache.calcite.jdbc.CalciteFactory;
import org.apache.calcite.jdbc.CalciteJdbc41Factory;
import org.apache.calcite.jdbc.CalciteSchema;

/**
 * Calcite's JDBC objects, on a root schema that keeps no snapshot of its tables' names, so that
 * every table name is found by {@link io.tablesql.plan.AzureSchema#tables()} (exactly first, then
 * ignoring case). A caching root schema answers a lookup ignoring case from a snapshot of the
 * names, with the first of several names differing only in case: {@code orders} found
 * {@code Orders}. Calcite's driver instantiates this class by name ({@link CalciteDriver}).
 */
public final class UncachedSchemaFactory extends CalciteFactory {
  private final CalciteJdbc41Factory jdbc41 = new CalciteJdbc41Factory();

  public UncachedSchemaFactory() {
    super(4, 1);
  }

  @Override
  public AvaticaConnection newConnection(UnregisteredDriver driver, AvaticaFactory factory, String url,
      Properties info, CalciteSchema rootSchema, JavaTypeFactory typeFactory) {
    CalciteSchema root = rootSchema != null ? rootSchema : CalciteSchema.createRootSchema(true, false);
    return jdbc41.newConnection(driver, factory, url, info, root, typeFactory);
  }

  @Override
  public AvaticaStatement newStatement(AvaticaConnection connection, Meta.StatementHandle handle, int type,
      int concurrency, int holdability) {
    return jdbc41.newStatement(connection, handle, type, concurrency, holdability);
  }

  @Override
  public AvaticaPreparedStatement newPreparedStatement(AvaticaConnection connection, Meta.StatementHandle handle,
      Meta.Signature signature, int type, int concurrency, int holdability) throws SQLException {
    return jdbc41.newPreparedStatement(connection, handle, signature, type, concurrency, holdability);
  }

  @Override
  public AvaticaResultSet newResultSet(AvaticaStatement statement, QueryState state, Meta.Signature signature,
      TimeZone timeZone, Meta.Frame firstFrame) throws SQLException {
    return jdbc41.newResultSet(statement, state, signature, timeZone, firstFrame);
  }

  @Override
  public AvaticaSpecificDatabaseMetaData newDatabaseMetaData(AvaticaConnection connection) {
    return jdbc41.newDatabaseMetaData(connection);
  }

  @Override
  public ResultSetMetaData newResultSetMetaData(AvaticaStatement statement, Meta.Signature signature)
      throws SQLException {
    return jdbc41.newResultSetMetaData(statement, signature);
  }
}
