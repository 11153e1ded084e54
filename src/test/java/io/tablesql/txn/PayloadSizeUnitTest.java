package io.tablesql.txn;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.core.credential.AzureNamedKeyCredential;
import com.azure.core.http.HttpClient;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.FixedDelayOptions;
import com.azure.core.http.policy.RetryOptions;
import com.azure.data.tables.TableClient;
import com.azure.data.tables.TableClientBuilder;
import com.azure.data.tables.models.TableTransactionAction;
import io.tablesql.store.TableStore;
import io.tablesql.txn.WriteOperation.Kind;
import java.lang.reflect.Method;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * EntityRules.payloadSizeOf, which the 4 MiB limit of an entity group transaction is checked
 * with, against the bytes the Azure SDK really sends for an operation: the transaction request is
 * captured by an HTTP client that answers nothing, so no emulator is needed.
 */
class PayloadSizeUnitTest {
  private static final String TABLE = "PayloadSizes";
  /** The request line names the entity by its absolute URL: an account name of the longest kind Azure allows (24). */
  private static final String ENDPOINT = "https://" + "a".repeat(24) + ".table.core.windows.net";

  /** Records the body of every request and fails it at once; nothing is retried. */
  private static final class CapturingClient implements HttpClient {
    final List<byte[]> bodies = new ArrayList<>();

    @Override
    public Mono<HttpResponse> send(HttpRequest request) {
      bodies.add(request.getBodyAsBinaryData() == null ? new byte[0] : request.getBodyAsBinaryData().toBytes());
      return Mono.error(new IllegalStateException("captured, not sent"));
    }
  }

  /** The size of the transaction request body the SDK sends for these operations. */
  private static int requestBytes(WriteOperation... operations) throws Exception {
    CapturingClient http = new CapturingClient();
    TableClient client = new TableClientBuilder().endpoint(ENDPOINT).tableName(TABLE)
        .credential(new AzureNamedKeyCredential("a".repeat(24), "a2V5"))
        .retryOptions(new RetryOptions(new FixedDelayOptions(0, Duration.ZERO))).httpClient(http).buildClient();
    List<TableTransactionAction> actions = new ArrayList<>();
    for (WriteOperation operation : operations) {
      actions.add(action(operation));
    }
    try {
      client.submitTransaction(actions);
    } catch (RuntimeException expected) {
      // the capturing client fails every request
    }
    assertThat(http.bodies).hasSize(1);
    return http.bodies.get(0).length;
  }

  /** The SDK action the driver sends for an operation: TableStore's own, so its annotations are counted too. */
  private static TableTransactionAction action(WriteOperation operation) throws Exception {
    Method action = TableStore.class.getDeclaredMethod("action", WriteOperation.class);
    action.setAccessible(true);
    return (TableTransactionAction) action.invoke(null, operation);
  }

  /** What one operation adds to a transaction's request: the request with it, less the request without it. */
  private static int bytesOf(WriteOperation operation) throws Exception {
    WriteOperation anchor = new WriteOperation(TABLE, operation.partitionKey(), "anchor", Kind.INSERT, Map.of(),
        null, null);
    return requestBytes(anchor, operation) - requestBytes(anchor);
  }

  private static WriteOperation write(Kind kind, String rowKey, Map<String, Object> properties, String etag) {
    return new WriteOperation(TABLE, "p", rowKey, kind, properties, etag, null);
  }

  private static Map<String, Object> properties(Object... namesAndValues) {
    Map<String, Object> properties = new LinkedHashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      properties.put((String) namesAndValues[i], namesAndValues[i + 1]);
    }
    return properties;
  }

  private static void assertUpperEstimate(WriteOperation operation) throws Exception {
    int sent = bytesOf(operation);
    long estimate = EntityRules.payloadSizeOf(operation);
    assertThat(estimate).as("estimate of %s (%d bytes sent)", operation.describe(), sent).isGreaterThanOrEqualTo(sent);
  }

  @Test
  void stringsAndKeys() throws Exception {
    assertUpperEstimate(write(Kind.INSERT, "1", properties("Name", "plain"), null));
    assertUpperEstimate(write(Kind.INSERT, "2", properties("Name", "quote \" backslash \\ tab \t"), null));
    assertUpperEstimate(write(Kind.INSERT, "3", properties("Name", "é€".repeat(100)), null));
    // keys the URL percent-encodes: spaces, quotes (doubled by OData first), non-ASCII
    assertUpperEstimate(write(Kind.UPSERT_MERGE, "it's a kéy €", properties("Name", "x"), null));
    assertUpperEstimate(write(Kind.INSERT, "long", properties("Name", "x".repeat(30_000)), null));
  }

  @Test
  void typedValues() throws Exception {
    assertUpperEstimate(write(Kind.INSERT, "int", properties("Small", Integer.MIN_VALUE, "Yes", true), null));
    assertUpperEstimate(write(Kind.INSERT, "long", properties("Big", Long.MIN_VALUE), null));
    assertUpperEstimate(write(Kind.INSERT, "double", properties("Ratio", -1.2345678901234567E-300, "Whole", 42.0),
        null));
    assertUpperEstimate(write(Kind.INSERT, "time", properties("Born", OffsetDateTime.parse(
        "2024-05-01T10:00:00.1234567Z")), null));
    assertUpperEstimate(write(Kind.INSERT, "guid", properties("Id", UUID.randomUUID()), null));
    assertUpperEstimate(write(Kind.INSERT, "bytes", properties("Data", new byte[1000], "Tiny", new byte[1]), null));
  }

  @Test
  void eachUnconditionalOperation() throws Exception {
    Map<String, Object> some = properties("Name", "x", "N", 1);
    for (Kind kind : List.of(Kind.INSERT, Kind.UPSERT_MERGE, Kind.UPSERT_REPLACE, Kind.MERGE, Kind.REPLACE)) {
      assertUpperEstimate(write(kind, "k-" + kind, some, null));
    }
    assertUpperEstimate(write(Kind.DELETE, "k-DELETE", Map.of(), null)); // If-Match: *
  }

  /** An operation conditional on an ETag sends it twice, in If-Match and as odata.etag in the JSON. */
  @Test
  void conditionalOperationsCountTheirETag() throws Exception {
    String etag = "W/\"datetime'2024-05-01T10%3A00%3A00.1234567Z'\"";
    assertUpperEstimate(write(Kind.MERGE, "m", properties("Name", "x"), etag));
    assertUpperEstimate(write(Kind.REPLACE, "r", properties("Name", "x"), etag));
    assertUpperEstimate(write(Kind.DELETE, "d", Map.of(), etag));
    // an intent's delete: the tombstone is sent as a REPLACE of its two properties
    assertUpperEstimate(write(Kind.TOMBSTONE, "t", properties(RowMarks.MARK, UUID.randomUUID().toString(),
        RowMarks.DELETED, true), etag));
  }

  /** The SDK writes a character outside the BMP (an emoji) escaped, {@code \\uD83D\\uDE00}: 12 bytes. */
  @Test
  void charactersOutsideTheBmp() throws Exception {
    assertUpperEstimate(write(Kind.INSERT, "emoji", properties("Name", "é€😀".repeat(100), "😀".repeat(50), 1),
        null));
  }

  /**
   * A MERGE, REPLACE or DELETE names the entity in its URL, each UTF-8 byte of a non-ASCII key
   * percent-encoded: a euro sign is 9 bytes there (and 3 in the JSON), an emoji 12 (and 12).
   */
  @Test
  void nonAsciiKeysInTheUrl() throws Exception {
    String key = "é€😀".repeat(100);
    assertUpperEstimate(new WriteOperation(TABLE, key, key, Kind.MERGE, properties("Name", "x"), null, null));
    assertUpperEstimate(new WriteOperation(TABLE, key, key, Kind.DELETE, Map.of(), null, null));
    assertUpperEstimate(new WriteOperation(TABLE, "p", "it's \"quoted\" & spaced", Kind.DELETE, Map.of(), null, null));
  }
}
