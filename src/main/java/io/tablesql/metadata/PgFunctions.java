package io.tablesql.metadata;

import io.tablesql.errors.SqlStates;
import io.tablesql.store.StoreException;
import java.util.Locale;
import org.apache.calcite.DataContext;
import org.apache.calcite.schema.SchemaPlus;

/**
 * The functions PostgreSQL's catalog queries call, over the catalogs of the connection that runs
 * them ({@link ConnectionFunction}: the first parameter is the statement's context). Privileges
 * are the account's credential's, which the service checks on each request: every object is
 * reported usable. Comments and column defaults do not exist: their functions answer null.
 */
public final class PgFunctions {
  private PgFunctions() {
  }

  static PgCatalogSchema catalog(DataContext root) {
    SchemaPlus schema = root.getRootSchema().getSubSchema(PgCatalogSchema.NAME);
    PgCatalogSchema catalog = schema == null ? null : schema.unwrap(PgCatalogSchema.class);
    if (catalog == null) {
      throw new IllegalStateException("no " + PgCatalogSchema.NAME + " schema in this connection");
    }
    return catalog;
  }

  static Relations relations(DataContext root) {
    return Relations.of(root.getRootSchema(), catalog(root).account(), root.getTypeFactory());
  }

  public static String version(DataContext root) {
    return catalog(root).version();
  }

  public static String current_database(DataContext root) {
    return catalog(root).account();
  }

  public static String current_schema(DataContext root) {
    return catalog(root).account();
  }

  /** The search path: the account's schema, after pg_catalog where {@code implicit} ones are asked for too. */
  public static java.util.List<String> current_schemas(DataContext root, Boolean implicit) {
    String account = catalog(root).account();
    return Boolean.TRUE.equals(implicit) ? java.util.List.of(PgCatalogSchema.NAME, account) : java.util.List.of(account);
  }

  /** The connection's user ({@code USER}, {@code CURRENT_USER}, {@code SESSION_USER}): the account, as its one role. */
  public static String current_user(DataContext root) {
    return catalog(root).account();
  }

  public static String pg_get_userbyid(DataContext root, Integer role) {
    return catalog(root).account();
  }

  /** A number the session is known by; the server's BackendKeyData carries its own. */
  public static Integer pg_backend_pid(DataContext root) {
    return System.identityHashCode(catalog(root)) & 0x3fffffff;
  }

  public static String current_setting(DataContext root, String name) {
    return PgCatalogSchema.setting(catalog(root).account(), name);
  }

  public static String current_setting(DataContext root, String name, Boolean missingOk) {
    return PgCatalogSchema.setting(catalog(root).account(), name);
  }

  /** Session settings are the server's ({@code SET}); a query's {@code set_config} changes nothing and answers the value. */
  public static String set_config(DataContext root, String name, String value, Boolean local) {
    return value;
  }

  /** The OID of a relation by name ({@code 'x'::regclass}): the account's schema first, then pg_catalog; a number as itself. */
  public static Integer regclass(DataContext root, String name) {
    if (name == null) {
      return null;
    }
    String text = name.trim();
    if (text.chars().allMatch(Character::isDigit) && !text.isEmpty()) {
      try {
        return Integer.valueOf(text);
      } catch (NumberFormatException e) { // past an OID's range: names no relation
        throw noSuchRelation(name);
      }
    }
    String account = catalog(root).account();
    int dot = text.lastIndexOf('.');
    String relation = unquoted(dot < 0 ? text : text.substring(dot + 1));
    if (dot >= 0) {
      return Relations.oid(unquoted(text.substring(0, dot)), relation);
    }
    SchemaPlus accountSchema = root.getRootSchema().getSubSchema(account);
    boolean inAccount = accountSchema != null && accountSchema.getTableNames().stream()
        .anyMatch(table -> table.equalsIgnoreCase(relation));
    if (!inAccount && catalog(root).find(relation) == null) {
      // as PostgreSQL: a name that is no relation is an error, not an OID that names nothing
      throw noSuchRelation(name);
    }
    return Relations.oid(inAccount ? account : PgCatalogSchema.NAME, relation);
  }

  public static Integer regclass(DataContext root, Integer oid) {
    return oid;
  }

  /**
   * A relation's name as PostgreSQL prints a {@code regclass} ({@code c.oid::regclass::text}):
   * quoted where it must be, qualified when its schema is not the account's (the search path);
   * the number itself for an OID that names no relation.
   */
  public static String regclassout(DataContext root, Integer oid) {
    if (oid == null) {
      return null;
    }
    Relations.Relation relation = relations(root).relation(oid);
    if (relation == null) {
      return String.valueOf(oid);
    }
    String name = PgCatalogSchema.quoted(relation.name);
    return relation.namespace.oid() == Relations.ACCOUNT_NAMESPACE
        || relation.namespace.oid() == PgType.PG_CATALOG_NAMESPACE ? name
        : PgCatalogSchema.quoted(relation.namespace.name()) + "." + name;
  }

  /**
   * A function's OID by name ({@code 'pg_catalog.array_in'::regproc}, as pgjdbc's type query
   * compares {@code typinput} with it): derived from the name, as a relation's is. The catalogs
   * list no functions, and every type's {@code typinput} is 0, so no type matches one.
   */
  public static Integer regproc(DataContext root, String name) {
    if (name == null) {
      return null;
    }
    int dot = name.lastIndexOf('.');
    return Relations.oid(dot < 0 ? PgCatalogSchema.NAME : unquoted(name.substring(0, dot).trim()),
        unquoted(name.substring(dot + 1).trim()));
  }

  public static Integer regproc(DataContext root, Integer oid) {
    return oid;
  }

  /** No column is backed by a sequence: null, as PostgreSQL answers for such a column. */
  public static String pg_get_serial_sequence(DataContext root, String table, String column) {
    return null;
  }

  /** An int2vector's text ({@code ix.indkey::varchar}): its elements between blanks, as PostgreSQL prints one. */
  public static String int2vectorout(DataContext root, java.util.List<?> vector) {
    return vector == null ? null : vector.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(" "));
  }

  /** A text column named as an int2vector one ({@code indkey}) cast to text: itself. */
  public static String int2vectorout(DataContext root, String text) {
    return text;
  }

  /** An integer column named as an int2vector one cast to text: its digits, as the cast gives them. */
  public static String int2vectorout(DataContext root, Long number) {
    return number == null ? null : number.toString();
  }

  /** A type's name ({@code reloftype::regtype::text}); its OID, given its name. */
  public static String regtype(DataContext root, Integer oid) {
    return oid == null ? null : oid == 0 ? "-" : PgType.format(oid, -1);
  }

  public static Integer regtype(DataContext root, String name) {
    PgType type = name == null ? null : PgType.named(name.trim());
    return type == null ? null : type.oid;
  }

  private static String unquoted(String name) {
    return name.startsWith("\"") && name.endsWith("\"") && name.length() > 1 ? name.substring(1, name.length() - 1)
        : name.toLowerCase(Locale.ROOT);
  }

  public static String pg_get_indexdef(DataContext root, Integer index) {
    return index == null ? null : PgCatalogSchema.indexDefinition(relations(root), index);
  }

  public static String pg_get_indexdef(DataContext root, Integer index, Integer column, Boolean pretty) {
    if (index == null) {
      return null;
    }
    if (column == null || column == 0) {
      return PgCatalogSchema.indexDefinition(relations(root), index);
    }
    Relations.Relation relation = relations(root).relation(index);
    return relation == null || column < 0 || column > relation.attributes().size() ? null
        : relation.attributes().get(column - 1).name();
  }

  public static String pg_get_constraintdef(DataContext root, Integer constraint) {
    return constraint == null ? null : PgCatalogSchema.constraintDefinition(relations(root), constraint);
  }

  public static String pg_get_constraintdef(DataContext root, Integer constraint, Boolean pretty) {
    return pg_get_constraintdef(root, constraint);
  }

  public static String pg_get_viewdef(DataContext root, Integer view) {
    Relations.Relation relation = view == null ? null : relations(root).relation(view);
    return relation == null ? null : relation.definition;
  }

  public static String pg_get_viewdef(DataContext root, Integer view, Boolean pretty) {
    return pg_get_viewdef(root, view);
  }

  public static String format_type(DataContext root, Integer type, Integer modifier) {
    return PgType.format(type, modifier);
  }

  public static Boolean pg_table_is_visible(DataContext root, Integer relation) {
    return relation == null ? null : Boolean.TRUE;
  }

  public static Boolean pg_type_is_visible(DataContext root, Integer type) {
    return type == null ? null : Boolean.TRUE;
  }

  public static Boolean has_table_privilege(DataContext root, Integer relation, String privilege) {
    return Boolean.TRUE;
  }

  public static Boolean has_table_privilege(DataContext root, String relation, String privilege) {
    return Boolean.TRUE;
  }

  public static Boolean has_table_privilege(DataContext root, String user, Integer relation, String privilege) {
    return Boolean.TRUE;
  }

  public static Boolean has_table_privilege(DataContext root, String user, String relation, String privilege) {
    return Boolean.TRUE;
  }

  public static Boolean has_schema_privilege(DataContext root, String schema, String privilege) {
    return Boolean.TRUE;
  }

  public static Boolean has_schema_privilege(DataContext root, String user, String schema, String privilege) {
    return Boolean.TRUE;
  }

  public static Boolean has_any_column_privilege(DataContext root, String relation, String privilege) {
    return true;
  }

  public static Boolean has_any_column_privilege(DataContext root, String user, String relation, String privilege) {
    return true;
  }

  /**
   * A name as SQL text, in double quotes where PostgreSQL would need them: anything but lower-case
   * letters, digits and underscores not starting with a digit (so {@code People} is
   * {@code "People"}), with quotes inside doubled.
   */
  public static String quote_ident(DataContext root, String name) {
    return name == null ? null : PgCatalogSchema.quoted(name);
  }

  /** PostgreSQL's format with text arguments: {@code %s} as is (null as nothing), {@code %I} an identifier, {@code %L} a literal. */
  public static String format(DataContext root, String pattern) {
    return formatted(pattern);
  }

  public static String format(DataContext root, String pattern, String first) {
    return formatted(pattern, first);
  }

  public static String format(DataContext root, String pattern, String first, String second) {
    return formatted(pattern, first, second);
  }

  public static String format(DataContext root, String pattern, String first, String second, String third) {
    return formatted(pattern, first, second, third);
  }

  private static String formatted(String pattern, String... arguments) {
    if (pattern == null) {
      return null;
    }
    StringBuilder text = new StringBuilder();
    int next = 0;
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      if (c != '%' || i + 1 == pattern.length()) {
        text.append(c);
        continue;
      }
      char kind = pattern.charAt(++i);
      if (kind == '%') {
        text.append('%');
        continue;
      }
      if (next == arguments.length) {
        throw new StoreException("format: too few arguments for \"" + pattern + "\".",
            SqlStates.INVALID_PARAMETER_VALUE, null);
      }
      String argument = arguments[next++];
      switch (kind) {
        case 's' -> text.append(argument == null ? "" : argument);
        case 'I' -> {
          if (argument == null) {
            throw new StoreException("format: a null value cannot be formatted as an identifier (%I).",
                SqlStates.INVALID_PARAMETER_VALUE, null);
          }
          text.append(PgCatalogSchema.quoted(argument));
        }
        case 'L' -> text.append(argument == null ? "NULL" : "'" + argument.replace("'", "''") + "'");
        default -> throw new StoreException("format: unrecognized conversion %" + kind + " (use %s, %I or %L).",
            SqlStates.INVALID_PARAMETER_VALUE, null);
      }
    }
    return text.toString();
  }

  public static Boolean has_database_privilege(DataContext root, String database, String privilege) {
    return Boolean.TRUE;
  }

  public static String obj_description(DataContext root, Integer object, String catalog) {
    return null;
  }

  public static String obj_description(DataContext root, Integer object) {
    return null;
  }

  public static String col_description(DataContext root, Integer relation, Integer column) {
    return null;
  }

  public static String shobj_description(DataContext root, Integer object, String catalog) {
    return null;
  }

  public static String pg_get_expr(DataContext root, String expression, Integer relation) {
    return null;
  }

  public static String pg_get_expr(DataContext root, String expression, Integer relation, Boolean pretty) {
    return null;
  }

  /** The database's encoding: UTF8, as the server reports it ({@code server_encoding}). */
  public static String getdatabaseencoding(DataContext root) {
    return "UTF8";
  }

  /** An encoding's number by name: UTF8 is PostgreSQL's 6, SQL_ASCII 0; -1 for others. */
  public static Integer pg_char_to_encoding(DataContext root, String name) {
    return name == null ? null : switch (name.toUpperCase(Locale.ROOT)) {
      case "UTF8", "UTF-8", "UNICODE" -> 6;
      case "SQL_ASCII" -> 0;
      default -> -1;
    };
  }

  public static Boolean pg_collation_is_visible(DataContext root, Integer collation) {
    return collation == null ? null : Boolean.TRUE;
  }

  public static String pg_encoding_to_char(DataContext root, Integer encoding) {
    return "UTF8";
  }

  /** A schema's name ({@code stxnamespace::regnamespace::text}); its OID, given its name. */
  public static String regnamespace(DataContext root, Integer oid) {
    return oid == null ? null : relations(root).namespaces.stream().filter(n -> n.oid() == oid)
        .map(Relations.Namespace::name).findFirst().orElse(String.valueOf(oid));
  }

  public static Integer regnamespace(DataContext root, String name) {
    if (name == null) {
      return null;
    }
    String schema = unquoted(name.trim()); // an unquoted name in lower case, as PostgreSQL folds it
    return relations(root).namespaces.stream().filter(n -> n.name().toLowerCase(Locale.ROOT).equals(schema)
        || n.name().equals(schema)).map(Relations.Namespace::oid).findFirst().orElse(null);
  }

  /** An array's elements as text, each {@code null} one left out (or written as {@code nullText}). */
  public static String array_to_string(DataContext root, java.util.List<?> array, String separator) {
    return array_to_string(root, array, separator, null);
  }

  public static String array_to_string(DataContext root, java.util.List<?> array, String separator,
      String nullText) {
    if (array == null || separator == null) {
      return null;
    }
    return array.stream().filter(e -> e != null || nullText != null).map(e -> e == null ? nullText : e.toString())
        .collect(java.util.stream.Collectors.joining(separator));
  }

  /** A relation's size on disk, which the service does not tell: unknown (null). */
  public static Long pg_table_size(DataContext root, Integer relation) {
    return null;
  }

  public static Long pg_relation_size(DataContext root, Integer relation) {
    return null;
  }

  public static Long pg_total_relation_size(DataContext root, Integer relation) {
    return null;
  }

  public static Long pg_indexes_size(DataContext root, Integer relation) {
    return null;
  }

  /** A size in bytes as PostgreSQL writes it for people: {@code 512 bytes}, {@code 10 kB}, {@code 3 MB}, ... */
  public static String pg_size_pretty(DataContext root, Long bytes) {
    if (bytes == null) {
      return null;
    }
    long limit = 10 * 1024;
    if (Math.abs(bytes) < limit) {
      return bytes + " bytes";
    }
    long halves = bytes >> 9; // in half units of the next size, for rounding
    String[] units = {"kB", "MB", "GB", "TB", "PB"};
    int unit = 0;
    while (unit < units.length - 1 && Math.abs(halves) >= limit * 2 - 1) {
      halves >>= 10;
      unit++;
    }
    return (halves + (halves < 0 ? -1 : 1)) / 2 + " " + units[unit];
  }

  /** The lowest index of an array's dimension: 1 for its only one (a SQL array starts at 1); null past it or for an empty one. */
  public static Integer array_lower(DataContext root, java.util.List<?> array, Integer dimension) {
    return array == null || dimension == null || dimension != 1 || array.isEmpty() ? null : 1;
  }

  /** The number of elements of an array's {@code dimension} (1 for the one the catalogs have); null for an empty array. */
  public static Integer array_length(DataContext root, java.util.List<?> array, Integer dimension) {
    return array == null || dimension == null || dimension != 1 || array.isEmpty() ? null : array.size();
  }

  /** The highest index of an array's dimension: its length for its only one; null past it or for an empty one. */
  public static Integer array_upper(DataContext root, java.util.List<?> array, Integer dimension) {
    return array == null || dimension == null || dimension != 1 || array.isEmpty() ? null : array.size();
  }

  /**
   * A qualified name split into its names ({@code parse_ident('a."B c"')} is {@code {a,"B c"}}): unquoted
   * names in lower case, quoted ones as written with {@code ""} as a quote.
   */
  public static java.util.List<String> parse_ident(DataContext root, String qualified) {
    if (qualified == null) {
      return null;
    }
    java.util.List<String> names = new java.util.ArrayList<>();
    StringBuilder name = new StringBuilder();
    int i = 0;
    while (true) {
      while (i < qualified.length() && Character.isWhitespace(qualified.charAt(i))) {
        i++;
      }
      if (i < qualified.length() && qualified.charAt(i) == '"') {
        for (i++; i < qualified.length(); i++) {
          if (qualified.charAt(i) == '"' && i + 1 < qualified.length() && qualified.charAt(i + 1) == '"') {
            name.append('"');
            i++;
          } else if (qualified.charAt(i) == '"') {
            break;
          } else {
            name.append(qualified.charAt(i));
          }
        }
        if (i >= qualified.length()) {
          throw notAnIdentifier(qualified, " (a quote is not closed)");
        }
        i++;
      } else {
        while (i < qualified.length() && qualified.charAt(i) != '.' && !Character.isWhitespace(qualified.charAt(i))) {
          name.append(Character.toLowerCase(qualified.charAt(i++)));
        }
      }
      while (i < qualified.length() && Character.isWhitespace(qualified.charAt(i))) {
        i++;
      }
      if (name.length() == 0) {
        throw notAnIdentifier(qualified, "");
      }
      names.add(name.toString());
      name.setLength(0);
      if (i >= qualified.length()) {
        return names;
      }
      if (qualified.charAt(i) != '.') {
        throw notAnIdentifier(qualified, "");
      }
      i++;
    }
  }

  /** A tablespace's directory: empty, as PostgreSQL's for its built-in ones, the only ones here. */
  public static String pg_tablespace_location(DataContext root, Integer tablespace) {
    return tablespace == null ? null : "";
  }

  /** pg_proc is empty: there are no functions of the account's own. */
  public static Boolean pg_function_is_visible(DataContext root, Integer function) {
    return function == null ? null : Boolean.TRUE;
  }

  public static String pg_get_function_result(DataContext root, Integer function) {
    return null;
  }

  public static String pg_get_function_arguments(DataContext root, Integer function) {
    return null;
  }

  /** There are no extended statistics (pg_statistic_ext is empty). */
  public static String pg_get_statisticsobjdef_columns(DataContext root, Integer statistics) {
    return null;
  }

  /** pg_conversion, pg_operator and pg_ts_config are empty: nothing of the account's own to hide. */
  public static Boolean pg_conversion_is_visible(DataContext root, Integer conversion) {
    return conversion == null ? null : Boolean.TRUE;
  }

  public static Boolean pg_operator_is_visible(DataContext root, Integer operator) {
    return operator == null ? null : Boolean.TRUE;
  }

  public static Boolean pg_ts_config_is_visible(DataContext root, Integer config) {
    return config == null ? null : Boolean.TRUE;
  }

  /** Nothing is published: there is no logical replication. */
  public static Boolean pg_relation_is_publishable(DataContext root, Integer relation) {
    return relation == null ? null : Boolean.FALSE;
  }

  public static Boolean pg_relation_is_publishable(DataContext root, String relation) {
    return relation == null ? null : Boolean.FALSE;
  }

  /** The names {@link SystemCatalogs} registers, each with all its overloads. */
  static final java.util.List<String> NAMES = java.util.List.of("version", "current_database", "current_schema", "current_schemas",
      "pg_get_userbyid", "current_user", "pg_backend_pid", "current_setting", "set_config", "regclass", "regtype", "regproc", "int2vectorout", "pg_get_serial_sequence", "pg_get_indexdef",
      "pg_get_constraintdef", "pg_get_viewdef", "format_type", "pg_table_is_visible", "pg_type_is_visible",
      "has_table_privilege", "has_schema_privilege", "has_database_privilege", "has_any_column_privilege",
      "quote_ident", "format", "obj_description",
      "col_description", "shobj_description", "pg_get_expr", "pg_encoding_to_char", "getdatabaseencoding", "pg_char_to_encoding", "pg_collation_is_visible", "regnamespace", "array_to_string",
      "pg_get_statisticsobjdef_columns", "pg_relation_is_publishable", "pg_table_size", "pg_relation_size",
      "pg_total_relation_size", "pg_indexes_size", "pg_size_pretty", "pg_function_is_visible",
      "pg_get_function_result", "pg_get_function_arguments", "pg_tablespace_location", "regclassout", "array_lower",
      "array_upper", "array_length", "parse_ident", "pg_conversion_is_visible", "pg_operator_is_visible",
      "pg_ts_config_is_visible");

  /** A name that is no relation, as PostgreSQL's {@code regclass} input says it ({@code 42S02}). */
  private static StoreException noSuchRelation(String name) {
    return new StoreException("Relation \"" + name + "\" does not exist.", SqlStates.TABLE_NOT_FOUND, null);
  }

  /** Text that is no (qualified) identifier, as PostgreSQL's {@code parse_ident} says it ({@code 22023}). */
  private static StoreException notAnIdentifier(String text, String why) {
    return new StoreException("String is not a valid identifier: \"" + text + "\"" + why + ".",
        SqlStates.INVALID_PARAMETER_VALUE, null);
  }
}
