package io.tablesql.store;

import com.azure.core.credential.AzureNamedKeyCredential;
import com.azure.core.credential.AzureSasCredential;
import com.azure.core.exception.HttpResponseException;
import com.azure.core.http.HttpClient;
import com.azure.core.http.HttpClientProvider;
import com.azure.core.http.HttpHeaderName;
import com.azure.core.http.jdk.httpclient.JdkHttpClientBuilder;
import com.azure.core.http.policy.ExponentialBackoffOptions;
import com.azure.core.http.policy.RetryOptions;
import com.azure.core.http.rest.PagedResponse;
import com.azure.core.http.rest.Response;
import com.azure.core.util.Context;
import com.azure.core.util.HttpClientOptions;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.ListTablesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableEntityUpdateMode;
import com.azure.data.tables.models.TableItem;
import com.azure.data.tables.models.TableServiceException;
import com.azure.data.tables.models.TableTransactionAction;
import com.azure.data.tables.models.TableTransactionActionType;
import com.azure.data.tables.models.TableTransactionFailedException;
import io.tablesql.errors.SqlStates;
import io.tablesql.settings.Choices;
import io.tablesql.settings.ConnectionSettings;
import io.tablesql.settings.DriverProperty;
import io.tablesql.txn.WriteOperation;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.concurrent.TimeoutException;

/**
 * The only code that talks to the Azure Data Tables SDK: listing, creating and deleting tables,
 * the connection check, point reads, paged queries, entity group transactions and single-entity
 * writes (index entries), and what their failures mean for the user. Every
 * call carries the {@link RequestCounters} of the statement it serves, so that what a statement
 * cost is measured where it happens.
 */
public final class TableStore {
  /** Where the SDK looks for the ETag that a conditional write sends as If-Match. */
  private static final String ETAG_PROPERTY = "odata.etag";
  private static final String NETTY_PROVIDER = "com.azure.core.http.netty.NettyAsyncHttpClientProvider";
  /**
   * Netty clients by request timeout, shared by the JVM's connections: each has a connection
   * pool that is never closed, which one client per connection would leave behind.
   */
  private static final java.util.Map<Duration, HttpClient> NETTY_CLIENTS =
      new java.util.concurrent.ConcurrentHashMap<>();
  private static final HttpHeaderName ERROR_CODE = HttpHeaderName.fromString("x-ms-error-code");
  private static final String TABLE_BEING_DELETED = "TableBeingDeleted";
  /** The service's error codes for an entity over its limits. */
  private static final java.util.Set<String> ENTITY_LIMITS = java.util.Set.of("TooManyProperties",
      "EntityTooLarge", "PropertyValueTooLarge");

  private final TableServiceClient service;
  private final String endpoint;
  private final Duration deletedTableWait;
  /** Requests one operation of the driver's own (a spread sample) sends at a time. */
  private final int maxConcurrency;
  /** An account key grants every operation: a 403 to it means the key is wrong, never a narrower grant. */
  private final boolean accountKey;
  private final java.util.concurrent.ConcurrentHashMap<String, TableClient> clients =
      new java.util.concurrent.ConcurrentHashMap<>();
  private final AccountMetrics metrics;
  private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();
  private final ConnectionSettings settings;
  private final HttpClient http;
  /** Made on the first long value written or read: most connections never touch Blob storage. */
  private volatile BlobStore blobs;

  /** A store counting in its account's metrics until {@link #close()}, which its owner must call. */
  public TableStore(ConnectionSettings settings) {
    this.endpoint = settings.tableEndpoint();
    this.deletedTableWait = Duration.ofSeconds(settings.getInt(DriverProperty.TABLE_DELETE_WAIT));
    this.maxConcurrency = settings.getInt(DriverProperty.MAX_CONCURRENCY);
    this.accountKey = settings.accountKey() != null;
    this.metrics = AccountMetrics.acquire(settings);
    this.settings = settings;
    try {
      this.http = httpClient(settings);
      this.service = buildService(settings, http, metrics);
    } catch (RuntimeException | Error e) {
      metrics.release();
      throw e;
    }
  }

  private static HttpClient httpClient(ConnectionSettings settings) {
    Duration timeout = Duration.ofSeconds(settings.getInt(DriverProperty.REQUEST_TIMEOUT));
    Duration connectTimeout = Duration.ofSeconds(Math.min(10, timeout.getSeconds()));
    // The JDK client hands a response from its selector thread to its executor, and the executor
    // to the caller blocked in HttpClient.send: run inline, the response reaches the caller with
    // one thread switch less (a tenth of a point lookup). Safe because only the synchronous API is
    // used: what runs there is the JDK's own non-blocking delivery (docs/architecture/speed.md, "Speed").
    HttpClient http = settings.choice(DriverProperty.HTTP_CLIENT, Choices.HttpClient.class) == Choices.HttpClient.NETTY
        ? NETTY_CLIENTS.computeIfAbsent(timeout, t -> nettyClient(new HttpClientOptions()
            .setConnectTimeout(connectTimeout).setResponseTimeout(t).setReadTimeout(t)))
        : new JdkHttpClientBuilder().executor(Runnable::run).connectionTimeout(connectTimeout)
            .responseTimeout(timeout).readTimeout(timeout).build();
    return http;
  }

  private static TableServiceClient buildService(ConnectionSettings settings, HttpClient http, AccountMetrics metrics) {
    TableServiceClientBuilder builder = new TableServiceClientBuilder()
        .endpoint(settings.tableEndpoint())
        .httpClient(http)
        .retryOptions(new RetryOptions(new ExponentialBackoffOptions()
            .setMaxRetries(settings.getInt(DriverProperty.MAX_RETRIES))
            .setBaseDelay(Duration.ofMillis(200))
            .setMaxDelay(Duration.ofSeconds(4))))
        .addPolicy(new RequestCountingPolicy(metrics))
        .addPolicy(new BatchAnswerPolicy());
    int requestsPerSecond = settings.getInt(DriverProperty.MAX_REQUESTS_PER_SECOND);
    if (requestsPerSecond > 0) {
      builder.addPolicy(RateLimitPolicy.of(settings.principal(), requestsPerSecond));
    }
    if (settings.accountKey() != null) {
      builder.credential(new AzureNamedKeyCredential(settings.accountName(), settings.accountKey().reveal()));
    } else {
      builder.credential(new AzureSasCredential(settings.sharedAccessSignature().reveal()));
    }
    return builder.buildClient();
  }

  /**
   * A client of the SDK's Netty transport, whose provider is looked up by name: the driver does
   * not depend on Netty, an application that has azure-core-http-netty (the SDK's default) may
   * choose it. One that cannot be made (absent, or built against another Reactor than the
   * driver jar's relocated one) refuses the connection by name.
   */
  private static HttpClient nettyClient(HttpClientOptions options) {
    try {
      Class<? extends HttpClientProvider> provider = Class.forName(NETTY_PROVIDER, false,
          TableStore.class.getClassLoader()).asSubclass(HttpClientProvider.class);
      return HttpClient.createDefault(options.setHttpClientProvider(provider));
    } catch (ClassNotFoundException | RuntimeException | LinkageError e) {
      throw new StoreException("httpClient=netty needs com.azure:azure-core-http-netty on the application's class "
          + "path, next to the driver as a Maven dependency (the driver jar has no Netty and cannot use one): "
          + e.getClass().getSimpleName() + ". Add it, or use httpClient=jdk.", SqlStates.UNABLE_TO_CONNECT, null);
    }
  }

  /**
   * The account's Blob storage, where values longer than an entity holds are kept.
   *
   * @throws StoreException 08004 when the connection string gives no Blob endpoint
   */
  public BlobStore blobs() {
    BlobStore made = blobs;
    if (made == null) {
      synchronized (this) {
        made = blobs;
        if (made == null) {
          made = new BlobStore(settings, http, metrics);
          blobs = made;
        }
      }
    }
    return made;
  }

  /** Stops counting in the account's metrics (the last store of an account withdraws its MXBean); idempotent. */
  public void close() {
    if (closed.compareAndSet(false, true)) {
      metrics.release();
    }
  }

  /** The account's metrics in this JVM, shared with every connection to it with the same credential. */
  int maxConcurrency() {
    return maxConcurrency;
  }

  public AccountMetrics metrics() {
    return metrics;
  }

  /** Names of every table of the account, in the service's order. */
  public List<String> listTables(RequestCounters counters) {
    try {
      List<String> names = new ArrayList<>();
      for (TableItem item : service.listTables(new ListTablesOptions(), null, context(counters))) {
        names.add(item.getName());
      }
      return names;
    } catch (RuntimeException e) {
      throw translate(e, "list the tables of " + endpoint);
    }
  }

  /** One request for at most one table name: the cheapest proof that the endpoint answers and takes the credentials. */
  public void probe(RequestCounters counters) {
    try {
      service.listTables(new ListTablesOptions().setTop(1), null, context(counters)).iterableByPage().iterator()
          .next();
    } catch (RuntimeException e) {
      StoreException failure = translate(e, "list the tables of " + endpoint);
      // a SAS scoped to tables may not list them: the service answered, which is what is asked
      if (!SqlStates.INSUFFICIENT_PRIVILEGE.equals(failure.sqlState())) {
        throw failure;
      }
    }
  }

  /** One entity by its full key, or empty if there is none. */
  public Optional<TableEntity> get(String table, String partitionKey, String rowKey, List<String> select,
      RequestCounters counters) {
    return get(table, partitionKey, rowKey, select, counters, null);
  }

  /** As {@link #get(String, String, String, List, RequestCounters)}, naming the access path for the request log. */
  public Optional<TableEntity> get(String table, String partitionKey, String rowKey, List<String> select,
      RequestCounters counters, String access) {
    RowParts parts = RowParts.of(endpoint, table);
    if (parts != null) {
      return getWide(table, parts, partitionKey, rowKey, select, counters, access);
    }
    return getEntity(table, partitionKey, rowKey, select, counters, access);
  }

  private Optional<TableEntity> getEntity(String table, String partitionKey, String rowKey, List<String> select,
      RequestCounters counters, String access) {
    try {
      Response<TableEntity> response = client(table)
          .getEntityWithResponse(partitionKey, rowKey, select, null, context(counters, table, access));
      counters.addEntities(1);
      metrics.entitiesRead(1);
      return Optional.of(response.getValue());
    } catch (HttpResponseException e) {
      if (e.getResponse() != null && e.getResponse().getStatusCode() == 404) {
        return Optional.empty();
      }
      throw translate(e, "read an entity of table " + table);
    } catch (RuntimeException e) {
      throw translate(e, "read an entity of table " + table);
    }
  }

  /** Rows of a page in one partition whose later parts are read by their keys rather than by a range. */
  private static final int PARTS_READ_BY_KEY = 2;
  /** Times a wide row is read again when its parts were of different writes (it changed while read). */
  private static final int WIDE_ROW_READS = 10;

  /** A wide row's parts read by their keys, one request each, until all are of one write. */
  private Optional<TableEntity> getWide(String table, RowParts parts, String partitionKey, String rowKey,
      List<String> select, RequestCounters counters, String access) {
    if (RowParts.isPartKey(rowKey)) {
      return Optional.empty();
    }
    List<List<String>> selects = parts.selects(select);
    List<Integer> read = new ArrayList<>(List.of(1));
    read.addAll(RowParts.laterPartsRead(selects));
    for (int attempt = 0; attempt < WIDE_ROW_READS; attempt++) {
      // all at once: the stamps tell whether they are of one write, whatever order they are read in
      List<TableEntity> entities = Parallel.map(read, maxConcurrency, part -> getEntity(table, partitionKey,
          part == 1 ? rowKey : RowParts.partKey(rowKey, part), selects.get(part - 1), counters, access).orElse(null));
      if (entities.get(0) == null) {
        return Optional.empty();
      }
      TableEntity row = RowParts.stitch(entities.get(0), entities.subList(1, entities.size()));
      if (row != null) {
        return Optional.of(row);
      }
    }
    throw changedWhileRead(table, partitionKey, rowKey);
  }

  private static StoreException changedWhileRead(String table, String partitionKey, String rowKey) {
    return new StoreException("The row (PartitionKey '" + partitionKey + "', RowKey '" + rowKey + "') of table "
        + table + " changed every time its entities were read (" + WIDE_ROW_READS + " times). Run the statement "
        + "again.", SqlStates.SERIALIZATION_FAILURE, null);
  }

  /**
   * A page of a wide table's rows: its parts after the first read by one range query per
   * partition and part (rows the page does not hold are read along and dropped), each row
   * read again by its keys when its parts are of different writes.
   */
  private List<TableEntity> stitchPage(String table, RowParts parts, List<List<String>> selects,
      List<TableEntity> page, List<String> select, RequestCounters counters, String access) {
    List<TableEntity> rows = new ArrayList<>(page.size());
    for (TableEntity entity : page) {
      if (!RowParts.isPartKey(entity.getRowKey())) {
        rows.add(entity);
      }
    }
    java.util.Set<Integer> later = RowParts.laterPartsRead(selects);
    if (rows.isEmpty() || later.isEmpty()) {
      rows.replaceAll(row -> RowParts.stitch(row, List.of()));
      return rows;
    }
    java.util.Map<String, List<TableEntity>> byPartition = new java.util.LinkedHashMap<>();
    rows.forEach(row -> byPartition.computeIfAbsent(row.getPartitionKey(), k -> new ArrayList<>()).add(row));
    // per partition and part: a few rows' parts by their keys, many rows' by one range query, keeping
    // only theirs (a selective filter leaves rows far apart, whose range holds others' parts)
    List<String[]> reads = new ArrayList<>(); // partition, part, and a row key, or the first and last row keys
    java.util.Set<String> wanted = new java.util.HashSet<>();
    for (java.util.Map.Entry<String, List<TableEntity>> partition : byPartition.entrySet()) {
      List<String> keys = partition.getValue().stream().map(TableEntity::getRowKey).sorted().toList();
      for (int part : later) {
        keys.forEach(key -> wanted.add(partition.getKey() + '\u0000' + RowParts.partKey(key, part)));
        if (keys.size() <= PARTS_READ_BY_KEY) {
          keys.forEach(key -> reads.add(new String[] {partition.getKey(), String.valueOf(part), key}));
        } else {
          reads.add(new String[] {partition.getKey(), String.valueOf(part), keys.get(0), keys.get(keys.size() - 1)});
        }
      }
    }
    java.util.Map<String, TableEntity> found = new java.util.concurrent.ConcurrentHashMap<>();
    List<String[]> unfinished = java.util.Collections.synchronizedList(new ArrayList<>());
    Parallel.map(reads, maxConcurrency, read -> {
      int part = Integer.parseInt(read[1]);
      if (read.length == 3) {
        getEntity(table, read[0], RowParts.partKey(read[2], part), selects.get(part - 1), counters, access)
            .ifPresent(entity -> found.put(entity.getPartitionKey() + '\u0000' + entity.getRowKey(), entity));
        return null;
      }
      String filter = "PartitionKey eq " + quoted(read[0]) + " and RowKey ge " + quoted(RowParts.partKey(read[2],
          part)) + " and RowKey le " + quoted(RowParts.partKey(read[3], part));
      // rows far apart (a selective filter) would have the range read others' parts: stop at a few times theirs
      int budget = 4 * byPartition.get(read[0]).size() + 100;
      Iterator<List<TableEntity>> pages = queryEntities(table, filter, selects.get(part - 1), Math.min(1000, budget),
          counters, access, null);
      while (pages.hasNext()) {
        if (budget <= 0) {
          unfinished.add(read);
          break;
        }
        List<TableEntity> entities = pages.next();
        budget -= entities.size();
        for (TableEntity entity : entities) {
          String key = entity.getPartitionKey() + '\u0000' + entity.getRowKey();
          if (wanted.contains(key)) {
            found.put(key, entity);
          }
        }
      }
      return null;
    });
    List<String[]> byKey = new ArrayList<>(); // the parts a stopped range did not reach, by their keys
    for (String[] read : unfinished) {
      int part = Integer.parseInt(read[1]);
      for (TableEntity row : byPartition.get(read[0])) {
        if (!found.containsKey(read[0] + '\u0000' + RowParts.partKey(row.getRowKey(), part))) {
          byKey.add(new String[] {read[0], read[1], row.getRowKey()});
        }
      }
    }
    Parallel.map(byKey, maxConcurrency, read -> {
      int part = Integer.parseInt(read[1]);
      getEntity(table, read[0], RowParts.partKey(read[2], part), selects.get(part - 1), counters, access)
          .ifPresent(entity -> found.put(entity.getPartitionKey() + '\u0000' + entity.getRowKey(), entity));
      return null;
    });
    List<TableEntity> stitched = new ArrayList<>(rows.size());
    for (TableEntity row : rows) {
      List<TableEntity> partsOfRow = new ArrayList<>();
      for (int part : later) {
        partsOfRow.add(found.get(row.getPartitionKey() + '\u0000' + RowParts.partKey(row.getRowKey(), part)));
      }
      TableEntity whole = partsOfRow.contains(null) ? null : RowParts.stitch(row, partsOfRow);
      if (whole == null) {
        // changed (or deleted) between the page and its parts: its own read tells
        getWide(table, parts, row.getPartitionKey(), row.getRowKey(), select, counters, access)
            .ifPresent(stitched::add);
      } else {
        stitched.add(whole);
      }
    }
    return stitched;
  }

  private static String quoted(String text) {
    return ODataLiteral.render(EdmType.STRING, text, false);
  }

  /**
   * The service's clock, from the {@code Date} of its answer to a point read of a key that no
   * entity of {@code table} has: what leases are measured against, whatever the client's clock says.
   */
  public java.time.OffsetDateTime serviceTime(String table, RequestCounters counters) {
    com.azure.core.http.HttpHeaders headers;
    try {
      headers = client(table).getEntityWithResponse("tablesql-clock", "tablesql-clock", List.of("PartitionKey"), null,
          context(counters, table, null)).getHeaders();
    } catch (HttpResponseException e) {
      if (e.getResponse() == null) {
        throw translate(e, "read the service's time");
      }
      headers = e.getResponse().getHeaders();
    } catch (RuntimeException e) {
      throw translate(e, "read the service's time");
    }
    String date = headers.getValue(HttpHeaderName.DATE);
    if (date == null) {
      throw new StoreException("The service at " + endpoint + " answered without a Date header, which recovery of "
          + "unfinished writes needs.", SqlStates.GENERAL_ERROR, null);
    }
    return java.time.OffsetDateTime.parse(date, java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME);
  }

  /**
   * The pages of a query, fetched one request at a time as the iterator advances (the SDK follows
   * continuation tokens). {@code filter} and {@code select} may be null.
   */
  public Iterator<List<TableEntity>> query(String table, String filter, List<String> select, int pageSize,
      RequestCounters counters) {
    return query(table, filter, select, pageSize, counters, null);
  }

  /** As {@link #query(String, String, List, int, RequestCounters)}, naming the access path for the request log. */
  public Iterator<List<TableEntity>> query(String table, String filter, List<String> select, int pageSize,
      RequestCounters counters, String access) {
    return query(table, filter, select, pageSize, counters, access, null);
  }

  /**
   * As {@link #query(String, String, List, int, RequestCounters, String)}, telling {@code pageEnds}
   * the PartitionKey at which the service continued after a page: that of the first entity of
   * every later page that holds one and was read with its PartitionKey; null: not told. Read from
   * the entities, not from the continuation: its {@code x-ms-continuation-NextPartitionKey} is a
   * token the service defines as opaque (Azurite's is the key in base64), not the key.
   */
  public Iterator<List<TableEntity>> query(String table, String filter, List<String> select, int pageSize,
      RequestCounters counters, String access, Consumer<String> pageEnds) {
    RowParts parts = RowParts.of(endpoint, table);
    if (parts == null) {
      return queryEntities(table, filter, select, pageSize, counters, access, pageEnds);
    }
    List<List<String>> selects = parts.selects(select);
    // every row's key sorts before every later part's: the service leaves those out
    String rowsOnly = "RowKey lt " + quoted(String.valueOf(RowParts.PART_KEY_START));
    Iterator<List<TableEntity>> firstParts = queryEntities(table, filter == null ? rowsOnly
        : "(" + filter + ") and " + rowsOnly, selects.get(0), pageSize, counters, access, pageEnds);
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return firstParts.hasNext();
      }

      @Override
      public List<TableEntity> next() {
        return stitchPage(table, parts, selects, firstParts.next(), select, counters, access);
      }
    };
  }

  private Iterator<List<TableEntity>> queryEntities(String table, String filter, List<String> select, int pageSize,
      RequestCounters counters, String access, Consumer<String> pageEnds) {
    ListEntitiesOptions options = new ListEntitiesOptions().setFilter(filter).setSelect(select).setTop(pageSize);
    Iterator<PagedResponse<TableEntity>> pages;
    try {
      pages = client(table).listEntities(options, null, context(counters, table, access)).iterableByPage()
          .iterator();
    } catch (RuntimeException e) {
      throw translate(e, "query table " + table);
    }
    return new Iterator<>() {
      private boolean later;

      @Override
      public boolean hasNext() {
        try {
          return pages.hasNext();
        } catch (RuntimeException e) {
          throw translate(e, "query table " + table);
        }
      }

      @Override
      public List<TableEntity> next() {
        try {
          List<TableEntity> page = pages.next().getValue();
          if (pageEnds != null && later && !page.isEmpty() && page.get(0).getPartitionKey() != null) {
            pageEnds.accept(page.get(0).getPartitionKey());
          }
          later = true;
          counters.addEntities(page.size());
          metrics.entitiesRead(page.size());
          return page;
        } catch (RuntimeException e) {
          throw translate(e, "query table " + table);
        }
      }
    };
  }

  /**
   * Entities of a table, whether they are all of it, and how many entities the table holds as far
   * as the sample can tell (its size when complete; -1 when it cannot tell).
   */
  public record Sample(List<TableEntity> entities, boolean complete, long estimatedEntities) {
    public Sample(List<TableEntity> entities, boolean complete) {
      this(entities, complete, complete ? entities.size() : -1);
    }
  }

  /**
   * About {@code size} entities of a table, spread over its key space (see {@link SpreadSample});
   * complete when they are the whole table.
   */
  public Sample sample(String table, int size, RequestCounters counters) {
    return SpreadSample.take(this, table, size, counters);
  }

  /**
   * The first {@code size} entities of a table, in pages of at most 1000. Whether there are more
   * is told by the last page's continuation, so a table larger than the sample costs no request
   * for the page after it.
   */
  Sample head(String table, int size, RequestCounters counters) {
    ListEntitiesOptions options = new ListEntitiesOptions().setTop(Math.min(1000, size));
    List<TableEntity> entities = new ArrayList<>();
    try {
      Iterator<PagedResponse<TableEntity>> pages = client(table).listEntities(options, null,
          context(counters, table, null)).iterableByPage().iterator();
      while (pages.hasNext()) {
        PagedResponse<TableEntity> page = pages.next();
        List<TableEntity> values = page.getValue();
        counters.addEntities(values.size());
        metrics.entitiesRead(values.size());
        int taken = Math.min(values.size(), size - entities.size());
        entities.addAll(values.subList(0, taken));
        if (entities.size() == size) {
          return new Sample(entities, taken == values.size() && page.getContinuationToken() == null);
        }
        if (page.getContinuationToken() == null) {
          break;
        }
      }
      return new Sample(entities, true);
    } catch (RuntimeException e) {
      throw translate(e, "query table " + table);
    }
  }

  /**
   * Creates a table; false if it exists already. A name the service is still deleting (Azure
   * keeps a dropped table's name busy for a while) is tried again until tableDeleteWaitSeconds.
   */
  public boolean createTable(String table, RequestCounters counters) {
    long deadline = System.nanoTime() + deletedTableWait.toNanos();
    Duration pause = Duration.ofMillis(250);
    while (true) {
      int status;
      String code;
      try {
        Response<TableClient> response = service.createTableWithResponse(table, null, context(counters, table, null));
        status = response.getStatusCode();
        code = response.getHeaders().getValue(ERROR_CODE);
      } catch (HttpResponseException e) {
        if (e.getResponse() == null || e.getResponse().getStatusCode() != 409) {
          throw translate(e, "create table " + table);
        }
        status = 409;
        code = errorCode(e);
      } catch (RuntimeException e) {
        throw translate(e, "create table " + table);
      }
      if (status != 409) {
        return true;
      }
      if (!TABLE_BEING_DELETED.equals(code)) {
        return false;
      }
      if (System.nanoTime() + pause.toNanos() - deadline > 0) {
        throw new StoreException("Table " + table + " was dropped moments ago and the service is still deleting it "
            + "(TableBeingDeleted); tablesql waited " + deletedTableWait.getSeconds() + " s "
            + "(tableDeleteWaitSeconds). Azure keeps a dropped table's name busy for about 40 seconds: create it "
            + "again later, or under another name.", SqlStates.OBJECT_IN_USE, null);
      }
      sleep(pause);
      pause = pause.multipliedBy(2).compareTo(Duration.ofSeconds(4)) > 0 ? Duration.ofSeconds(4) : pause.multipliedBy(2);
    }
  }

  private static void sleep(Duration pause) {
    try {
      Thread.sleep(pause.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StoreException("Interrupted while waiting for the service to finish deleting a table.",
          SqlStates.QUERY_CANCELED, e);
    }
  }

  /** Deletes a table with all its entities; false if there was none. */
  public boolean deleteTable(String table, RequestCounters counters) {
    try {
      // the SDK answers a missing table with its 404 response rather than an exception
      return service.deleteTableWithResponse(table, null, context(counters, table, null)).getStatusCode() != 404;
    } catch (HttpResponseException e) {
      if (e.getResponse() != null && e.getResponse().getStatusCode() == 404) {
        return false;
      }
      throw translate(e, "drop table " + table);
    } catch (RuntimeException e) {
      throw translate(e, "drop table " + table);
    }
  }

  /**
   * Sends writes of one table and partition as one entity group transaction: all or nothing.
   * A failure names the operation the service reported. Returns the ETag each write left its
   * entity with, in the order of {@code operations}: null for a delete, and for every write when
   * the answer was lost and the entities showed the writes applied.
   */
  public List<String> submit(String table, List<WriteOperation> operations, RequestCounters counters) {
    RowParts parts = RowParts.of(endpoint, table);
    if (parts != null) {
      return submitWide(table, parts, operations, counters);
    }
    return submitEntities(table, operations, counters);
  }

  /**
   * The writes of wide rows, each as the writes of its parts, in one entity group transaction:
   * the ETags are part 1's, a failure names the row's write. When an answer was lost, the rows
   * read back tell whether the transaction was applied, as for any row.
   */
  private List<String> submitWide(String table, RowParts parts, List<WriteOperation> operations,
      RequestCounters counters) {
    List<WriteOperation> entities = new ArrayList<>();
    List<Integer> firstOf = new ArrayList<>();
    for (WriteOperation operation : operations) {
      firstOf.add(entities.size());
      entities.addAll(parts.expand(operation));
    }
    if (entities.size() > io.tablesql.txn.EntityRules.MAX_GROUP_OPERATIONS) {
      throw new StoreException("An entity group transaction holds at most "
          + io.tablesql.txn.EntityRules.MAX_GROUP_OPERATIONS + " operations, and each row of table " + table
          + " is " + parts.count() + " entities: these " + operations.size() + " rows' writes are "
          + entities.size() + ". Commit in smaller transactions.", SqlStates.TRANSACTION_RULE, null);
    }
    List<String> written = submitEntities(table, entities, counters, operations);
    List<String> etags = new ArrayList<>(operations.size());
    for (int i = 0; i < operations.size(); i++) {
      etags.add(written.get(firstOf.get(i)));
    }
    return etags;
  }

  private List<String> submitEntities(String table, List<WriteOperation> operations, RequestCounters counters) {
    return submitEntities(table, operations, counters, operations);
  }

  /**
   * Sends {@code operations} as one entity group transaction; {@code rows} are the writes they
   * make (the same, or the rows whose parts they are), which a failure names and a lost answer
   * checks.
   */
  private List<String> submitEntities(String table, List<WriteOperation> operations, RequestCounters counters,
      List<WriteOperation> rows) {
    List<TableTransactionAction> actions = new ArrayList<>();
    for (WriteOperation operation : operations) {
      actions.add(action(operation));
    }
    AttemptLog log = new AttemptLog();
    BatchAnswerPolicy.Etags answered = new BatchAnswerPolicy.Etags();
    List<String> etags = new ArrayList<>(java.util.Collections.nCopies(operations.size(), null));
    try {
      client(table).submitTransactionWithResponse(actions, null,
          context(counters, table, null).addData(AttemptLog.KEY, log).addData(BatchAnswerPolicy.KEY, answered));
      List<String> given = answered.get();
      for (int i = 0; i < given.size() && given.size() == etags.size(); i++) {
        etags.set(i, etag(given.get(i))); // none for a delete
      }
      metrics.entitiesWritten(operations.size());
    } catch (RuntimeException e) {
      if (!log.outcomeUnknown()) {
        throw submitFailure(e, table, operations, rows, true);
      }
      // an attempt may have been applied unseen: what the entities hold now tells
      OutcomeCheck.confirmApplied(this, table, rows, submitFailure(e, table, operations, rows, false), counters);
      metrics.entitiesWritten(operations.size());
    }
    return etags;
  }

  /** The failure of a transaction; {@code known}: no attempt of it can have been applied unseen. */
  private StoreException submitFailure(RuntimeException failure, String table, List<WriteOperation> operations,
      List<WriteOperation> rows, boolean known) {
    try {
      throw failure;
    } catch (TableTransactionFailedException e) {
      Integer index = e.getFailedTransactionActionIndex();
      WriteOperation failed = index != null && index >= 0 && index < operations.size()
          ? rowOf(operations.get(index), rows) : rows.size() == 1 ? rows.get(0) : null;
      return writeFailure(e, failed, table, known);
    } catch (HttpResponseException e) {
      return writeFailure(e, rows.size() == 1 ? rows.get(0) : null, table, known);
    } catch (RuntimeException e) {
      return translate(e, "write to table " + table);
    }
  }

  /** The row write whose entity (the row's, or one of its parts) an operation writes. */
  private static WriteOperation rowOf(WriteOperation entity, List<WriteOperation> rows) {
    for (WriteOperation row : rows) {
      if (row.partitionKey().equals(entity.partitionKey()) && (row.rowKey().equals(entity.rowKey())
          || RowParts.isPartKey(entity.rowKey()) && entity.rowKey().endsWith(row.rowKey())
          && entity.rowKey().length() == row.rowKey().length() + 3)) {
        return row;
      }
    }
    return entity;
  }

  /** The answer to a single-entity write: its status, and the entity's new ETag if it was written. */
  public record EntityWrite(int status, String etag) {
    public boolean written() {
      return status / 100 == 2;
    }
  }

  /**
   * Writes one entity outside any entity group transaction (index entries), answering 404, 409
   * and 412 rather than throwing: the caller decides what they mean.
   */
  public EntityWrite write(String table, WriteOperation operation, RequestCounters counters) {
    RowParts parts = RowParts.of(endpoint, table);
    if (parts != null) {
      return writeWide(table, parts, operation, counters);
    }
    TableEntity entity = entity(operation);
    boolean conditional = operation.etag() != null;
    Context context = context(counters, table, null);
    TableClient client = client(table);
    try {
      Response<?> response = switch (operation.kind()) {
        case INSERT -> client.createEntityWithResponse(entity, null, context);
        case UPSERT_MERGE -> client.upsertEntityWithResponse(entity, TableEntityUpdateMode.MERGE, null, context);
        case UPSERT_REPLACE -> client.upsertEntityWithResponse(entity, TableEntityUpdateMode.REPLACE, null, context);
        case MERGE -> client.updateEntityWithResponse(entity, TableEntityUpdateMode.MERGE, conditional, null, context);
        case REPLACE, TOMBSTONE -> client.updateEntityWithResponse(entity, TableEntityUpdateMode.REPLACE, conditional,
            null, context);
        case DELETE -> client.deleteEntityWithResponse(entity, conditional, null, context);
        default -> throw new IllegalStateException(operation.kind() + " is resolved before sending");
      };
      metrics.entitiesWritten(1);
      return new EntityWrite(response.getStatusCode(), etag(response.getHeaders().getValue(HttpHeaderName.ETAG)));
    } catch (HttpResponseException e) {
      int status = e.getResponse() == null ? 0 : e.getResponse().getStatusCode();
      if ((status == 404 && !"TableNotFound".equals(errorCode(e))) || status == 409 || status == 412) {
        return new EntityWrite(status, null);
      }
      throw writeFailure(e, operation, table, false);
    } catch (RuntimeException e) {
      throw translate(e, "write to table " + table);
    }
  }

  /** A wide row's write as one entity group transaction of its parts, answering as {@link #write} does. */
  private EntityWrite writeWide(String table, RowParts parts, WriteOperation operation, RequestCounters counters) {
    List<WriteOperation> entities = parts.expand(operation);
    List<TableTransactionAction> actions = new ArrayList<>();
    entities.forEach(entity -> actions.add(action(entity)));
    BatchAnswerPolicy.Etags answered = new BatchAnswerPolicy.Etags();
    try {
      client(table).submitTransactionWithResponse(actions, null,
          context(counters, table, null).addData(BatchAnswerPolicy.KEY, answered));
      metrics.entitiesWritten(entities.size());
      List<String> given = answered.get();
      return new EntityWrite(200, given.isEmpty() ? null : etag(given.get(0)));
    } catch (TableTransactionFailedException e) {
      // the answer's status is the group's: the code tells what the row's write met
      String code = errorCode(e);
      int status = "EntityAlreadyExists".equals(code) ? 409 : "UpdateConditionNotSatisfied".equals(code) ? 412
          : "ResourceNotFound".equals(code) ? 404 : 0;
      if (status != 0) {
        return new EntityWrite(status, null);
      }
      throw writeFailure(e, operation, table, false);
    } catch (HttpResponseException e) {
      throw writeFailure(e, operation, table, false);
    } catch (RuntimeException e) {
      throw translate(e, "write to table " + table);
    }
  }

  /**
   * Checks a write against the service's limits on entities (EntityRules) before anything is
   * sent: a wide row's write part by part, as it is sent.
   */
  public void checkEntities(WriteOperation operation) throws java.sql.SQLException {
    RowParts parts = RowParts.of(endpoint, operation.table());
    if (parts == null) {
      io.tablesql.txn.EntityRules.validate(operation);
      return;
    }
    for (WriteOperation part : parts.expand(operation)) {
      io.tablesql.txn.EntityRules.validate(part);
    }
  }

  /**
   * The Timestamp of the entity version an ETag names: the service's ETags are {@code
   * W/"datetime'<its Timestamp, URL-encoded>'"}; null for an ETag of another form.
   */
  public static java.time.OffsetDateTime timestampOf(String etag) {
    int start = etag == null ? -1 : etag.indexOf("datetime'");
    int end = start < 0 ? -1 : etag.indexOf('\'', start + 9);
    if (end < 0) {
      return null;
    }
    try {
      return java.time.OffsetDateTime.parse(java.net.URLDecoder.decode(etag.substring(start + 9, end),
          java.nio.charset.StandardCharsets.UTF_8));
    } catch (java.time.format.DateTimeParseException | IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * An ETag as a later If-Match must send it. Azurite answers an insert with the ETag's closing
   * quote missing ({@code W/"datetime'...'}), which no condition then matches; entities read
   * carry it whole.
   */
  static String etag(String answered) {
    return answered != null && answered.startsWith("W/\"") && !answered.endsWith("\"") ? answered + "\"" : answered;
  }

  private static TableTransactionAction action(WriteOperation operation) {
    TableEntity entity = entity(operation);
    boolean conditional = operation.etag() != null;
    switch (operation.kind()) {
      case INSERT: return new TableTransactionAction(TableTransactionActionType.CREATE, entity);
      case UPSERT_MERGE: return new TableTransactionAction(TableTransactionActionType.UPSERT_MERGE, entity);
      case UPSERT_REPLACE: return new TableTransactionAction(TableTransactionActionType.UPSERT_REPLACE, entity);
      case MERGE: return new TableTransactionAction(TableTransactionActionType.UPDATE_MERGE, entity, conditional);
      case REPLACE:
      case TOMBSTONE: return new TableTransactionAction(TableTransactionActionType.UPDATE_REPLACE, entity, conditional);
      case DELETE: return new TableTransactionAction(TableTransactionActionType.DELETE, entity, conditional);
      default: throw new IllegalStateException(operation.kind() + " is resolved before sending: " + operation.describe());
    }
  }

  private static TableEntity entity(WriteOperation operation) {
    TableEntity entity = new TableEntity(operation.partitionKey(), operation.rowKey());
    operation.properties().forEach((name, value) -> {
      if (value != null) {
        entity.addProperty(name, value);
        if (value instanceof Double) {
          // without it a whole number (42.0) may be stored and read back as an Int32 (Azurite does)
          entity.addProperty(name + "@odata.type", "Edm.Double");
        }
      }
    });
    if (operation.etag() != null) {
      entity.addProperty(ETAG_PROPERTY, operation.etag());
    }
    return entity;
  }

  private StoreException writeFailure(HttpResponseException e, WriteOperation failed, String table, boolean known) {
    String nothingWritten = known ? " Nothing of this entity group was written." : "";
    int status = e.getResponse() == null ? 0 : e.getResponse().getStatusCode();
    String code = errorCode(e);
    String which = failed == null ? "the writes to table " + table : failed.describe();
    if (ENTITY_LIMITS.contains(code)) {
      // an upsert merged into an entity the driver did not read can exceed what the entity may hold
      return new StoreException("Cannot write " + which + ": the service refused it (" + code + "), as the entity "
          + "it would leave behind breaks a limit (at most 252 properties, 1 MiB, 64 KiB per value)."
          + nothingWritten, SqlStates.DATA_EXCEPTION, null);
    }
    if (TABLE_BEING_DELETED.equals(code)) {
      return new StoreException("Table " + table + " was dropped and the service is still deleting it "
          + "(TableBeingDeleted)." + nothingWritten + " Create it again once the deletion is done (about 40 "
          + "seconds on Azure).", SqlStates.OBJECT_IN_USE, null);
    }
    if ("EntityAlreadyExists".equals(code) || (status == 409 && failed != null
        && failed.kind() == WriteOperation.Kind.INSERT)) {
      return new StoreException("Duplicate key: an entity " + which + " exists already." + nothingWritten
          + " Use UPSERT to insert or merge.", SqlStates.UNIQUE_VIOLATION, null);
    }
    // in an entity group transaction the answer's status is the group's (202): the code tells
    if ("UpdateConditionNotSatisfied".equals(code) || "ResourceNotFound".equals(code) || status == 412
        || (status == 404 && !"TableNotFound".equals(code))) {
      return new StoreException("Concurrent change: entity " + which + " was changed or deleted since it was "
          + "read, so it was not overwritten." + nothingWritten + " Retry the statement.",
          SqlStates.SERIALIZATION_FAILURE, null);
    }
    if ("TableNotFound".equals(code)) {
      return new StoreException("Table " + table + " does not exist.", SqlStates.TABLE_NOT_FOUND, null);
    }
    StoreException general = translate(e, "write " + which);
    return new StoreException(general.getMessage() + nothingWritten,
        general.sqlState(), null);
  }

  private static String errorCode(HttpResponseException e) {
    if (e instanceof TableServiceException service && service.getValue() != null
        && service.getValue().getErrorCode() != null) {
      return service.getValue().getErrorCode().toString();
    }
    return e.getResponse() == null ? null : e.getResponse().getHeaderValue(ERROR_CODE);
  }

  /** One client per table: building one per request costs more than a point read itself. */
  private TableClient client(String table) {
    return clients.computeIfAbsent(table, service::getTableClient);
  }

  private static Context context(RequestCounters counters) {
    return new Context(RequestCountingPolicy.COUNTERS_KEY, counters);
  }

  /** The context of a request to one table; {@code access} (may be null) names its access path in the log. */
  private static Context context(RequestCounters counters, String table, String access) {
    Context context = context(counters).addData(RequestLog.TABLE_KEY, table);
    return access == null ? context : context.addData(RequestLog.ACCESS_KEY, access);
  }

  /** Words a service or network failure for the user, naming the endpoint but never a secret. */
  public StoreException translate(RuntimeException e, String action) {
    if (e instanceof StoreException store) {
      return store;
    }
    if (e instanceof HttpResponseException http && http.getResponse() != null) {
      int status = http.getResponse().getStatusCode();
      String code = http.getResponse().getHeaderValue(ERROR_CODE);
      String detail = code != null ? code : "HTTP " + status;
      if (status == 403 && !accountKey && code != null && code.startsWith("Authorization")) {
        return new StoreException("The credentials are not permitted to " + action + " at " + endpoint + " ("
            + code + "). A SAS token must grant this operation on this table (and key range), be unexpired "
            + "and allow this client's address; a table that does not exist is refused the same way.",
            SqlStates.INSUFFICIENT_PRIVILEGE, null);
      }
      if (status == 401 || status == 403) {
        return new StoreException("The service at " + endpoint + " rejected the credentials (" + detail
            + ") while trying to " + action + ". Check AccountName and AccountKey, or that the "
            + "SharedAccessSignature is valid, unexpired and grants this operation.",
            SqlStates.INVALID_AUTHORIZATION, null);
      }
      if (status == 404) {
        return new StoreException("Not found at " + endpoint + " (" + detail + ") while trying to " + action
            + ".", SqlStates.TABLE_NOT_FOUND, null);
      }
      if (status == 429 || status == 500 || status == 502 || status == 503 || status == 504) {
        return new StoreException("The service at " + endpoint + " failed to " + action + ": " + detail
            + ", through every retry (maxRetries). The service is busy or throttling this account; retry later.",
            SqlStates.SERVICE_BUSY, null);
      }
      return new StoreException("The service at " + endpoint + " failed to " + action + ": " + detail + ".",
          SqlStates.GENERAL_ERROR, null);
    }
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof ConnectException || cause instanceof UnknownHostException
          || cause instanceof HttpConnectTimeoutException) {
        return new StoreException("Cannot reach the Table service at " + endpoint + " ("
            + cause.getClass().getSimpleName() + "). Check TableEndpoint (or AccountName and "
            + "EndpointSuffix) and that the service or emulator is running.", SqlStates.UNABLE_TO_CONNECT, null);
      }
      if (cause instanceof HttpTimeoutException || cause instanceof TimeoutException || isNettyTimeout(cause)) {
        return new StoreException("The Table service at " + endpoint + " did not answer in time while trying to "
            + action + ". Raise requestTimeoutSeconds or retry.", SqlStates.COMMUNICATION_FAILURE, null);
      }
    }
    return new StoreException("Failed to " + action + " at " + endpoint + ": " + e.getClass().getSimpleName()
        + ".", SqlStates.COMMUNICATION_FAILURE, null);
  }

  /** Netty's read, write and response timeouts, named rather than imported: Netty is optional. */
  private static boolean isNettyTimeout(Throwable cause) {
    return cause.getClass().getName().startsWith("io.netty.handler.timeout.");
  }
}
