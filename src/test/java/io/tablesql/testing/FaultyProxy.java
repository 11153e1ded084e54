package io.tablesql.testing;

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
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real HTTP proxy on loopback in front of the emulator that behaves the way the real service
 * (and the network to it) can, where the emulator does not: it refuses what the service refuses
 * (a {@code $filter} of more than 15 comparisons, {@code $top} over 1000, a batch of more than 100
 * operations or 4 MiB), ends query pages early
 * with a continuation (down to zero entities), and injects {@link Fault}s into chosen requests.
 * Everything else is forwarded unchanged.
 */
public final class FaultyProxy implements AutoCloseable {
  /** What can happen to one request. */
  public enum Fault {
    /** Answered 503 ServerBusy without forwarding: throttled, not applied. */
    BUSY,
    /** Answered 503 ServerBusy with {@code Retry-After: 1}, not applied. */
    BUSY_RETRY_AFTER,
    /** Forwarded and applied, then answered 500 OperationTimedOut: the outcome is unknown to the client. */
    LOSE_ANSWER,
    /** Answered 409 TableBeingDeleted without forwarding, as Azure does for a while after a table is dropped. */
    TABLE_BEING_DELETED,
    /** Forwarded; the answer's headers are sent, then the connection closes halfway through its body. */
    RESET,
    /** Never answered (until the proxy closes): the client's timeout must end the wait. */
    HANG,
    /** Answered 400 TooManyProperties without forwarding, as for a merge leaving more than 252 properties. */
    TOO_MANY_PROPERTIES
  }

  /** A request as the proxy saw it: method, path, decoded query parameters, and when it came. */
  public record Request(String method, String path, Map<String, String> query, long receivedNanos) {
    public boolean isQuery() {
      return method.equals("GET") && path.endsWith("()");
    }

    public boolean isBatch() {
      return method.equals("POST") && path.endsWith("/$batch");
    }

    public boolean isTableCreation() {
      return method.equals("POST") && path.endsWith("/Tables");
    }
  }

  private record Injection(Fault fault, Predicate<Request> which, AtomicInteger timesLeft) {
  }

  private static final Set<String> NOT_FORWARDED = Set.of("host", "connection", "content-length", "expect",
      "upgrade", "transfer-encoding", "keep-alive");
  private static final Pattern COMPARISON = Pattern.compile("\\b(eq|ne|gt|ge|lt|le)\\b");
  private static final Pattern OPERATION = Pattern.compile("(?i)content-type: *application/http");
  private static final Pattern QUOTED = Pattern.compile("'(?:[^']|'')*'");
  private static final String CONTINUATION_PK = "x-ms-continuation-NextPartitionKey";
  private static final String CONTINUATION_RK = "x-ms-continuation-NextRowKey";
  private static final ObjectMapper JSON = new ObjectMapper();
  /** Marks the continuation of an empty page, so that the page after it is not empty again. */
  private static final String SEEN = "proxy!";

  private final HttpServer server;
  private final ExecutorService executor = Executors.newCachedThreadPool(runnable -> {
    Thread thread = new Thread(runnable, "faulty-proxy");
    thread.setDaemon(true);
    return thread;
  });
  private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final String target;
  private final List<Injection> injections = new CopyOnWriteArrayList<>();
  private final List<Request> seen = new CopyOnWriteArrayList<>();
  private final AtomicInteger faults = new AtomicInteger();
  private final AtomicInteger entitiesReturned = new AtomicInteger();
  private final CountDownLatch closed = new CountDownLatch(1);
  private volatile long delayMillis;
  /** Answers of reads kept by {@link #answerRepeatedReadsFromMemory}, by request URI; null when off. */
  private volatile Map<String, Answer> readAnswers;
  /** Requests other than reads so far: a read's answer is kept only if none came while it was forwarded. */
  private final AtomicInteger writes = new AtomicInteger();
  private volatile int pageLimit = Integer.MAX_VALUE;
  private volatile boolean emptyPages;
  private volatile boolean reversePages;
  private final List<String> requestUrls = new CopyOnWriteArrayList<>();
  private volatile String heldText;
  private final AtomicInteger held = new AtomicInteger();
  private final CountDownLatch release = new CountDownLatch(1);

  public FaultyProxy(String targetBase) throws IOException {
    this.target = targetBase;
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.setExecutor(executor);
    server.start();
  }

  /** The base URL (scheme, host and port) to use instead of the emulator's. */
  public String base() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** Delays every request by {@code millis} before forwarding it: a round trip to a distant service. */
  public void delay(long millis) {
    delayMillis = millis;
  }

  /**
   * Answers a read (a GET) that was answered before, with nothing written since, from memory
   * instead of forwarding it again: the emulator serves one request at a time, where the service
   * serves many partitions' requests at once, so with {@link #delay} this stands for a service
   * whose latency, not its throughput, bounds concurrent reads. Any other request forgets them all.
   */
  public void answerRepeatedReadsFromMemory() {
    readAnswers = new java.util.concurrent.ConcurrentHashMap<>();
  }

  /** A response as the emulator sent it, to send again. */
  private record Answer(int status, Map<String, List<String>> headers, byte[] body, int entities) {
    void sendTo(HttpExchange exchange) throws IOException {
      headers.forEach((name, values) -> exchange.getResponseHeaders().put(name, values));
      exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
      if (body.length > 0) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(body);
        }
      }
    }
  }

  /** Makes the next {@code count} requests fail with 503 ServerBusy. */
  public void failNext(int count) {
    injections.clear();
    inject(Fault.BUSY, request -> true, count);
  }

  /** Applies {@code fault} to the next {@code times} requests that {@code which} accepts. */
  public void inject(Fault fault, Predicate<Request> which, int times) {
    injections.add(new Injection(fault, which, new AtomicInteger(times)));
  }

  /** Accepts every {@code n}th request it is asked about: faults spread over a run, retries spared. */
  public static Predicate<Request> everyNth(int n) {
    AtomicInteger count = new AtomicInteger();
    return request -> count.incrementAndGet() % n == 0;
  }

  /** Removes every injected fault that has not happened yet. */
  public void clearFaults() {
    injections.clear();
  }

  /**
   * Ends every query page after at most {@code entities} entities, with a continuation to the
   * rest, as the service may (it ends a page after 5 seconds or at a partition boundary); with
   * {@code emptyFirst}, every page is preceded by one with no entities at all.
   */
  public void endPagesEarly(int entities, boolean emptyFirst) {
    this.pageLimit = entities;
    this.emptyPages = emptyFirst;
  }

  /**
   * Whether each page of query results comes back with its entities in reverse order, as a
   * service that does not sort by key (the Cosmos DB Table API) may return them.
   */
  public void reversePages(boolean reverse) {
    reversePages = reverse;
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

  /** Requests the proxy received, failed ones included. */
  public int requests() {
    return seen.size();
  }

  /** Every request received, in order. */
  public List<Request> seen() {
    return List.copyOf(seen);
  }

  /** Entities sent back to the client so far: those of query pages and of point reads. */
  public int entitiesReturned() {
    return entitiesReturned.get();
  }

  /** Faults injected so far. */
  public int faults() {
    return faults.get();
  }

  private record Hook(Predicate<Request> which, Runnable action, AtomicInteger timesLeft) {
  }

  private final List<Hook> hooks = new CopyOnWriteArrayList<>();

  /**
   * Runs {@code action} before forwarding each of the next {@code times} requests that
   * {@code which} accepts: another client's write that lands between a statement's read and its
   * write, for instance.
   */
  public void before(Predicate<Request> which, Runnable action, int times) {
    hooks.add(new Hook(which, action, new AtomicInteger(times)));
  }

  private void runHooks(Request request) {
    for (Hook hook : hooks) {
      if (hook.which().test(request) && hook.timesLeft().getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        hook.action().run();
      }
    }
  }

  private Fault faultFor(Request request) {
    for (Injection injection : injections) {
      if (injection.which().test(request)
          && injection.timesLeft().getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        faults.incrementAndGet();
        return injection.fault();
      }
    }
    return null;
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      byte[] body;
      try (InputStream in = exchange.getRequestBody()) {
        body = in.readAllBytes();
      }
      Request request = new Request(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
          parseQuery(exchange.getRequestURI().getRawQuery()), System.nanoTime());
      seen.add(request);
      runHooks(request);
      if (delayMillis > 0) {
        Thread.sleep(delayMillis);
      }
      String url = URLDecoder.decode(exchange.getRequestURI().toString(), StandardCharsets.UTF_8);
      requestUrls.add(url);
      Map<String, Answer> answers = readAnswers;
      int writesBefore = request.method().equals("GET") ? writes.get() : writes.incrementAndGet();
      if (answers != null && !request.method().equals("GET")) {
        answers.clear();
      }
      Answer remembered = answers == null ? null : answers.get(exchange.getRequestURI().toString());
      if (remembered != null) {
        entitiesReturned.addAndGet(remembered.entities()); // counted once, when it was kept
        remembered.sendTo(exchange);
        return;
      }
      String hold = heldText;
      if (hold != null && url.contains(hold) && release.getCount() > 0) {
        held.incrementAndGet();
        release.await();
        held.decrementAndGet();
        answerError(exchange, 503, "ServerBusy", "The server is busy.", false);
        return;
      }
      String refusal = serviceLimitBroken(request, body);
      if (refusal != null) {
        answerError(exchange, 400, "InvalidInput", refusal, false);
        return;
      }
      Fault fault = faultFor(request);
      if (fault == Fault.BUSY || fault == Fault.BUSY_RETRY_AFTER) {
        answerError(exchange, 503, "ServerBusy", "The server is busy.", fault == Fault.BUSY_RETRY_AFTER);
        return;
      }
      if (fault == Fault.TABLE_BEING_DELETED) {
        answerError(exchange, 409, "TableBeingDeleted", "The specified table is being deleted.", false);
        return;
      }
      if (fault == Fault.TOO_MANY_PROPERTIES) {
        answerError(exchange, 400, "TooManyProperties", "The entity has more properties than allowed.", false);
        return;
      }
      if (fault == Fault.HANG) {
        closed.await(60, TimeUnit.SECONDS);
        return;
      }
      HttpResponse<byte[]> response;
      try {
        response = forward(exchange, request, body);
      } finally {
        if (answers != null && !request.method().equals("GET")) { // a read forwarded meanwhile may precede it
          writes.incrementAndGet();
          answers.clear();
        }
      }
      if (fault == Fault.LOSE_ANSWER) {
        answerError(exchange, 500, "OperationTimedOut", "The operation could not be completed within the "
            + "permitted time. The operation may or may not have succeeded on the server side.", false);
        return;
      }
      byte[] payload = response.body();
      if (request.isQuery() && response.statusCode() == 200 && rewritesPages()) {
        payload = endPageEarly(exchange, request, payload);
      }
      if (request.isQuery() && response.statusCode() == 200 && reversePages) {
        payload = withEntitiesReversed(payload);
      }
      int entities = countEntities(request, response.statusCode(), payload);
      copyHeaders(response, exchange);
      if (answers != null && request.method().equals("GET") && response.statusCode() == 200 && fault == null
          && writes.get() == writesBefore) {
        String uri = exchange.getRequestURI().toString();
        Answer answer = new Answer(200, new LinkedHashMap<>(exchange.getResponseHeaders()), payload, entities);
        answers.put(uri, answer);
        if (writes.get() != writesBefore) { // a write came between the check and the put
          answers.remove(uri, answer);
        }
      }
      exchange.sendResponseHeaders(response.statusCode(), payload.length == 0 ? -1 : payload.length);
      if (payload.length > 0) {
        OutputStream out = exchange.getResponseBody();
        if (fault == Fault.RESET) {
          out.write(payload, 0, payload.length / 2);
          out.flush();
          // the body stays short of its Content-Length: closing the exchange now breaks the connection
          throw new IOException("connection reset by the proxy");
        }
        out.write(payload);
        out.close();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Counts the entities an answer returns (those of a query page or a point read) and says how many. */
  private int countEntities(Request request, int status, byte[] payload) throws IOException {
    int count = 0;
    if (status == 200 && request.method().equals("GET") && payload.length > 0) {
      if (request.isQuery()) {
        JsonNode entities = JSON.readTree(payload).get("value");
        count = entities == null ? 0 : entities.size();
      } else if (request.path().endsWith("')")) { // Table(PartitionKey='a',RowKey='b'): a point read
        count = 1;
      }
    }
    entitiesReturned.addAndGet(count);
    return count;
  }

  /** The service's own limits, which the emulator does not enforce; null if none is broken. */
  private static String serviceLimitBroken(Request request, byte[] body) {
    if (request.isBatch()) {
      if (body.length > 4 << 20) {
        return "The batch request is " + body.length + " bytes; at most 4 MiB are allowed.";
      }
      Matcher operations = OPERATION.matcher(new String(body, StandardCharsets.UTF_8));
      int count = 0;
      while (operations.find()) {
        count++;
      }
      if (count > 100) {
        return "The batch holds " + count + " operations; at most 100 are allowed.";
      }
    }
    String top = request.query().get("$top");
    if (top != null && Integer.parseInt(top) > 1000) {
      return "$top may not exceed 1000.";
    }
    String filter = request.query().get("$filter");
    if (filter != null) {
      Matcher comparisons = COMPARISON.matcher(QUOTED.matcher(filter).replaceAll("''"));
      int count = 0;
      while (comparisons.find()) {
        count++;
      }
      if (count > 15) {
        return "The $filter has " + count + " comparisons; at most 15 are allowed.";
      }
    }
    return null;
  }

  private boolean rewritesPages() {
    return pageLimit != Integer.MAX_VALUE || emptyPages;
  }

  private HttpResponse<byte[]> forward(HttpExchange exchange, Request request, byte[] body)
      throws IOException, InterruptedException {
    Map<String, String> query = new LinkedHashMap<>(request.query());
    String row = query.get("NextRowKey");
    if (row != null && row.startsWith(SEEN)) {
      query.put("NextRowKey", row.substring(SEEN.length()));
    }
    String select = query.get("$select");
    if (request.isQuery() && rewritesPages() && select != null) {
      query.put("$select", select + ",PartitionKey,RowKey"); // to know where an early page ends
    }
    HttpRequest.Builder forwarded = HttpRequest.newBuilder(URI.create(target + exchange.getRequestURI().getRawPath() + toQuery(query)))
        .method(request.method(), body.length == 0 ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(body));
    for (Map.Entry<String, List<String>> header : exchange.getRequestHeaders().entrySet()) {
      if (!NOT_FORWARDED.contains(header.getKey().toLowerCase(Locale.ROOT))) {
        header.getValue().forEach(value -> forwarded.header(header.getKey(), value));
      }
    }
    return client.send(forwarded.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  /**
   * Cuts a query page to {@link #pageLimit} entities (to none, if empty pages are on and this
   * request does not follow one), continuing at the first entity left out.
   */
  private byte[] endPageEarly(HttpExchange exchange, Request request, byte[] payload) throws IOException {
    ObjectNode page = (ObjectNode) JSON.readTree(payload);
    ArrayNode entities = (ArrayNode) page.get("value");
    String row = request.query().get("NextRowKey");
    boolean followsEmptyPage = row != null && row.startsWith(SEEN);
    int limit = emptyPages && !followsEmptyPage ? 0 : pageLimit;
    if (entities.size() > limit) {
      JsonNode next = entities.get(limit);
      ArrayNode kept = JSON.createArrayNode();
      for (int i = 0; i < limit; i++) {
        kept.add(entities.get(i));
      }
      page.set("value", kept);
      entities = kept;
      exchange.getResponseHeaders().set(CONTINUATION_PK, token(next.get("PartitionKey").asText()));
      exchange.getResponseHeaders().set(CONTINUATION_RK, (limit == 0 ? SEEN : "") + token(next.get("RowKey").asText()));
    }
    String select = request.query().get("$select");
    if (select != null) {
      List<String> selected = List.of(select.split(","));
      for (JsonNode entity : entities) {
        for (String key : List.of("PartitionKey", "RowKey")) {
          if (!selected.contains(key)) {
            ((ObjectNode) entity).remove(key);
          }
        }
      }
    }
    return JSON.writeValueAsBytes(page);
  }

  /** A page of query results ({@code {"value": [...]}}) with its entities in reverse order. */
  private static byte[] withEntitiesReversed(byte[] payload) throws IOException {
    ObjectNode page = (ObjectNode) JSON.readTree(payload);
    ArrayNode entities = (ArrayNode) page.get("value");
    ArrayNode reversed = JSON.createArrayNode();
    for (int i = entities.size() - 1; i >= 0; i--) {
      reversed.add(entities.get(i));
    }
    page.set("value", reversed);
    return JSON.writeValueAsBytes(page);
  }

  /** A continuation token as the emulator writes them (the service's are opaque too). */
  private static String token(String key) {
    return java.util.Base64.getEncoder().encodeToString(key.getBytes(StandardCharsets.UTF_8));
  }

  private static void answerError(HttpExchange exchange, int status, String code, String message,
      boolean retryAfter) throws IOException {
    byte[] body = ("{\"odata.error\":{\"code\":\"" + code + "\",\"message\":{\"lang\":\"en-US\",\"value\":\""
        + message + "\"}}}").getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("x-ms-error-code", code);
    exchange.getResponseHeaders().add("Content-Type", "application/json;odata=minimalmetadata");
    if (retryAfter) {
      exchange.getResponseHeaders().add("Retry-After", "1");
    }
    exchange.sendResponseHeaders(status, body.length);
    exchange.getResponseBody().write(body);
  }

  private static void copyHeaders(HttpResponse<byte[]> response, HttpExchange exchange) {
    response.headers().map().forEach((name, values) -> {
      String lower = name.toLowerCase(Locale.ROOT);
      boolean continuation = lower.startsWith("x-ms-continuation-")
          && exchange.getResponseHeaders().containsKey(name);
      if (!NOT_FORWARDED.contains(lower) && !name.startsWith(":") && !continuation) {
        values.forEach(value -> exchange.getResponseHeaders().add(name, value));
      }
    });
  }

  private static Map<String, String> parseQuery(String raw) {
    Map<String, String> query = new LinkedHashMap<>();
    if (raw == null || raw.isEmpty()) {
      return query;
    }
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
      query.put(name, eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1).replace("+", "%2B"),
          StandardCharsets.UTF_8));
    }
    return query;
  }

  private static String toQuery(Map<String, String> query) {
    List<String> pairs = new ArrayList<>();
    query.forEach((name, value) -> pairs.add(encode(name) + "=" + encode(value)));
    return pairs.isEmpty() ? "" : "?" + String.join("&", pairs);
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20").replace("%24", "$")
        .replace("%2C", ",");
  }

  @Override
  public void close() {
    closed.countDown();
    release.countDown();
    server.stop(0);
    executor.shutdownNow();
  }
}
