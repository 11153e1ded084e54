package io.tablesql.compat;

import io.tablesql.shell.LocalEmulator;
import io.tablesql.testing.FaultyProxy;
import io.tablesql.testing.TestAccount;
import java.io.IOException;
import java.util.List;

/**
 * The emulator seen through a recording proxy on loopback: clients connect to {@link #url}, and
 * a {@link Window} tells the requests and entities that went over the wire while it was open.
 */
final class Wire implements AutoCloseable {
  private final FaultyProxy proxy;

  private Wire(FaultyProxy proxy) {
    this.proxy = proxy;
  }

  static Wire open() throws IOException {
    return new Wire(new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port()));
  }

  /** The connection string of the emulator's account behind the proxy. */
  String connectionString() {
    return "TableEndpoint=" + proxy.base() + "/" + LocalEmulator.ACCOUNT + ";AccountName=" + LocalEmulator.ACCOUNT
        + ";AccountKey=" + LocalEmulator.KEY;
  }

  /** The JDBC URL of the account behind the proxy, with driver properties appended. */
  String url(String... properties) {
    StringBuilder url = new StringBuilder("jdbc:tablesql:").append(connectionString());
    for (String property : properties) {
      url.append(';').append(property);
    }
    return url.toString();
  }

  /** Starts recording what goes over the wire from now on. */
  Window watch() {
    return new Window(proxy.requests(), proxy.entitiesReturned());
  }

  @Override
  public void close() {
    proxy.close();
  }

  /** The requests and returned entities since the window opened. */
  final class Window {
    private final int firstRequest;
    private final int entitiesBefore;

    private Window(int firstRequest, int entitiesBefore) {
      this.firstRequest = firstRequest;
      this.entitiesBefore = entitiesBefore;
    }

    /** The decoded URLs of the requests reading or writing {@code table} (pool validations and table lists left out). */
    List<String> requestsTo(String table) {
      String path = "/" + LocalEmulator.ACCOUNT + "/" + table;
      return since().stream()
          .filter(url -> url.equals(path) || url.startsWith(path + "(") || url.startsWith(path + "?"))
          .toList();
    }

    /** Entity group transactions sent (their URLs name no table). */
    long batches() {
      return since().stream().filter(url -> url.startsWith("/" + LocalEmulator.ACCOUNT + "/$batch")).count();
    }

    private List<String> since() {
      List<String> urls = proxy.requestUrls();
      return urls.subList(firstRequest, urls.size());
    }

    /** Entities the service sent back. */
    int entities() {
      return proxy.entitiesReturned() - entitiesBefore;
    }
  }
}
