package io.tablesql.prepare;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Splits SQL text into its literals and everything else, the way Calcite's lexer delimits
 * them: string literals ({@code '...'} with {@code ''} inside), unsigned numbers and
 * {@code TRUE} / {@code FALSE}. Quoted identifiers and comments are skipped whole, so a quote
 * inside them starts nothing. The shape, the text with each literal replaced by a marker of its
 * kind, is the same for statements that differ only in their literals.
 */
public final class LiteralScanner {
  enum Kind { STRING, INTEGER, DECIMAL, APPROXIMATE, BOOLEAN }

  /** One literal as written, where Calcite's parser positions it (1-based line and column). */
  record Literal(Kind kind, String text, int line, int column) {
    /** The value Calcite gives this literal when it lifts it. */
    Object value() {
      switch (kind) {
        case STRING: return text.substring(1, text.length() - 1).replace("''", "'");
        case BOOLEAN: return text.equalsIgnoreCase("TRUE");
        case INTEGER:
        case DECIMAL: return new java.math.BigDecimal(text);
        default: return null; // approximate numbers are never lifted
      }
    }
  }

  record Scan(String shape, List<Literal> literals) {
  }

  private final String sql;
  private final StringBuilder shape = new StringBuilder();
  private final List<Literal> literals = new ArrayList<>();
  private int position;
  private int line = 1;
  private int lineStart;

  private LiteralScanner(String sql) {
    this.sql = sql;
  }

  /** The shape and literals of a statement; null if it has an unterminated quote or comment. */
  static Scan scan(String sql) {
    LiteralScanner scanner = new LiteralScanner(sql);
    return scanner.run() ? new Scan(scanner.shape.toString(), List.copyOf(scanner.literals)) : null;
  }

  private boolean run() {
    while (position < sql.length()) {
      char c = sql.charAt(position);
      int start = position;
      int startLine = line;
      int startColumn = start - lineStart + 1;
      if (c == '\'') {
        if (!skipQuoted('\'')) {
          return false;
        }
        literal(Kind.STRING, start, startLine, startColumn);
      } else if (c == '"') {
        if (!skipQuoted('"')) {
          return false;
        }
        verbatim(start);
      } else if (sql.startsWith("--", position)) {
        int end = position;
        while (end < sql.length() && sql.charAt(end) != '\n' && sql.charAt(end) != '\r') {
          end++;
        }
        position = end;
        verbatim(start);
      } else if (sql.startsWith("/*", position)) {
        int end = sql.indexOf("*/", position + 2);
        if (end < 0) {
          return false;
        }
        advanceTo(end + 2);
        verbatim(start);
      } else if (Character.isDigit(c) || c == '.' && position + 1 < sql.length()
          && Character.isDigit(sql.charAt(position + 1))) {
        literal(number(), start, startLine, startColumn);
      } else if (Character.isJavaIdentifierStart(c)) {
        while (position < sql.length() && Character.isJavaIdentifierPart(sql.charAt(position))) {
          position++;
        }
        String word = sql.substring(start, position).toUpperCase(Locale.ROOT);
        if (word.equals("TRUE") || word.equals("FALSE")) {
          literal(Kind.BOOLEAN, start, startLine, startColumn);
        } else {
          verbatim(start);
        }
      } else {
        advanceTo(position + 1);
        verbatim(start);
      }
    }
    return true;
  }

  /** Moves past a quoted run whose quote is doubled inside it; false if it never ends. */
  private boolean skipQuoted(char quote) {
    int at = position + 1;
    while (true) {
      int end = sql.indexOf(quote, at);
      if (end < 0) {
        return false;
      }
      if (end + 1 < sql.length() && sql.charAt(end + 1) == quote) {
        at = end + 2;
        continue;
      }
      advanceTo(end + 1);
      return true;
    }
  }

  /** Moves past digits [. digits] [E [+|-] digits]; the kind of number they make. */
  private Kind number() {
    Kind kind = Kind.INTEGER;
    skipDigits();
    if (position < sql.length() && sql.charAt(position) == '.') {
      kind = Kind.DECIMAL;
      position++;
      skipDigits();
    }
    if (position < sql.length() && (sql.charAt(position) == 'e' || sql.charAt(position) == 'E')) {
      int exponent = position + 1;
      if (exponent < sql.length() && (sql.charAt(exponent) == '+' || sql.charAt(exponent) == '-')) {
        exponent++;
      }
      if (exponent < sql.length() && Character.isDigit(sql.charAt(exponent))) {
        position = exponent;
        skipDigits();
        kind = Kind.APPROXIMATE;
      }
    }
    return kind;
  }

  private void skipDigits() {
    while (position < sql.length() && Character.isDigit(sql.charAt(position))) {
      position++;
    }
  }

  /** Advances over text that may hold line breaks (CR, LF or CRLF each count once). */
  private void advanceTo(int end) {
    for (int i = position; i < end; i++) {
      char c = sql.charAt(i);
      if (c == '\n' || c == '\r' && (i + 1 >= sql.length() || sql.charAt(i + 1) != '\n')) {
        line++;
        lineStart = i + 1;
      }
    }
    position = end;
  }

  private void verbatim(int start) {
    shape.append(sql, start, position);
  }

  private void literal(Kind kind, int start, int startLine, int startColumn) {
    // a marker no SQL text can hold, so shapes of different statements never collide
    shape.append('\u0000').append(kind.ordinal());
    literals.add(new Literal(kind, sql.substring(start, position), startLine, startColumn));
  }
}
