package io.tablesql.metadata;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.CallImplementor;
import org.apache.calcite.adapter.enumerable.EnumUtils;
import org.apache.calcite.adapter.enumerable.NullPolicy;
import org.apache.calcite.adapter.enumerable.RexImpTable;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.ImplementableFunction;
import org.apache.calcite.schema.ScalarFunction;
import org.apache.calcite.schema.impl.ReflectiveFunctionBase;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * A scalar function whose value depends on the connection that runs it (its database's name, its
 * relations): a static method whose first parameter is the statement's {@link DataContext}, which
 * the generated code passes; the other parameters are the function's. Calcite's reflective
 * functions pass no context, and a value fixed in the plan would outlive the connection.
 */
final class ConnectionFunction implements ScalarFunction, ImplementableFunction {
  private final Method method;
  private final List<FunctionParameter> parameters;

  private ConnectionFunction(Method method) {
    if (!Modifier.isStatic(method.getModifiers()) || method.getParameterCount() == 0
        || method.getParameterTypes()[0] != DataContext.class) {
      throw new IllegalArgumentException(method + " takes no DataContext first");
    }
    this.method = method;
    ReflectiveFunctionBase.ParameterListBuilder builder = ReflectiveFunctionBase.builder();
    Class<?>[] types = method.getParameterTypes();
    for (int i = 1; i < types.length; i++) {
      builder.add(types[i], "arg" + (i - 1));
    }
    this.parameters = builder.build();
  }

  /** The functions of {@code holder}'s public static methods named {@code name}, one per overload. */
  static List<ConnectionFunction> of(Class<?> holder, String name) {
    List<ConnectionFunction> functions = new ArrayList<>();
    Arrays.stream(holder.getMethods()).filter(m -> m.getName().equals(name))
        .forEach(m -> functions.add(new ConnectionFunction(m)));
    if (functions.isEmpty()) {
      throw new IllegalArgumentException(holder + " has no method " + name);
    }
    return functions;
  }

  @Override
  public List<FunctionParameter> getParameters() {
    return parameters;
  }

  @Override
  public RelDataType getReturnType(RelDataTypeFactory types) {
    if (List.class.isAssignableFrom(method.getReturnType())) { // a text array, as Calcite runs one: a List
      return types.createTypeWithNullability(types.createArrayType(types.createTypeWithNullability(
          types.createSqlType(SqlTypeName.VARCHAR), true), -1), true);
    }
    return ((JavaTypeFactory) types).createType(method.getReturnType());
  }

  @Override
  public CallImplementor getImplementor() {
    return RexImpTable.createImplementor((translator, call, operands) -> {
      List<Expression> arguments = new ArrayList<>();
      arguments.add(translator.getRoot());
      Class<?>[] types = method.getParameterTypes();
      for (int i = 0; i < operands.size(); i++) {
        arguments.add(EnumUtils.convert(operands.get(i), types[i + 1]));
      }
      return Expressions.call(method, arguments);
    }, NullPolicy.NONE, false);
  }
}
