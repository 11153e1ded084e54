package io.tablesql.store;

import com.azure.core.http.HttpPipelineCallContext;
import java.net.URL;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The debug log of requests: one line per attempt on the wire, through the host application's
 * slf4j binding (the driver jar relocates slf4j with a no-op binding, so it logs nothing). The
 * line carries the method, the table, the access path where the caller knows it, the path, the
 * query options that say what was asked ($filter, $select, $top, continuation), the status and
 * the duration. Every other query parameter is dropped: a SAS credential rides there.
 */
final class RequestLog {
  /** The logger's name, documented for operators: set it to DEBUG to see each request. */
  static final String LOGGER = "io.tablesql.requests";
  static final String TABLE_KEY = "tablesql.table";
  static final String ACCESS_KEY = "tablesql.access";
  private static final Logger LOG = LoggerFactory.getLogger(LOGGER);
  /** Query parameters that describe the request, never a credential. */
  private static final Set<String> SHOWN = Set.of("$filter", "$select", "$top", "nextpartitionkey", "nextrowkey",
      "nexttablename");

  private RequestLog() {
  }

  static void log(HttpPipelineCallContext context, int attempt, int status, long nanos) {
    if (!LOG.isDebugEnabled()) {
      return;
    }
    URL url = context.getHttpRequest().getUrl();
    StringBuilder line = new StringBuilder(160)
        .append(context.getHttpRequest().getHttpMethod())
        .append(" table=").append(context.getData(TABLE_KEY).orElseGet(() -> tableOf(url.getPath())))
        .append(" access=\"").append(context.getData(ACCESS_KEY).orElse("-")).append('"')
        .append(" status=").append(status == 0 ? "-" : Integer.toString(status))
        .append(" durationMs=").append(String.format(Locale.ROOT, "%.1f", nanos / 1e6))
        .append(" attempt=").append(attempt)
        .append(" path=").append(url.getPath());
    appendShownParameters(line, url.getQuery());
    LOG.debug(line.toString());
  }

  private static void appendShownParameters(StringBuilder line, String rawQuery) {
    if (rawQuery == null || rawQuery.isEmpty()) {
      return;
    }
    for (String pair : rawQuery.split("&")) {
      int eq = pair.indexOf('=');
      String name = decode(eq < 0 ? pair : pair.substring(0, eq));
      if (SHOWN.contains(name.toLowerCase(Locale.ROOT))) {
        line.append(' ').append(name).append("=\"").append(eq < 0 ? "" : decode(pair.substring(eq + 1))).append('"');
      }
    }
  }

  /** The table a URL path addresses: /account/Table(...), /Table(), /Tables, /$batch. */
  private static String tableOf(String path) {
    String last = path.substring(path.lastIndexOf('/') + 1);
    int paren = last.indexOf('(');
    return paren < 0 ? last : last.substring(0, paren);
  }

  private static String decode(String text) {
    try {
      return URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return text;
    }
  }
}
