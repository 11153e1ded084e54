package io.tablesql.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablesql.shell.LocalEmulator;
import io.tablesql.testing.FaultyProxy;
import io.tablesql.testing.TestAccount;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The server under bad input and load: malformed, oversized and unknown messages, a wrong
 * protocol version, clients that vanish, failed logins by the dozen, idle sessions, statement
 * timeouts, and many clients at once; each gets a clean error or close, and the server keeps
 * serving everyone else.
 */
class PgServerRobustnessTest {
  private static PgServer server;
  private static String table;

  @BeforeAll
  static void start() throws Exception {
    server = PgServer.start("127.0.0.1", 0, 80, PgClient.endpoint());
    table = TestAccount.newTable("PgLoad").getTableName();
    try (Connection connection = connect(server); Statement statement = connection.createStatement()) {
      statement.executeUpdate("INSERT INTO " + table + " (PartitionKey, RowKey, N) VALUES ('p', '1', 1), ('p', '2', 2)");
    }
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  private static Connection connect(PgServer to) throws SQLException {
    return PgClient.connect(to);
  }

  private static long count(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement();
         ResultSet result = statement.executeQuery("SELECT SUM(N) FROM " + table)) {
      result.next();
      return result.getLong(1);
    }
  }

  /** A raw client: what the server answers to bytes no driver would send. */
  private static final class Raw implements AutoCloseable {
    final Socket socket = new Socket("127.0.0.1", server.port());
    final DataOutputStream out = new DataOutputStream(socket.getOutputStream());
    final DataInputStream in = new DataInputStream(socket.getInputStream());

    Raw() throws IOException {
      socket.setSoTimeout(20_000);
    }

    void startup(int version) throws IOException {
      byte[] parameters = ("user\0" + LocalEmulator.ACCOUNT + "\0\0").getBytes(StandardCharsets.UTF_8);
      out.writeInt(8 + parameters.length);
      out.writeInt(version);
      out.write(parameters);
      out.flush();
    }

    /** Logs in, reading up to the first ReadyForQuery. */
    void logIn() throws IOException {
      startup(196608);
      assertThat(nextType()).isEqualTo('R');
      byte[] password = (LocalEmulator.KEY + "\0").getBytes(StandardCharsets.UTF_8);
      out.writeByte('p');
      out.writeInt(4 + password.length);
      out.write(password);
      out.flush();
      char type;
      do {
        type = nextType();
      } while (type != 'Z');
    }

    /** The type of the next message, its body skipped. */
    char nextType() throws IOException {
      char type = (char) in.readUnsignedByte();
      in.readFully(new byte[in.readInt() - 4]);
      return type;
    }

    /** The SQLSTATE of the ErrorResponse that comes next, then the end of the connection. */
    String errorThenClose() throws IOException {
      char type = (char) in.readUnsignedByte();
      byte[] body = new byte[in.readInt() - 4];
      in.readFully(body);
      assertThat(type).isEqualTo('E');
      String fields = new String(body, StandardCharsets.UTF_8);
      String state = fields.substring(fields.indexOf("\0C") + 2, fields.indexOf("\0C") + 7);
      assertThat(in.read()).isEqualTo(-1);
      return state;
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }

  @Test
  void badInputGetsACleanErrorAndTheServerKeepsServing() throws Exception {
    try (Raw raw = new Raw()) {
      raw.startup(2 << 16); // protocol 2.0
      assertThat(raw.errorThenClose()).isEqualTo("08P01");
    }
    try (Raw raw = new Raw()) {
      raw.logIn();
      raw.out.writeByte('Y'); // no such message
      raw.out.writeInt(4);
      raw.out.flush();
      assertThat(raw.errorThenClose()).isEqualTo("08P01");
    }
    try (Raw raw = new Raw()) {
      raw.logIn();
      raw.out.writeByte('Q');
      raw.out.writeInt(Integer.MAX_VALUE); // a query of 2 GB announced
      raw.out.flush();
      assertThat(raw.errorThenClose()).isEqualTo("08P01");
    }
    try (Raw raw = new Raw()) {
      raw.logIn();
      raw.out.writeByte('Q');
      raw.out.writeInt(100);
      raw.out.write("SELECT".getBytes(StandardCharsets.UTF_8)); // half a message, then the client is gone
      raw.out.flush();
    }
    for (int i = 0; i < 40; i++) { // a flood of failed logins
      assertThatThrownBy(() -> PgClient.connectAs(server, "127.0.0.1", LocalEmulator.ACCOUNT, "d3Jvbmc=").close())
          .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("28P01"));
    }
    try (Connection connection = connect(server)) {
      assertThat(count(connection)).isEqualTo(3);
    }
  }

  @Test
  void manyClientsAtOnce() throws Exception {
    int clients = 64;
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    try {
      List<Future<Long>> answers = new ArrayList<>();
      for (int i = 0; i < clients; i++) {
        answers.add(pool.submit(() -> {
          try (Connection connection = connect(server)) {
            return count(connection);
          }
        }));
      }
      for (Future<Long> answer : answers) {
        assertThat(answer.get(120, TimeUnit.SECONDS)).isEqualTo(3);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void idleSessionsAreClosedAndSlowStatementsTimeOut() throws Exception {
    try (FaultyProxy slow = new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port());
         PgServer timed = PgServer.start("127.0.0.1", 0, 4, PgClient.endpoint(slow.base())).idleTimeout(Duration.ofSeconds(2))) {
      try (Connection connection = connect(timed); Statement statement = connection.createStatement()) {
        statement.execute("SET statement_timeout = '1s'");
        slow.delay(4_000);
        assertThatThrownBy(() -> statement.executeQuery("SELECT COUNT(*) FROM " + table))
            .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("57014"));
        slow.delay(0);
        statement.execute("SET statement_timeout = 0");
        assertThat(count(connection)).isEqualTo(3);
        TimeUnit.SECONDS.sleep(3); // idle past --idle-timeout
        assertThatThrownBy(() -> count(connection)).isInstanceOf(SQLException.class);
      }
      try (Connection connection = connect(timed); Statement statement = connection.createStatement()) {
        statement.execute("SET idle_session_timeout = '10s'"); // the session's own outlasts the server's
        TimeUnit.SECONDS.sleep(3);
        assertThat(count(connection)).isEqualTo(3);
      }
    }
  }
}
