package io.tablesql.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every JDBC method of every wrapper is the driver's: none falls to an interface's default. */
class ForwardingUnitTest {
  private static final Map<Class<?>, Class<?>> WRAPPERS = Map.of(
      TableSqlConnection.class, Connection.class,
      TableSqlDatabaseMetaData.class, DatabaseMetaData.class,
      WrappedStatement.class, Statement.class,
      WrappedPreparedStatement.class, PreparedStatement.class,
      WrappedResultSet.class, ResultSet.class,
      WrappedResultSetMetaData.class, ResultSetMetaData.class,
      WrappedParameterMetaData.class, ParameterMetaData.class);

  @Test
  void everyInterfaceMethodIsImplementedByAClass() throws NoSuchMethodException {
    List<String> defaults = new ArrayList<>();
    for (Map.Entry<Class<?>, Class<?>> wrapper : WRAPPERS.entrySet()) {
      for (Method method : wrapper.getValue().getMethods()) {
        if (Modifier.isStatic(method.getModifiers())) {
          continue;
        }
        Method implementation = wrapper.getKey().getMethod(method.getName(), method.getParameterTypes());
        if (implementation.getDeclaringClass().isInterface()) {
          defaults.add(wrapper.getKey().getSimpleName() + "." + method.getName());
        }
      }
    }
    assertThat(defaults).isEmpty();
  }
}
