package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablesql.testing.FaultyProxy;
import io.tablesql.testing.FaultyProxy.Fault;
import io.tablesql.testing.QueryRuns;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * CREATE INDEX on a table with rows: built a page (pageSize rows) at a time with its progress reported; a
 * build that fails midway leaves the index unused by queries, and ALTER INDEX ... REBUILD goes on
 * from the last page done.
 */
class IndexBuildTest {
  private static final int ROWS = 400;

  @Test
  void anInterruptedBuildResumesWhereItStopped() throws Exception {
    try (Connection direct = TestAccount.connect("pageSize=100");
        Connection oracle = TestAccount.connect("pushdown=false")) {
      interruptedBuild(direct, "IxBuild");
      String query = "SELECT Id FROM IxBuild WHERE Tag = 'tag7' ORDER BY Id";
      assertThat(QueryRuns.explain(direct, query)).doesNotContain("IxBuildTag"); // not ready: not used
      try (Statement statement = direct.createStatement()) {
        statement.execute("ALTER INDEX IxBuildTag REBUILD");
        List<String> progress = warnings(statement.getWarnings());
        assertThat(progress.get(progress.size() - 1)).startsWith("Index IxBuildTag: 300 rows indexed, 400 entries "
            + "checked");
      }
      assertThat(QueryRuns.explain(direct, query)).contains("INDEX LOOKUP IxBuildTag");
      assertThat(QueryRuns.agreed(direct, oracle, query).rows()).hasSize(ROWS / 40);
    }
  }

  /** A service that does not return rows in key order (Cosmos DB) has no "after the last key": REBUILD starts again. */
  @Test
  void anInterruptedBuildStartsAgainWhereRowsComeUnsorted() throws Exception {
    try (Connection direct = TestAccount.connect("pageSize=100");
        Connection unsorted = TestAccount.connect("pageSize=100", "keyOrder=unsorted");
        Connection oracle = TestAccount.connect("pushdown=false")) {
      interruptedBuild(direct, "IxBuildUnsorted");
      try (Statement statement = unsorted.createStatement()) {
        statement.execute("ALTER INDEX IxBuildUnsortedTag REBUILD");
        List<String> progress = warnings(statement.getWarnings());
        assertThat(progress.get(progress.size() - 1)).startsWith("Index IxBuildUnsortedTag: 400 rows indexed");
      }
      String query = "SELECT Id FROM IxBuildUnsorted WHERE Tag = 'tag7' ORDER BY Id";
      assertThat(QueryRuns.explain(unsorted, query)).contains("INDEX LOOKUP IxBuildUnsortedTag");
      assertThat(QueryRuns.agreed(unsorted, oracle, query).rows()).hasSize(ROWS / 40);
    }
  }

  /** A table of {@link #ROWS} rows whose index on Tag failed in its second page of entries. */
  private static void interruptedBuild(Connection direct, String table) throws Exception {
    try (Statement statement = direct.createStatement()) {
      statement.execute("CREATE TABLE " + table + " (Shard INT, Id INT, Tag VARCHAR, PRIMARY KEY ((Shard), Id))");
    }
    try (PreparedStatement insert = direct.prepareStatement("INSERT INTO " + table + " (Shard, Id, Tag) VALUES (?, ?, ?)")) {
      for (int id = 0; id < ROWS; id++) {
        insert.setInt(1, id % 5);
        insert.setInt(2, id);
        insert.setString(3, "tag" + id % 40);
        insert.addBatch();
      }
      insert.executeBatch();
    }
    try (FaultyProxy proxy = new FaultyProxy("http://127.0.0.1:" + TestAccount.emulator().port());
        Connection faulty = FaultTest.connectThrough(proxy, "maxRetries=0", "pageSize=100");
        Statement statement = faulty.createStatement()) {
      AtomicInteger entryWrites = new AtomicInteger();
      proxy.inject(Fault.BUSY, r -> r.path().contains("/tsi") && !r.method().equals("GET")
          && entryWrites.incrementAndGet() > 150, 1); // in the second page
      assertThatThrownBy(() -> statement.execute("CREATE INDEX " + table + "Tag ON " + table + " (Tag)"))
          .isInstanceOf(SQLException.class).hasMessageContaining("ALTER INDEX " + table + "Tag REBUILD");
    }
  }

  private static List<String> warnings(SQLWarning first) {
    List<String> messages = new ArrayList<>();
    for (SQLWarning warning = first; warning != null; warning = warning.getNextWarning()) {
      messages.add(warning.getMessage());
    }
    return messages;
  }
}
