package io.tablesql.server;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The statements of a simple-query message: its text cut at the semicolons that end statements,
 * not those inside string literals ({@code '...'}, {@code E'...'}), quoted identifiers,
 * dollar-quoted strings or comments; statements that are only blanks and comments are left out.
 */
final class QueryText {
  private QueryText() {
  }

  static List<String> statements(String text) {
    List<String> statements = new ArrayList<>();
    int start = 0;
    int i = 0;
    boolean content = false;
    while (i < text.length()) {
      int skipped = skipQuotedOrComment(text, i);
      if (skipped > i) {
        content |= !isComment(text, i);
        i = skipped;
      } else if (text.charAt(i) == ';') {
        if (content) {
          statements.add(text.substring(start, i).trim());
        }
        start = i + 1;
        content = false;
        i++;
      } else {
        content |= !Character.isWhitespace(text.charAt(i));
        i++;
      }
    }
    if (content) {
      statements.add(text.substring(start).trim());
    }
    return statements;
  }

  /** A statement with PostgreSQL's parameters ({@code $1}) as JDBC's ({@code ?}), and which {@code $n} each {@code ?} is. */
  record JdbcText(String sql, List<Integer> parameters) {
  }

  /** {@code $n} placeholders outside quotes and comments, each as a {@code ?} (JDBC's are positional). */
  static JdbcText jdbc(String text) {
    StringBuilder sql = new StringBuilder(text.length());
    List<Integer> parameters = new ArrayList<>();
    int i = 0;
    while (i < text.length()) {
      int skipped = skipQuotedOrComment(text, i);
      if (skipped > i) {
        sql.append(text, i, skipped);
        i = skipped;
        continue;
      }
      char c = text.charAt(i);
      int digits = i + 1;
      while (c == '$' && digits < text.length() && Character.isDigit(text.charAt(digits))) {
        digits++;
      }
      if (digits > i + 1) {
        String number = text.substring(i + 1, digits);
        parameters.add(number.length() > 9 ? Integer.MAX_VALUE : Integer.parseInt(number)); // past any Bind's
        sql.append('?');
        i = digits;
      } else {
        sql.append(c);
        i++;
      }
    }
    return new JdbcText(sql.toString(), parameters);
  }

  private static boolean isComment(String text, int i) {
    return text.startsWith("--", i) || text.startsWith("/*", i);
  }

  /** The end of a quoted run or comment starting at {@code i}; {@code i} itself where none starts. */
  private static int skipQuotedOrComment(String text, int i) {
    char c = text.charAt(i);
    if (c == '\'') {
      return quoted(text, i, '\'', i > 0 && (text.charAt(i - 1) == 'E' || text.charAt(i - 1) == 'e'));
    }
    if (c == '"') {
      return quoted(text, i, '"', false);
    }
    if (text.startsWith("--", i)) {
      int newline = text.indexOf('\n', i);
      return newline < 0 ? text.length() : newline + 1;
    }
    if (text.startsWith("/*", i)) {
      int close = text.indexOf("*/", i + 2);
      return close < 0 ? text.length() : close + 2;
    }
    String tag = c == '$' ? dollarTag(text, i) : null;
    if (tag != null) {
      int close = text.indexOf(tag, i + tag.length());
      return close < 0 ? text.length() : close + tag.length();
    }
    return i;
  }

  /** The end (exclusive) of a quoted run starting at {@code open}; a doubled quote stays inside. */
  private static int quoted(String text, int open, char quote, boolean backslashEscapes) {
    int i = open + 1;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (backslashEscapes && c == '\\') {
        i += 2;
      } else if (c == quote) {
        if (i + 1 < text.length() && text.charAt(i + 1) == quote) {
          i += 2;
        } else {
          return i + 1;
        }
      } else {
        i++;
      }
    }
    return text.length();
  }

  /** The tag of a dollar quote starting at {@code i} ({@code $$}, {@code $body$}), or null. */
  private static String dollarTag(String text, int i) {
    if (i > 0 && (Character.isLetterOrDigit(text.charAt(i - 1)) || text.charAt(i - 1) == '_')) {
      return null; // part of an identifier
    }
    int j = i + 1;
    while (j < text.length() && (Character.isLetterOrDigit(text.charAt(j)) || text.charAt(j) == '_')) {
      j++;
    }
    if (j < text.length() && text.charAt(j) == '$' && (j == i + 1 || !Character.isDigit(text.charAt(i + 1)))) {
      return text.substring(i, j + 1);
    }
    return null;
  }

  /** The statement's first words in upper case, as many as given: {@code CREATE TABLE}. */
  static List<String> leadingWords(String statement, int count) {
    List<String> words = new ArrayList<>();
    for (String word : withoutLeadingComments(statement).split("[\\s(]+", count + 1)) {
      if (words.size() == count || word.isEmpty()) {
        break;
      }
      words.add(word.toUpperCase(Locale.ROOT));
    }
    return words;
  }

  /** {@code statement} from its first word on: blanks, {@code -- ...} lines and {@code /* ... *}{@code /} comments (nested, as PostgreSQL's) skipped. */
  static String withoutLeadingComments(String statement) {
    int i = 0;
    while (i < statement.length()) {
      if (Character.isWhitespace(statement.charAt(i))) {
        i++;
      } else if (statement.startsWith("--", i)) {
        int end = statement.indexOf('\n', i);
        i = end < 0 ? statement.length() : end + 1;
      } else if (statement.startsWith("/*", i)) {
        int depth = 0;
        do {
          if (statement.startsWith("/*", i)) {
            depth++;
            i += 2;
          } else if (statement.startsWith("*/", i)) {
            depth--;
            i += 2;
          } else {
            i++;
          }
        } while (depth > 0 && i < statement.length());
      } else {
        break;
      }
    }
    return statement.substring(i).trim();
  }
}
