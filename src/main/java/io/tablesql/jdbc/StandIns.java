package io.tablesql.jdbc;

import io.tablesql.errors.SqlExceptions;
import io.tablesql.errors.SqlStates;
import java.lang.reflect.Proxy;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * Stand-ins for what a statement no longer owns: the delegate of a closed statement whose plan
 * went back to the plan cache (every call fails as on a closed statement, so a late call can
 * never reach a plan lent to another statement), and the parameter metadata of a statement
 * written without parameters.
 */
final class StandIns {
  static final PreparedStatement CLOSED_STATEMENT = (PreparedStatement) Proxy.newProxyInstance(
      StandIns.class.getClassLoader(), new Class<?>[] {PreparedStatement.class}, (proxy, method, args) -> {
        switch (method.getName()) {
          case "isClosed": return true;
          case "close": return null;
          case "hashCode": return System.identityHashCode(proxy);
          case "equals": return proxy == args[0];
          case "toString": return "closed statement";
          default: throw SqlExceptions.of("This statement is closed.", SqlStates.INVALID_STATE);
        }
      });

  static final ParameterMetaData NO_PARAMETERS = (ParameterMetaData) Proxy.newProxyInstance(
      StandIns.class.getClassLoader(), new Class<?>[] {ParameterMetaData.class}, (proxy, method, args) -> {
        switch (method.getName()) {
          case "getParameterCount": return 0;
          case "hashCode": return System.identityHashCode(proxy);
          case "equals": return proxy == args[0];
          case "toString": return "no parameters";
          default: throw noParameter(args != null && args[0] instanceof Integer index ? index : 0);
        }
      });

  private StandIns() {
  }

  static SQLException noParameter(int index) {
    return SqlExceptions.of("This statement has no parameter " + index + ": its text has no parameter markers (?).",
        SqlStates.INVALID_PARAMETER_INDEX);
  }
}
