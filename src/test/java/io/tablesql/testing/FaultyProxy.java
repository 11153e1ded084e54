package io.tablesql.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP proxy on loopback in front of the emulator that fails chosen requests: it answers
 * the next {@code n} requests with 503 ServerBusy (the service's throttling answer) instead of
 * forwarding them, or holds the requests whose decoded URL contains a given text until released
 * and then answers them with 503. Everything else is forwarded unchanged.
 */
public final class FaultyProxy implements AutoCloseable {
  private static final Set<String> NOT_FORWARDED = Set.of("host", "connection", "content-length", "expect",
      "upgrade", "transfer-encoding", "keep-alive");

  private final HttpServer server;
  private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final String target;
  private final AtomicInteger failuresLeft = new AtomicInteger();
  private final AtomicInteger requests = new AtomicInteger();
  private final List<String> requestUrls = new CopyOnWriteArrayList<>();
  private volatile String heldText;
  private final AtomicInteger held = new AtomicInteger();
  private final CountDownLatch release = new CountDownLatch(1);

  public FaultyProxy(String targetBase) throws IOException {
    this.target = targetBase;
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.setExecutor(Executors.newFixedThreadPool(16));
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

  /** Requests the proxy received, failed ones included. */
  public int requests() {
    return requests.get();
  }

  /** The decoded URLs (path and query) of the requests received, in order. */
  public List<String> requestUrls() {
    return List.copyOf(requestUrls);
  }

  /**
   * Holds every request whose decoded URL contains {@code text} (all of them for "") until
   * {@link #release}, then answers it with 503 ServerBusy.
   */
  public void hold(String text) {
    heldText = text;
  }

  /** Requests being held now. */
  public int held() {
    return held.get();
  }

  /** Lets the held requests (and those still to come) be answered. */
  public void release() {
    release.countDown();
  }

  private void handle(HttpExchange exchange) throws IOException {
    requests.incrementAndGet();
    String url = URLDecoder.decode(exchange.getRequestURI().toString(), java.nio.charset.StandardCharsets.UTF_8);
    requestUrls.add(url);
    try (exchange) {
      byte[] body;
      try (InputStream in = exchange.getRequestBody()) {
        body = in.readAllBytes();
      }
      String hold = heldText;
      boolean holding = hold != null && url.contains(hold) && release.getCount() > 0;
      if (holding) {
        held.incrementAndGet();
        release.await();
        held.decrementAndGet();
      }
      if (holding || failuresLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
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

  @Override
  public void close() {
    release.countDown();
    server.stop(0);
  }
}
