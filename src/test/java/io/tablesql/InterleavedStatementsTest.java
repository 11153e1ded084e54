package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Two statements read on one connection at once: each counts its own requests. */
class InterleavedStatementsTest {
  @Test
  void aResultSetReadAfterAnotherStatementRanReportsToItsOwnStatement() throws SQLException {
    TableClient table = TestAccount.newTable("Interleaved");
    List<TableEntity> entities = new ArrayList<>();
    for (int i = 0; i < 2500; i++) {
      entities.add(new TableEntity("p" + i % 5, String.format("%05d", i)).addProperty("N", i));
    }
    TestAccount.insert(table, entities);
    // one chain of pages, so that the scan's requests are its 3 pages (split scans: SplitScanTest)
    try (Connection connection = TestAccount.connect("scanSplits=1"); Statement scan = connection.createStatement();
         Statement lookup = connection.createStatement()) {
      scan.executeQuery("SELECT COUNT(*) FROM " + table.getTableName()).close(); // samples the table first
      int rows = 0;
      try (ResultSet all = scan.executeQuery("SELECT N FROM " + table.getTableName())) {
        assertThat(all.next()).isTrue();
        rows++;
        try (ResultSet one = lookup.executeQuery("SELECT N FROM " + table.getTableName()
            + " WHERE PartitionKey = 'p1' AND RowKey = '00001'")) {
          assertThat(one.next()).isTrue();
        }
        while (all.next()) {
          rows++;
        }
      }
      assertThat(rows).isEqualTo(2500);
      assertThat(scan.unwrap(TableSqlStatement.class).requestCount()).isEqualTo(3); // its pages, all of them
      assertThat(lookup.unwrap(TableSqlStatement.class).requestCount()).isEqualTo(1);

      // a lookup join opens the scans of its later batches while it is read
      TableClient keys = TestAccount.newTable("InterleavedKeys");
      List<TableEntity> refs = new ArrayList<>();
      for (int i = 0; i < 250; i++) {
        refs.add(new TableEntity("k", String.format("%05d", i)).addProperty("P", "p" + i % 5)
            .addProperty("R", String.format("%05d", i)));
      }
      TestAccount.insert(keys, refs);
      String join = "SELECT b.N FROM " + keys.getTableName() + " k JOIN " + table.getTableName()
          + " b ON b.PartitionKey = k.P AND b.RowKey = k.R";
      int joined = 0;
      try (ResultSet all = scan.executeQuery(join)) {
        assertThat(all.next()).isTrue();
        joined++;
        try (ResultSet one = lookup.executeQuery("SELECT N FROM " + table.getTableName()
            + " WHERE PartitionKey = 'p1' AND RowKey = '00001'")) {
          assertThat(one.next()).isTrue();
        }
        while (all.next()) {
          joined++;
        }
      }
      assertThat(joined).isEqualTo(250);
      assertThat(lookup.unwrap(TableSqlStatement.class).requestCount()).isEqualTo(1); // none of the join's
      assertThat(scan.unwrap(TableSqlStatement.class).requestCount()).isGreaterThan(250);
    }
  }
}
