package io.tablesql.jdbc;

import static io.tablesql.jdbc.JdbcCalls.call;

import io.tablesql.errors.SqlExceptions;
import io.tablesql.errors.SqlStates;
import java.sql.ParameterMetaData;
import java.sql.SQLException;

/**
 * Calcite's parameter metadata, with errors translated ({@link JdbcCalls}) and type names plain
 * ({@link TypeNames}). Calcite's is its prepared statement itself, which would run SQL past the
 * driver: wrapped, it is no longer what the caller gets (unwrap reaches it, as for every wrapper).
 */
final class WrappedParameterMetaData extends ForwardingParameterMetaData {
  private final ParameterMetaData delegate;

  WrappedParameterMetaData(ParameterMetaData delegate) {
    this.delegate = delegate;
  }

  @Override
  ParameterMetaData delegate() {
    return delegate;
  }

  /** Calcite answers some methods (isNullable) for any index: every method refuses a wrong one here. */
  @Override
  void checkParameter(int param) throws SQLException {
    if (param < 1 || param > delegate.getParameterCount()) {
      throw SqlExceptions.of("There is no parameter " + param + " in this statement: parameters are numbered from 1 to "
          + delegate.getParameterCount() + ".", SqlStates.INVALID_PARAMETER_INDEX);
    }
  }

  @Override
  public String getParameterTypeName(int param) throws SQLException {
    return call(() -> {
      checkParameter(param);
      return TypeNames.plain(delegate.getParameterTypeName(param), delegate.getParameterType(param));
    });
  }
}
