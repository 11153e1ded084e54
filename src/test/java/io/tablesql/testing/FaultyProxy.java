package io.tablesql.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP proxy on loopback in front of the emulator that fails chosen requests: it answers
 * the next {@code n} requests with 503 ServerBusy (the service's throttling answer) instead of
 * forwarding them. It can also reverse the entities of every page of query results, as a
 * service that does not sort by key (the Cosmos DB Table API) may return them. Everything else
 * is forwarded unchanged.
 */
public final class FaultyProxy implements AutoCloseable {
  private static final Set<String> NOT_FORWARDED = Set.of("host", "connection", "content-length", "expect",
      "upgrade", "transfer-encoding", "keep-alive");

  private final HttpServer server;
  private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final String target;
  private final AtomicInteger failuresLeft = new AtomicInteger();
  private final AtomicInteger requests = new AtomicInteger();
  private volatile boolean reversePages;

  public FaultyProxy(String targetBase) throws IOException {
    this.target = targetBase;
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.setExecutor(Executors.newFixedThreadPool(4));
    server.start();
  }

  /** The base URL (scheme, host and port) to use instead of the emulator's. */
  public String base() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** Makes the next {@code count} requests fail with 503 ServerBusy. */
  public void failNext(int count) {
    failuresLeft.set(count);
  }

  /** Whether each page of query results comes back with its entities in reverse order. */
  public void reversePages(boolean reverse) {
    reversePages = reverse;
  }

  /** Requests the proxy received, failed ones included. */
  public int requests() {
    return requests.get();
  }

  private void handle(HttpExchange exchange) throws IOException {
    requests.incrementAndGet();
    try (exchange) {
      byte[] body;
      try (InputStream in = exchange.getRequestBody()) {
        body = in.readAllBytes();
      }
      if (failuresLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        byte[] message = "<?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>ServerBusy</Code><Message>busy"
            .concat("</Message></Error>").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("x-ms-error-code", "ServerBusy");
        exchange.getResponseHeaders().add("Content-Type", "application/xml");
        exchange.sendResponseHeaders(503, message.length);
        exchange.getResponseBody().write(message);
        return;
      }
      HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(target + exchange.getRequestURI().toString()))
          .method(exchange.getRequestMethod(), body.length == 0 ? HttpRequest.BodyPublishers.noBody()
              : HttpRequest.BodyPublishers.ofByteArray(body));
      for (Map.Entry<String, List<String>> header : exchange.getRequestHeaders().entrySet()) {
        if (!NOT_FORWARDED.contains(header.getKey().toLowerCase(Locale.ROOT))) {
          header.getValue().forEach(value -> request.header(header.getKey(), value));
        }
      }
      HttpResponse<byte[]> response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
      response.headers().map().forEach((name, values) -> {
        if (!NOT_FORWARDED.contains(name.toLowerCase(Locale.ROOT)) && !name.startsWith(":")) {
          values.forEach(value -> exchange.getResponseHeaders().add(name, value));
        }
      });
      byte[] payload = response.body();
      if (reversePages && response.statusCode() == 200 && payload.length > 0) {
        payload = withValuesReversed(payload);
      }
      exchange.sendResponseHeaders(response.statusCode(), payload.length == 0 ? -1 : payload.length);
      if (payload.length > 0) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(payload);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** A page of query results ({@code {"value": [...]}}) with its entities reversed; other bodies as they are. */
  private static byte[] withValuesReversed(byte[] payload) throws IOException {
    ObjectMapper json = new ObjectMapper();
    JsonNode body;
    try {
      body = json.readTree(payload);
    } catch (JsonProcessingException notJson) {
      return payload;
    }
    if (!(body instanceof ObjectNode page) || !(page.get("value") instanceof ArrayNode values)) {
      return payload;
    }
    ArrayNode reversed = json.createArrayNode();
    for (int i = values.size() - 1; i >= 0; i--) {
      reversed.add(values.get(i));
    }
    page.set("value", reversed);
    return json.writeValueAsBytes(page);
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
