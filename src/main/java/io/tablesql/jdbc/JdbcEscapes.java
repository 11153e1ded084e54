package io.tablesql.jdbc;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;

/**
 * The JDBC escape syntax (JDBC 4.3, section 13.4) that Calcite's parser does not read itself,
 * rewritten to plain SQL: {@code {oj <join>}} is the join, {@code {escape 'c'}} after a LIKE is
 * {@code ESCAPE 'c'}, and {@code {limit n offset m}} is {@code LIMIT n OFFSET m}. Function calls
 * ({@code {fn UCASE(x)}}) and date and time literals ({@code {d '...'}}, {@code {t '...'}},
 * {@code {ts '...'}}) are left to the parser, which reads them as the spec defines. Braces
 * inside string literals, quoted identifiers and comments are text, not escapes.
 */
final class JdbcEscapes {
  private JdbcEscapes() {
  }

  /** {@code sql} with the escapes Calcite does not read rewritten; the same text if it has none. */
  static String translate(String sql) {
    if (sql == null || sql.indexOf('{') < 0) {
      return sql;
    }
    StringBuilder out = new StringBuilder(sql.length());
    Deque<Boolean> dropClosingBrace = new ArrayDeque<>(); // one entry per open brace
    int i = 0;
    while (i < sql.length()) {
      char c = sql.charAt(i);
      int skipped = skipQuotedOrComment(sql, i);
      if (skipped > i) {
        out.append(sql, i, skipped);
        i = skipped;
      } else if (c == '{') {
        String keyword = keywordAfter(sql, i + 1);
        if (keyword.equals("oj")) {
          out.append(' ');
          i = skipBlanks(sql, i + 1) + "oj".length();
          dropClosingBrace.push(true);
        } else if (keyword.equals("escape") || keyword.equals("limit")) {
          out.append(' ');
          i++;
          dropClosingBrace.push(true);
        } else {
          out.append(c);
          i++;
          dropClosingBrace.push(false);
        }
      } else if (c == '}' && !dropClosingBrace.isEmpty()) {
        out.append(dropClosingBrace.pop() ? " " : "}");
        i++;
      } else {
        out.append(c);
        i++;
      }
    }
    return out.toString();
  }

  /** The end of a string literal, quoted identifier or comment starting at {@code i}, else {@code i}. */
  private static int skipQuotedOrComment(String sql, int i) {
    char c = sql.charAt(i);
    if (c == '\'' || c == '"') {
      int end = i + 1;
      while (end < sql.length()) {
        if (sql.charAt(end) == c) {
          if (end + 1 < sql.length() && sql.charAt(end + 1) == c) {
            end += 2; // a doubled quote stands for itself
            continue;
          }
          return end + 1;
        }
        end++;
      }
      return sql.length();
    }
    if (sql.startsWith("--", i)) {
      int end = sql.indexOf('\n', i);
      return end < 0 ? sql.length() : end + 1;
    }
    if (sql.startsWith("/*", i)) {
      int end = sql.indexOf("*/", i + 2);
      return end < 0 ? sql.length() : end + 2;
    }
    return i;
  }

  /** The word (letters only) after optional blanks at {@code i}, in lower case. */
  private static String keywordAfter(String sql, int i) {
    int start = skipBlanks(sql, i);
    int end = start;
    while (end < sql.length() && Character.isLetter(sql.charAt(end))) {
      end++;
    }
    return sql.substring(start, end).toLowerCase(Locale.ROOT);
  }

  private static int skipBlanks(String sql, int i) {
    while (i < sql.length() && Character.isWhitespace(sql.charAt(i))) {
      i++;
    }
    return i;
  }
}
