package io.tablesql.prepare;

import io.tablesql.session.CurrentStatement;
import io.tablesql.session.StatementKind;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlExplain;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlInsert;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;

/**
 * A statement's text as the driver runs it, parsed at most once per prepare (or per execution of
 * a Statement) into what the driver reads of it: its kind, for an INSERT or UPSERT its target
 * and rows, and the parse tree itself, which Calcite is handed when it plans the statement
 * ({@link #plannedBy}) instead of parsing the text again.
 *
 * <p>A query whose plan the plan cache finds by the scan of its literals ({@link LiftTemplates})
 * is never parsed: only queries are lifted, so the cache's hit gives the kind.
 */
public final class StatementText {
  /** An INSERT or UPSERT: its target as written (last name part), column names, and first row. */
  /**
   * An INSERT's target table and column list ({@code columns} null without one, or for one naming
   * a column by a compound name: {@code columnList} tells them apart), first row and row count.
   */
  public record Insert(String table, List<String> columns, boolean columnList, List<SqlNode> firstRow, int rows) {
  }

  private final String sql;
  private StatementKind kind;
  private boolean parsed;
  /** The parse, until Calcite is handed it or the plan cache lifts its literals (both change it). */
  private SqlNode tree;
  private SqlParseException syntaxError;
  private Insert insert;

  private StatementText(String sql) {
    this.sql = sql;
  }

  public static StatementText of(String sql) {
    return new StatementText(sql);
  }

  public String sql() {
    return sql;
  }

  /** What the statement does; OTHER for text that does not parse (planning reports the error). */
  public StatementKind kind() {
    if (kind == null) {
      parse();
    }
    return kind;
  }

  /** The statement is a query, known without a parse (the plan cache lifted it from a template). */
  void knownQuery() {
    known(StatementKind.QUERY);
  }

  /** The statement's kind, known without a parse (the plan cache kept its plan, made after a parse). */
  void known(StatementKind known) {
    if (kind == null) {
      kind = known;
    }
  }

  /** An INSERT or UPSERT as parsed; null for other statements. */
  public Insert insert() {
    if (kind != null && kind != StatementKind.INSERT && kind != StatementKind.UPSERT) {
      return null; // known (parsed, or without a parse: a lifted query, a kept plan): not an INSERT
    }
    parse();
    return insert;
  }

  /** The table an INSERT or UPSERT with a column list writes, as written (its last name part); null otherwise. */
  public String insertTarget() {
    Insert statement = insert();
    return statement == null || statement.columns() == null ? null : statement.table();
  }

  /** The parse of a query, as written (before Calcite or the plan cache changed it); null otherwise. */
  SqlNode query() {
    parse();
    return kind == StatementKind.QUERY ? tree : null;
  }

  /**
   * The lifted form of a query parsed here ({@link LiteralLifter}), or null. Lifting replaces
   * the tree's literals, so a tree with lifted values is not handed to Calcite (the text is
   * parsed again if it must run as written).
   */
  LiteralLifter.Lifted lifted() {
    parse();
    if (kind != StatementKind.QUERY || tree == null) {
      return null;
    }
    LiteralLifter.Lifted lifted = LiteralLifter.lift(tree);
    if (lifted != null && !lifted.values().isEmpty()) {
      tree = null;
    }
    return lifted;
  }

  /**
   * Runs an action that has Calcite plan this text (prepare or execute), handing Calcite the
   * tree parsed here (or its syntax error) instead of a second parse. Calcite may change a tree
   * as it validates it, so the tree is handed over once; a retry parses the text again.
   */
  public <T> T plannedBy(SqlAction<T> action) throws java.sql.SQLException {
    SqlNode handed = tree;
    SqlParseException error = syntaxError;
    tree = null;
    syntaxError = null;
    if (handed == null && error == null) {
      return action.run();
    }
    try (CurrentStatement.Scope ignored = CurrentStatement.handingOver(sql, handed, error)) {
      return action.run();
    }
  }

  private void parse() {
    if (parsed) {
      return;
    }
    parsed = true;
    PARSES.incrementAndGet();
    SqlNode node;
    try {
      node = SqlParser.create(sql, ParserSettings.PARSER).parseStmt();
    } catch (SqlParseException e) {
      syntaxError = e;
      if (kind == null) {
        kind = StatementKind.OTHER;
      }
      return;
    }
    tree = node;
    kind = kindOf(node);
    if (node instanceof SqlInsert statement) {
      insert = insertOf(statement);
    }
  }

  private static StatementKind kindOf(SqlNode node) {
    SqlKind kind = node.getKind();
    if (node instanceof SqlExplain explain) {
      return kindOf(explain.getExplicandum());
    }
    if (kind.belongsTo(SqlKind.QUERY) || kind == SqlKind.ORDER_BY) {
      return StatementKind.QUERY;
    }
    if (node instanceof SqlInsert statement) {
      return statement.isUpsert() ? StatementKind.UPSERT : StatementKind.INSERT;
    }
    if (kind == SqlKind.UPDATE) {
      return StatementKind.UPDATE;
    }
    if (kind == SqlKind.DELETE) {
      return StatementKind.DELETE;
    }
    return kind.belongsTo(SqlKind.DDL) ? StatementKind.DDL : StatementKind.OTHER;
  }

  /** What the driver reads of an INSERT, taken before Calcite is handed the tree and validates it. */
  private static Insert insertOf(SqlInsert statement) {
    String table = statement.getTargetTable() instanceof SqlIdentifier target
        ? target.names.get(target.names.size() - 1) : null;
    List<String> columns = null;
    if (statement.getTargetColumnList() != null) {
      columns = new ArrayList<>();
      for (SqlNode column : statement.getTargetColumnList()) {
        if (!(column instanceof SqlIdentifier name) || !name.isSimple()) {
          columns = null; // a compound column name: Calcite reports or resolves it
          break;
        }
        columns.add(name.getSimple());
      }
    }
    List<SqlNode> firstRow = List.of();
    int rows = 0;
    if (statement.getSource() instanceof SqlBasicCall values && values.getKind() == SqlKind.VALUES) {
      rows = values.operandCount();
      if (rows > 0 && values.operand(0) instanceof SqlBasicCall row && row.getKind() == SqlKind.ROW) {
        firstRow = List.copyOf(row.getOperandList());
      }
    }
    return new Insert(table, columns == null ? null : List.copyOf(columns), statement.getTargetColumnList() != null,
        firstRow, rows);
  }

  /** Parses of statement text in this JVM, the driver's and Calcite's own. */
  private static final java.util.concurrent.atomic.AtomicLong PARSES = new java.util.concurrent.atomic.AtomicLong();

  /** Parses of statement text in this JVM so far, the driver's and Calcite's own: a measure for tests. */
  public static long parses() {
    return PARSES.get();
  }

  /** Counts a parse of statement text that Calcite makes itself. */
  static void countParse() {
    PARSES.incrementAndGet();
  }
}
