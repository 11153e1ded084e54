package io.tablesql;

import io.tablesql.errors.SqlStates;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.data.tables.TableClient;
import com.azure.data.tables.models.TableEntity;
import io.tablesql.testing.TestAccount;
import java.sql.Connection;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.OffsetDateTime;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** PreparedStatement.getParameterMetaData: plain type names, translated errors, no way around the driver. */
class ParameterMetaDataTest {
  private static Connection connection;
  private static String table;

  @BeforeAll
  static void setUp() throws SQLException {
    TableClient client = TestAccount.newTable("Params");
    TestAccount.insert(client, List.of(new TableEntity("p", "1").addProperty("Name", "a").addProperty("Age", 1)
        .addProperty("Born", OffsetDateTime.parse("2000-01-01T00:00:00Z"))));
    table = client.getTableName();
    connection = TestAccount.connect();
  }

  @AfterAll
  static void tearDown() throws SQLException {
    connection.close();
  }

  @Test
  void typesAndTypeNamesArePlain() throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(
        "SELECT * FROM " + table + " WHERE Name = ? AND Age > ? AND Born < ?")) {
      ParameterMetaData parameters = statement.getParameterMetaData();
      assertThat(parameters.getParameterCount()).isEqualTo(3);
      assertThat(parameters.getParameterType(1)).isEqualTo(Types.VARCHAR);
      assertThat(parameters.getParameterType(2)).isEqualTo(Types.INTEGER);
      assertThat(parameters.getParameterType(3)).isEqualTo(Types.TIMESTAMP);
      assertThat(parameters.getParameterTypeName(1)).isEqualTo("VARCHAR");
      assertThat(parameters.getParameterTypeName(2)).isEqualTo("INTEGER");
      assertThat(parameters.getParameterTypeName(3)).isEqualTo("TIMESTAMP");
      assertThat(parameters.getParameterMode(1)).isEqualTo(ParameterMetaData.parameterModeIn);
    }
  }

  @Test
  void aWrongIndexIsRefusedWithItsSqlState() throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement("SELECT * FROM " + table + " WHERE Name = ?")) {
      ParameterMetaData parameters = statement.getParameterMetaData();
      for (int index : new int[] {0, 2}) { // every method refuses it, also those Calcite answers for any index
        assertThatThrownBy(() -> parameters.getParameterType(index)).isInstanceOfSatisfying(SQLException.class,
            e -> assertThat(e.getSQLState()).isEqualTo(SqlStates.INVALID_PARAMETER_INDEX));
        assertThatThrownBy(() -> parameters.getParameterTypeName(index)).isInstanceOfSatisfying(SQLException.class,
            e -> assertThat(e.getSQLState()).isEqualTo(SqlStates.INVALID_PARAMETER_INDEX));
        assertThatThrownBy(() -> parameters.isNullable(index)).isInstanceOfSatisfying(SQLException.class,
            e -> assertThat(e.getSQLState()).isEqualTo(SqlStates.INVALID_PARAMETER_INDEX));
      }
    }
  }

  @Test
  void theMetadataIsNotCalcitesStatement() throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement("SELECT * FROM " + table + " WHERE Name = ?")) {
      ParameterMetaData parameters = statement.getParameterMetaData();
      assertThat(parameters).isNotInstanceOf(PreparedStatement.class);
      assertThat(parameters.isWrapperFor(ParameterMetaData.class)).isTrue();
      assertThat(parameters.unwrap(ParameterMetaData.class)).isSameAs(parameters);
    }
  }
}
