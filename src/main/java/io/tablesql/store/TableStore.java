package io.tablesql.store;

import com.azure.core.credential.AzureNamedKeyCredential;
import com.azure.core.credential.AzureSasCredential;
import com.azure.core.exception.HttpResponseException;
import com.azure.core.http.HttpClient;
import com.azure.core.http.jdk.httpclient.JdkHttpClientBuilder;
import com.azure.core.http.policy.ExponentialBackoffOptions;
import com.azure.core.http.policy.RetryOptions;
import com.azure.core.http.rest.PagedResponse;
import com.azure.core.http.rest.Response;
import com.azure.core.util.Context;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableServiceClient;
import com.azure.data.tables.TableServiceClientBuilder;
import com.azure.data.tables.models.ListEntitiesOptions;
import com.azure.data.tables.models.ListTablesOptions;
import com.azure.data.tables.models.TableEntity;
import com.azure.data.tables.models.TableItem;
import io.tablesql.SqlStates;
import io.tablesql.jdbc.ConnectionSettings;
import io.tablesql.jdbc.DriverProperty;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

/**
 * The only code that talks to the Azure Data Tables SDK: table listing, point reads and paged
 * queries. Every call carries the {@link RequestCounters} of the statement it serves, so that
 * what a statement cost is measured where it happens.
 */
public final class TableStore {
  private final TableServiceClient service;
  private final String endpoint;

  public TableStore(ConnectionSettings settings) {
    this.endpoint = settings.tableEndpoint();
    Duration timeout = Duration.ofSeconds(settings.getInt(DriverProperty.REQUEST_TIMEOUT));
    HttpClient http = new JdkHttpClientBuilder()
        .connectionTimeout(Duration.ofSeconds(Math.min(10, timeout.getSeconds())))
        .responseTimeout(timeout)
        .readTimeout(timeout)
        .build();
    TableServiceClientBuilder builder = new TableServiceClientBuilder()
        .endpoint(settings.tableEndpoint())
        .httpClient(http)
        .retryOptions(new RetryOptions(new ExponentialBackoffOptions()
            .setMaxRetries(settings.getInt(DriverProperty.MAX_RETRIES))
            .setBaseDelay(Duration.ofMillis(200))
            .setMaxDelay(Duration.ofSeconds(4))))
        .addPolicy(new RequestCountingPolicy());
    if (settings.accountKey() != null) {
      builder.credential(new AzureNamedKeyCredential(settings.accountName(), settings.accountKey().reveal()));
    } else {
      builder.credential(new AzureSasCredential(settings.sharedAccessSignature().reveal()));
    }
    this.service = builder.buildClient();
  }

  public String endpoint() {
    return endpoint;
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

  /** One entity by its full key, or empty if there is none. */
  public Optional<TableEntity> get(String table, String partitionKey, String rowKey, List<String> select,
      RequestCounters counters) {
    try {
      Response<TableEntity> response = client(table)
          .getEntityWithResponse(partitionKey, rowKey, select, null, context(counters));
      counters.addEntities(1);
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

  /**
   * The pages of a query, fetched one request at a time as the iterator advances (the SDK follows
   * continuation tokens). {@code filter} and {@code select} may be null.
   */
  public Iterator<List<TableEntity>> query(String table, String filter, List<String> select, int pageSize,
      RequestCounters counters) {
    ListEntitiesOptions options = new ListEntitiesOptions().setFilter(filter).setSelect(select).setTop(pageSize);
    Iterator<PagedResponse<TableEntity>> pages;
    try {
      pages = client(table).listEntities(options, null, context(counters)).iterableByPage().iterator();
    } catch (RuntimeException e) {
      throw translate(e, "query table " + table);
    }
    return new Iterator<>() {
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
          counters.addEntities(page.size());
          return page;
        } catch (RuntimeException e) {
          throw translate(e, "query table " + table);
        }
      }
    };
  }

  private TableClient client(String table) {
    return service.getTableClient(table);
  }

  private static Context context(RequestCounters counters) {
    return new Context(RequestCountingPolicy.COUNTERS_KEY, counters);
  }

  /** Words a service or network failure for the user, naming the endpoint but never a secret. */
  public StoreException translate(RuntimeException e, String action) {
    if (e instanceof StoreException store) {
      return store;
    }
    if (e instanceof HttpResponseException http && http.getResponse() != null) {
      int status = http.getResponse().getStatusCode();
      String code = http.getResponse().getHeaderValue("x-ms-error-code");
      String detail = code != null ? code : "HTTP " + status;
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
      if (cause instanceof HttpTimeoutException) {
        return new StoreException("The Table service at " + endpoint + " did not answer in time while trying to "
            + action + ". Raise requestTimeoutSeconds or retry.", SqlStates.COMMUNICATION_FAILURE, null);
      }
    }
    return new StoreException("Failed to " + action + " at " + endpoint + ": " + e.getClass().getSimpleName()
        + ".", SqlStates.COMMUNICATION_FAILURE, null);
  }
}
