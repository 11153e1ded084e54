package io.tablesql.jdbc;

import io.tablesql.errors.SqlStates;
import java.sql.SQLException;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Tools write reserved words as unquoted aliases ({@code SELECT COUNT(*) AS COUNT}, SchemaCrawler's
 * row count), which Calcite's parser refuses and its reserved-word list cannot be changed without
 * generating a parser. A statement that fails to parse at a word right after {@code AS} is run
 * again with that word quoted: the same name, since unquoted identifiers keep their case.
 */
final class ReservedAliases {
  private static final int MAX_ALIASES = 50;

  /** One way of running a SQL text. */
  interface SqlRun<T> {
    T run(String sql) throws SQLException;
  }

  private ReservedAliases() {
  }

  /** Runs {@code sql}; on a syntax error that quoting reserved aliases cures, runs the quoted text. */
  static <T> T run(String sql, SqlRun<T> action) throws SQLException {
    try {
      return action.run(sql);
    } catch (SQLException e) {
      String quoted = SqlStates.SYNTAX_ERROR.equals(e.getSQLState()) ? quote(sql) : null;
      if (quoted == null) {
        throw e;
      }
      return action.run(quoted);
    }
  }

  /** {@code sql} with its reserved words used as aliases quoted, if that makes it parse; else null. */
  static String quote(String sql) {
    String text = sql;
    for (int quoted = 0; quoted <= MAX_ALIASES; quoted++) {
      try {
        SqlParser.create(text, ParserSettings.PARSER).parseStmt();
        return quoted == 0 ? null : text;
      } catch (SqlParseException e) {
        int start = offset(text, e.getPos());
        int end = start;
        while (end < text.length() && (Character.isLetterOrDigit(text.charAt(end)) || text.charAt(end) == '_')) {
          end++;
        }
        if (start < 0 || end == start || !followsAs(text, start)) {
          return null;
        }
        text = text.substring(0, start) + '"' + text.substring(start, end) + '"' + text.substring(end);
      }
    }
    return null;
  }

  /** Whether the word at {@code start} comes right after the keyword AS. */
  private static boolean followsAs(String text, int start) {
    int i = start;
    while (i > 0 && Character.isWhitespace(text.charAt(i - 1))) {
      i--;
    }
    return i < start && i >= 2 && text.regionMatches(true, i - 2, "AS", 0, 2)
        && (i == 2 || !Character.isLetterOrDigit(text.charAt(i - 3)) && text.charAt(i - 3) != '_');
  }

  /** The offset of a 1-based line and column in {@code text}; -1 if unknown. */
  private static int offset(String text, SqlParserPos pos) {
    if (pos == null || pos.getLineNum() < 1 || pos.getColumnNum() < 1) {
      return -1;
    }
    int offset = 0;
    for (int line = 1; line < pos.getLineNum(); line++) {
      offset = text.indexOf('\n', offset) + 1;
      if (offset == 0) {
        return -1;
      }
    }
    offset += pos.getColumnNum() - 1;
    return offset < text.length() ? offset : -1;
  }
}
