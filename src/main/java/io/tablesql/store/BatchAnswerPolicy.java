package io.tablesql.store;

import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpPipelineNextSyncPolicy;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import reactor.core.publisher.Mono;

/**
 * Keeps the ETag of each operation of an entity group transaction, as the service's answer
 * gives them, for the {@link TableStore#submit} that asked ({@link Etags} in the call's context).
 * The SDK parses each operation's headers but drops them (azure-data-tables 12.5.9:
 * {@code TableTransactionActionResponse.getHeaders()} is always empty), so the answer's body is
 * read here: a multipart body of one part per operation, in order, each with an {@code ETag}
 * header where the operation left an entity. Only a transaction's answer is buffered.
 */
final class BatchAnswerPolicy implements HttpPipelinePolicy {
  static final String KEY = "tablesql.batchEtags";

  /** The ETags of the transaction's operations, in order (null where an operation left none); empty until answered. */
  static final class Etags {
    private volatile List<String> etags = List.of();

    List<String> get() {
      return etags;
    }
  }

  @Override
  public Mono<HttpResponse> process(HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
    Etags etags = (Etags) context.getData(KEY).orElse(null);
    if (etags == null) {
      return next.process();
    }
    return next.process().flatMap(response -> {
      if (response.getStatusCode() != 202) {
        return Mono.just(response);
      }
      HttpResponse buffered = response.buffer();
      return buffered.getBodyAsString().defaultIfEmpty("").map(body -> {
        etags.etags = parse(body);
        return buffered;
      });
    });
  }

  @Override
  public HttpResponse processSync(HttpPipelineCallContext context, HttpPipelineNextSyncPolicy next) {
    Etags etags = (Etags) context.getData(KEY).orElse(null);
    HttpResponse response = next.processSync();
    if (etags == null || response.getStatusCode() != 202) {
      return response;
    }
    HttpResponse buffered = response.buffer();
    etags.etags = parse(buffered.getBodyAsBinaryData().toString());
    return buffered;
  }

  /**
   * The ETag header of each operation's part of a transaction's multipart answer, in order. A
   * part starts with its boundary ({@code --changesetresponse_...}); the closing boundary ends
   * with {@code --} and starts no part.
   */
  static List<String> parse(String body) {
    List<String> etags = new ArrayList<>();
    String[] parts = body.split("--changesetresponse_");
    for (int i = 1; i < parts.length; i++) {
      String part = parts[i];
      int lineEnd = part.indexOf('\n');
      String boundaryRest = lineEnd < 0 ? part : part.substring(0, lineEnd);
      if (boundaryRest.trim().endsWith("--")) {
        continue;
      }
      String etag = null;
      for (String line : part.split("\r?\n")) {
        if (line.isEmpty() && etag != null) {
          break;
        }
        if (line.toLowerCase(Locale.ROOT).startsWith("etag:")) {
          etag = line.substring("etag:".length()).trim();
        }
      }
      etags.add(etag);
    }
    return etags;
  }
}
