package io.tablesql;

import io.tablesql.errors.SqlStates;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tablesql.testing.ConnectedTest;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;


import org.junit.jupiter.api.Test;

/** Statement.setEscapeProcessing: escapes are always processed, so true (the default) is accepted and false not. */
class EscapeProcessingTest extends ConnectedTest {
  @Test
  void trueIsAcceptedAndEscapesStillWork() throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.setEscapeProcessing(true);
      try (ResultSet rs = statement.executeQuery("SELECT {fn UCASE('a')}, {d '2024-01-02'} FROM (VALUES (1))")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).isEqualTo("A");
        assertThat(rs.getDate(2)).isEqualTo(java.sql.Date.valueOf("2024-01-02"));
      }
    }
    try (PreparedStatement prepared =
        connection.prepareStatement("SELECT {fn LCASE(CAST(? AS VARCHAR))} FROM (VALUES (1))")) {
      prepared.setEscapeProcessing(true);
      prepared.setString(1, "B");
      try (ResultSet rs = prepared.executeQuery()) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).isEqualTo("b");
      }
    }
  }

  @Test
  void falseIsRefusedAndAClosedStatementSaysSo() throws SQLException {
    Statement statement = connection.createStatement();
    assertThatThrownBy(() -> statement.setEscapeProcessing(false))
        .isInstanceOfSatisfying(SQLFeatureNotSupportedException.class, e -> {
          assertThat(e.getSQLState()).isEqualTo(SqlStates.FEATURE_NOT_SUPPORTED);
          assertThat(e.getMessage()).contains("setEscapeProcessing(false)", "always processed");
        });
    statement.close();
    assertThatThrownBy(() -> statement.setEscapeProcessing(true)).isInstanceOfSatisfying(SQLException.class,
        e -> assertThat(e.getSQLState()).isEqualTo(SqlStates.INVALID_STATE));
  }
}
