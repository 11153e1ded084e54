package io.tablesql.settings;

import static io.tablesql.settings.PropertyKind.FLAG;
import static io.tablesql.settings.PropertyKind.NAMES;
import static io.tablesql.settings.PropertyKind.choice;
import static io.tablesql.settings.PropertyKind.whole;
import static io.tablesql.settings.PropertyKind.wholeOrAuto;

import java.util.Locale;

/**
 * Every driver property: its name in connection strings, default, and the description that
 * {@code Driver.getPropertyInfo} and the README show. A property added here is accepted and
 * listed at once; DriverPropertiesTest fails until the README's table has its row and
 * TableSqlDataSource its setter.
 */
public enum DriverProperty {
  PUSHDOWN("pushdown", "true", FLAG,
      "Push predicates, projections and limits down to the service. false evaluates everything "
          + "in the client (the oracle the tests compare against)."),
  MATERIALIZED_VIEWS("materializedViews", "true", FLAG,
      "Let the planner answer a query from a materialized view of its table when that costs fewer "
          + "requests. false plans every query on the tables it names."),
  DIRECT_EXECUTION("directExecution", "true", FLAG,
      "Run a query whose plan is one table access (a point, multi-point, range, partition or table scan with its "
          + "projection) straight from its plan, without Calcite's generated code and per-execution machinery. "
          + "false runs every query through Calcite's generated code (the oracle the tests compare against)."),
  UNPLANNED_LOOKUPS("unplannedLookups", "cold", choice(Choices.UnplannedLookups.class),
      "Run a Statement's query that reads one row by its whole key (SELECT columns FROM table WHERE key = 'text' "
          + "AND ...) without Calcite's planner: cold while nothing has been planned in the JVM yet, so that a "
          + "process's first lookup does not wait for the planner to start (nor for a sampled table's sample: "
          + "its columns come from the entity read); always for every such query; never plans every query."),
  COLUMN_LABELS("columnLabels", "calcite", choice(Choices.ColumnLabels.class),
      "How a result column without a name of its own is labelled: calcite names it EXPR$0, EXPR$1, ...; "
          + "postgresql as PostgreSQL does (count for count(*), the function's name, the column a CAST converts, "
          + "?column? for other expressions). The PostgreSQL-protocol server sets postgresql for its sessions."),
  SAMPLE_SIZE("sampleSize", "1000", whole(1, Integer.MAX_VALUE),
      "Entities read, spread over each table's key space, to infer its columns and their types."),
  SCHEMA_TTL("schemaTtlSeconds", "300", whole(0, Integer.MAX_VALUE),
      "Seconds an inferred table schema and the table list are cached before being read again."),
  PAGE_SIZE("pageSize", "1000", whole(1, 1000),
      "Entities asked for per request ($top), 1 to 1000. Statement.setFetchSize overrides it."),
  MAX_CONCURRENCY("maxConcurrency", "8", whole(1, Integer.MAX_VALUE),
      "Requests one statement sends at the same time for multi-point lookups and multi-partition scans."),
  SCAN_SPLITS("scanSplits", "auto", wholeOrAuto(1, 100),
      "Key ranges a table scan (or a scan over PartitionKey bounds) is split into, read maxConcurrency at a "
          + "time and concatenated in key order: auto splits a scan of a table larger than its sample, or of a "
          + "declared or mapped table an earlier scan saw to span pages (not with a LIMIT or a maxRows of a page "
          + "or less), into maxConcurrency ranges at the PartitionKeys where this JVM's earlier scans of it saw "
          + "pages begin, else at those its sample saw; 1 never splits (one chain of pages, as the SDK reads); N "
          + "splits every such scan into up to N, probing the key space where neither tells."),
  REQUEST_TIMEOUT("requestTimeoutSeconds", "30", whole(1, Integer.MAX_VALUE),
      "Seconds to wait for one response from the service before failing the request."),
  HTTP_CLIENT("httpClient", "jdk", choice(Choices.HttpClient.class),
      "The HTTP client requests go through: jdk (the JDK's HttpClient, which the driver jar carries) or netty "
          + "(azure-core-http-netty, the Azure SDK's default transport, for applications that have it on their class "
          + "path; not with the driver jar, which has no Netty)."),
  MAX_RETRIES("maxRetries", "3", whole(0, Integer.MAX_VALUE),
      "Retries of a request that failed with a transient error (throttling, timeouts, 5xx)."),
  MAX_REQUESTS_PER_SECOND("maxRequestsPerSecond", "0", whole(0, Integer.MAX_VALUE),
      "Requests per second the JVM sends at most to one account with one credential, retries included, "
          + "shared by all its connections (a bulk load paces itself instead of being throttled); 0: no limit."),
  STRICT_ATOMICITY("strictAtomicity", "false", FLAG,
      "Refuse a statement whose writes span several partitions or more than 100 entities (which "
          + "would be sent as several entity group transactions) instead of executing it."),
  UPSERT_MODE("upsertMode", "merge", choice(Choices.UpsertMode.class),
      "What UPSERT does to an existing entity: merge (properties not named are kept, InsertOrMerge) "
          + "or replace (properties not named are removed, InsertOrReplace)."),
  PLAN_CACHE_SIZE("planCacheSize", "100", whole(0, Integer.MAX_VALUE),
      "Statements a connection keeps planned: queries keyed by their text with the literals of WHERE and ON "
          + "lifted into parameters, so that queries differing only in literals are planned once, and queries "
          + "and writes prepared with ? markers keyed by their text, so that preparing one again plans nothing; "
          + "0 turns it off."),
  TABLES("tables", "", NAMES,
      "Comma-separated tables to use without listing the account's tables, for a SAS token that "
          + "may not list them; other tables are found when a statement names them. Empty: list the tables."),
  LOOKUP_TABLES("lookupTables", "", NAMES,
      "Comma-separated tables (small, rarely changing lookup data) read once and served from a cache "
          + "shared by the JVM's connections with the same settings and credentials; empty for none."),
  LOOKUP_CACHE_MAX_ENTITIES("lookupCacheMaxEntities", "100000", whole(1, Integer.MAX_VALUE),
      "Entities the lookup table cache holds at most; a larger lookup table is read normally, with a warning."),
  LOOKUP_CACHE_TTL("lookupCacheTtlSeconds", "300", whole(0, Integer.MAX_VALUE),
      "Seconds a cached lookup table is served before it is read again (writes through tablesql "
          + "refresh it at once)."),
  TABLE_DELETE_WAIT("tableDeleteWaitSeconds", "60", whole(0, Integer.MAX_VALUE),
      "Seconds CREATE TABLE waits for a table name the service is still deleting (409 "
          + "TableBeingDeleted: Azure keeps a dropped table's name busy for about 40 seconds) before failing."),
  CATALOG("catalog", "true", FLAG,
      "Read the tables declared with a PRIMARY KEY and the views from the account's catalog "
          + "(TablesqlCatalog). false shows every Azure table as PartitionKey, RowKey and properties, the "
          + "ones holding declared tables included."),
  KEY_ORDER("keyOrder", "auto", choice(Choices.KeyOrder.class),
      "Whether the service returns query results sorted by PartitionKey and RowKey: sorted (Azure "
          + "Storage, Azurite), unsorted (the Cosmos DB Table API: ORDER BY is then always sorted in the "
          + "client), or auto (unsorted for Cosmos DB endpoints, sorted otherwise)."),
  INDEX_GRACE("indexGraceSeconds", "60", whole(0, Integer.MAX_VALUE),
      "Seconds a global index entry that names a row without its values is left alone, as the write that "
          + "added it may still be under way; older ones are removed when read (and by ALTER INDEX ... VERIFY), and "
          + "an older one no longer blocks its value in a UNIQUE index; an unverified entry of a covering global "
          + "index is marked verified only once older than this."),
  INTENT_LEASE("intentLeaseSeconds", "60", whole(1, Integer.MAX_VALUE),
      "Seconds a write of several entity groups (recorded as an intent in TablesqlIntents) may run before any "
          + "connection's recovery finishes or undoes it; at least twice requestTimeoutSeconds."),
  OPTIMISTIC_RETRIES("optimisticRetries", "0", whole(0, Integer.MAX_VALUE),
      "Times an auto-commit UPDATE or DELETE that failed with 40001 (a row changed since it was read) is "
          + "read and run again before the error reaches the application.");

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

  public String description() {
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
