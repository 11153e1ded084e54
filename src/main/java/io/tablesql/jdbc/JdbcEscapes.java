package io.tablesql.jdbc;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JDBC escape syntax (JDBC 4.3, section 13.4) that Calcite's parser does not read itself,
 * rewritten to plain SQL: {@code {oj <join>}} is the join, {@code {escape 'c'}} after a LIKE is
 * {@code ESCAPE 'c'}, {@code {limit n offset m}} is {@code LIMIT n OFFSET m}, and
 * {@code {fn LENGTH(s)}} counts characters without trailing blanks, as the spec's LENGTH does
 * (Calcite's counts them). Other function calls ({@code {fn UCASE(x)}}) and date and time
 * literals ({@code {d '...'}}, {@code {t '...'}}, {@code {ts '...'}}) are left to the parser,
 * which reads them as the spec defines. Braces inside string literals, quoted identifiers and
 * comments are text, not escapes.
 */
final class JdbcEscapes {
  private static final Pattern LENGTH_CALL = Pattern.compile("\\{\\s*fn\\s+length\\s*\\(", Pattern.CASE_INSENSITIVE);
  private JdbcEscapes() {
  }

  /** {@code sql} with the escapes Calcite does not read rewritten; the same text if it has none. */
  static String translate(String sql) {
    if (sql == null || sql.indexOf('{') < 0) {
      return sql;
    }
    StringBuilder out = new StringBuilder(sql.length());
    Deque<String> closingBrace = new ArrayDeque<>(); // what each open brace's closing one becomes
    int i = 0;
    while (i < sql.length()) {
      char c = sql.charAt(i);
      int skipped = skipQuotedOrComment(sql, i);
      if (skipped > i) {
        out.append(sql, i, skipped);
        i = skipped;
      } else if (c == '{') {
        String keyword = keywordAfter(sql, i + 1);
        Matcher length = LENGTH_CALL.matcher(sql).region(i, sql.length());
        if (length.lookingAt()) {
          out.append(" CHAR_LENGTH(TRIM(TRAILING ' ' FROM ");
          i = length.end();
          closingBrace.push(") "); // LENGTH's own ')' closes TRIM; the brace closes CHAR_LENGTH
        } else if (keyword.equals("oj")) {
          out.append(' ');
          i = skipBlanks(sql, i + 1) + "oj".length();
          closingBrace.push(" ");
        } else if (keyword.equals("escape") || keyword.equals("limit")) {
          out.append(' ');
          i++;
          closingBrace.push(" ");
        } else {
          out.append(c);
          i++;
          closingBrace.push("}");
        }
      } else if (c == '}' && !closingBrace.isEmpty()) {
        out.append(closingBrace.pop());
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
