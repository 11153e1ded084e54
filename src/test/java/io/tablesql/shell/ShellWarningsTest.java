package io.tablesql.shell;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablesql.testing.TestAccount;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the shell prints for a script run with {@code --run}, as a newcomer first sees it. */
class ShellWarningsTest {
  @Test
  void aWarningOfAScriptPrintsOnceWithoutAStackTrace() throws Exception {
    Path script = Files.createTempFile("tablesql-script", ".sql");
    Files.writeString(script, "CREATE TABLE ShWarn (Id INT PRIMARY KEY, Dept VARCHAR(10), Pay INT);\n"
        + "INSERT INTO ShWarn VALUES (1, 'a', 10), (2, 'b', 20);\n"
        + "CREATE MATERIALIZED VIEW ShWarnByDept AS SELECT Dept, COUNT(*) AS N FROM ShWarn GROUP BY Dept;\n"
        + "DROP TABLE ShWarn CASCADE;\n");
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    PrintStream out = System.out;
    PrintStream err = System.err;
    PrintStream capture = new PrintStream(printed, true, StandardCharsets.UTF_8);
    int status;
    try {
      System.setOut(capture);
      System.setErr(capture);
      status = Shell.runSqlLine(TestAccount.emulator().connectionString(), List.of("--run=" + script));
    } finally {
      System.setOut(out);
      System.setErr(err);
      Files.delete(script);
    }
    String text = printed.toString(StandardCharsets.UTF_8);
    assertThat(status).as(text).isZero();
    assertThat(text.split("Materialized view ShWarnByDept: ", -1)).as(text).hasSize(2);
    assertThat(text).contains("Warning: Materialized view ShWarnByDept").doesNotContain("java.sql.SQLWarning")
        .doesNotContain("\tat ");
  }
}
