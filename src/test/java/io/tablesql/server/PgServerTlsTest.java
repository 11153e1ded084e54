package io.tablesql.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablesql.shell.LocalEmulator;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Base64;
import java.util.Collections;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server with TLS (a self-signed certificate made by the JDK's keytool): clients on other
 * machines log in over TLS only; a password in clear text is taken from loopback only.
 */
class PgServerTlsTest {
  @TempDir
  static Path files;
  private static PgServer server;
  /** An address of this machine other than loopback, standing for another machine; null if it has none. */
  private static String otherAddress;

  @BeforeAll
  static void start() throws Exception {
    Path store = files.resolve("server.p12");
    Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
        "-genkeypair", "-alias", "server", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=localhost",
        "-validity", "2", "-storetype", "PKCS12", "-keystore", store.toString(), "-storepass", "changeit",
        "-keypass", "changeit").redirectErrorStream(true).start();
    keytool.getInputStream().readAllBytes();
    assertThat(keytool.waitFor(60, TimeUnit.SECONDS) && keytool.exitValue() == 0).isTrue();
    KeyStore keys = KeyStore.getInstance("PKCS12");
    try (var in = Files.newInputStream(store)) {
      keys.load(in, "changeit".toCharArray());
    }
    Path certificate = files.resolve("cert.pem");
    Path key = files.resolve("key.pem");
    Files.writeString(certificate, pem("CERTIFICATE", keys.getCertificate("server").getEncoded()));
    Files.writeString(key, pem("PRIVATE KEY", keys.getKey("server", "changeit".toCharArray()).getEncoded()));
    server = PgServer.start("0.0.0.0", 0, 8, PgClient.endpoint(), certificate, key);
    for (NetworkInterface network : Collections.list(NetworkInterface.getNetworkInterfaces())) {
      for (InetAddress address : Collections.list(network.getInetAddresses())) {
        if (address instanceof Inet4Address && !address.isLoopbackAddress() && otherAddress == null) {
          otherAddress = address.getHostAddress();
        }
      }
    }
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der)
        + "\n-----END " + type + "-----\n";
  }

  private static Connection connect(String host, String sslMode) throws SQLException {
    return PgClient.connectAs(server, host, LocalEmulator.ACCOUNT, LocalEmulator.KEY, "sslmode=" + sslMode);
  }

  private static String one(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement();
         ResultSet result = statement.executeQuery("SHOW TRANSACTION ISOLATION LEVEL")) {
      result.next();
      return result.getString(1);
    }
  }

  @Test
  void tlsCarriesTheSessionAndClearTextStaysOnLoopback() throws Exception {
    try (Connection overTls = connect("127.0.0.1", "require")) {
      assertThat(one(overTls)).isEqualTo("read committed");
    }
    try (Connection clear = connect("127.0.0.1", "disable")) {
      assertThat(one(clear)).isEqualTo("read committed");
    }
    org.junit.jupiter.api.Assumptions.assumeTrue(otherAddress != null, "the machine has no address but loopback");
    try (Connection overTls = connect(otherAddress, "require")) {
      assertThat(one(overTls)).isEqualTo("read committed");
    }
    assertThatThrownBy(() -> connect(otherAddress, "disable").close()).isInstanceOfSatisfying(SQLException.class,
        e -> {
          assertThat(e.getSQLState()).isEqualTo("28000");
          assertThat(e.getMessage()).contains("only over TLS");
        });
  }
}
