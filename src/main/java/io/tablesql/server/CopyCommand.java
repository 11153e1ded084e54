package io.tablesql.server;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A {@code COPY} statement as the server runs it: {@code COPY table [(columns)] TO STDOUT},
 * {@code COPY (query) TO STDOUT}, {@code COPY table [(columns)] FROM STDIN}, with PostgreSQL's
 * options ({@code FORMAT text|csv}, {@code HEADER}, {@code DELIMITER}, {@code NULL}; also the
 * older {@code WITH CSV HEADER}). Only STDOUT and STDIN: the server reads no files of its own.
 */
record CopyCommand(String table, List<String> columns, String query, boolean out, boolean csv, boolean header,
    char delimiter, String nullText) {

  /** The statement whose rows COPY ... TO STDOUT sends. */
  String selectSql() {
    return query != null ? query : "SELECT " + (columns.isEmpty() ? "*" : String.join(", ", columns)) + " FROM " + table;
  }

  static CopyCommand parse(String sql) throws SQLException {
    Tokens tokens = new Tokens(sql);
    tokens.expect("COPY");
    String table = null;
    String query = null;
    List<String> columns = new ArrayList<>();
    if (tokens.peek().equals("(")) {
      query = tokens.parenthesized();
    } else {
      table = tokens.next();
      if (tokens.peek().equals("(")) {
        for (String column : tokens.parenthesized().split(",")) {
          columns.add(column.trim());
        }
      }
    }
    String direction = tokens.next().toUpperCase(Locale.ROOT);
    String target = tokens.next().toUpperCase(Locale.ROOT);
    boolean out = direction.equals("TO");
    if (!(out && target.equals("STDOUT") || direction.equals("FROM") && target.equals("STDIN"))) {
      throw new SQLException("COPY reads and writes the client's data only: COPY ... TO STDOUT, COPY ... FROM STDIN "
          + "(psql's \\copy does that with files).", PgStates.FEATURE_NOT_SUPPORTED);
    }
    if (!out && query != null) {
      throw new SQLException("COPY (query) FROM STDIN is not a statement: name a table.", PgStates.SYNTAX_ERROR);
    }
    boolean csv = false;
    boolean header = false;
    Character delimiter = null;
    String nullText = null;
    if (tokens.peek().equalsIgnoreCase("WITH")) {
      tokens.next();
    }
    List<String[]> options = new ArrayList<>();
    if (tokens.peek().equals("(")) {
      for (String option : tokens.parenthesized().split(",")) {
        String[] parts = option.trim().split("\\s+", 2);
        options.add(new String[] {parts[0], parts.length > 1 ? parts[1] : "true"});
      }
    } else {
      while (!tokens.peek().isEmpty()) { // the older form: CSV HEADER DELIMITER 'x' NULL 'x'
        String name = tokens.next();
        boolean takesValue = name.equalsIgnoreCase("DELIMITER") || name.equalsIgnoreCase("NULL");
        options.add(new String[] {name.equalsIgnoreCase("CSV") ? "FORMAT" : name,
            name.equalsIgnoreCase("CSV") ? "csv" : takesValue ? tokens.next() : "true"});
      }
    }
    for (String[] option : options) {
      String value = unquoted(option[1]);
      switch (option[0].toUpperCase(Locale.ROOT)) {
        case "FORMAT" -> {
          csv = value.equalsIgnoreCase("csv");
          if (!csv && !value.equalsIgnoreCase("text")) {
            throw new SQLException("COPY FORMAT " + value + " is not supported: use text or csv.", PgStates.FEATURE_NOT_SUPPORTED);
          }
        }
        case "HEADER" -> header = !List.of("false", "off", "0").contains(value.toLowerCase(Locale.ROOT));
        case "DELIMITER" -> {
          if (value.length() != 1) {
            throw new SQLException("COPY's DELIMITER must be one character.", PgStates.INVALID_PARAMETER_VALUE);
          }
          delimiter = value.charAt(0);
        }
        case "NULL" -> nullText = value;
        default -> throw new SQLException("COPY option " + option[0] + " is not supported.", PgStates.FEATURE_NOT_SUPPORTED);
      }
    }
    return new CopyCommand(table, columns, query, out, csv, header, delimiter != null ? delimiter : csv ? ',' : '\t',
        nullText != null ? nullText : csv ? "" : "\\N");
  }

  private static String unquoted(String value) {
    String text = value.trim();
    return text.length() > 1 && text.startsWith("'") && text.endsWith("'")
        ? text.substring(1, text.length() - 1).replace("''", "'") : text;
  }

  /** A value as one field of a line: text format escapes, CSV quotes. */
  String field(String value) {
    if (value == null) {
      return nullText;
    }
    if (!csv) {
      StringBuilder escaped = new StringBuilder(value.length());
      for (char c : value.toCharArray()) {
        switch (c) {
          case '\\' -> escaped.append("\\\\");
          case '\n' -> escaped.append("\\n");
          case '\r' -> escaped.append("\\r");
          case '\t' -> escaped.append("\\t");
          default -> escaped.append(c == delimiter ? "\\" + c : String.valueOf(c));
        }
      }
      return escaped.toString();
    }
    boolean quote = value.isEmpty() || value.equals(nullText) || value.indexOf(delimiter) >= 0
        || value.indexOf('"') >= 0 || value.indexOf('\n') >= 0 || value.indexOf('\r') >= 0;
    return quote ? "\"" + value.replace("\"", "\"\"") + "\"" : value;
  }

  /** The fields of one line of COPY FROM input (without its line end); null for a NULL. */
  List<String> fields(String line) throws SQLException {
    List<String> fields = new ArrayList<>();
    StringBuilder field = new StringBuilder();
    boolean quoted = false;
    boolean wasQuoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (csv && quoted) {
        if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
          field.append('"');
          i++;
        } else if (c == '"') {
          quoted = false;
        } else {
          field.append(c);
        }
      } else if (csv && c == '"') {
        quoted = true;
        wasQuoted = true;
      } else if (c == delimiter) {
        fields.add(!wasQuoted && field.toString().equals(nullText) ? null : field.toString());
        field.setLength(0);
        wasQuoted = false;
      } else if (!csv && c == '\\' && i + 1 < line.length()) {
        char next = line.charAt(++i);
        if (next == 'N' && field.length() == 0 && nullText.equals("\\N")) {
          field.append("\\N");
        } else {
          field.append(switch (next) {
            case 'n' -> '\n';
            case 'r' -> '\r';
            case 't' -> '\t';
            case 'b' -> '\b';
            case 'f' -> '\f';
            case 'v' -> '\u000b';
            default -> next;
          });
        }
      } else {
        field.append(c);
      }
    }
    if (quoted) {
      throw new SQLException("A COPY line ends inside a quoted field (a field across lines is not supported).",
          PgStates.BAD_COPY_FORMAT);
    }
    fields.add(!wasQuoted && field.toString().equals(nullText) ? null : field.toString());
    return fields;
  }

  /** The statement's words and parenthesized parts, read left to right. */
  private static final class Tokens {
    private final String text;
    private int position;

    Tokens(String text) {
      this.text = text.trim().replaceFirst(";\\s*$", "");
    }

    String peek() {
      int saved = position;
      String token = next();
      position = saved;
      return token;
    }

    String next() {
      while (position < text.length() && Character.isWhitespace(text.charAt(position))) {
        position++;
      }
      if (position >= text.length()) {
        return "";
      }
      int start = position;
      char c = text.charAt(position);
      if (c == '(') {
        position++;
        return "(";
      }
      if (c == '\'' || c == '"') {
        position++;
        while (position < text.length()) {
          if (text.charAt(position) == c) {
            if (position + 1 < text.length() && text.charAt(position + 1) == c) {
              position += 2;
              continue;
            }
            position++;
            break;
          }
          position++;
        }
        return text.substring(start, position);
      }
      while (position < text.length() && !Character.isWhitespace(text.charAt(position))
          && text.charAt(position) != '(') {
        position++;
      }
      return text.substring(start, position);
    }

    void expect(String word) throws SQLException {
      if (!next().equalsIgnoreCase(word)) {
        throw new SQLException("Expected " + word + ".", PgStates.SYNTAX_ERROR);
      }
    }

    /** The text inside the parentheses that open here, nested ones and quotes kept. */
    String parenthesized() throws SQLException {
      expect("(");
      int depth = 1;
      int start = position;
      char quote = 0;
      for (; position < text.length(); position++) {
        char c = text.charAt(position);
        if (quote != 0) {
          quote = c == quote ? 0 : quote;
        } else if (c == '\'' || c == '"') {
          quote = c;
        } else if (c == '(') {
          depth++;
        } else if (c == ')' && --depth == 0) {
          return text.substring(start, position++).trim();
        }
      }
      throw new SQLException("A parenthesis of COPY is not closed.", PgStates.SYNTAX_ERROR);
    }
  }
}
