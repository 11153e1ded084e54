package io.tablesql;

import io.tablesql.testing.TestAccount;
import java.sql.Connection;

/**
 * The query oracle corpus with every table scan split into up to 8 PartitionKey ranges (the
 * corpus's partitions include quotes, spaces, Latin-1 and CJK keys): the answers, and the key
 * order the ordered queries rely on, must not change.
 */
class SplitOracleTest extends OracleTest {
  @Override
  Connection connectPushed() throws Exception {
    return TestAccount.connect("scanSplits=8");
  }
}
