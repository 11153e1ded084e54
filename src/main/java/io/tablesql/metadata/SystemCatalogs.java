package io.tablesql.metadata;

import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableMultimap;
import com.google.common.collect.Multimap;
import java.util.Map;
import org.apache.calcite.rel.type.RelProtoDataType;
import org.apache.calcite.schema.Function;
import io.tablesql.plan.AzureSchema;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.impl.TableFunctionImpl;

/**
 * Adds the catalogs to a connection's root schema: {@code pg_catalog} and {@code information_schema},
 * and, so that they are found unqualified as in PostgreSQL, the catalog functions, PostgreSQL's
 * {@code date_trunc} and {@code now}, the set-returning functions ({@link PgSetFunctions}), and the type names PostgreSQL's clients cast to
 * ({@code ::text}, {@code ::int4}, ...).
 */
public final class SystemCatalogs {
  private static final Multimap<String, Function> FUNCTIONS = functionsOf();
  private static final Map<String, RelProtoDataType> TYPES = typesOf();

  private SystemCatalogs() {
  }

  /**
   * Registers the catalogs of the connection whose account's schema, named {@code account}, is
   * {@code schema}, and whose {@code version()} answers {@code version}; pg_catalog's tables are
   * also found unqualified, as in PostgreSQL's search path.
   */
  public static void register(SchemaPlus root, AzureSchema schema, String account, String version) {
    PgCatalogSchema catalog = new PgCatalogSchema(account, version);
    root.add(PgCatalogSchema.NAME, catalog);
    schema.alsoFind(catalog::find);
    root.add(InformationSchema.NAME, new InformationSchema());
    FUNCTIONS.forEach(root::add);
    TYPES.forEach(root::add);
  }

  static Multimap<String, Function> functions() {
    return FUNCTIONS;
  }

  static Map<String, RelProtoDataType> types() {
    return TYPES;
  }

  private static Multimap<String, Function> functionsOf() {
    ImmutableMultimap.Builder<String, Function> functions = ImmutableMultimap.builder();
    for (String name : PgFunctions.NAMES) {
      ConnectionFunction.of(PgFunctions.class, name).forEach(function -> functions.put(name, function));
    }
    PgTimeFunctions.all().forEach(function -> functions.put(function.name(), function));
    for (String name : PgSetFunctions.NAMES) {
      for (java.lang.reflect.Method method : PgSetFunctions.class.getMethods()) {
        if (method.getName().equals(name)) {
          functions.put(name, TableFunctionImpl.create(method));
        }
      }
    }
    return functions.build();
  }

  /** PostgreSQL's names of types tablesql has under other names; the standard's names (INTEGER, VARCHAR) need none. */
  private static Map<String, RelProtoDataType> typesOf() {
    ImmutableMap.Builder<String, RelProtoDataType> types = ImmutableMap.builder();
    for (PgType type : new PgType[] {PgType.BOOL, PgType.BYTEA, PgType.NAME, PgType.INT8, PgType.INT2, PgType.INT4,
        PgType.TEXT, PgType.OID, PgType.FLOAT4, PgType.FLOAT8}) {
      types.put(type.typname, type::sqlType);
    }
    return types.build();
  }
}
