import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Writes the JDBC wrappers' pass-through, so that it is written once, here: for each interface a
 * class {@code Forwarding<Interface>} in io.tablesql.jdbc whose every method calls
 * {@code delegate()} and hands any failure to {@code failure(method, error)}. The wrappers
 * extend these classes and override only the methods that have behaviour of their own.
 *
 * <p>Run by Maven before compiling (pom.xml, execution "forwarding"), as a single-file program:
 * {@code java src/build/ForwardingGenerator.java <output directory>}.
 */
public final class ForwardingGenerator {
  /**
   * One class to write. {@code superclass} and {@code superParameters}: a class that extends
   * another wrapper (a prepared statement is a statement) forwards only its interface's own
   * methods and passes its constructor's arguments on. {@code hook}: the methods whose name
   * starts with {@code hookPrefix} and whose first parameter is an int (a column or parameter
   * index) first call {@code hook(index)}, which does nothing unless overridden.
   * {@code resultHook}: the result sets the methods return pass through {@code resultHook(result)}.
   */
  record Spec(Class<?> type, String superclass, String superParameters, String hook, String hookPrefix,
      String resultHook) {
    static Spec of(Class<?> type) {
      return new Spec(type, null, null, null, null, null);
    }

    static Spec of(Class<?> type, String hook) {
      return new Spec(type, null, null, hook, "", null);
    }

    String name() {
      return "Forwarding" + type.getSimpleName();
    }

    boolean hooked(Method method) {
      return hook != null && method.getName().startsWith(hookPrefix) && method.getParameterCount() > 0
          && method.getParameterTypes()[0] == int.class;
    }
  }

  static final List<Spec> SPECS = List.of(
      Spec.of(Connection.class),
      new Spec(DatabaseMetaData.class, null, null, null, null, "result"),
      Spec.of(Statement.class),
      new Spec(PreparedStatement.class, "WrappedStatement", "java.sql.Statement delegate, TableSqlConnection connection",
          "parameterSet", "set", null),
      Spec.of(ResultSet.class),
      Spec.of(ResultSetMetaData.class, "checkColumn"),
      Spec.of(ParameterMetaData.class, "checkParameter"));

  public static void main(String[] args) throws IOException {
    Path directory = Path.of(args[0], "io", "tablesql", "jdbc");
    Files.createDirectories(directory);
    for (Spec spec : SPECS) {
      Path file = directory.resolve(spec.name() + ".java");
      String source = source(spec);
      if (!Files.exists(file) || !Files.readString(file).equals(source)) { // unchanged files keep their date
        Files.writeString(file, source);
      }
    }
  }

  static String source(Spec spec) {
    String type = spec.type().getName();
    StringBuilder out = new StringBuilder();
    out.append("// Written by src/build/ForwardingGenerator.java from ").append(type).append(": do not edit.\n");
    out.append("package io.tablesql.jdbc;\n\n");
    out.append("/**\n * Every method of {@link ").append(type).append("}")
        .append(spec.superclass() == null ? "" : " not in {@link " + spec.superclass() + "}")
        .append(" calls {@link #delegate()}; whatever it throws\n * reaches the caller through {@link #failure}.\n */\n");
    out.append("@SuppressWarnings(\"deprecation\")\n");
    out.append("abstract class ").append(spec.name())
        .append(spec.superclass() == null ? "" : " extends " + spec.superclass())
        .append(" implements ").append(type).append(" {\n");
    if (spec.superclass() != null) {
      String arguments = Arrays.stream(spec.superParameters().split(","))
          .map(parameter -> parameter.trim().substring(parameter.trim().lastIndexOf(' ') + 1))
          .collect(Collectors.joining(", "));
      out.append("  ").append(spec.name()).append("(").append(spec.superParameters()).append(") {\n")
          .append("    super(").append(arguments).append(");\n  }\n\n");
    }
    out.append("  /** The object every method not overridden calls. */\n");
    out.append("  abstract ").append(type).append(" delegate();\n\n");
    if (spec.superclass() == null) {
      out.append("  /** What a call that failed throws: the failure translated, as by {@link JdbcCalls}. */\n");
      out.append("  java.sql.SQLException failure(String method, Exception error) {\n");
      out.append("    return JdbcCalls.translated(method, error);\n  }\n\n");
    }
    if (spec.hook() != null) {
      out.append("  /** Called first, with the index, by the methods not overridden that take one. */\n");
      out.append("  void ").append(spec.hook()).append("(int index) throws java.sql.SQLException {\n  }\n\n");
    }
    if (spec.resultHook() != null) {
      out.append("  /** What a method not overridden returns for the result set the delegate returned. */\n");
      out.append("  java.sql.ResultSet ").append(spec.resultHook())
          .append("(java.sql.ResultSet result) throws java.sql.SQLException {\n    return result;\n  }\n\n");
    }
    for (Method method : methods(spec)) {
      method(out, spec, method);
    }
    out.append("}\n");
    return out.toString();
  }

  /** The interface's methods to forward, one per signature, in a stable order. */
  static List<Method> methods(Spec spec) {
    Map<String, Method> bySignature = new LinkedHashMap<>();
    Method[] candidates = spec.superclass() == null ? spec.type().getMethods() : spec.type().getDeclaredMethods();
    for (Method method : candidates) {
      if (Modifier.isStatic(method.getModifiers())) {
        continue;
      }
      String signature = method.getName() + Arrays.toString(method.getParameterTypes());
      // AutoCloseable.close and Statement.close: the most specific declaration is the one to implement
      bySignature.merge(signature, method, (a, b) -> a.getDeclaringClass().isAssignableFrom(b.getDeclaringClass()) ? b : a);
    }
    List<Method> methods = new ArrayList<>(bySignature.values());
    methods.sort(Comparator.comparing(Method::getName)
        .thenComparing(method -> Arrays.toString(method.getParameterTypes())));
    return methods;
  }

  static void method(StringBuilder out, Spec spec, Method method) {
    Type[] parameterTypes = method.getGenericParameterTypes();
    List<String> parameters = new ArrayList<>();
    List<String> arguments = new ArrayList<>();
    for (int i = 0; i < parameterTypes.length; i++) {
      parameters.add(parameterTypes[i].getTypeName() + " a" + i);
      arguments.add("a" + i);
    }
    boolean throwsSql = Arrays.stream(method.getExceptionTypes()).anyMatch(e -> e.isAssignableFrom(SQLException.class));
    String typeParameters = method.getTypeParameters().length == 0 ? ""
        : Arrays.stream(method.getTypeParameters()).map(ForwardingGenerator::typeParameter)
            .collect(Collectors.joining(", ", "<", "> "));
    String returnType = method.getGenericReturnType().getTypeName();
    String call = "delegate()." + method.getName() + "(" + String.join(", ", arguments) + ")";
    if (spec.resultHook() != null && method.getReturnType() == ResultSet.class) {
      call = spec.resultHook() + "(" + call + ")";
    }
    String statement = (returnType.equals("void") ? "" : "return ") + call + ";";
    // A wrapper is what it wraps too: unwrap and isWrapperFor answer for both.
    if (method.getName().equals("unwrap")) {
      statement = "return a0.isInstance(this) ? a0.cast(this) : " + call + ";";
    } else if (method.getName().equals("isWrapperFor")) {
      statement = "return a0.isInstance(this) || " + call + ";";
    }

    out.append("  @Override\n");
    if (method.isAnnotationPresent(Deprecated.class)) {
      out.append("  @Deprecated\n");
    }
    out.append("  public ").append(typeParameters).append(returnType).append(" ").append(method.getName())
        .append("(").append(String.join(", ", parameters)).append(")")
        .append(method.getExceptionTypes().length == 0 ? "" : Arrays.stream(method.getExceptionTypes())
            .map(Class::getName).collect(Collectors.joining(", ", " throws ", ""))).append(" {\n");
    if (!throwsSql) { // nothing to translate into (SQLClientInfoException has its own fields)
      out.append("    ").append(statement).append("\n  }\n\n");
      return;
    }
    out.append("    try {\n");
    if (spec.hooked(method)) {
      out.append("      ").append(spec.hook()).append("(a0);\n");
    }
    out.append("      ").append(statement).append("\n")
        .append("    } catch (java.sql.SQLException | RuntimeException e) {\n")
        .append("      throw failure(\"").append(spec.type().getSimpleName()).append(".").append(method.getName())
        .append("\", e);\n    }\n  }\n\n");
  }

  static String typeParameter(TypeVariable<Method> variable) {
    List<String> bounds = Arrays.stream(variable.getBounds()).map(Type::getTypeName)
        .filter(bound -> !bound.equals("java.lang.Object")).toList();
    return variable.getName() + (bounds.isEmpty() ? "" : " extends " + String.join(" & ", bounds));
  }
}
