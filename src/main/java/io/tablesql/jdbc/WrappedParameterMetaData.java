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
final class WrappedParameterMetaData implements ParameterMetaData {
  private final ParameterMetaData delegate;

  WrappedParameterMetaData(ParameterMetaData delegate) {
    this.delegate = delegate;
  }

  /** Calcite answers some methods (isNullable) for any index: every method refuses a wrong one here. */
  private int checked(int param) throws SQLException {
    if (param < 1 || param > delegate.getParameterCount()) {
      throw SqlExceptions.of("There is no parameter " + param + " in this statement: parameters are numbered from 1 to "
          + delegate.getParameterCount() + ".", SqlStates.INVALID_PARAMETER_INDEX);
    }
    return param;
  }

  @Override
  public String getParameterTypeName(int param) throws SQLException {
    return call(() -> TypeNames.plain(delegate.getParameterTypeName(checked(param)), delegate.getParameterType(param)));
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    return call(() -> iface.isInstance(this) ? iface.cast(this) : delegate.unwrap(iface));
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) throws SQLException {
    return call(() -> iface.isInstance(this) || delegate.isWrapperFor(iface));
  }

  // The rest of ParameterMetaData: forwards to Calcite's.

  @Override
  public int getParameterCount() throws SQLException {
    return call(() -> delegate.getParameterCount());
  }

  @Override
  public int isNullable(int param) throws SQLException {
    return call(() -> delegate.isNullable(checked(param)));
  }

  @Override
  public boolean isSigned(int param) throws SQLException {
    return call(() -> delegate.isSigned(checked(param)));
  }

  @Override
  public int getPrecision(int param) throws SQLException {
    return call(() -> delegate.getPrecision(checked(param)));
  }

  @Override
  public int getScale(int param) throws SQLException {
    return call(() -> delegate.getScale(checked(param)));
  }

  @Override
  public int getParameterType(int param) throws SQLException {
    return call(() -> delegate.getParameterType(checked(param)));
  }

  @Override
  public String getParameterClassName(int param) throws SQLException {
    return call(() -> delegate.getParameterClassName(checked(param)));
  }

  @Override
  public int getParameterMode(int param) throws SQLException {
    return call(() -> delegate.getParameterMode(checked(param)));
  }
}
