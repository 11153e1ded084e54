package io.tablesql;

import static java.util.Map.entry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** What DatabaseMetaData says about the SQL tablesql reads is what the parser and executor do. */
class DialectMetadataTest {
  /**
   * A call of each function metadata may list, on the row S = 'abcabc', X = 2.567, I = 7,
   * T = 2024-03-15 13:45:30 (a Friday) and Missing absent, with the value JDBC 4.3 appendix D
   * defines; null where the value is the moment's (the call must still run and give a value).
   */
  private static final Map<String, List<String>> CALLS = Map.ofEntries(
      entry("ABS", List.of("{fn ABS(-X)}", "2.567")),
      entry("ACOS", List.of("{fn ACOS(0.5)}", "1.0471975511965979")),
      entry("ASIN", List.of("{fn ASIN(0.5)}", "0.5235987755982989")),
      entry("ATAN", List.of("{fn ATAN(1)}", "0.7853981633974483")),
      entry("ATAN2", List.of("{fn ATAN2(1, 2)}", "0.4636476090008061")),
      entry("CBRT", List.of("{fn CBRT(27)}", "3.0")),
      entry("CEILING", List.of("{fn CEILING(X)}", "3.0")),
      entry("COS", List.of("{fn COS(0)}", "1.0")),
      entry("COT", List.of("{fn COT(1)}", "0.6420926159343306")),
      entry("DEGREES", List.of("{fn DEGREES(3.141592653589793)}", "180.0")),
      entry("EXP", List.of("{fn EXP(1)}", "2.718281828459045")),
      entry("FLOOR", List.of("{fn FLOOR(X)}", "2.0")),
      entry("LOG", List.of("{fn LOG(10)}", "2.302585092994046")), // the natural logarithm
      entry("LOG10", List.of("{fn LOG10(100)}", "2.0")),
      entry("MOD", List.of("{fn MOD(I, 3)}", "1")),
      entry("PI", List.of("{fn PI()}", "3.141592653589793")),
      entry("POWER", List.of("{fn POWER(2, 10)}", "1024.0")),
      entry("RADIANS", List.of("{fn RADIANS(180)}", "3.141592653589793")),
      entry("RAND", Arrays.asList("{fn RAND(1)}", null)),
      entry("ROUND", List.of("{fn ROUND(X, 2)}", "2.57")),
      entry("SIGN", List.of("{fn SIGN(-I)}", "-1")),
      entry("SIN", List.of("{fn SIN(0)}", "0.0")),
      entry("SQRT", List.of("{fn SQRT(16)}", "4.0")),
      entry("TAN", List.of("{fn TAN(0)}", "0.0")),
      entry("TRUNCATE", List.of("{fn TRUNCATE(X, 1)}", "2.5")),
      entry("ASCII", List.of("{fn ASCII(S)}", "97")),
      entry("CHAR", List.of("{fn CHAR(65)}", "A")),
      entry("CONCAT", List.of("{fn CONCAT(S, 'x')}", "abcabcx")),
      entry("DIFFERENCE", List.of("{fn DIFFERENCE('Robert', 'Rupert')}", "4")),
      entry("INSERT", List.of("{fn INSERT(S, 2, 3, 'XY')}", "aXYbc")),
      entry("LCASE", List.of("{fn LCASE('AbC')}", "abc")),
      entry("LEFT", List.of("{fn LEFT(S, 2)}", "ab")),
      entry("LENGTH", List.of("{fn LENGTH('abc  ')}", "3")), // trailing blanks do not count
      entry("LOCATE", List.of("{fn LOCATE('c', S, 4)}", "6")),
      entry("LTRIM", List.of("{fn LTRIM('  a')}", "a")),
      entry("REPEAT", List.of("{fn REPEAT('ab', 3)}", "ababab")),
      entry("REPLACE", List.of("{fn REPLACE(S, 'b', 'x')}", "axcaxc")),
      entry("RIGHT", List.of("{fn RIGHT(S, 2)}", "bc")),
      entry("RTRIM", List.of("{fn RTRIM('a  ')}", "a")),
      entry("SOUNDEX", List.of("{fn SOUNDEX('Robert')}", "R163")),
      entry("SPACE", List.of("{fn SPACE(3)}", "   ")),
      entry("SUBSTRING", List.of("{fn SUBSTRING(S, 2, 3)}", "bca")),
      entry("UCASE", List.of("{fn UCASE(S)}", "ABCABC")),
      entry("CURDATE", Arrays.asList("{fn CURDATE()}", null)),
      entry("CURTIME", Arrays.asList("{fn CURTIME()}", null)),
      entry("DAYNAME", List.of("{fn DAYNAME(T)}", "Fri")),
      entry("DAYOFMONTH", List.of("{fn DAYOFMONTH(T)}", "15")),
      entry("DAYOFWEEK", List.of("{fn DAYOFWEEK(T)}", "6")), // Sunday is 1
      entry("DAYOFYEAR", List.of("{fn DAYOFYEAR(T)}", "75")),
      entry("HOUR", List.of("{fn HOUR(T)}", "13")),
      entry("MINUTE", List.of("{fn MINUTE(T)}", "45")),
      entry("MONTH", List.of("{fn MONTH(T)}", "3")),
      entry("MONTHNAME", List.of("{fn MONTHNAME(T)}", "Mar")),
      entry("NOW", Arrays.asList("{fn NOW()}", null)),
      entry("QUARTER", List.of("{fn QUARTER(T)}", "1")),
      entry("SECOND", List.of("{fn SECOND(T)}", "30")),
      entry("TIMESTAMPADD", List.of("{fn TIMESTAMPADD(SQL_TSI_DAY, 1, T)}", "2024-03-16 13:45:30.000")),
      entry("TIMESTAMPDIFF", List.of("{fn TIMESTAMPDIFF(SQL_TSI_DAY, T, {ts '2024-03-20 00:00:00'})}", "4")),
      entry("TO_DATE", List.of("{fn TO_DATE('2024-01-02', 'YYYY-MM-DD')}", "2024-01-02")),
      entry("TO_TIMESTAMP", List.of("{fn TO_TIMESTAMP('2024-01-02 03:04:05', 'YYYY-MM-DD HH24:MI:SS')}",
          "2024-01-02 03:04:05.000")), // TIMESTAMP(3), as columns and TIMESTAMPADD's are
      entry("WEEK", List.of("{fn WEEK(T)}", "11")),
      entry("YEAR", List.of("{fn YEAR(T)}", "2024")),
      entry("CONVERT", List.of("{fn CONVERT(I, SQL_VARCHAR)}", "7")),
      entry("DATABASE", List.of("{fn DATABASE()}", "")),
      entry("IFNULL", List.of("{fn IFNULL(Missing, 0)}", "0")));

  private static String table;
  private static Connection connection;
  private static DatabaseMetaData metadata;

  @BeforeAll
  static void setUp() throws SQLException {
    TableClient client = TestAccount.newTable("Dialect");
    TestAccount.insert(client, List.of(
        new TableEntity("p", "1").addProperty("S", "abcabc").addProperty("X", 2.567).addProperty("I", 7)
            .addProperty("T", OffsetDateTime.parse("2024-03-15T13:45:30Z")),
        new TableEntity("p", "2").addProperty("S", "x").addProperty("Missing", 1),
        new TableEntity("q", "1").addProperty("S", "y").addProperty("I", 7)));
    table = client.getTableName();
    connection = TestAccount.connect();
    metadata = connection.getMetaData();
  }

  @AfterAll
  static void tearDown() throws SQLException {
    connection.close();
  }

  private static List<String> rows(String sql) throws SQLException {
    try (Statement statement = connection.createStatement(); ResultSet resultSet = statement.executeQuery(sql)) {
      List<String> rows = new ArrayList<>();
      int columns = resultSet.getMetaData().getColumnCount();
      while (resultSet.next()) {
        List<String> values = new ArrayList<>();
        for (int i = 1; i <= columns; i++) {
          values.add(resultSet.getString(i));
        }
        rows.add(String.join("|", values));
      }
      return rows;
    }
  }

  @Test
  void everyListedFunctionRunsAsTheSpecDefinesIt() throws SQLException {
    String[] lists = {metadata.getNumericFunctions(), metadata.getStringFunctions(), metadata.getTimeDateFunctions(),
        metadata.getSystemFunctions()};
    int checked = 0;
    for (String list : lists) {
      List<String> names = Arrays.asList(list.split(","));
      for (String name : names) {
        assertThat(CALLS).as(name + " is listed, so this test must call it").containsKey(name);
      }
      String select = names.stream().map(name -> CALLS.get(name).get(0)).collect(Collectors.joining(", "));
      try (Statement statement = connection.createStatement(); ResultSet resultSet = statement.executeQuery(
          "SELECT " + select + " FROM " + table + " WHERE PartitionKey = 'p' AND RowKey = '1'")) {
        assertThat(resultSet.next()).isTrue();
        for (int i = 0; i < names.size(); i++) {
          String expected = CALLS.get(names.get(i)).get(1);
          String actual = resultSet.getString(i + 1);
          if (expected == null) {
            assertThat(actual).as(names.get(i)).isNotNull();
          } else {
            assertThat(actual).as(names.get(i)).isEqualTo(expected);
          }
          checked++;
        }
      }
    }
    assertThat(checked).isGreaterThan(60);
  }

  @Test
  void everyListedKeywordIsReservedAndWorksQuoted() throws SQLException {
    List<String> keywords = Arrays.asList(metadata.getSQLKeywords().split(","));
    assertThat(keywords).contains("LIMIT", "OFFSET", "UPSERT").doesNotContain("SELECT", "FROM"); // SQL:2003's are not listed
    try (Statement statement = connection.createStatement()) {
      for (String keyword : keywords) {
        // as a table alias (without AS, after which tablesql quotes reserved words itself)
        assertThatThrownBy(() -> statement.executeQuery("SELECT 1 FROM " + table + " " + keyword)).as(keyword)
            .isInstanceOf(SQLException.class)
            .satisfies(e -> assertThat(((SQLException) e).getSQLState()).as(keyword).isEqualTo("42000"));
      }
    }
    String quoted = keywords.stream().map(keyword -> "\"" + keyword + "\"").collect(Collectors.joining(", "));
    String ones = keywords.stream().map(keyword -> "1").collect(Collectors.joining(", "));
    assertThat(rows("SELECT " + quoted + " FROM (VALUES (" + ones + ")) AS t(" + quoted + ")"))
        .containsExactly(ones.replace(", ", "|"));
  }

  @Test
  void outerJoinsOfEveryKindRun() throws SQLException {
    assertThat(metadata.supportsOuterJoins()).isTrue();
    assertThat(metadata.supportsLimitedOuterJoins()).isTrue();
    assertThat(metadata.supportsFullOuterJoins()).isTrue();
    String from = " FROM (SELECT * FROM " + table + " WHERE PartitionKey = 'p') a ";
    String on = " (SELECT * FROM " + table + " WHERE PartitionKey = 'q') b ON a.I = b.I";
    assertThat(rows("SELECT a.RowKey, b.S" + from + "LEFT OUTER JOIN" + on + " ORDER BY a.RowKey"))
        .containsExactly("1|y", "2|null");
    assertThat(rows("SELECT a.RowKey, b.S" + from + "RIGHT OUTER JOIN" + on)).containsExactly("1|y");
    assertThat(rows("SELECT a.RowKey, b.S" + from + "FULL OUTER JOIN" + on + " ORDER BY a.RowKey"))
        .containsExactly("1|y", "2|null");
  }

  @Test
  void nullsSortAsMetadataSays() throws SQLException {
    String sql = "SELECT RowKey FROM " + table + " WHERE PartitionKey = 'p' ORDER BY I";
    List<String> ascending = rows(sql);
    List<String> descending = rows(sql + " DESC");
    // row 2 has no I: sorted high, it comes last ascending and first descending
    assertThat(ascending).containsExactly("1", "2");
    assertThat(descending).containsExactly("2", "1");
    assertThat(metadata.nullsAreSortedHigh()).isTrue();
    assertThat(metadata.nullsAreSortedLow()).isFalse();
    assertThat(metadata.nullsAreSortedAtStart()).isFalse();
    assertThat(metadata.nullsAreSortedAtEnd()).isFalse();
  }

  @Test
  void quotedIdentifiersAreCaseInsensitiveAndKeepTheirStoredCase() throws SQLException {
    String quote = metadata.getIdentifierQuoteString();
    assertThat(quote).isEqualTo("\"");
    assertThat(metadata.supportsMixedCaseQuotedIdentifiers()).isFalse();
    assertThat(metadata.storesMixedCaseQuotedIdentifiers()).isTrue();
    try (Statement statement = connection.createStatement(); ResultSet resultSet = statement.executeQuery(
        "SELECT " + quote + "s" + quote + " FROM " + quote + table.toLowerCase() + quote
            + " WHERE " + quote + "ROWKEY" + quote + " = '2'")) {
      assertThat(resultSet.next()).isTrue();
      assertThat(resultSet.getString(1)).isEqualTo("x");
      assertThat(resultSet.getMetaData().getColumnLabel(1)).isEqualTo("S");
    }
  }
}
