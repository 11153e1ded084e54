package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.tablesql.shell.LocalEmulator;
import io.tablesql.testing.FaultyProxy;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Connection.isValid: one cheap request, bounded by its timeout. */
class ConnectionValidityTest {
  private static Connection throughProxy(FaultyProxy proxy) throws SQLException {
    // requests far slower than the test allows, so only isValid's own timeout can end one
    return DriverManager.getConnection("jdbc:tablesql:TableEndpoint=" + proxy.base() + "/" + LocalEmulator.ACCOUNT
        + ";AccountName=" + LocalEmulator.ACCOUNT + ";AccountKey=" + LocalEmulator.KEY
        + ";requestTimeoutSeconds=120;maxRetries=0");
  }

  @Test
  void sendsOneRequestForOneTable() throws Exception {
    TestAccount.newTable("Valid");
    TestAccount.newTable("Valid");
    try (FaultyProxy proxy = new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port());
         Connection connection = throughProxy(proxy)) {
      int before = proxy.requests();
      assertThat(connection.isValid(0)).isTrue();
      assertThat(proxy.requests()).isEqualTo(before + 1);
      assertThat(proxy.requestUrls().get(before)).contains("$top=1");
    }
  }

  @Test
  void honoursItsTimeout() throws Exception {
    try (FaultyProxy proxy = new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port());
         Connection connection = throughProxy(proxy)) {
      proxy.hold("");
      boolean valid = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> connection.isValid(1));
      assertThat(valid).isFalse();
      proxy.release();
      assertThat(connection.isValid(5)).isTrue();
    }
  }

  @Test
  void refusesANegativeTimeout() throws SQLException {
    try (Connection connection = TestAccount.connect()) {
      assertThatThrownBy(() -> connection.isValid(-1)).isInstanceOf(SQLException.class)
          .hasMessageContaining("-1")
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("HY024"));
    }
  }

  @Test
  void aClosedConnectionIsNotValid() throws SQLException {
    Connection connection = TestAccount.connect();
    connection.close();
    assertThat(connection.isValid(1)).isFalse();
  }
}
