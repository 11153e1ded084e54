package io.tablesql.jdbc;

import io.tablesql.errors.SqlExceptions;
import io.tablesql.errors.SqlStates;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;

/**
 * The one way the JDBC wrappers call Calcite's objects: whatever such a call throws reaches the
 * caller as a {@link SQLException} with a SQLState and the subclass it implies, as a failed
 * execution does. Calcite's own exceptions often have neither.
 */
final class JdbcCalls {
  interface SqlCall<T> {
    T call() throws SQLException;
  }

  interface SqlRun {
    void run() throws SQLException;
  }

  private static final StackWalker STACK = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

  private JdbcCalls() {
  }

  static <T> T call(SqlCall<T> call) throws SQLException {
    try {
      return call.call();
    } catch (SQLException | RuntimeException e) {
      throw translated(jdbcMethod(), e);
    }
  }

  static void call(SqlRun run) throws SQLException {
    call(() -> {
      run.run();
      return null;
    });
  }

  /**
   * What a failed call of {@code method} ("Connection.setSavepoint") throws. An exception with a
   * SQLState is the driver's own, or Calcite's with its cause found; kept as it is.
   */
  static SQLException translated(String method, Exception error) {
    if (error instanceof SQLException sql && sql.getSQLState() != null) {
      return sql;
    }
    if (error instanceof SQLFeatureNotSupportedException && error.getMessage() == null) {
      // Calcite refuses without saying what: the JDBC method called is what is not supported.
      return SqlExceptions.of("Not supported by tablesql: " + method + ".", SqlStates.FEATURE_NOT_SUPPORTED,
          error);
    }
    return SqlErrors.translate(error);
  }

  /** The JDBC method that made the call, named by its interface: "Connection.setSavepoint". */
  private static String jdbcMethod() {
    return STACK.walk(frames -> frames.filter(frame -> frame.getDeclaringClass() != JdbcCalls.class).findFirst())
        .map(frame -> jdbcInterface(frame.getDeclaringClass()) + frame.getMethodName())
        .orElse("this call");
  }

  private static String jdbcInterface(Class<?> wrapper) {
    for (Class<?> type = wrapper; type != null; type = type.getSuperclass()) {
      for (Class<?> implemented : type.getInterfaces()) {
        if (implemented.getPackageName().equals("java.sql")) {
          return implemented.getSimpleName() + ".";
        }
      }
    }
    return "";
  }
}
