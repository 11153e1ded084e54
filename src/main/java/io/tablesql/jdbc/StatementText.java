package io.tablesql.jdbc;

import io.tablesql.session.StatementKind;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;

/**
 * A statement's text as the driver runs it, analysed once (per prepare, or per execution of a
 * Statement): its kind and, for an INSERT or UPSERT, its parse, which the new-column rule and
 * the batch fast path read.
 */
final class StatementText {
  private final String sql;
  private final StatementKind kind;
  private SqlInsert insert;
  private boolean parsed;

  private StatementText(String sql) {
    this.sql = sql;
    this.kind = StatementKind.of(sql);
  }

  static StatementText of(String sql) {
    return new StatementText(sql);
  }

  String sql() {
    return sql;
  }

  StatementKind kind() {
    return kind;
  }

  /** An INSERT or UPSERT as parsed (UPSERT parses as an INSERT); null for other statements or text that does not parse. */
  SqlInsert insert() {
    if (!parsed) {
      parsed = true;
      if (kind == StatementKind.INSERT || kind == StatementKind.UPSERT) {
        try {
          SqlNode node = SqlParser.create(sql, ParserSettings.PARSER).parseStmt();
          insert = node instanceof SqlInsert parsedInsert ? parsedInsert : null;
        } catch (SqlParseException e) {
          insert = null; // planning reports it
        }
      }
    }
    return insert;
  }

  /** The table an INSERT or UPSERT with a column list writes, as written (its last name part); null otherwise. */
  String insertTarget() {
    SqlInsert statement = insert();
    return statement == null || statement.getTargetColumnList() == null
        || !(statement.getTargetTable() instanceof SqlIdentifier target) ? null
        : target.names.get(target.names.size() - 1);
  }
}
