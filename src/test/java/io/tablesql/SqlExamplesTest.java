package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablesql.shell.LocalEmulator;
import io.tablesql.shell.SampleData;
import io.tablesql.testing.TestAccount;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Runs every sql-examples/*.sql file on the sample dataset: each statement must return the rows
 * its {@code -- expect rows: N} comment says, and the first must use the access path the file's
 * header names. The examples cannot rot.
 */
class SqlExamplesTest {
  private static final Path EXAMPLES = Path.of("sql-examples");
  private static final Pattern EXPECT = Pattern.compile("--\\s*expect (rows|updated):\\s*(\\d+)");
  private static final Pattern ACCESS = Pattern.compile("--\\s*Access path:\\s*(.+)");

  @BeforeAll
  static void loadDataset() throws IOException, SQLException {
    LocalEmulator emulator = TestAccount.emulator();
    SampleData.load(EXAMPLES.resolve("dataset.json"), emulator.tableEndpoint(), LocalEmulator.ACCOUNT,
        LocalEmulator.KEY);
    SampleData.declare(EXAMPLES.resolve("setup/tables.sql"), emulator.connectionString());
  }

  static Stream<Path> examples() throws IOException {
    return Files.list(EXAMPLES).filter(path -> path.toString().endsWith(".sql")).sorted();
  }

  /** A statement of an example file and the rows it must return (or, for a write, update). */
  record Example(String sql, boolean write, int expected) {
  }

  static List<Example> parse(String text) {
    List<Example> examples = new ArrayList<>();
    StringBuilder statement = new StringBuilder();
    String pending = null;
    for (String line : text.split("\n")) {
      Matcher expect = EXPECT.matcher(line);
      if (expect.find()) {
        assertThat(pending).as("an expectation follows a statement").isNotNull();
        examples.add(new Example(pending, expect.group(1).equals("updated"), Integer.parseInt(expect.group(2))));
        pending = null;
      } else if (!line.trim().startsWith("--")) {
        statement.append(line).append('\n');
        if (line.trim().endsWith(";")) {
          assertThat(pending).as("every statement has an expectation: " + pending).isNull();
          String sql = statement.toString().trim();
          pending = sql.substring(0, sql.length() - 1);
          statement.setLength(0);
        }
      }
    }
    assertThat(pending).as("every statement has an expectation").isNull();
    return examples;
  }

  @ParameterizedTest
  @MethodSource("examples")
  void exampleReturnsWhatItSays(Path file) throws IOException, SQLException {
    String text = Files.readString(file, StandardCharsets.UTF_8);
    Matcher access = ACCESS.matcher(text);
    assertThat(access.find()).as(file + " names its access path").isTrue();
    List<Example> examples = parse(text);
    assertThat(examples).as(file + " has statements").isNotEmpty();
    String path = access.group(1).trim();
    // the connection the shell opens on the sample data
    try (Connection connection = TestAccount.connect("lookupTables=Departments");
         Statement statement = connection.createStatement()) {
      // the access path of the first statement that reads a table: a query, an UPDATE or a DELETE
      boolean explained = path.equals("none");
      for (Example example : examples) {
        if (!explained && example.sql().matches("(?s)(SELECT|UPDATE|DELETE).*")) {
          try (ResultSet plan = statement.executeQuery("EXPLAIN PLAN FOR " + example.sql())) {
            plan.next();
            assertThat(plan.getString(1)).as(file + " access path").contains("access=[" + path);
          }
          explained = true;
        }
        int result = 0;
        if (example.write()) {
          result = statement.executeUpdate(example.sql());
        } else {
          try (ResultSet resultSet = statement.executeQuery(example.sql())) {
            while (resultSet.next()) {
              result++;
            }
          }
        }
        assertThat(result).as(file + ": " + example.sql()).isEqualTo(example.expected());
      }
      assertThat(explained).as(file + " has a statement whose access path is checked").isTrue();
    }
  }

  /**
   * The sample's BI questions that name only the tables are answered from the materialized views
   * of tables.sql (the issue "Derived data kept by the driver"): one request each, and EXPLAIN
   * says which view.
   */
  @org.junit.jupiter.api.Test
  void theSamplesViewsAnswerQueriesThatDoNotNameThem() throws SQLException {
    try (Connection connection = TestAccount.connect("lookupTables=Departments")) {
      for (String[] question : new String[][] {
          {"SELECT COUNT(*), SUM(Age) FROM People WHERE Department = 'Sales'", "PeopleByDepartment", "1"},
          {"SELECT Department, EmployeeId, FirstName FROM People WHERE Email = 'hugo.oneil@contoso.com'",
              "PeopleByEmailCopy", "1"},
          {"SELECT OrderDate, EmployeeName FROM EmployeeOrder WHERE Department = 'Sales' ORDER BY OrderDate DESC",
              "OrdersByDepartment", "1"}}) {
        assertThat(io.tablesql.testing.QueryRuns.explain(connection, question[0])).as(question[0])
            .contains(question[1]);
        assertThat(io.tablesql.testing.QueryRuns.run(connection, question[0]).requests()).as(question[0])
            .isEqualTo(Long.parseLong(question[2]));
      }
    }
  }
}
