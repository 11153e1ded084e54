package io.tablesql.settings;

import static io.tablesql.settings.PropertyKind.FLAG;
import static io.tablesql.settings.PropertyKind.NAMES;
import static io.tablesql.settings.PropertyKind.choice;
import static io.tablesql.settings.PropertyKind.whole;
import static io.tablesql.settings.PropertyKind.wholeOrAuto;

import java.util.Locale;

/**
 * Every driver property, declared once: its name in connection strings, default, the values it
 * takes (which validation checks) and its description, which {@code Driver.getPropertyInfo} shows
 * and from which docs/driver-properties.md is generated ({@link PropertyTable}). A property added
 * here is accepted and listed at once; DriverPropertiesTest fails until the docs are generated
 * again and TableSqlDataSource has its setter.
 */
public enum DriverProperty {
  PUSHDOWN("pushdown", "true", FLAG,
      "Push predicates, projections and limits down to the service. `false` evaluates everything in the "
          + "client: the oracle the tests compare against."),
  MATERIALIZED_VIEWS("materializedViews", "true", FLAG,
      "Let the planner answer a query (not a write) from a materialized view of its table when that costs "
          + "fewer requests (see *Materialized views*); EXPLAIN names the view. `false` plans every query on "
          + "the tables it names."),
  DIRECT_EXECUTION("directExecution", "true", FLAG,
      "Run a query whose plan is one table access (a point, multi-point, range, partition or table scan, with "
          + "its projection, pushed filter and limit) straight from its plan: no code generated and compiled "
          + "for it, and no Calcite per-execution machinery (its DataContext and result set) when it runs; "
          + "results and metadata are Calcite's. `false` runs every query through Calcite's generated code."),
  UNPLANNED_LOOKUPS("unplannedLookups", "cold", choice(Choices.UnplannedLookups.class),
      "Run a `Statement`'s query that reads one row by its whole key (`SELECT` of columns or `*` from one "
          + "table, `WHERE key = 'text' AND ...` over every key column, names written in their own case and "
          + "none that Calcite reads as a function such as `USER`, character columns and printable ASCII "
          + "literals, nothing else) without Calcite's validator and planner: same access path, rows and "
          + "metadata. `cold` does so only while nothing has been planned in the JVM yet, so that a process "
          + "whose first statement is such a lookup does not wait for Calcite's classes to load (about a "
          + "second of CPU), nor, on a table whose columns are sampled, for the sample (its columns come from "
          + "the entity it reads, where they are text, keys or declared types); `always` runs every such query "
          + "unplanned (a point lookup repeated with other literals is then parsed each time instead of taken "
          + "from the plan cache); `never` plans every query."),
  COLUMN_LABELS("columnLabels", "calcite", choice(Choices.ColumnLabels.class),
      "How a result column without a name of its own is labelled: `calcite` names it `EXPR$0`, `EXPR$1`, ...; "
          + "`postgresql` as PostgreSQL does (`count` for `count(*)`, a function's name, the column a `CAST` "
          + "converts, `case`, `?column?` for other expressions). The PostgreSQL-protocol server sets "
          + "`postgresql` for its sessions (a client's startup option can set `calcite`)."),
  SAMPLE_SIZE("sampleSize", "1000", whole(1, Integer.MAX_VALUE),
      "Entities read, spread over each table's key space, to infer its columns and their types."),
  SCHEMA_TTL("schemaTtlSeconds", "300", whole(0, Integer.MAX_VALUE),
      "Seconds an inferred table schema and the table list are cached (schemas are shared by the JVM's "
          + "connections to the same account with the same credentials). A statement naming a table the list "
          + "lacks reads the list again at once, so a table created elsewhere is usable straight away; a list "
          + "that holds a table the cached catalog has not seen reads the catalog again too, so a table "
          + "declared elsewhere is a declared table here at once."),
  TABLE_DELETE_WAIT("tableDeleteWaitSeconds", "60", whole(0, Integer.MAX_VALUE),
      "Seconds `CREATE TABLE` waits for a table name the service is still deleting (`409 TableBeingDeleted`: "
          + "Azure keeps a dropped table's name busy for about 40 seconds) before failing with `55006`."),
  TABLES("tables", "", NAMES,
      "Comma-separated tables to use without listing the account's tables, for a SAS token that may not list "
          + "them. Other tables are found when a statement names them. Empty: connecting lists the account's "
          + "tables."),
  PAGE_SIZE("pageSize", "1000", whole(1, 1000),
      "Entities asked for per request (`$top`), 1 to 1000. `Statement.setFetchSize` overrides it."),
  MAX_CONCURRENCY("maxConcurrency", "8", whole(1, Integer.MAX_VALUE),
      "Requests one statement sends at the same time for multi-point lookups, multi-partition scans, the key "
          + "ranges of split scans (`scanSplits`), and the entity groups of a write."),
  SCAN_SPLITS("scanSplits", "auto", wholeOrAuto(1, 100),
      "Key ranges a large scan is split into: a `TABLE SCAN`, or a scan over `PartitionKey` bounds (not one "
          + "with `PartitionKey =`), is read as disjoint PartitionKey ranges, `maxConcurrency` at a time, "
          + "concatenated in key order. `auto` splits a scan of a table that is larger than its sample, or of "
          + "a declared or mapped table (no sample) that an earlier scan in this JVM saw to span pages, into "
          + "`maxConcurrency` ranges (a whole sampled table into no more ranges than the pages its sample "
          + "expects, estimated from the share of the key space its first entities cover: a table of 3,000 "
          + "entities in pages of 1,000 is read as 3 ranges, so no range is much smaller than a page): at the "
          + "PartitionKeys where earlier scans of the table saw its pages begin (even shares of rows; a scan "
          + "with no condition for the service but PartitionKey bounds is cut there into more ranges, of at "
          + "most 3 pages each, read `maxConcurrency` at a time), else at those the sample saw; it leaves "
          + "alone a declared or mapped table not yet scanned, a range the sample saw fewer than two keys of, "
          + "a query with a `LIMIT`, a statement whose `setMaxRows` is a page or less, and every scan in a "
          + "heap below 16 MiB per range read at once (128 MiB at the default `maxConcurrency`); `1` never "
          + "splits (one chain of pages, as the SDK's `listEntities` reads); `N` splits every such scan into "
          + "up to N ranges, probing the key space where the sample does not tell (not one with a `LIMIT` of "
          + "one page or less). EXPLAIN shows `split=[N key ranges]` and, where earlier scans or the sample "
          + "give them, `boundaries=['p06', ...]` (the first 16, then how many more). See *Split scans*."),
  REQUEST_TIMEOUT("requestTimeoutSeconds", "30", whole(1, Integer.MAX_VALUE),
      "Seconds to wait for one response from the service."),
  HTTP_CLIENT("httpClient", "jdk", choice(Choices.HttpClient.class),
      "The HTTP client requests go through: `jdk` (the JDK's `HttpClient`, the one the driver jar carries) or "
          + "`netty` (the Azure SDK's default transport, `com.azure:azure-core-http-netty`, for an application "
          + "that has it on its class path next to the driver as a Maven dependency; the driver jar has no "
          + "Netty and refuses it). See BENCHMARKS.md for what each costs."),
  MAX_RETRIES("maxRetries", "3", whole(0, Integer.MAX_VALUE),
      "Retries of a request that failed with a transient error (throttling, timeouts, 5xx), with exponential "
          + "back-off from 200 ms."),
  PLAN_CACHE_SIZE("planCacheSize", "100", whole(0, Integer.MAX_VALUE),
      "Statements a connection keeps planned (texts; up to 4 idle plans each). The literals of WHERE and ON "
          + "are lifted into parameters, so ad-hoc queries differing only in literals are planned once (sent "
          + "with `Statement.executeQuery`, or prepared without `?` markers as BI tools do), and a query "
          + "repeated as written (a dashboard refresh) is not planned again (Calcite takes 20–100 ms to plan a "
          + "new statement). A query, `INSERT`, `UPSERT`, `UPDATE` or `DELETE` prepared with "
          + "`prepareStatement(sql)` keeps its plan when the statement is closed, so preparing the same text "
          + "again on the connection, as Spring's `JdbcTemplate`, Hibernate and jOOQ do for every execution, "
          + "plans nothing. DDL run through the connection, or a table list read again, forgets every plan. "
          + "`0` turns it off."),
  LOOKUP_TABLES("lookupTables", "", NAMES,
      "Comma-separated tables (small, rarely changing lookup data, such as departments) read once and served "
          + "from a cache shared by the JVM's connections with the same settings and credentials. EXPLAIN "
          + "shows `CACHED`."),
  LOOKUP_CACHE_MAX_ENTITIES("lookupCacheMaxEntities", "100000", whole(1, Integer.MAX_VALUE),
      "Entities the lookup cache holds at most. A larger lookup table is read from the service as usual, with "
          + "a `SQLWarning`; it is never truncated."),
  LOOKUP_CACHE_TTL("lookupCacheTtlSeconds", "300", whole(0, Integer.MAX_VALUE),
      "Seconds a cached lookup table is served before it is read again. Writes through tablesql refresh it at "
          + "once; `connection.unwrap(LookupTables.class).refreshLookupTables()` on demand."),
  MAX_REQUESTS_PER_SECOND("maxRequestsPerSecond", "0", whole(0, Integer.MAX_VALUE),
      "Requests per second the JVM sends at most to one account with one credential, retries included, shared "
          + "by all its connections: a bulk load paces itself instead of being throttled by the service. `0`: "
          + "no limit."),
  STRICT_ATOMICITY("strictAtomicity", "false", FLAG,
      "Refuse a write statement or transaction that one entity group transaction cannot hold (several "
          + "partitions or tables, more than 100 entities, more than 4 MiB) instead of committing it through "
          + "an intent (see [What is atomic](#what-is-atomic)): every write is then one entity group "
          + "transaction, with no intent."),
  UPSERT_MODE("upsertMode", "merge", choice(Choices.UpsertMode.class),
      "What `UPSERT` does to an existing entity: `merge` keeps the properties not named (InsertOrMerge), "
          + "`replace` removes them (InsertOrReplace)."),
  CATALOG("catalog", "true", FLAG,
      "Read the tables declared with a `PRIMARY KEY` and the views from the account's catalog "
          + "(`TablesqlCatalog`). `false` shows every Azure table raw, as PartitionKey, RowKey and properties, "
          + "the ones holding declared tables included."),
  KEY_ORDER("keyOrder", "auto", choice(Choices.KeyOrder.class),
      "Whether the service returns query results sorted by PartitionKey and RowKey: `sorted` (Azure Storage, "
          + "Azurite), `unsorted` (the Cosmos DB Table API: every `ORDER BY` is sorted in the client), or "
          + "`auto`: `unsorted` for Cosmos DB endpoints, `sorted` otherwise. See [Cosmos DB Table "
          + "API](#cosmos-db-table-api)."),
  INDEX_GRACE("indexGraceSeconds", "60", whole(0, Integer.MAX_VALUE),
      "Seconds a global index entry that names a row without its values is left alone, since the write that "
          + "added it may still be under way (see [Secondary indexes](#secondary-indexes)). Older such entries "
          + "are removed when a query reads them and by `ALTER INDEX ... VERIFY`, and an older one no longer "
          + "holds its value in a `UNIQUE` index. An unverified entry of a covering global index (`INCLUDE`) "
          + "is marked verified, once its row holds its values, only when it is older than this."),
  BLOB_GRACE("blobGraceSeconds", "3600", whole(2, Integer.MAX_VALUE),
      "Seconds a blob holding a long value (one longer than an entity's 1 MiB) that no row names is left alone "
          + "by `ALTER TABLE ... VERIFY`, since the write that will name it may still be under way. A write "
          + "whose long value was written to Blob storage more than half of this before it commits (a "
          + "transaction left open) is refused with `40001`, nothing written."),
  INTENT_LEASE("intentLeaseSeconds", "60", whole(1, Integer.MAX_VALUE),
      "Seconds a write of several entity groups may take before any connection's recovery finishes or undoes "
          + "it (see [What is atomic](#what-is-atomic)); also how often each open connection looks for such "
          + "writes left by others. At least twice `requestTimeoutSeconds`: when not set, it is 60 or twice "
          + "`requestTimeoutSeconds`, whichever is longer; set shorter, the connection is refused (`08001`)."),
  OPTIMISTIC_RETRIES("optimisticRetries", "0", whole(0, Integer.MAX_VALUE),
      "Times an auto-commit `UPDATE` or `DELETE` that failed with `40001` (a row it read was changed before "
          + "its write) is read and run again before the error reaches the application: the design guide's "
          + "optimistic concurrency retry. Nothing of a failed attempt is written, so running it again is "
          + "safe.");

  private final String key;
  private final String defaultValue;
  private final PropertyKind kind;
  private final String description;

  DriverProperty(String key, String defaultValue, PropertyKind kind, String description) {
    this.key = key;
    this.defaultValue = defaultValue;
    this.kind = kind;
    this.description = description;
  }

  /** The values the property takes. */
  public PropertyKind kind() {
    return kind;
  }

  /** The values allowed, when the property is one of a few words; empty otherwise. */
  public String[] choices() {
    return kind.choices();
  }

  public String key() {
    return key;
  }

  public String defaultValue() {
    return defaultValue;
  }

  /** The description as plain text ({@code Driver.getPropertyInfo}). */
  public String description() {
    // code spans lose their backquotes; emphasis (a section's name) its asterisks, code's own (count(*)) stays
    return description.replace("`", "").replaceAll("\\*([A-Z][^*]*)\\*", "$1");
  }

  /** The description as the docs write it: code in backquotes, a section's name in asterisks. */
  public String markdown() {
    return description;
  }

  static DriverProperty byKey(String key) {
    for (DriverProperty property : values()) {
      if (property.key.toLowerCase(Locale.ROOT).equals(key.toLowerCase(Locale.ROOT))) {
        return property;
      }
    }
    return null;
  }
}
