package io.tablesql.parser;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;
import org.apache.calcite.sql.parser.SqlAbstractParserImpl;

/**
 * The tokens of tablesql's grammar, with PostgreSQL's rule that any keyword may label a column
 * after {@code AS} ({@code SELECT ... AS select, ... AS default FROM ...}, as Metabase's
 * privileges query and SQLAlchemy's column reflection write it): a reserved word right after
 * {@code AS} and right before a comma or {@code FROM} is an identifier. Calcite's select item takes
 * no reserved word there, and its production is not one the grammar's configuration extends;
 * nowhere else in the grammar can such a word stand between {@code AS} and a comma or
 * {@code FROM} ({@code CAST(x AS DATE)} is followed by a parenthesis), so nothing that parsed
 * before reads differently.
 */
final class KeywordLabels extends TableSqlParserImplTokenManager {
  private final SqlAbstractParserImpl.Metadata keywords;
  private final Deque<Token> ahead = new ArrayDeque<>();
  private int previousKind = -1;

  private KeywordLabels(SimpleCharStream stream, SqlAbstractParserImpl.Metadata keywords) {
    super(stream);
    this.keywords = keywords;
  }

  /** {@code parser} reading its tokens through this rule; before it has read any. */
  static TableSqlParserImpl install(TableSqlParserImpl parser) {
    parser.ReInit(new KeywordLabels(parser.jj_input_stream, parser.getMetadata()));
    return parser;
  }

  @Override
  public Token getNextToken() {
    Token token = ahead.isEmpty() ? super.getNextToken() : ahead.poll();
    if (previousKind == AS && token.kind != IDENTIFIER && keywords.isReservedWord(token.image.toUpperCase(Locale.ROOT))) {
      if (ahead.isEmpty()) {
        ahead.add(super.getNextToken());
      }
      int next = ahead.peek().kind;
      if (next == COMMA || next == FROM) {
        token.kind = IDENTIFIER;
      }
    }
    previousKind = token.kind;
    return token;
  }
}
