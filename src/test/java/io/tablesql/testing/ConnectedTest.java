package io.tablesql.testing;

import java.sql.Connection;
import java.sql.SQLException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** A test class whose tests share one connection to the suite's account, opened before them and closed after. */
public abstract class ConnectedTest {
  protected static Connection connection;

  @BeforeAll
  static void connect() throws SQLException {
    connection = TestAccount.connect();
  }

  @AfterAll
  static void disconnect() throws SQLException {
    connection.close();
  }
}
