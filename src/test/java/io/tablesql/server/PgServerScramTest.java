package io.tablesql.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablesql.shell.LocalEmulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mode (b): the server holds the account's credential and a users file of SCRAM-SHA-256
 * verifiers; clients log in as those users, and the password never crosses the wire.
 */
class PgServerScramTest {
  @TempDir
  static Path files;
  private static PgServer server;

  @BeforeAll
  static void start() throws Exception {
    Path users = files.resolve("users");
    Files.writeString(users, "# who may log in\nalice:" + Scram.verifier("s3cret pass") + "\n\nbob:"
        + Scram.verifier("other") + "\n");
    server = PgServer.start("127.0.0.1", 0, 8, PgClient.endpoint() + ";AccountKey=" + LocalEmulator.KEY, null, null,
        users);
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  private static Connection connect(String user, String password) throws SQLException {
    return PgClient.connectAs(server, "127.0.0.1", user, password);
  }

  @Test
  void usersLogInWithScramAndTheWrongOnesAreRefusedAlike() throws SQLException {
    try (Connection connection = connect("alice", "s3cret pass"); Statement statement = connection.createStatement();
         ResultSet result = statement.executeQuery("SHOW TRANSACTION ISOLATION LEVEL")) {
      assertThat(result.next()).isTrue();
      assertThat(result.getString(1)).isEqualTo("read committed");
    }
    for (String[] wrong : new String[][] {{"alice", "s3cret"}, {"bob", "s3cret pass"}, {"nobody", "s3cret pass"}}) {
      assertThatThrownBy(() -> connect(wrong[0], wrong[1]).close()).isInstanceOfSatisfying(SQLException.class, e -> {
        assertThat(e.getSQLState()).isEqualTo("28P01");
        assertThat(e.getMessage()).contains("Password authentication failed for user \"" + wrong[0] + "\"");
      });
    }
  }

  @Test
  void theUsersFileAndTheCredentialGoTogether() {
    assertThatThrownBy(() -> PgServer.start("127.0.0.1", 0, 1, "TableEndpoint=http://127.0.0.1:1/x;AccountName=x",
        null, null, files.resolve("users"))).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("With --users the connection string carries the credential");
  }
}
