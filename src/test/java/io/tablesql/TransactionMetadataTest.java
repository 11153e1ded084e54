package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import org.junit.jupiter.api.Test;

/** What DatabaseMetaData and the connection say about transactions matches what the driver does. */
class TransactionMetadataTest {
  @Test
  void transactionsAreReportedAsTheyAre() throws SQLException {
    try (Connection connection = TestAccount.connect()) {
      DatabaseMetaData metaData = connection.getMetaData();
      assertThat(metaData.supportsTransactions()).isTrue();
      assertThat(metaData.supportsMultipleTransactions()).isTrue();
      assertThat(metaData.supportsDataManipulationTransactionsOnly()).isTrue();
      assertThat(metaData.supportsDataDefinitionAndDataManipulationTransactions()).isFalse();
      assertThat(metaData.dataDefinitionCausesTransactionCommit()).isFalse();
      assertThat(metaData.dataDefinitionIgnoredInTransactions()).isFalse();
      assertThat(metaData.supportsSavepoints()).isTrue();
      assertThat(metaData.supportsOpenCursorsAcrossCommit()).isTrue();
      assertThat(metaData.supportsOpenCursorsAcrossRollback()).isTrue();
      assertThat(metaData.supportsOpenStatementsAcrossCommit()).isTrue();
      assertThat(metaData.supportsOpenStatementsAcrossRollback()).isTrue();
      assertThat(metaData.getDefaultTransactionIsolation()).isEqualTo(Connection.TRANSACTION_READ_COMMITTED);
      assertThat(metaData.supportsTransactionIsolationLevel(Connection.TRANSACTION_READ_COMMITTED)).isTrue();
      assertThat(metaData.supportsTransactionIsolationLevel(Connection.TRANSACTION_READ_UNCOMMITTED)).isFalse();
      assertThat(metaData.supportsTransactionIsolationLevel(Connection.TRANSACTION_REPEATABLE_READ)).isFalse();
      assertThat(metaData.supportsTransactionIsolationLevel(Connection.TRANSACTION_SERIALIZABLE)).isFalse();
      assertThat(metaData.supportsTransactionIsolationLevel(Connection.TRANSACTION_NONE)).isFalse();
    }
  }

  @Test
  void isolationIsReadCommittedAndStricterLevelsAreRefused() throws SQLException {
    try (Connection connection = TestAccount.connect()) {
      assertThat(connection.getTransactionIsolation()).isEqualTo(Connection.TRANSACTION_READ_COMMITTED);
      connection.setTransactionIsolation(Connection.TRANSACTION_READ_UNCOMMITTED); // raised, as JDBC allows
      assertThat(connection.getTransactionIsolation()).isEqualTo(Connection.TRANSACTION_READ_COMMITTED);
      connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
      assertThat(connection.getTransactionIsolation()).isEqualTo(Connection.TRANSACTION_READ_COMMITTED);
      for (int stricter : new int[] {Connection.TRANSACTION_REPEATABLE_READ, Connection.TRANSACTION_SERIALIZABLE}) {
        assertThatThrownBy(() -> connection.setTransactionIsolation(stricter))
            .isInstanceOf(SQLFeatureNotSupportedException.class).hasMessageContaining("READ_COMMITTED")
            .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("0A000"));
      }
      assertThatThrownBy(() -> connection.setTransactionIsolation(Connection.TRANSACTION_NONE))
          .isInstanceOf(SQLException.class);
      assertThatThrownBy(() -> connection.setTransactionIsolation(42)).isInstanceOf(SQLException.class)
          .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("HY024"));
      assertThat(connection.getTransactionIsolation()).isEqualTo(Connection.TRANSACTION_READ_COMMITTED);
    }
  }

  @Test
  void metaDataIsReadOnlyOnlyWhenTheConnectionIs() throws SQLException {
    try (Connection connection = TestAccount.connect()) {
      assertThat(connection.getMetaData().isReadOnly()).isFalse();
      connection.setReadOnly(true);
      assertThat(connection.getMetaData().isReadOnly()).isTrue();
    }
  }
}
