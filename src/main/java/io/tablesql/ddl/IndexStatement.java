package io.tablesql.ddl;

import io.tablesql.catalog.IndexDefinition.IndexColumn;
import io.tablesql.errors.SqlStates;
import io.tablesql.store.StoreException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * CREATE INDEX, DROP INDEX and ALTER INDEX, which Calcite's grammar lacks: {@link #rewrite} wraps
 * such a statement into a {@code CREATE FUNCTION "TABLESQL_INDEX" AS '<statement>'} that the
 * grammar reads, and {@link AzureDdlExecutor} hands the text back to {@link #parse}:
 * <pre>
 * CREATE [UNIQUE] INDEX [IF NOT EXISTS] name ON table (column [ASC | DESC], ...)
 *   [INCLUDE (column, ...)] [GLOBAL | LOCAL]
 * DROP INDEX [IF EXISTS] name
 * ALTER INDEX name VERIFY | REBUILD
 * </pre>
 */
public record IndexStatement(Kind kind, String name, boolean unique, boolean ifExistsClause, String table,
    List<IndexColumn> columns, List<String> include, boolean local) {
  /** The function name the wrapped statement travels under. */
  static final String CARRIER = "TABLESQL_INDEX";
  private static final Pattern INDEX_STATEMENT = Pattern.compile(
      "\\s*(CREATE\\s+(UNIQUE\\s+)?INDEX|DROP\\s+INDEX|ALTER\\s+INDEX)\\s.*", Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

  enum Kind { CREATE, DROP, VERIFY, REBUILD }

  /** The statement wrapped so that Calcite's grammar reads it, or the same text if it is no index statement. */
  public static String rewrite(String sql) {
    if (!INDEX_STATEMENT.matcher(sql).matches()) {
      return sql;
    }
    String text = sql.strip();
    if (text.endsWith(";")) {
      text = text.substring(0, text.length() - 1);
    }
    return "CREATE FUNCTION \"" + CARRIER + "\" AS '" + text.replace("'", "''") + "'";
  }

  static IndexStatement parse(String sql) {
    Tokens tokens = new Tokens(sql);
    String verb = tokens.keyword();
    switch (verb) {
      case "CREATE": {
        boolean unique = tokens.accept("UNIQUE");
        tokens.expect("INDEX");
        boolean ifNotExists = tokens.accept("IF");
        if (ifNotExists) {
          tokens.expect("NOT");
          tokens.expect("EXISTS");
        }
        String name = tokens.identifier("the index's name");
        tokens.expect("ON");
        String table = tokens.identifier("the table's name");
        tokens.expect("(");
        List<IndexColumn> columns = new ArrayList<>();
        do {
          String column = tokens.identifier("a column");
          boolean descending = tokens.accept("DESC");
          if (!descending) {
            tokens.accept("ASC");
          }
          columns.add(new IndexColumn(column, descending));
        } while (tokens.accept(","));
        tokens.expect(")");
        List<String> include = new ArrayList<>();
        boolean local = false;
        for (int clause = 0; clause < 2; clause++) {
          if (include.isEmpty() && tokens.accept("INCLUDE")) {
            tokens.expect("(");
            do {
              include.add(tokens.identifier("a column"));
            } while (tokens.accept(","));
            tokens.expect(")");
          } else if (tokens.accept("LOCAL")) {
            local = true;
          } else {
            tokens.accept("GLOBAL");
          }
        }
        tokens.end();
        return new IndexStatement(Kind.CREATE, name, unique, ifNotExists, table, columns, include, local);
      }
      case "DROP": {
        tokens.expect("INDEX");
        boolean ifExists = tokens.accept("IF");
        if (ifExists) {
          tokens.expect("EXISTS");
        }
        String name = tokens.identifier("the index's name");
        tokens.end();
        return new IndexStatement(Kind.DROP, name, false, ifExists, null, List.of(), List.of(), false);
      }
      default: {
        tokens.expect("INDEX");
        String name = tokens.identifier("the index's name");
        Kind kind = tokens.accept("VERIFY") ? Kind.VERIFY : tokens.accept("REBUILD") ? Kind.REBUILD : null;
        if (kind == null) {
          throw tokens.error("VERIFY or REBUILD");
        }
        tokens.end();
        return new IndexStatement(kind, name, false, false, null, List.of(), List.of(), false);
      }
    }
  }

  /** Words, quoted identifiers and punctuation of a statement, read left to right. */
  private static final class Tokens {
    private final String sql;
    private final List<String> tokens = new ArrayList<>();
    private final List<Boolean> quoted = new ArrayList<>();
    private int next;

    Tokens(String sql) {
      this.sql = sql;
      int i = 0;
      while (i < sql.length()) {
        char c = sql.charAt(i);
        if (Character.isWhitespace(c)) {
          i++;
        } else if (c == '"') {
          StringBuilder name = new StringBuilder();
          int j = i + 1;
          while (true) {
            if (j >= sql.length()) {
              throw new StoreException("Unclosed quoted identifier in: " + sql, SqlStates.SYNTAX_ERROR, null);
            }
            if (sql.charAt(j) == '"') {
              if (j + 1 < sql.length() && sql.charAt(j + 1) == '"') {
                name.append('"');
                j += 2;
                continue;
              }
              break;
            }
            name.append(sql.charAt(j++));
          }
          tokens.add(name.toString());
          quoted.add(true);
          i = j + 1;
        } else if (Character.isLetterOrDigit(c) || c == '_') {
          int j = i;
          while (j < sql.length() && (Character.isLetterOrDigit(sql.charAt(j)) || sql.charAt(j) == '_'
              || sql.charAt(j) == '$')) {
            j++;
          }
          tokens.add(sql.substring(i, j));
          quoted.add(false);
          i = j;
        } else {
          tokens.add(String.valueOf(c));
          quoted.add(false);
          i++;
        }
      }
    }

    String keyword() {
      return next < tokens.size() ? tokens.get(next++).toUpperCase(Locale.ROOT) : "";
    }

    boolean accept(String word) {
      if (next < tokens.size() && !quoted.get(next) && tokens.get(next).equalsIgnoreCase(word)) {
        next++;
        return true;
      }
      return false;
    }

    void expect(String word) {
      if (!accept(word)) {
        throw error(word);
      }
    }

    String identifier(String what) {
      if (next >= tokens.size() || !quoted.get(next) && !Character.isLetter(tokens.get(next).charAt(0))) {
        throw error(what);
      }
      return tokens.get(next++);
    }

    void end() {
      if (next < tokens.size()) {
        throw error("the end of the statement");
      }
    }

    StoreException error(String expected) {
      String found = next < tokens.size() ? "'" + tokens.get(next) + "'" : "the end";
      return new StoreException("Cannot read the index statement: expected " + expected + " but found " + found
          + " in: " + sql + ". The forms are CREATE [UNIQUE] INDEX name ON table (column [DESC], ...) [INCLUDE "
          + "(column, ...)] [GLOBAL | LOCAL], DROP INDEX name and ALTER INDEX name VERIFY | REBUILD.",
          SqlStates.SYNTAX_ERROR, null);
    }
  }
}
