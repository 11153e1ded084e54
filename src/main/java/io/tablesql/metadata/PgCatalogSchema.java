package io.tablesql.metadata;

import static io.tablesql.metadata.CatalogTable.columns;
import static org.apache.calcite.sql.type.SqlTypeName.BIGINT;
import static org.apache.calcite.sql.type.SqlTypeName.BOOLEAN;
import static org.apache.calcite.sql.type.SqlTypeName.INTEGER;
import static org.apache.calcite.sql.type.SqlTypeName.REAL;
import static org.apache.calcite.sql.type.SqlTypeName.SMALLINT;
import static org.apache.calcite.sql.type.SqlTypeName.VARCHAR;

import com.google.common.collect.ImmutableMultimap;
import com.google.common.collect.Multimap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.calcite.DataContext;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;

/**
 * PostgreSQL's system catalogs as clients read them ({@code pg_class}, {@code pg_attribute},
 * {@code pg_type}, ... and the views over them, {@code pg_tables}, {@code pg_indexes}, ...),
 * generated from the connection's relations; catalogs of what tablesql has none of (comments,
 * column defaults, functions, ranges, enums) are empty, and the columns that name functions
 * (a type's {@code typinput}, {@code typreceive}, ...: {@code regproc}, an OID) are 0. Each
 * relation's owner is the account.
 */
final class PgCatalogSchema extends AbstractSchema {
  static final String NAME = "pg_catalog";
  /** The OID of the one role: the account. */
  static final int ROLE = 10;
  private static final int DATABASE = 16_383;
  /** Access methods: a table's, and every index's (a key order). */
  private static final int HEAP = 2;
  private static final int BTREE = 403;

  /** An access privilege list ({@code aclitem[]}): null everywhere, as PostgreSQL's default privileges are. */
  private static final CatalogTable.ArrayOf TEXT_ARRAY = new CatalogTable.ArrayOf(VARCHAR);

  private final String account;
  private final String version;
  private final Map<String, Table> tables = new LinkedHashMap<>();

  PgCatalogSchema(String account, String version) {
    this.account = account;
    this.version = version;
    Function<DataContext, Relations> relations = PgFunctions::relations;
    table("pg_namespace", relations, columns("oid", INTEGER, "nspname", VARCHAR, "nspowner", INTEGER, "nspacl",
        TEXT_ARRAY), r -> rows(r.namespaces, n -> new Object[] {n.oid(), n.name(), ROLE, null}));
    table("pg_class", relations, columns("oid", INTEGER, "relname", VARCHAR, "relnamespace", INTEGER, "reltype",
        INTEGER, "reloftype", INTEGER, "relowner", INTEGER, "relam", INTEGER, "relfilenode", INTEGER,
        "reltablespace", INTEGER, "relpages", INTEGER, "reltuples", REAL, "relallvisible", INTEGER,
        "reltoastrelid", INTEGER, "relhasindex", BOOLEAN, "relisshared", BOOLEAN, "relpersistence", VARCHAR,
        "relkind", VARCHAR, "relnatts", SMALLINT, "relchecks", SMALLINT, "relhasrules", BOOLEAN, "relhastriggers",
        BOOLEAN, "relhassubclass", BOOLEAN, "relrowsecurity", BOOLEAN, "relforcerowsecurity", BOOLEAN,
        "relispopulated", BOOLEAN, "relreplident", VARCHAR, "relispartition", BOOLEAN, "relrewrite", INTEGER,
        "relfrozenxid", INTEGER, "relminmxid", INTEGER, "relacl", TEXT_ARRAY, "reloptions", TEXT_ARRAY, "relpartbound",
        VARCHAR), r -> rows(r.relations, c -> new Object[] {c.oid, c.name, c.namespace.oid(), 0, 0, ROLE,
            c.kind == 'i' ? BTREE : c.kind == 'v' ? 0 : HEAP, 0, 0, 0, -1f, 0, 0,
            r.indexes.stream().anyMatch(i -> i.table() == c), false, "p", String.valueOf(c.kind), (short) 0,
            (short) 0, false, false, false, false, false, true, "d", false, 0, 0, 0, null, null, null}));
    table("pg_attribute", relations, columns("attrelid", INTEGER, "attname", VARCHAR, "atttypid", INTEGER,
        "attstattarget", INTEGER, "attlen", SMALLINT, "attnum", SMALLINT, "attndims", INTEGER, "attcacheoff",
        INTEGER, "atttypmod", INTEGER, "attbyval", BOOLEAN, "attalign", VARCHAR, "attstorage", VARCHAR,
        "attcompression", VARCHAR, "attnotnull", BOOLEAN, "atthasdef", BOOLEAN, "atthasmissing", BOOLEAN,
        "attidentity", VARCHAR, "attgenerated", VARCHAR, "attisdropped", BOOLEAN, "attislocal", BOOLEAN,
        "attinhcount", INTEGER, "attcollation", INTEGER, "attacl", TEXT_ARRAY, "attoptions", VARCHAR,
        "attfdwoptions", VARCHAR, "attmissingval", VARCHAR), r -> {
          List<Object[]> rows = new ArrayList<>();
          for (Relations.Relation relation : r.relations) {
            for (Relations.Attribute a : relation.attributes()) {
              rows.add(new Object[] {relation.oid, a.name(), a.pgType().oid, -1, (short) a.pgType().length,
                  (short) a.number(), 0, -1, a.modifier(), a.pgType().length > 0 && a.pgType().length <= 8, "i",
                  a.pgType().length > 0 ? "p" : "x", "", a.notNull(), false, false, "", "", false, true, 0, 0, null, null, null, null});
            }
          }
          return rows;
        });
    table("pg_type", relations, columns("oid", INTEGER, "typname", VARCHAR, "typnamespace", INTEGER, "typowner",
        INTEGER, "typlen", SMALLINT, "typbyval", BOOLEAN, "typtype", VARCHAR, "typcategory", VARCHAR,
        "typispreferred", BOOLEAN, "typisdefined", BOOLEAN, "typdelim", VARCHAR, "typrelid", INTEGER, "typsubscript",
        VARCHAR, "typelem", INTEGER, "typarray", INTEGER, "typinput", INTEGER, "typoutput", INTEGER, "typreceive",
        INTEGER, "typsend", INTEGER, "typmodin", INTEGER, "typmodout", INTEGER, "typanalyze", INTEGER, "typalign",
        VARCHAR, "typstorage", VARCHAR, "typnotnull", BOOLEAN, "typbasetype", INTEGER, "typtypmod", INTEGER,
        "typndims", INTEGER, "typcollation", INTEGER, "typdefaultbin", VARCHAR, "typdefault", VARCHAR, "typacl",
        VARCHAR), r -> rows(List.of(PgType.values()), t -> new Object[] {t.oid, t.typname,
            PgType.PG_CATALOG_NAMESPACE, ROLE, (short) t.length, t.length > 0 && t.length <= 8, "b",
            String.valueOf(t.category), false, true, ",", 0, "-", 0, 0, 0, 0, 0, 0, 0, 0, 0, "i", t.length > 0 ? "p" : "x", false, 0, -1, 0, 0,
            null, null, null}));
    table("pg_index", relations, columns("indexrelid", INTEGER, "indrelid", INTEGER, "indnatts", SMALLINT,
        "indnkeyatts", SMALLINT, "indisunique", BOOLEAN, "indnullsnotdistinct", BOOLEAN, "indisprimary", BOOLEAN,
        "indisexclusion", BOOLEAN, "indimmediate", BOOLEAN, "indisclustered", BOOLEAN, "indisvalid", BOOLEAN,
        "indcheckxmin", BOOLEAN, "indisready", BOOLEAN, "indislive", BOOLEAN, "indisreplident", BOOLEAN, "indkey",
        new CatalogTable.ArrayOf(SMALLINT), "indcollation", VARCHAR, "indclass", VARCHAR, "indoption", new CatalogTable.ArrayOf(SMALLINT), "indexprs", VARCHAR, "indpred",
        VARCHAR), r -> rows(r.indexes, i -> new Object[] {i.relation().oid, i.table().oid,
            (short) i.columns().size(), (short) i.columns().size(), i.unique(), false, i.primary(), false, true,
            false, true, false, true, true, false, i.columns().stream().map(Integer::shortValue).toList(), null, null,
            i.columns().stream().map(c -> (short) 0).toList(), null, null}));
    table("pg_constraint", relations, columns("oid", INTEGER, "conname", VARCHAR, "connamespace", INTEGER,
        "contype", VARCHAR, "condeferrable", BOOLEAN, "condeferred", BOOLEAN, "convalidated", BOOLEAN, "conrelid",
        INTEGER, "contypid", INTEGER, "conindid", INTEGER, "conparentid", INTEGER, "confrelid", INTEGER,
        "confupdtype", VARCHAR, "confdeltype", VARCHAR, "confmatchtype", VARCHAR, "conislocal", BOOLEAN,
        "coninhcount", INTEGER, "connoinherit", BOOLEAN, "conkey", new CatalogTable.ArrayOf(SMALLINT), "confkey",
        new CatalogTable.ArrayOf(SMALLINT), "conbin", VARCHAR),
        r -> rows(r.indexes.stream().filter(Relations.Index::unique).toList(), i -> new Object[] {
            i.relation().oid, i.relation().name, i.table().namespace.oid(), i.primary() ? "p" : "u", false, false,
            true, i.table().oid, 0, i.relation().oid, 0, 0, " ", " ", " ", true, 0, true,
            i.columns().stream().map(Integer::shortValue).toList(), null, null}));
    table("pg_attrdef", relations, columns("oid", INTEGER, "adrelid", INTEGER, "adnum", SMALLINT, "adbin",
        VARCHAR), r -> List.of());
    table("pg_description", relations, columns("objoid", INTEGER, "classoid", INTEGER, "objsubid", INTEGER,
        "description", VARCHAR), r -> List.of());
    table("pg_inherits", relations, columns("inhrelid", INTEGER, "inhparent", INTEGER, "inhseqno", INTEGER,
        "inhdetachpending", BOOLEAN), r -> List.of());
    // no row-level security, extended statistics or logical replication (psql's \\d reads each)
    table("pg_policy", relations, columns("oid", INTEGER, "polname", VARCHAR, "polrelid", INTEGER, "polcmd", VARCHAR,
        "polpermissive", BOOLEAN, "polroles", new CatalogTable.ArrayOf(INTEGER), "polqual", VARCHAR, "polwithcheck",
        VARCHAR), r -> List.of());
    table("pg_statistic_ext", relations, columns("oid", INTEGER, "stxrelid", INTEGER, "stxname", VARCHAR,
        "stxnamespace", INTEGER, "stxowner", INTEGER, "stxstattarget", INTEGER, "stxkeys", VARCHAR, "stxkind",
        new CatalogTable.ArrayOf(VARCHAR), "stxexprs", VARCHAR), r -> List.of());
    table("pg_event_trigger", relations, columns("oid", INTEGER, "evtname", VARCHAR, "evtevent", VARCHAR,
        "evtowner", INTEGER, "evtfoid", INTEGER, "evtenabled", VARCHAR, "evttags", TEXT_ARRAY), r -> List.of());
    table("pg_sequence", relations, columns("seqrelid", INTEGER, "seqtypid", INTEGER, "seqstart", BIGINT,
        "seqincrement", BIGINT, "seqmax", BIGINT, "seqmin", BIGINT, "seqcache", BIGINT, "seqcycle", BOOLEAN),
        r -> List.of()); // no sequences: SQLAlchemy's column reflection joins it
    table("pg_publication", relations, columns("oid", INTEGER, "pubname", VARCHAR, "pubowner", INTEGER,
        "puballtables", BOOLEAN, "pubinsert", BOOLEAN, "pubupdate", BOOLEAN, "pubdelete", BOOLEAN, "pubtruncate",
        BOOLEAN, "pubviaroot", BOOLEAN), r -> List.of());
    table("pg_publication_rel", relations, columns("oid", INTEGER, "prpubid", INTEGER, "prrelid", INTEGER, "prqual",
        VARCHAR, "prattrs", VARCHAR), r -> List.of());
    table("pg_publication_namespace", relations, columns("oid", INTEGER, "pnpubid", INTEGER, "pnnspid", INTEGER),
        r -> List.of());
    table("pg_tablespace", relations, columns("oid", INTEGER, "spcname", VARCHAR, "spcowner", INTEGER, "spcacl",
        TEXT_ARRAY, "spcoptions", TEXT_ARRAY), r -> List.<Object[]>of(
            new Object[] {1663, "pg_default", ROLE, null, null}, new Object[] {1664, "pg_global", ROLE, null, null}));
    table("pg_auth_members", relations, columns("oid", INTEGER, "roleid", INTEGER, "member", INTEGER, "grantor",
        INTEGER, "admin_option", BOOLEAN), r -> List.of());
    // no conversions, operators, casts, procedural languages, foreign servers or text search
    // configurations of the account's own (psql's \dc, \do, \dC, \dL, \des, \dF read them)
    table("pg_conversion", relations, columns("oid", INTEGER, "conname", VARCHAR, "connamespace", INTEGER,
        "conowner", INTEGER, "conforencoding", INTEGER, "contoencoding", INTEGER, "conproc", INTEGER, "condefault",
        BOOLEAN), r -> List.of());
    table("pg_operator", relations, columns("oid", INTEGER, "oprname", VARCHAR, "oprnamespace", INTEGER, "oprowner",
        INTEGER, "oprkind", VARCHAR, "oprleft", INTEGER, "oprright", INTEGER, "oprresult", INTEGER, "oprcode",
        INTEGER), r -> List.of());
    table("pg_cast", relations, columns("oid", INTEGER, "castsource", INTEGER, "casttarget", INTEGER, "castfunc",
        INTEGER, "castcontext", VARCHAR, "castmethod", VARCHAR), r -> List.of());
    table("pg_language", relations, columns("oid", INTEGER, "tableoid", INTEGER, "lanname", VARCHAR, "lanowner",
        INTEGER, "lanispl", BOOLEAN, "lanpltrusted", BOOLEAN, "lanplcallfoid", INTEGER), r -> List.of());
    table("pg_foreign_data_wrapper", relations, columns("oid", INTEGER, "fdwname", VARCHAR, "fdwowner", INTEGER,
        "fdwhandler", INTEGER, "fdwvalidator", INTEGER, "fdwacl", TEXT_ARRAY, "fdwoptions", TEXT_ARRAY),
        r -> List.of());
    table("pg_foreign_server", relations, columns("oid", INTEGER, "srvname", VARCHAR, "srvowner", INTEGER, "srvfdw",
        INTEGER), r -> List.of());
    table("pg_foreign_table", relations, columns("ftrelid", INTEGER, "ftserver", INTEGER, "ftoptions", TEXT_ARRAY),
        r -> List.of());
    // no subscriptions, default privileges or per-role settings (psql's \dRs, \ddp, \drds read them)
    table("pg_subscription", relations, columns("oid", INTEGER, "subdbid", INTEGER, "subname", VARCHAR, "subowner",
        INTEGER, "subenabled", BOOLEAN, "subpublications", TEXT_ARRAY), r -> List.of());
    table("pg_default_acl", relations, columns("oid", INTEGER, "defaclrole", INTEGER, "defaclnamespace", INTEGER,
        "defaclobjtype", VARCHAR, "defaclacl", TEXT_ARRAY), r -> List.of());
    table("pg_db_role_setting", relations, columns("setdatabase", INTEGER, "setrole", INTEGER, "setconfig",
        TEXT_ARRAY), r -> List.of());
    table("pg_ts_config", relations, columns("oid", INTEGER, "cfgname", VARCHAR, "cfgnamespace", INTEGER,
        "cfgowner", INTEGER, "cfgparser", INTEGER), r -> List.of());
    table("pg_proc", relations, columns("oid", INTEGER, "proname", VARCHAR, "pronamespace", INTEGER, "proowner",
        INTEGER, "prolang", INTEGER, "prokind", VARCHAR, "proretset", BOOLEAN, "pronargs", SMALLINT, "prorettype",
        INTEGER, "proargtypes", VARCHAR, "prosrc", VARCHAR), r -> List.of());
    table("pg_range", relations, columns("rngtypid", INTEGER, "rngsubtype", INTEGER, "rngmultitypid", INTEGER,
        "rngcollation", INTEGER, "rngsubopc", INTEGER, "rngcanonical", VARCHAR, "rngsubdiff", VARCHAR),
        r -> List.of());
    table("pg_enum", relations, columns("oid", INTEGER, "enumtypid", INTEGER, "enumsortorder", REAL, "enumlabel",
        VARCHAR), r -> List.of());
    // no extensions (Grafana looks for timescaledb), and no statistics kept (Metabase reads row estimates)
    table("pg_extension", relations, columns("oid", INTEGER, "extname", VARCHAR, "extowner", INTEGER,
        "extnamespace", INTEGER, "extrelocatable", BOOLEAN, "extversion", VARCHAR), r -> List.of());
    table("pg_stat_user_tables", relations, columns("relid", INTEGER, "schemaname", VARCHAR, "relname", VARCHAR,
        "seq_scan", BIGINT, "n_live_tup", BIGINT, "n_dead_tup", BIGINT), r -> List.of());
    table("pg_am", relations, columns("oid", INTEGER, "amname", VARCHAR, "amhandler", VARCHAR, "amtype", VARCHAR),
        r -> List.of(new Object[] {HEAP, "heap", "heap_tableam_handler", "t"},
            new Object[] {BTREE, "btree", "bthandler", "i"}));
    table("pg_collation", relations, columns("oid", INTEGER, "collname", VARCHAR, "collnamespace", INTEGER,
        "collowner", INTEGER, "collprovider", VARCHAR, "collisdeterministic", BOOLEAN, "collencoding", INTEGER,
        "collcollate", VARCHAR, "collctype", VARCHAR), r -> List.of(
            new Object[] {100, "default", PgType.PG_CATALOG_NAMESPACE, ROLE, "d", true, -1, null, null},
            new Object[] {950, "C", PgType.PG_CATALOG_NAMESPACE, ROLE, "c", true, -1, "C", "C"},
            new Object[] {951, "POSIX", PgType.PG_CATALOG_NAMESPACE, ROLE, "c", true, -1, "POSIX", "POSIX"}));
    table("pg_database", relations, columns("oid", INTEGER, "datname", VARCHAR, "datdba", INTEGER, "encoding",
        INTEGER, "datlocprovider", VARCHAR, "datistemplate", BOOLEAN, "datallowconn", BOOLEAN, "datconnlimit",
        INTEGER, "datfrozenxid", INTEGER, "datminmxid", INTEGER, "dattablespace", INTEGER, "datcollate", VARCHAR,
        "datctype", VARCHAR, "daticulocale", VARCHAR, "datcollversion", VARCHAR, "datacl", TEXT_ARRAY),
        r -> List.<Object[]>of(new Object[] {DATABASE, r.database, ROLE, 6, "c", false, true, -1, 0, 0, 0,
            "C.UTF-8", "C.UTF-8", null, null, null}));
    table("pg_roles", relations, columns("oid", INTEGER, "rolname", VARCHAR, "rolsuper", BOOLEAN, "rolinherit",
        BOOLEAN, "rolcreaterole", BOOLEAN, "rolcreatedb", BOOLEAN, "rolcanlogin", BOOLEAN, "rolreplication", BOOLEAN,
        "rolconnlimit", INTEGER, "rolpassword", VARCHAR, "rolvaliduntil", VARCHAR, "rolbypassrls", BOOLEAN,
        "rolconfig", VARCHAR), r -> List.<Object[]>of(new Object[] {ROLE, r.database, false, true, false, false,
            true, false, -1, "********", null, false, null}));
    table("pg_user", relations, columns("usename", VARCHAR, "usesysid", INTEGER, "usecreatedb", BOOLEAN,
        "usesuper", BOOLEAN, "userepl", BOOLEAN, "usebypassrls", BOOLEAN, "passwd", VARCHAR, "valuntil", VARCHAR,
        "useconfig", VARCHAR), r -> List.<Object[]>of(new Object[] {r.database, ROLE, false, false, false, false,
            "********", null, null}));
    table("pg_settings", relations, columns("name", VARCHAR, "setting", VARCHAR, "unit", VARCHAR, "category",
        VARCHAR, "short_desc", VARCHAR, "context", VARCHAR, "vartype", VARCHAR, "source", VARCHAR, "boot_val",
        VARCHAR, "reset_val", VARCHAR), r -> rows(new ArrayList<>(settings(r.database).entrySet()), s ->
            new Object[] {s.getKey(), s.getValue(), null, "tablesql", null, "user", "string", "default",
                s.getValue(), s.getValue()}));
    table("pg_tables", relations, columns("schemaname", VARCHAR, "tablename", VARCHAR, "tableowner", VARCHAR,
        "tablespace", VARCHAR, "hasindexes", BOOLEAN, "hasrules", BOOLEAN, "hastriggers", BOOLEAN, "rowsecurity",
        BOOLEAN), r -> rows(ofKind(r, 'r'), c -> new Object[] {c.namespace.name(), c.name, r.database, null,
            r.indexes.stream().anyMatch(i -> i.table() == c), false, false, false}));
    table("pg_views", relations, columns("schemaname", VARCHAR, "viewname", VARCHAR, "viewowner", VARCHAR,
        "definition", VARCHAR), r -> rows(ofKind(r, 'v'), c -> new Object[] {c.namespace.name(), c.name,
            r.database, c.definition}));
    table("pg_matviews", relations, columns("schemaname", VARCHAR, "matviewname", VARCHAR, "matviewowner",
        VARCHAR, "tablespace", VARCHAR, "hasindexes", BOOLEAN, "ispopulated", BOOLEAN, "definition", VARCHAR),
        r -> rows(ofKind(r, 'm'), c -> new Object[] {c.namespace.name(), c.name, r.database, null, true, true,
            null}));
    table("pg_indexes", relations, columns("schemaname", VARCHAR, "tablename", VARCHAR, "indexname", VARCHAR,
        "tablespace", VARCHAR, "indexdef", VARCHAR), r -> rows(r.indexes, i -> new Object[] {
            i.table().namespace.name(), i.table().name, i.relation().name, null, indexDefinition(i)}));
  }

  private void table(String name, Function<DataContext, Relations> relations, List<CatalogTable.Column> columns,
      Function<Relations, List<Object[]>> rows) {
    tables.put(name, new CatalogTable(Schema.TableType.SYSTEM_TABLE, relations, columns, rows));
  }

  private static <T> List<Object[]> rows(List<T> items, Function<T, Object[]> row) {
    return items.stream().map(row).toList();
  }

  private static List<Relations.Relation> ofKind(Relations relations, char kind) {
    return relations.relations.stream().filter(r -> r.kind == kind && r.namespace.oid() == Relations.ACCOUNT_NAMESPACE)
        .toList();
  }

  String account() {
    return account;
  }

  String version() {
    return version;
  }

  /** A table of this catalog by name, ignoring case; null for none. */
  org.apache.calcite.schema.lookup.Named<Table> find(String name) {
    return tables.entrySet().stream().filter(table -> table.getKey().equalsIgnoreCase(name)).findFirst()
        .map(table -> new org.apache.calcite.schema.lookup.Named<>(table.getKey(), table.getValue())).orElse(null);
  }

  @Override
  protected Map<String, Table> getTableMap() {
    return tables;
  }

  @Override
  protected Multimap<String, org.apache.calcite.schema.Function> getFunctionMultimap() {
    return SystemCatalogs.functions();
  }

  @Override
  protected Map<String, org.apache.calcite.rel.type.RelProtoDataType> getTypeMap() {
    return SystemCatalogs.types();
  }

  /** The settings {@code pg_settings} and {@code current_setting} report: the server's, as it reports them at startup. */
  static Map<String, String> settings(String account) {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("server_version", "14.0");
    settings.put("server_version_num", "140000");
    settings.put("server_encoding", "UTF8");
    settings.put("client_encoding", "UTF8");
    settings.put("DateStyle", "ISO, MDY");
    settings.put("TimeZone", "UTC");
    settings.put("IntervalStyle", "postgres");
    settings.put("integer_datetimes", "on");
    settings.put("standard_conforming_strings", "on");
    settings.put("search_path", account);
    settings.put("max_identifier_length", "63");
    settings.put("transaction_isolation", "read committed");
    settings.put("default_transaction_isolation", "read committed");
    settings.put("transaction_read_only", "off");
    settings.put("default_transaction_read_only", "off");
    settings.put("lc_collate", "C.UTF-8");
    settings.put("lc_ctype", "C.UTF-8");
    settings.put("block_size", "8192");
    settings.put("max_index_keys", "32");
    return settings;
  }

  /** One setting, its name compared ignoring case; null for one not listed. */
  static String setting(String account, String name) {
    if (name == null) {
      return null;
    }
    return settings(account).entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name.trim()))
        .map(Map.Entry::getValue).findFirst().orElse(null);
  }

  /** {@code pg_get_indexdef}: the CREATE INDEX statement PostgreSQL would show for an index. */
  static String indexDefinition(Relations relations, int oid) {
    return relations.indexes.stream().filter(i -> i.relation().oid == oid).findFirst()
        .map(PgCatalogSchema::indexDefinition).orElse(null);
  }

  private static String indexDefinition(Relations.Index index) {
    String columns = index.relation().attributes().stream().map(a -> quoted(a.name()))
        .collect(Collectors.joining(", "));
    return "CREATE " + (index.unique() ? "UNIQUE " : "") + "INDEX " + quoted(index.relation().name) + " ON "
        + quoted(index.table().namespace.name()) + "." + quoted(index.table().name) + " USING btree (" + columns + ")";
  }

  /** {@code pg_get_constraintdef}: a primary key's or UNIQUE index's constraint as PostgreSQL shows it. */
  static String constraintDefinition(Relations relations, int oid) {
    return relations.indexes.stream().filter(i -> i.relation().oid == oid && i.unique()).findFirst()
        .map(i -> (i.primary() ? "PRIMARY KEY (" : "UNIQUE (") + i.relation().attributes().stream()
            .map(a -> quoted(a.name())).collect(Collectors.joining(", ")) + ")").orElse(null);
  }

  /** A name as PostgreSQL writes it: quoted unless it is lower case letters, digits and underscores. */
  static String quoted(String name) {
    return name.matches("[a-z_][a-z0-9_]*") ? name : "\"" + name.replace("\"", "\"\"") + "\"";
  }
}
