package io.tablesql.prepare;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.CallImplementor;
import org.apache.calcite.adapter.enumerable.EnumUtils;
import org.apache.calcite.adapter.enumerable.NullPolicy;
import org.apache.calcite.adapter.enumerable.RexImpTable;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.ImplementableFunction;
import org.apache.calcite.schema.ScalarFunction;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * A static method as a SQL function of declared types, called on Calcite's internal values; a
 * first parameter of type {@link DataContext} receives the statement's. NULL in, NULL out.
 */
public final class InternalFunction implements ScalarFunction, ImplementableFunction {
  private final Method method;
  private final SqlTypeName returns;
  private final List<SqlTypeName> parameters;

  public InternalFunction(Method method, SqlTypeName returns, SqlTypeName... parameters) {
    this.method = method;
    this.returns = returns;
    this.parameters = List.of(parameters);
  }

  public String name() {
    return method.getName();
  }

  @Override
  public List<FunctionParameter> getParameters() {
    List<FunctionParameter> list = new ArrayList<>();
    for (int i = 0; i < parameters.size(); i++) {
      int ordinal = i;
      list.add(new FunctionParameter() {
        @Override
        public int getOrdinal() {
          return ordinal;
        }

        @Override
        public String getName() {
          return "arg" + ordinal;
        }

        @Override
        public RelDataType getType(RelDataTypeFactory types) {
          return types.createSqlType(parameters.get(ordinal));
        }

        @Override
        public boolean isOptional() {
          return false;
        }
      });
    }
    return list;
  }

  @Override
  public RelDataType getReturnType(RelDataTypeFactory types) {
    return types.createTypeWithNullability(types.createSqlType(returns), true);
  }

  @Override
  public CallImplementor getImplementor() {
    return RexImpTable.createImplementor((translator, call, operands) -> {
      List<Expression> arguments = new ArrayList<>();
      Class<?>[] types = method.getParameterTypes();
      int first = 0;
      if (types.length > 0 && types[0] == DataContext.class) {
        arguments.add(translator.getRoot());
        first = 1;
      }
      for (int i = 0; i < operands.size(); i++) {
        arguments.add(EnumUtils.convert(operands.get(i), types[i + first]));
      }
      return Expressions.call(method, arguments);
    }, NullPolicy.STRICT, false);
  }
}
