package io.tablesql.parser;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.sql.parser.SqlAbstractParserImpl;

/**
 * The tokens of tablesql's grammar, with three of PostgreSQL's readings that Calcite's productions
 * have no place for (and the grammar's configuration cannot extend):
 * <ul>
 *   <li>any keyword may label a column after {@code AS} ({@code SELECT ... AS select, ... AS
 *       default FROM ...}, as Metabase's privileges query and SQLAlchemy's column reflection
 *       write it): a reserved word right after {@code AS} and right before a comma or
 *       {@code FROM} is an identifier. Nowhere else in the grammar can such a word stand between
 *       {@code AS} and a comma or {@code FROM} ({@code CAST(x AS DATE)} is followed by a
 *       parenthesis), so nothing that parsed before reads differently;</li>
 *   <li>{@code pg_catalog.unnest} is {@code unnest} ({@code FROM pg_catalog.unnest(tc.reloptions)
 *       x}, as psql's {@code \\d+} writes it): Calcite reads UNNEST, a reserved word, in FROM and
 *       (tablesql's PgUnnestCall) in expressions, never after a qualifier;</li>
 *   <li>a call of a named function whose first argument is itself such a call, and nothing more
 *       (a comma or the closing parenthesis follows: never {@code g(x) OVER (...)}, whose OVER
 *       must follow the call), gets parentheses around that argument: {@code f(g(x), y)} is read
 *       as {@code f((g(x)), y)}. In FROM, Calcite
 *       takes {@code f(g (} for a table with an extended column list ({@code FROM EventLog(lastGCTime
 *       TIME)}) and fails, where Grafana's query editor writes {@code FROM
 *       generate_series(array_lower(...), ...)}; a parenthesized expression parses to the same
 *       tree, so elsewhere nothing changes.</li>
 * </ul>
 */
final class PostgresTokens extends TableSqlParserImplTokenManager {
  /** Reserved words that are values, never labels (UNPIVOT's {@code IN (a AS TRUE, ...)}). */
  private static final java.util.Set<Integer> LITERALS = java.util.Set.of(TRUE, FALSE, NULL, UNKNOWN);
  private final SqlAbstractParserImpl.Metadata keywords;
  /** Tokens read ahead (and parentheses added), in order. */
  private final List<Token> ahead = new ArrayList<>();
  private int previousKind = -1;

  private PostgresTokens(SimpleCharStream stream, SqlAbstractParserImpl.Metadata keywords) {
    super(stream);
    this.keywords = keywords;
  }

  /** {@code parser} reading its tokens through these rules; before it has read any. */
  static TableSqlParserImpl install(TableSqlParserImpl parser) {
    parser.ReInit(new PostgresTokens(parser.jj_input_stream, parser.getMetadata()));
    return parser;
  }

  @Override
  public Token getNextToken() {
    Token token = next();
    if (token.kind == IDENTIFIER && token.image.equalsIgnoreCase("pg_catalog") && peek(0).kind == DOT
        && peek(1).kind == UNNEST) {
      ahead.remove(0);
      token = ahead.remove(0);
    }
    if (previousKind == AS && token.kind != IDENTIFIER && !LITERALS.contains(token.kind)
        && keywords.isReservedWord(token.image.toUpperCase(Locale.ROOT))) {
      int next = peek(0).kind;
      if (next == COMMA || next == FROM) {
        token.kind = IDENTIFIER;
      }
    }
    if (token.kind == LPAREN && previousKind == IDENTIFIER) {
      parenthesizeLeadingCall();
    }
    previousKind = token.kind;
    return token;
  }

  /** Right after {@code f(}: if a call {@code g(...)} (its name possibly qualified) follows, puts it in parentheses. */
  private void parenthesizeLeadingCall() {
    int i = 0;
    if (peek(i).kind != IDENTIFIER) {
      return;
    }
    while (peek(i + 1).kind == DOT && peek(i + 2).kind == IDENTIFIER) {
      i += 2;
    }
    if (peek(++i).kind != LPAREN) {
      return;
    }
    for (int depth = 0; ; i++) {
      Token t = peek(i);
      if (t.kind == EOF) {
        return; // unbalanced: left for the parser to report
      }
      depth += t.kind == LPAREN ? 1 : t.kind == RPAREN ? -1 : 0;
      if (depth == 0) {
        int after = peek(i + 1).kind;
        if (after != COMMA && after != RPAREN) {
          return; // more of the argument follows (OVER, FILTER, WITHIN GROUP, an operator): left as written
        }
        ahead.add(i + 1, added(RPAREN, ")", t));
        ahead.add(0, added(LPAREN, "(", ahead.get(0)));
        return;
      }
    }
  }

  /** A parenthesis the rules add, placed where {@code at} is. */
  private static Token added(int kind, String image, Token at) {
    Token token = Token.newToken(kind);
    token.kind = kind;
    token.image = image;
    token.beginLine = at.beginLine;
    token.beginColumn = at.beginColumn;
    token.endLine = at.endLine;
    token.endColumn = at.endColumn;
    return token;
  }

  private Token next() {
    return ahead.isEmpty() ? super.getNextToken() : ahead.remove(0);
  }

  /** The token {@code index} places after the one last taken, read ahead and kept. */
  private Token peek(int index) {
    while (ahead.size() <= index) {
      ahead.add(super.getNextToken());
    }
    return ahead.get(index);
  }
}
