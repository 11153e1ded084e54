package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.testing.QueryRuns;
import io.tablesql.testing.TestAccount;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.JDBCType;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import java.util.UUID;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Dates, times and the JDBC 4.2 conversions of getObject and setObject, as a client reads and
 * binds them, in whatever zone the JVM runs (the suite runs in Los Angeles and again in Kolkata),
 * compared with what a database holding a TIMESTAMP without time zone gives: the UTC wall clock.
 */
class JavaTimeTest {
  private static final Instant HIRED = Instant.parse("2014-04-22T14:19:55.123Z");
  private static final LocalDateTime HIRED_WALL_CLOCK = LocalDateTime.parse("2014-04-22T14:19:55.123");
  private static final String ID = "5f0c6e2a-1b2c-4d5e-8f90-123456789abc";

  private static TableClient table;
  private static Connection connection;
  private static Connection oracle;

  @BeforeAll
  static void setUp() throws SQLException {
    assertThat(TimeZone.getDefault().getRawOffset()).isNotZero(); // surefire runs this class in non-UTC zones
    table = TestAccount.newTable("JavaTime");
    TestAccount.insert(table, List.of(
        new TableEntity("p", "1").addProperty("HireDate", OffsetDateTime.ofInstant(HIRED, ZoneOffset.UTC))
            .addProperty("Age", 34).addProperty("Big", 1L << 40).addProperty("Score", 2.5).addProperty("Active", true)
            .addProperty("Id", UUID.fromString(ID)).addProperty("Data", new byte[] {1, 2}).addProperty("Name", "Ann"),
        new TableEntity("p", "2").addProperty("Name", "no hire date")));
    connection = TestAccount.connect();
    oracle = TestAccount.connect("pushdown=false");
  }

  @AfterAll
  static void tearDown() throws SQLException {
    connection.close();
    oracle.close();
  }

  @Test
  void timestampReadsAsTheUtcWallClockOnEveryPath() throws SQLException {
    assertHireDateReads();
  }

  @Test
  void timestampReadsTheSameAfterTheJvmZoneChanged() throws SQLException {
    assertHireDateReads(); // the driver, Calcite and Avatica are loaded and have run in the first zone
    TimeZone original = TimeZone.getDefault();
    try {
      TimeZone.setDefault(TimeZone.getTimeZone("Asia/Kathmandu")); // +05:45, unlike either suite zone
      assertHireDateReads();
      assertParametersFindTheHireDate(connection);
    } finally {
      TimeZone.setDefault(original);
    }
  }

  private static void assertHireDateReads() throws SQLException {
    try (Statement statement = connection.createStatement();
         ResultSet resultSet = statement.executeQuery("SELECT HireDate, CAST(HireDate AS DATE) AS HireDay, "
             + "CAST(HireDate AS TIME(3)) AS HireTime FROM " + table.getTableName() + " WHERE RowKey = '1'")) {
      assertThat(resultSet.next()).isTrue();
      assertThat(resultSet.getString(1)).isEqualTo("2014-04-22 14:19:55.123");
      // a timestamp without time zone: its wall clock shown in the JVM's zone, whichever that is
      assertThat(resultSet.getTimestamp(1)).hasToString("2014-04-22 14:19:55.123");
      assertThat(resultSet.getTimestamp("HireDate")).hasToString("2014-04-22 14:19:55.123");
      assertThat(resultSet.getObject(1)).isEqualTo(resultSet.getTimestamp(1));
      assertThat(resultSet.getObject(1, Timestamp.class)).isEqualTo(resultSet.getTimestamp(1));
      // a Calendar names the zone the wall clock is read in: UTC gives the true instant
      assertThat(resultSet.getTimestamp(1, calendar("UTC")).toInstant()).isEqualTo(HIRED);
      assertThat(resultSet.getTimestamp("HireDate", calendar("Asia/Tokyo")).toInstant())
          .isEqualTo(HIRED_WALL_CLOCK.atZone(ZoneId.of("Asia/Tokyo")).toInstant());
      assertThat(resultSet.getObject(1, LocalDateTime.class)).isEqualTo(HIRED_WALL_CLOCK);
      assertThat(resultSet.getObject("HireDate", OffsetDateTime.class))
          .isEqualTo(OffsetDateTime.parse("2014-04-22T14:19:55.123Z"));
      assertThat(resultSet.getObject(1, Instant.class)).isEqualTo(HIRED);
      assertThat(resultSet.getObject(1, ZonedDateTime.class).toInstant()).isEqualTo(HIRED);
      assertThat(resultSet.getObject(1, LocalDate.class)).isEqualTo(LocalDate.parse("2014-04-22"));
      assertThat(resultSet.getObject(1, LocalTime.class)).isEqualTo(LocalTime.parse("14:19:55.123"));
      assertThat(resultSet.getDate(1)).hasToString("2014-04-22");
      assertThat(resultSet.getTime(1)).hasToString("14:19:55");
      // DATE and TIME columns (from casts) read the same way
      assertThat(resultSet.getString("HireDay")).isEqualTo("2014-04-22");
      assertThat(resultSet.getDate("HireDay")).hasToString("2014-04-22");
      assertThat(resultSet.getObject("HireDay")).hasToString("2014-04-22");
      assertThat(resultSet.getObject("HireDay", LocalDate.class)).isEqualTo(LocalDate.parse("2014-04-22"));
      assertThat(resultSet.getDate("HireDay", calendar("UTC")).getTime())
          .isEqualTo(Instant.parse("2014-04-22T00:00:00Z").toEpochMilli());
      assertThat(resultSet.getObject("HireTime", LocalTime.class)).isEqualTo(LocalTime.parse("14:19:55.123"));
      assertThat(resultSet.getTime("HireTime")).hasToString("14:19:55");
    }
  }

  @Test
  void missingDateTimeReadsAsNullOnEveryPath() throws SQLException {
    try (Statement statement = connection.createStatement();
         ResultSet resultSet = statement.executeQuery("SELECT HireDate FROM " + table.getTableName() + " WHERE RowKey = '2'")) {
      assertThat(resultSet.next()).isTrue();
      assertThat(resultSet.getTimestamp(1)).isNull();
      assertThat(resultSet.getTimestamp(1, calendar("UTC"))).isNull();
      assertThat(resultSet.getObject(1)).isNull();
      for (Class<?> type : List.of(LocalDateTime.class, OffsetDateTime.class, Instant.class, LocalDate.class, Timestamp.class)) {
        assertThat(resultSet.getObject(1, type)).as(type.getName()).isNull();
      }
    }
  }

  @Test
  void everyTimeParameterFindsTheStoredInstantWithAndWithoutPushdown() throws SQLException {
    assertParametersFindTheHireDate(connection);
    assertParametersFindTheHireDate(oracle);
  }

  private static void assertParametersFindTheHireDate(Connection on) throws SQLException {
    Map<String, Binder> binders = Map.ofEntries(
        Map.entry("LocalDateTime", statement -> statement.setObject(1, HIRED_WALL_CLOCK)),
        Map.entry("OffsetDateTime", statement -> statement.setObject(1, HIRED.atOffset(ZoneOffset.ofHoursMinutes(5, 30)))),
        Map.entry("ZonedDateTime", statement -> statement.setObject(1, HIRED.atZone(ZoneId.of("America/New_York")))),
        Map.entry("Instant", statement -> statement.setObject(1, HIRED)),
        Map.entry("Timestamp", statement -> statement.setTimestamp(1, Timestamp.valueOf("2014-04-22 14:19:55.123"))),
        Map.entry("Timestamp as object", statement -> statement.setObject(1, Timestamp.valueOf("2014-04-22 14:19:55.123"))),
        Map.entry("Timestamp, UTC calendar", statement -> statement.setTimestamp(1, Timestamp.from(HIRED), calendar("UTC"))),
        Map.entry("Timestamp, Tokyo calendar", statement -> statement.setTimestamp(1,
            Timestamp.from(HIRED_WALL_CLOCK.atZone(ZoneId.of("Asia/Tokyo")).toInstant()), calendar("Asia/Tokyo"))),
        Map.entry("text as TIMESTAMP", statement -> statement.setObject(1, "2014-04-22 14:19:55.123", Types.TIMESTAMP)),
        Map.entry("LocalDateTime as JDBCType", statement -> statement.setObject(1, HIRED_WALL_CLOCK, JDBCType.TIMESTAMP)),
        Map.entry("LocalDateTime, scale", statement -> statement.setObject(1, HIRED_WALL_CLOCK, Types.TIMESTAMP, 3)));
    for (Map.Entry<String, Binder> binder : binders.entrySet()) {
      for (String comparison : List.of("HireDate = ?", "HireDate >= ? AND HireDate <= ?")) {
        try (PreparedStatement statement = on.prepareStatement(
            "SELECT RowKey FROM " + table.getTableName() + " WHERE " + comparison)) {
          binder.getValue().bind(statement);
          if (comparison.contains("AND")) {
            statement.setObject(2, HIRED_WALL_CLOCK);
          }
          assertThat(rowKeys(statement)).as(binder.getKey() + ": " + comparison).containsExactly("1");
        }
      }
    }
  }

  @Test
  void writtenTimeValuesAreStoredAsTheirInstants() throws SQLException {
    try (Statement ddl = connection.createStatement()) {
      ddl.execute("CREATE TABLE IF NOT EXISTS JavaTimeWrites (PartitionKey VARCHAR, RowKey VARCHAR, HiredAt TIMESTAMP)");
    }
    try (PreparedStatement insert = connection.prepareStatement(
        "UPSERT INTO JavaTimeWrites (PartitionKey, RowKey, HiredAt) VALUES ('p', ?, ?)")) {
      Object[] values = {HIRED_WALL_CLOCK, HIRED.atOffset(ZoneOffset.ofHours(-7)), HIRED,
          Timestamp.valueOf("2014-04-22 14:19:55.123"), LocalDate.parse("2014-04-22")};
      for (int i = 0; i < values.length; i++) {
        insert.setString(1, String.valueOf(i));
        insert.setObject(2, values[i]);
        insert.addBatch();
      }
      insert.executeBatch();
    }
    TableClient written = TestAccount.service().getTableClient("JavaTimeWrites");
    for (int i = 0; i < 4; i++) {
      assertThat(((OffsetDateTime) written.getEntity("p", String.valueOf(i)).getProperty("HiredAt")).toInstant())
          .as("row " + i).isEqualTo(HIRED);
    }
    assertThat(((OffsetDateTime) written.getEntity("p", "4").getProperty("HiredAt")).toInstant())
        .isEqualTo(Instant.parse("2014-04-22T00:00:00Z"));
  }

  /**
   * A TIMESTAMP written in SQL without a precision keeps its milliseconds, as a declared column
   * does: {@code CAST('... .123' AS TIMESTAMP)} was TIMESTAMP(0), Calcite's default, and wrote
   * the value without its fraction; a comparison with such a cast lost it too.
   */
  @Test
  void aTimestampCastWithoutPrecisionKeepsItsMilliseconds() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE IF NOT EXISTS JavaTimeCasts (Id INT PRIMARY KEY, T TIMESTAMP)");
      statement.execute("UPSERT INTO JavaTimeCasts VALUES (1, CAST('2014-04-22 14:19:55.123' AS TIMESTAMP)), "
          + "(2, CAST('2014-04-22 14:19:55' AS TIMESTAMP))");
    }
    for (Connection on : List.of(connection, oracle)) {
      assertThat(QueryRuns.run(on, "SELECT Id, T FROM JavaTimeCasts ORDER BY Id").rows())
          .containsExactly("1|2014-04-22 14:19:55.123", "2|2014-04-22 14:19:55.000");
      assertThat(QueryRuns.run(on, "SELECT Id FROM JavaTimeCasts WHERE T = CAST('2014-04-22 14:19:55.123' AS TIMESTAMP)")
          .rows()).containsExactly("1");
      assertThat(QueryRuns.run(on, "SELECT Id FROM JavaTimeCasts WHERE T < CAST('2014-04-22 14:19:55.100' AS TIMESTAMP)")
          .rows()).containsExactly("2");
    }
  }

  /**
   * A TIMESTAMP cast to text keeps its fraction of a second, as PostgreSQL writes it; Calcite's
   * cast wrote whole seconds, so {@code CAST(T AS VARCHAR)} and {@code T || ''} lost the milliseconds.
   */
  @Test
  void aTimestampCastToTextKeepsItsFraction() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE IF NOT EXISTS JavaTimeText (Id INT PRIMARY KEY, T TIMESTAMP)");
      statement.execute("UPSERT INTO JavaTimeText VALUES (1, TIMESTAMP '2014-04-22 14:19:55.123'), "
          + "(2, TIMESTAMP '2014-04-22 14:19:55'), (3, TIMESTAMP '2014-04-22 14:19:55.1'), (4, NULL)");
    }
    for (Connection on : List.of(connection, oracle)) {
      assertThat(QueryRuns.run(on, "SELECT Id, CAST(T AS VARCHAR), T || '|', CAST(T AS CHAR(10)) FROM JavaTimeText "
          + "ORDER BY Id").rows()).containsExactly("1|2014-04-22 14:19:55.123|2014-04-22 14:19:55.123||2014-04-22",
              "2|2014-04-22 14:19:55|2014-04-22 14:19:55||2014-04-22", "3|2014-04-22 14:19:55.1|2014-04-22 14:19:55.1||"
              + "2014-04-22", "4|null|null|null");
      assertThat(QueryRuns.run(on, "SELECT Id FROM JavaTimeText WHERE CAST(T AS VARCHAR) LIKE '%.123'").rows())
          .containsExactly("1");
      assertThat(QueryRuns.run(on, "SELECT CAST(TIMESTAMP '1969-12-31 23:59:59.999' AS VARCHAR)").rows())
          .containsExactly("1969-12-31 23:59:59.999");
    }
  }

  @Test
  void otherTypesConvertWhereNothingIsLost() throws SQLException {
    try (Statement statement = connection.createStatement();
         ResultSet resultSet = statement.executeQuery(
             "SELECT Age, Big, Score, Active, Id, Data, Name FROM " + table.getTableName() + " WHERE RowKey = '1'")) {
      assertThat(resultSet.next()).isTrue();
      assertThat(resultSet.getObject("Age", Integer.class)).isEqualTo(34);
      assertThat(resultSet.getObject("Age", Long.class)).isEqualTo(34L);
      assertThat(resultSet.getObject("Age", BigDecimal.class)).isEqualByComparingTo("34");
      assertThat(resultSet.getObject("Age", String.class)).isEqualTo("34");
      assertThat(resultSet.getObject("Big", Long.class)).isEqualTo(1L << 40);
      assertThat(resultSet.getObject("Score", Double.class)).isEqualTo(2.5);
      assertThat(resultSet.getObject("Score", BigDecimal.class)).isEqualByComparingTo("2.5");
      assertThat(resultSet.getObject("Active", Boolean.class)).isTrue();
      assertThat(resultSet.getObject("Id", UUID.class)).isEqualTo(UUID.fromString(ID));
      assertThat(resultSet.getObject("Data", byte[].class)).containsExactly(1, 2);
      assertThat(resultSet.getObject("Name", Object.class)).isEqualTo("Ann");

      assertConversionFails(() -> resultSet.getObject("Big", Integer.class), "22003", "does not fit INTEGER");
      assertConversionFails(() -> resultSet.getObject("Score", Long.class), "22003", "2.5 does not fit BIGINT");
      assertConversionFails(() -> resultSet.getObject("Name", Integer.class), "22018", "'Ann'", "Name");
      assertConversionFails(() -> resultSet.getObject("Name", UUID.class), "22018", "UUID");
      assertConversionFails(() -> resultSet.getObject("Age", LocalDateTime.class), "22018", "TIMESTAMP");
    }
  }

  @Test
  void otherParametersBindWhereNothingIsLost() throws SQLException {
    String sql = "SELECT RowKey FROM " + table.getTableName() + " WHERE ";
    try (PreparedStatement byAge = connection.prepareStatement(sql + "Age = ?");
         PreparedStatement byId = connection.prepareStatement(sql + "Id = ?");
         PreparedStatement byBig = connection.prepareStatement(sql + "Big = ?");
         PreparedStatement byActive = connection.prepareStatement(sql + "Active = ?")) {
      for (Object age : List.of(34L, new BigDecimal("34.0"), "34", (short) 34)) {
        byAge.setObject(1, age);
        assertThat(rowKeys(byAge)).as(age.getClass().getName()).containsExactly("1");
      }
      byId.setObject(1, UUID.fromString(ID));
      assertThat(rowKeys(byId)).containsExactly("1");
      byBig.setObject(1, new BigDecimal(1L << 40), Types.BIGINT);
      assertThat(rowKeys(byBig)).containsExactly("1");
      byActive.setObject(1, 1);
      assertThat(rowKeys(byActive)).containsExactly("1");

      assertConversionFails(() -> byAge.setObject(1, 1L << 40), "22003", "parameter 1", "does not fit INTEGER");
      assertConversionFails(() -> byAge.setObject(1, 34.5), "22003", "34.5 does not fit INTEGER");
      assertConversionFails(() -> byAge.setObject(1, "thirty"), "22018", "parameter 1", "'thirty'");
      assertConversionFails(() -> byAge.setObject(1, HIRED_WALL_CLOCK), "22018", "LocalDateTime");
      assertConversionFails(() -> byActive.setObject(1, 2), "22018", "BOOLEAN");
      assertConversionFails(() -> byBig.setObject(1, "x", Types.TIMESTAMP), "22018", "2014-04-22 14:19:55.123");
    }
  }

  private static void assertConversionFails(ThrowingCallable call, String sqlState, String... messageParts) {
    assertThatThrownBy(call).isInstanceOfSatisfying(SQLException.class, e -> {
      assertThat(e.getSQLState()).isEqualTo(sqlState);
      assertThat(e.getMessage()).contains(messageParts);
    });
  }

  private interface Binder {
    void bind(PreparedStatement statement) throws SQLException;
  }

  private static List<String> rowKeys(PreparedStatement statement) throws SQLException {
    List<String> keys = new ArrayList<>();
    try (ResultSet resultSet = statement.executeQuery()) {
      while (resultSet.next()) {
        keys.add(resultSet.getString(1));
      }
    }
    return keys;
  }

  private static Calendar calendar(String zone) {
    return Calendar.getInstance(TimeZone.getTimeZone(zone));
  }
}
