package io.tablesql.testing;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** A query's rows as text, for assertions: each row its values (getString) joined by a separator. */
public final class QueryRows {
  private QueryRows() {
  }

  public static List<String> of(Statement statement, String sql, String separator) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (ResultSet result = statement.executeQuery(sql)) {
      while (result.next()) {
        List<String> values = new ArrayList<>();
        for (int c = 1; c <= result.getMetaData().getColumnCount(); c++) {
          values.add(result.getString(c));
        }
        rows.add(String.join(separator, values));
      }
    }
    return rows;
  }
}
