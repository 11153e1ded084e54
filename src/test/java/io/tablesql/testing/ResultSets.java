package io.tablesql.testing;

import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** What tests compare of two result sets that must be the same. */
public final class ResultSets {
  private ResultSets() {
  }

  /** Everything a client reads from a result set: its metadata, then each value with its class and as text. */
  public static List<String> readAll(ResultSet rows) throws SQLException {
    ResultSetMetaData metaData = rows.getMetaData();
    List<String> read = metadata(metaData);
    while (rows.next()) {
      StringBuilder row = new StringBuilder();
      for (int i = 1; i <= metaData.getColumnCount(); i++) {
        Object value = rows.getObject(i);
        String shown = value instanceof byte[] bytes ? java.util.Arrays.toString(bytes) : String.valueOf(value);
        row.append(value == null ? "null" : value.getClass().getSimpleName()).append(':').append(shown)
            .append('/').append(rows.getString(i)).append(rows.wasNull() ? "(null)" : "").append(' ');
      }
      read.add(row.toString());
    }
    return read;
  }

  /** Everything a client reads of a result set's columns, one line per column. */
  public static List<String> metadata(ResultSetMetaData metaData) throws SQLException {
    List<String> read = new ArrayList<>();
    for (int i = 1; i <= metaData.getColumnCount(); i++) {
      read.add(String.join("|", metaData.getColumnName(i), metaData.getColumnLabel(i),
          String.valueOf(metaData.getColumnType(i)), metaData.getColumnTypeName(i), metaData.getColumnClassName(i),
          String.valueOf(metaData.getPrecision(i)), String.valueOf(metaData.getScale(i)),
          String.valueOf(metaData.isNullable(i)), String.valueOf(metaData.isSigned(i)),
          String.valueOf(metaData.getColumnDisplaySize(i)), metaData.getTableName(i), metaData.getSchemaName(i),
          metaData.getCatalogName(i), String.valueOf(metaData.isAutoIncrement(i)),
          String.valueOf(metaData.isCaseSensitive(i)), String.valueOf(metaData.isSearchable(i)),
          String.valueOf(metaData.isReadOnly(i)), String.valueOf(metaData.isWritable(i))));
    }
    return read;
  }
}
