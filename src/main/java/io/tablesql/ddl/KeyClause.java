package io.tablesql.ddl;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The PRIMARY KEY forms of CREATE TABLE that Calcite's grammar does not read, rewritten to the one
 * it does. A table's key may be given as {@code PRIMARY KEY ((a, b), c, d DESC)}: the columns in
 * the inner parentheses make up the PartitionKey, the rest the RowKey, DESC reverses a column's
 * order. Without inner parentheses the first column is the PartitionKey. A column may also be
 * declared {@code id INT PRIMARY KEY}. Each becomes {@code CONSTRAINT "<layout>" PRIMARY KEY (a, b,
 * c, d)}, where the constraint's name records the partition columns and directions
 * ({@link #layoutOf} reads it back). Text it does not understand is left to the parser.
 */
public final class KeyClause {
  private static final String MARKER = "TABLESQL_KEY_P";
  private static final Pattern LAYOUT = Pattern.compile(MARKER + "(\\d+)_([AD]+)");

  /** The partition/row split and directions a rewritten constraint's name records. */
  public record Layout(int partitionColumns, List<Boolean> descending) {
  }

  private KeyClause() {
  }

  /** The layout recorded in a constraint's name, or null for a name it did not write. */
  public static Layout layoutOf(String constraintName) {
    Matcher matcher = constraintName == null ? null : LAYOUT.matcher(constraintName);
    if (matcher == null || !matcher.matches()) {
      return null;
    }
    List<Boolean> descending = new ArrayList<>();
    for (char c : matcher.group(2).toCharArray()) {
      descending.add(c == 'D');
    }
    return new Layout(Integer.parseInt(matcher.group(1)), descending);
  }

  /** {@code sql} with its PRIMARY KEY clause rewritten, or unchanged if it has none it can read. */
  public static String rewrite(String sql) {
    if (!sql.toUpperCase(Locale.ROOT).contains("PRIMARY")) {
      return sql;
    }
    List<Token> tokens = Token.scan(sql);
    if (tokens.size() < 4 || !tokens.get(0).is("CREATE") || !tokens.get(1).is("TABLE")) {
      return sql;
    }
    int open = -1;
    for (int i = 2; i < tokens.size(); i++) {
      if (tokens.get(i).text().equals("(")) {
        open = i;
        break;
      }
    }
    if (open < 0) {
      return sql;
    }
    List<int[]> elements = elements(tokens, open);
    if (elements == null) {
      return sql;
    }
    Rewrite rewrite = null;
    for (int[] element : elements) {
      Rewrite found = tableLevel(tokens, element);
      if (found == null) {
        found = columnLevel(tokens, element);
      }
      if (found != null) {
        if (rewrite != null) {
          return sql; // two primary keys: the executor reports it
        }
        rewrite = found;
      }
    }
    return rewrite == null ? sql : rewrite.apply(sql, tokens.get(elements.get(elements.size() - 1)[1]).end());
  }

  /** What to change: replace [from, to) with {@code replacement}, and append {@code appended} to the list. */
  private record Rewrite(int from, int to, String replacement, String appended) {
    String apply(String sql, int listEnd) {
      StringBuilder out = new StringBuilder(sql.substring(0, from)).append(replacement);
      out.append(sql, to, listEnd);
      if (appended != null) {
        out.append(", ").append(appended);
      }
      return out.append(sql.substring(listEnd)).toString();
    }
  }

  /** The token ranges [first, last] of the comma-separated elements inside the parentheses at {@code open}. */
  static List<int[]> elements(List<Token> tokens, int open) {
    List<int[]> elements = new ArrayList<>();
    int depth = 0;
    int start = open + 1;
    for (int i = open; i < tokens.size(); i++) {
      String text = tokens.get(i).text();
      if (text.equals("(")) {
        depth++;
      } else if (text.equals(")") && --depth == 0) {
        if (i > start) {
          elements.add(new int[] {start, i - 1});
        }
        return elements;
      } else if (text.equals(",") && depth == 1) {
        elements.add(new int[] {start, i - 1});
        start = i + 1;
      }
    }
    return null;
  }

  /** {@code [CONSTRAINT name] PRIMARY KEY (spec)}: the element as a named standard constraint. */
  private static Rewrite tableLevel(List<Token> tokens, int[] element) {
    int i = element[0];
    if (tokens.get(i).is("CONSTRAINT")) {
      i += 2;
    }
    if (i + 2 > element[1] || !tokens.get(i).is("PRIMARY") || !tokens.get(i + 1).is("KEY")
        || !tokens.get(i + 2).text().equals("(") || !tokens.get(element[1]).text().equals(")")) {
      return null;
    }
    List<String> columns = new ArrayList<>();
    StringBuilder directions = new StringBuilder();
    int partitionColumns = -1;
    int j = i + 3;
    boolean first = true;
    while (j < element[1]) {
      if (first && tokens.get(j).text().equals("(")) {
        j++;
        while (j < element[1] && !tokens.get(j).text().equals(")")) {
          if (!tokens.get(j).isName()) {
            return null;
          }
          columns.add(tokens.get(j).text());
          directions.append('A');
          j++;
          if (tokens.get(j).text().equals(",")) {
            j++;
          }
        }
        partitionColumns = columns.size();
        j++;
      } else if (tokens.get(j).isName()) {
        columns.add(tokens.get(j).text());
        j++;
        boolean descending = j < element[1] && tokens.get(j).is("DESC");
        if (descending || j < element[1] && tokens.get(j).is("ASC")) {
          j++;
        }
        directions.append(descending ? 'D' : 'A');
      } else {
        return null;
      }
      first = false;
      if (j < element[1]) {
        if (!tokens.get(j).text().equals(",")) {
          return null;
        }
        j++;
      }
    }
    if (columns.isEmpty() || partitionColumns == 0) {
      return null;
    }
    String constraint = constraint(columns, partitionColumns < 0 ? 1 : partitionColumns, directions.toString());
    return new Rewrite(tokens.get(element[0]).start(), tokens.get(element[1]).end(), constraint, null);
  }

  /** {@code name type ... PRIMARY KEY ...}: the words removed, a table constraint added. */
  private static Rewrite columnLevel(List<Token> tokens, int[] element) {
    if (!tokens.get(element[0]).isName()) {
      return null;
    }
    for (int i = element[0] + 1; i < element[1]; i++) {
      if (tokens.get(i).is("PRIMARY") && tokens.get(i + 1).is("KEY")) {
        return new Rewrite(tokens.get(i).start(), tokens.get(i + 1).end(), "",
            constraint(List.of(tokens.get(element[0]).text()), 1, "A"));
      }
    }
    return null;
  }

  private static String constraint(List<String> columns, int partitionColumns, String directions) {
    return "CONSTRAINT \"" + MARKER + partitionColumns + "_" + directions + "\" PRIMARY KEY ("
        + String.join(", ", columns) + ")";
  }

  /** A word, a quoted identifier, a string literal or one punctuation character, with its place in the text. */
  record Token(String text, int start, int end) {
    boolean is(String keyword) {
      return text.equalsIgnoreCase(keyword);
    }

    boolean isName() {
      return text.startsWith("\"") || Character.isLetter(text.charAt(0)) || text.charAt(0) == '_';
    }

    /** A quoted identifier or string literal without its quotes; a word as written. */
    String unquoted() {
      char quote = text.charAt(0);
      if ((quote == '"' || quote == '\'') && text.length() >= 2) {
        return text.substring(1, text.length() - 1).replace(String.valueOf(quote) + quote, String.valueOf(quote));
      }
      return text;
    }

    static List<Token> scan(String sql) {
      List<Token> tokens = new ArrayList<>();
      int i = 0;
      while (i < sql.length()) {
        char c = sql.charAt(i);
        int end;
        if (Character.isWhitespace(c)) {
          i++;
          continue;
        } else if (sql.startsWith("--", i)) {
          end = sql.indexOf('\n', i);
          i = end < 0 ? sql.length() : end + 1;
          continue;
        } else if (sql.startsWith("/*", i)) {
          end = sql.indexOf("*/", i + 2);
          i = end < 0 ? sql.length() : end + 2;
          continue;
        } else if (c == '"' || c == '\'') {
          end = i + 1;
          while (end < sql.length() && (sql.charAt(end) != c || end + 1 < sql.length() && sql.charAt(end + 1) == c)) {
            end += sql.charAt(end) == c ? 2 : 1;
          }
          end = Math.min(sql.length(), end + 1);
        } else if (Character.isLetterOrDigit(c) || c == '_' || c == '$') {
          end = i;
          while (end < sql.length() && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_'
              || sql.charAt(end) == '$')) {
            end++;
          }
        } else {
          end = i + 1;
        }
        tokens.add(new Token(sql.substring(i, end), i, end));
        i = end;
      }
      return tokens;
    }
  }
}
