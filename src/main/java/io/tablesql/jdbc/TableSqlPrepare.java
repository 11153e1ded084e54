package io.tablesql.jdbc;

import io.tablesql.parser.TableSqlParserImpl;
import java.io.Reader;
import java.lang.reflect.Type;
import java.util.function.UnaryOperator;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.prepare.CalcitePrepareImpl;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.validate.SqlValidator;

/**
 * Calcite's preparation of a statement, validated by {@link TableSqlValidator}: Calcite's hook
 * for custom validation is a preparing statement of one's own ({@link #getPreparingStmt}). A
 * statement the driver parsed already is not parsed again: its tree is handed over for the
 * call that plans it ({@link #handOver}) and returned by the parser Calcite asks for
 * ({@link #createParser}).
 */
final class TableSqlPrepare extends CalcitePrepareImpl {
  /** A tree (or syntax error) for the text it was parsed from, for the planning call in progress. */
  private record Parsed(String sql, SqlNode tree, SqlParseException error) {
  }

  private static final ThreadLocal<Parsed> HANDED_OVER = new ThreadLocal<>();

  /** Ends a hand-over, whether or not Calcite took the tree. */
  interface HandOver extends AutoCloseable {
    @Override
    void close();
  }

  /**
   * Hands Calcite, on this thread, the parse of {@code sql} (a tree, or the error parsing it
   * gave) for the next time it parses that text; once.
   */
  static HandOver handOver(String sql, SqlNode tree, SqlParseException error) {
    HANDED_OVER.set(new Parsed(sql, tree, error));
    return HANDED_OVER::remove;
  }

  @Override
  protected SqlParser createParser(String sql, SqlParser.Config parserConfig) {
    Parsed parsed = HANDED_OVER.get();
    if (parsed == null || !parsed.sql().equals(sql)) {
      StatementText.PARSES.get()[0]++;
      return super.createParser(sql, parserConfig);
    }
    HANDED_OVER.remove();
    return SqlParser.create(sql, parserConfig.withParserFactory(reader -> new ParsedAlready(reader, parsed)));
  }

  /** The grammar's parser, answering with a parse made before. */
  private static final class ParsedAlready extends TableSqlParserImpl {
    private final Parsed parsed;

    ParsedAlready(Reader reader, Parsed parsed) {
      super(reader);
      this.parsed = parsed;
    }

    @Override
    public SqlNode parseSqlStmtEof() throws Exception {
      if (parsed.error() != null) {
        throw parsed.error();
      }
      return parsed.tree();
    }
  }

  @Override
  protected CalcitePreparingStmt getPreparingStmt(Context context, Type elementType,
      CalciteCatalogReader catalogReader, RelOptPlanner planner) {
    JavaTypeFactory typeFactory = context.getTypeFactory();
    EnumerableRel.Prefer prefer = elementType == Object[].class ? EnumerableRel.Prefer.ARRAY
        : EnumerableRel.Prefer.CUSTOM;
    return new CalcitePreparingStmt(this, context, catalogReader, typeFactory, context.getRootSchema(), prefer,
        createCluster(planner, new RexBuilder(typeFactory)), EnumerableConvention.INSTANCE, createConvertletTable()) {
      @Override
      protected SqlValidator createSqlValidator(Prepare.CatalogReader reader,
          UnaryOperator<SqlValidator.Config> configTransform) {
        return TableSqlValidator.create(context, (CalciteCatalogReader) reader, configTransform);
      }
    };
  }
}
