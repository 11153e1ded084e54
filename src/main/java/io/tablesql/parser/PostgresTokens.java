package io.tablesql.parser;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;
import org.apache.calcite.sql.parser.SqlAbstractParserImpl;

/**
 * The tokens of tablesql's grammar, with two of PostgreSQL's rules that Calcite's productions
 * have no place for (and the grammar's configuration cannot extend):
 * <ul>
 *   <li>any keyword may label a column after {@code AS} ({@code SELECT ... AS select, ... AS
 *       default FROM ...}, as Metabase's privileges query and SQLAlchemy's column reflection
 *       write it): a reserved word right after {@code AS} and right before a comma or
 *       {@code FROM} is an identifier. Nowhere else in the grammar can such a word stand between
 *       {@code AS} and a comma or {@code FROM} ({@code CAST(x AS DATE)} is followed by a
 *       parenthesis), so nothing that parsed before reads differently;</li>
 *   <li>{@code pg_catalog.unnest} is {@code unnest} ({@code FROM pg_catalog.unnest(tc.reloptions)
 *       x}, as psql's {@code \d+} writes it): Calcite reads UNNEST, a reserved word, in FROM and
 *       (tablesql's PgUnnestCall) in expressions, never after a qualifier.</li>
 * </ul>
 */
final class PostgresTokens extends TableSqlParserImplTokenManager {
  private final SqlAbstractParserImpl.Metadata keywords;
  private final Deque<Token> ahead = new ArrayDeque<>();
  private int previousKind = -1;

  private PostgresTokens(SimpleCharStream stream, SqlAbstractParserImpl.Metadata keywords) {
    super(stream);
    this.keywords = keywords;
  }

  /** {@code parser} reading its tokens through this rule; before it has read any. */
  static TableSqlParserImpl install(TableSqlParserImpl parser) {
    parser.ReInit(new PostgresTokens(parser.jj_input_stream, parser.getMetadata()));
    return parser;
  }

  @Override
  public Token getNextToken() {
    Token token = next();
    if (token.kind == IDENTIFIER && token.image.equalsIgnoreCase("pg_catalog") && peek(0).kind == DOT
        && peek(1).kind == UNNEST) {
      ahead.poll();
      token = ahead.poll();
    }
    if (previousKind == AS && token.kind != IDENTIFIER && keywords.isReservedWord(token.image.toUpperCase(Locale.ROOT))) {
      int next = peek(0).kind;
      if (next == COMMA || next == FROM) {
        token.kind = IDENTIFIER;
      }
    }
    previousKind = token.kind;
    return token;
  }

  private Token next() {
    return ahead.isEmpty() ? super.getNextToken() : ahead.poll();
  }

  /** The token {@code index} places after the one last taken, read ahead and kept. */
  private Token peek(int index) {
    while (ahead.size() <= index) {
      ahead.add(super.getNextToken());
    }
    return ahead.stream().skip(index).findFirst().orElseThrow();
  }
}
