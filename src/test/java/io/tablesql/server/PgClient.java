package io.tablesql.server;

import io.tablesql.shell.LocalEmulator;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/** The server's tests' side of a session: a server over the emulator, and pgjdbc connections to it. */
final class PgClient {
  private PgClient() {
  }

  /** The connection string of a server over the emulator (through {@code base}: the emulator, or a proxy of it). */
  static String endpoint(String base) {
    return "TableEndpoint=" + base + "/" + LocalEmulator.ACCOUNT + ";AccountName=" + LocalEmulator.ACCOUNT;
  }

  /** The connection string of a server straight over the emulator. */
  static String endpoint() {
    return endpoint("http://127.0.0.1:" + TestAccount.emulator().port()) + ";BlobEndpoint="
        + TestAccount.emulator().blobEndpoint();
  }

  /** pgjdbc to {@code server} on {@code host}, with pgjdbc's {@code name=value} options. */
  static Connection connectAs(PgServer server, String host, String user, String password, String... options)
      throws SQLException {
    Properties properties = new Properties();
    properties.setProperty("user", user);
    properties.setProperty("password", password);
    for (String option : options) {
      properties.setProperty(option.substring(0, option.indexOf('=')), option.substring(option.indexOf('=') + 1));
    }
    return DriverManager.getConnection("jdbc:postgresql://" + host + ":" + server.port() + "/" + LocalEmulator.ACCOUNT,
        properties);
  }

  /** pgjdbc to {@code server} on loopback, as the account with the emulator's key. */
  static Connection connect(PgServer server, String... options) throws SQLException {
    return connectAs(server, "127.0.0.1", LocalEmulator.ACCOUNT, LocalEmulator.KEY, options);
  }
}
