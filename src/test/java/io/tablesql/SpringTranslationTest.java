package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.testing.FaultyProxy;
import io.tablesql.testing.TestAccount;
import java.net.ServerSocket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLInvalidAuthorizationSpecException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransactionRollbackException;
import java.sql.SQLTransientException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.dao.CannotAcquireLockException;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.PermissionDeniedDataAccessException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.jdbc.BadSqlGrammarException;
import org.springframework.jdbc.support.SQLErrorCodeSQLExceptionTranslator;
import org.springframework.jdbc.support.SQLExceptionSubclassTranslator;
import org.springframework.jdbc.support.SQLExceptionTranslator;

/**
 * Failures provoked for real through the driver come as the JDBC exception class of their
 * SQLState, so Spring's default translators (by error code, falling back to class, then state)
 * give the DataAccessException an application expects.
 */
class SpringTranslationTest {
  private static final String WRONG_KEY = "d3Jvbmcta2V5LXRoYXQtbXVzdC1uZXZlci1iZS1wcmludGVkLWFueXdoZXJlLi4uLg==";
  private static final List<SQLExceptionTranslator> TRANSLATORS =
      List.of(new SQLErrorCodeSQLExceptionTranslator(), new SQLExceptionSubclassTranslator());
  private static Connection connection;
  private static String table;

  @BeforeAll
  static void setUp() throws SQLException {
    TableClient client = TestAccount.newTable("Spring");
    client.createEntity(new TableEntity("p", "1").addProperty("N", 1));
    table = client.getTableName();
    connection = TestAccount.connect();
  }

  @AfterAll
  static void tearDown() throws SQLException {
    connection.close();
  }

  /** The failure of {@code action}, checked to be a SQLException of the given class. */
  private static SQLException failure(Class<? extends SQLException> type, ThrowingAction action) {
    Throwable thrown = catchThrowable(action::run);
    assertThat(thrown).isInstanceOf(type);
    return (SQLException) thrown;
  }

  private static void assertTranslatedTo(SQLException error, Class<? extends DataAccessException> expected) {
    for (SQLExceptionTranslator translator : TRANSLATORS) {
      assertThat(translator.translate("test", null, error)).as(translator.getClass().getSimpleName())
          .isInstanceOf(expected);
    }
  }

  private static void run(String sql) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      if (statement.execute(sql)) {
        try (ResultSet resultSet = statement.getResultSet()) {
          while (resultSet.next()) {
            // every row
          }
        }
      }
    }
  }

  interface ThrowingAction {
    void run() throws Exception;
  }

  @Test
  void duplicateInsertIsDuplicateKey() {
    SQLException error = failure(SQLIntegrityConstraintViolationException.class,
        () -> run("INSERT INTO " + table + " (PartitionKey, RowKey) VALUES ('p', '1')"));
    assertThat(error.getSQLState()).isEqualTo("23505");
    assertTranslatedTo(error, DuplicateKeyException.class);
  }

  @Test
  void etagConflictIsCannotAcquireLock() throws SQLException {
    try (Connection first = TestAccount.connect(); Statement statement = first.createStatement()) {
      first.setAutoCommit(false);
      statement.executeUpdate("UPDATE " + table + " SET N = 10 WHERE PartitionKey = 'p' AND RowKey = '1'");
      run("UPDATE " + table + " SET N = 20 WHERE PartitionKey = 'p' AND RowKey = '1'");
      SQLException error = failure(SQLTransactionRollbackException.class, first::commit);
      assertThat(error.getSQLState()).isEqualTo("40001");
      assertTranslatedTo(error, CannotAcquireLockException.class);
    }
  }

  @Test
  void syntaxErrorAndUnknownTableAreBadGrammar() {
    assertTranslatedTo(failure(SQLSyntaxErrorException.class, () -> run("SELEC * FROM " + table)),
        BadSqlGrammarException.class);
    SQLException unknown = failure(SQLSyntaxErrorException.class, () -> run("SELECT * FROM NoSuchTable"));
    assertThat(unknown.getSQLState()).isEqualTo("42S02");
    assertTranslatedTo(unknown, BadSqlGrammarException.class);
  }

  @Test
  void valueThatDoesNotFitIsDataIntegrity() throws SQLException {
    try (var statement = connection.prepareStatement("SELECT N FROM " + table + " WHERE PartitionKey = 'p'");
         ResultSet resultSet = statement.executeQuery()) {
      assertThat(resultSet.next()).isTrue();
      SQLException error = failure(SQLDataException.class, () -> resultSet.getObject(1, java.util.UUID.class));
      assertTranslatedTo(error, DataIntegrityViolationException.class);
    }
  }

  @Test
  void queryTimeoutOnASlowScanIsQueryTimeout() throws SQLException {
    TableClient slow = TestAccount.newTable("SpringSlow");
    List<TableEntity> entities = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      entities.add(new TableEntity("p", String.format("r%05d", i)));
    }
    TestAccount.insert(slow, entities);
    try (Connection paged = TestAccount.connect("pageSize=1"); Statement statement = paged.createStatement()) {
      statement.setQueryTimeout(1);
      SQLException error = failure(SQLTimeoutException.class, () -> {
        try (ResultSet resultSet = statement.executeQuery("SELECT RowKey FROM " + slow.getTableName())) {
          while (resultSet.next()) {
            // one request per row
          }
        }
      });
      assertTranslatedTo(error, QueryTimeoutException.class);
    }
  }

  @Test
  void unreachableEndpointIsResourceFailure() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    SQLException error = failure(SQLNonTransientConnectionException.class, () -> DriverManager.getConnection(
        "jdbc:tablesql:TableEndpoint=http://127.0.0.1:" + port + "/devstoreaccount1;AccountName=devstoreaccount1;"
            + "AccountKey=" + WRONG_KEY + ";maxRetries=0"));
    assertThat(error.getSQLState()).isEqualTo("08001");
    assertTranslatedTo(error, DataAccessResourceFailureException.class);
  }

  @Test
  void rejectedKeyIsPermissionDenied() {
    SQLException error = failure(SQLInvalidAuthorizationSpecException.class, () -> DriverManager.getConnection(
        "jdbc:tablesql:TableEndpoint=" + TestAccount.emulator().tableEndpoint()
            + ";AccountName=devstoreaccount1;AccountKey=" + WRONG_KEY));
    assertThat(error.getSQLState()).isEqualTo("28000");
    assertTranslatedTo(error, PermissionDeniedDataAccessException.class);
  }

  @Test
  void throttlingThroughEveryRetryIsTransientAndResourceFailure() throws Exception {
    try (FaultyProxy proxy = new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port());
         Connection throttled = FaultTest.connectThrough(proxy, "maxRetries=1");
         Statement statement = throttled.createStatement()) {
      String sql = "SELECT N FROM " + table + " WHERE PartitionKey = 'p' AND RowKey = '1'";
      statement.executeQuery(sql).close(); // plans and samples the table
      proxy.failNext(10);
      SQLException error = failure(SQLTransientException.class, () -> {
        try (ResultSet resultSet = statement.executeQuery(sql)) {
          resultSet.next();
        }
      });
      assertThat(error.getSQLState()).isEqualTo("53000");
      assertThat((Throwable) error).hasMessageContaining("ServerBusy").hasMessageContaining("retry later");
      assertTranslatedTo(error, DataAccessResourceFailureException.class);
    }
  }
}
