package io.tablesql.prepare;

import io.tablesql.exec.QueryRunner;
import io.tablesql.session.CurrentStatement;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.TimeZone;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaResultSet;
import org.apache.calcite.avatica.AvaticaResultSetMetaData;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.MetaImpl;
import org.apache.calcite.avatica.NoSuchStatementException;
import org.apache.calcite.avatica.QueryState;
import org.apache.calcite.avatica.remote.TypedValue;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.QueryProvider;
import org.apache.calcite.schema.SchemaPlus;

/**
 * The direct path: a prepared query whose plan is one table access ({@link io.tablesql.plan.ScanBindable})
 * executes without Calcite's per-execution machinery: no DataContext with the connection's
 * configuration parsed again, no CalciteResultSet. It binds the statement's parameters as
 * Calcite would ({@code CalciteConnectionImpl.enumerable}: each value in its local form under
 * {@code ?i}, the statement's cancel flag and query timeout), runs the plan through its
 * signature (which applies the statement's row limit), and returns Avatica's own result set over
 * the rows with the signature's columns, so every getter converts as on the Calcite path. A
 * statement with an unbound parameter runs through Calcite, which reports it.
 */
public final class DirectPlan {
  private final CalcitePrepare.CalciteSignature<Object> signature;
  /**
   * The connection's time zone for result sets: a connection property, read once, because
   * {@link AvaticaConnection#getTimeZone} parses the connection's configuration on every call.
   */
  private volatile TimeZone timeZone;

  private DirectPlan(CalcitePrepare.CalciteSignature<Object> signature) {
    this.signature = signature;
  }

  /** The direct plan of a signature made without the planner ({@link UnplannedQuery}). */
  static DirectPlan unplanned(CalcitePrepare.CalciteSignature<Object> signature) {
    return new DirectPlan(signature);
  }

  /** The direct plan of a signature Calcite prepared with a plan implemented directly ({@link TableSqlPrepare}). */
  static DirectPlan of(CalcitePrepare.CalciteSignature<Object> signature) {
    return new DirectPlan(signature);
  }

  /** A statement Calcite prepared, and its direct plan or null. */
  public record Prepared(PreparedStatement statement, DirectPlan direct) {
  }

  /** Prepares a statement through {@code prepare} and gives it with its direct plan, if it has one. */
  public static Prepared preparing(SqlAction<PreparedStatement> prepare) throws SQLException {
    AtomicReference<Object> captured = new AtomicReference<>();
    PreparedStatement statement = CurrentStatement.capturing(captured, prepare::run);
    return new Prepared(statement, (DirectPlan) captured.get()); // what TableSqlPrepare left
  }

  /**
   * Runs the plan for {@code calcite}, the statement it was prepared as (or, unplanned, the one
   * it runs for), with the parameters bound to it; null when the statement must run through
   * Calcite instead.
   */
  public ResultSet execute(Statement calcite) throws SQLException {
    if (!(calcite instanceof AvaticaStatement statement)) {
      return null;
    }
    List<TypedValue> parameters = AvaticaAccess.TROJAN.getParameterValues(statement);
    Object[] values = new Object[parameters.size()];
    for (int i = 0; i < values.length; i++) {
      TypedValue value = parameters.get(i);
      if (value == null) {
        return null; // unbound: Calcite says so
      }
      values[i] = value.toLocal();
    }
    AvaticaConnection connection = statement.getConnection();
    AtomicBoolean cancelFlag;
    try {
      cancelFlag = connection.getCancelFlag(statement.handle);
    } catch (NoSuchStatementException e) {
      return null;
    }
    int timeout = statement.getQueryTimeout();
    DataContext root = new Context(values, cancelFlag,
        timeout > 0 && timeout < Integer.MAX_VALUE / 1000 ? timeout * 1000L : null,
        connection.unwrap(CalciteConnection.class), signature);
    try {
      Enumerable<Object> rows = signature.enumerable(root);
      AvaticaResultSet resultSet = new Results(statement, signature, timeZone(connection));
      return resultSet.execute2(LongValueAccessor.over(MetaImpl.createCursor(signature.cursorFactory, rows)),
          signature.columns);
    } catch (RuntimeException e) {
      // as Avatica reports a failure of Calcite's execution, so that both paths fail alike
      throw AvaticaConnection.HELPER.createException("exception while executing query: " + e.getMessage(), e);
    }
  }

  /**
   * Avatica's result set over the direct path's rows, whose stream and large-object getters
   * stream a value kept in a blob ({@link LongValueAccessor}).
   */
  public static final class Results extends AvaticaResultSet {
    Results(AvaticaStatement statement, CalcitePrepare.CalciteSignature<Object> signature, TimeZone zone)
        throws SQLException {
      super(statement, new QueryState(signature.sql), signature, new AvaticaResultSetMetaData(statement, null,
          signature), zone, null);
    }
  }

  private TimeZone timeZone(AvaticaConnection connection) {
    TimeZone zone = timeZone;
    if (zone == null) {
      zone = connection.getTimeZone();
      timeZone = zone; // a plan belongs to one connection: racing threads store equal zones
    }
    return zone;
  }

  /** What the plan reads of a DataContext: parameters, the cancel flag, the query timeout. */
  private static final class Context implements DataContext {
    private final Object[] values;
    private final AtomicBoolean cancelFlag;
    private final Long timeoutMillis;
    private final CalciteConnection connection;
    private final CalcitePrepare.CalciteSignature<Object> signature;

    Context(Object[] values, AtomicBoolean cancelFlag, Long timeoutMillis, CalciteConnection connection,
        CalcitePrepare.CalciteSignature<Object> signature) {
      this.values = values;
      this.cancelFlag = cancelFlag;
      this.timeoutMillis = timeoutMillis;
      this.connection = connection;
      this.signature = signature;
    }

    @Override
    public Object get(String name) {
      if (name.length() > 1 && name.charAt(0) == '?') {
        int index = Integer.parseInt(name, 1, name.length(), 10);
        return index < values.length ? values[index] : null;
      }
      if (Variable.CANCEL_FLAG.camelName.equals(name)) {
        return cancelFlag;
      }
      if (Variable.TIMEOUT.camelName.equals(name)) {
        return timeoutMillis;
      }
      if (QueryRunner.LONG_VALUES_UNREAD.equals(name)) {
        return Boolean.TRUE; // the rows go to the caller as they are: LongValueAccessor reads what is asked
      }
      return signature.internalParameters.get(name);
    }

    @Override
    public SchemaPlus getRootSchema() {
      return signature.rootSchema == null ? null : signature.rootSchema.plus();
    }

    @Override
    public JavaTypeFactory getTypeFactory() {
      return connection.getTypeFactory();
    }

    @Override
    public QueryProvider getQueryProvider() {
      return connection;
    }
  }

  /** Avatica's access for drivers built on it to a statement's bound parameters. */
  private abstract static class AvaticaAccess extends AvaticaConnection {
    static final Trojan TROJAN = createTrojan();

    private AvaticaAccess() {
      super(null, null, null, null);
    }
  }
}
