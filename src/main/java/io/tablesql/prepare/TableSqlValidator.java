package io.tablesql.prepare;

import static org.apache.calcite.util.Static.RESOURCE;

import io.tablesql.catalog.NameMatch;
import io.tablesql.plan.AzureSchema;
import io.tablesql.plan.AzureTable;
import io.tablesql.settings.Choices;
import io.tablesql.settings.DriverProperty;
import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.calcite.config.CalciteConnectionConfig;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.prepare.CalciteSqlValidator;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.util.SqlOperatorTables;
import org.apache.calcite.sql.validate.IdentifierNamespace;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorNamespace;
import org.apache.calcite.sql.validate.SqlValidatorTable;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * Calcite's validator, with quoted table names case-sensitive. Calcite matches names one way
 * for the whole statement (tablesql: ignoring case, so that unquoted names match as written);
 * the parse tree still knows which names were quoted. A quoted name that found a declared table
 * or view of another case (the only one matching ignoring case) has found no table: 42S02. An
 * Azure table's own name matches ignoring case, quoted or not, as the service's names do.
 */
public final class TableSqlValidator extends CalciteSqlValidator {
  /** Result columns without a name of their own are labelled as PostgreSQL labels them (columnLabels). */
  private final boolean postgresLabels;
  private final SetOperationLabels setOperationLabels = new SetOperationLabels();
  private static final java.util.Set<String> USER_VARIABLES = java.util.Set.of("USER", "CURRENT_USER", "SESSION_USER");

  private TableSqlValidator(SqlOperatorTable operators, CalciteCatalogReader catalogReader,
      org.apache.calcite.adapter.java.JavaTypeFactory typeFactory, Config config, boolean postgresLabels) {
    super(operators, catalogReader, typeFactory, config);
    this.postgresLabels = postgresLabels;
  }

  /** The validator Calcite's own preparation makes, as this class. */
  static SqlValidator create(CalcitePrepare.Context context, CalciteCatalogReader catalogReader,
      UnaryOperator<SqlValidator.Config> configTransform) {
    CalciteConnectionConfig connection = context.config();
    SqlOperatorTable operators = SqlOperatorTables.chain(
        connection.fun(SqlOperatorTable.class, SqlStdOperatorTable.instance()), catalogReader);
    SqlValidator.Config config = configTransform.apply(SqlValidator.Config.DEFAULT
        .withLenientOperatorLookup(connection.lenientOperatorLookup())
        .withConformance(connection.conformance())
        .withDefaultNullCollation(connection.defaultNullCollation())
        .withIdentifierExpansion(true)
        .withTypeCoercionFactory(ArrayTextCoercion::new));
    return new TableSqlValidator(operators, catalogReader, context.getTypeFactory(), config,
        postgresLabels(catalogReader.getRootSchema()));
  }

  /** Whether the connection whose account schema {@code root} holds labels columns as PostgreSQL (columnLabels). */
  static boolean postgresLabels(CalciteSchema root) {
    for (CalciteSchema schema : root.getSubSchemaMap().values()) {
      if (schema.schema instanceof AzureSchema account) {
        return account.session().settings().choice(DriverProperty.COLUMN_LABELS, Choices.ColumnLabels.class)
            == Choices.ColumnLabels.POSTGRESQL;
      }
    }
    return false;
  }

  @Override
  protected SqlNode performUnconditionalRewrites(SqlNode node, boolean underFrom) {
    if (node instanceof SqlOrderBy orderBy) {
      setOperationLabels.markOrdered(orderBy);
    }
    SqlNode rewritten = super.performUnconditionalRewrites(PostgresSpellings.rewrite(node), underFrom);
    if (rewritten instanceof SqlSelect select) {
      SelectListSetFunctions.rewrite(select);
      FromFunctions.rewrite(select);
      if (postgresLabels) {
        PostgresLabels.apply(select);
      }
      setOperationLabels.uniquifyIfOrdered(select);
    }
    return rewritten;
  }

  /**
   * {@code USER}, {@code CURRENT_USER} and {@code SESSION_USER} (written where an expression
   * goes; the parser gives them as identifiers) are the connection's user, the account, through
   * the catalog's {@code current_user}; Calcite answers "sa". Calcite's converter asks here too.
   */
  @Override
  public @Nullable SqlCall makeNullaryCall(SqlIdentifier id) {
    if (id.isSimple() && !id.isComponentQuoted(0)
        && USER_VARIABLES.contains(id.getSimple().toUpperCase(java.util.Locale.ROOT))) {
      List<SqlOperator> found = new java.util.ArrayList<>();
      getOperatorTable().lookupOperatorOverloads(new SqlIdentifier(List.of("pg_catalog", "current_user"),
          id.getParserPosition()), SqlFunctionCategory.USER_DEFINED_FUNCTION, SqlSyntax.FUNCTION, found,
          getCatalogReader().nameMatcher());
      if (!found.isEmpty()) {
        return new SqlBasicCall(found.get(0), List.of(), id.getParserPosition());
      }
    }
    return super.makeNullaryCall(id);
  }

  @Override
  protected RelDataType validateSelectList(SqlNodeList selectItems, SqlSelect select, RelDataType targetRowType) {
    return StoredCaseLabels.apply(select, super.validateSelectList(selectItems, select, targetRowType),
        getTypeFactory());
  }

  @Override
  protected void validateNamespace(SqlValidatorNamespace namespace, RelDataType targetRowType) {
    SqlIdentifier id = namespace instanceof IdentifierNamespace identifier ? identifier.getId() : null;
    int last = id == null ? -1 : id.names.size() - 1;
    String written = last >= 0 && id.isComponentQuoted(last) ? id.names.get(last) : null;
    try {
      super.validateNamespace(namespace, targetRowType);
    } catch (RuntimeException e) {
      if (written != null && causedBy(e, NameMatch.Ambiguous.class)) {
        // names differing only in case, none exactly as quoted: the quoted name matches nothing
        throw newValidationError(id, RESOURCE.objectNotFound(written));
      }
      throw e;
    }
    if (written == null) {
      return;
    }
    SqlValidatorTable table = namespace.resolve().getTable();
    if (table == null) {
      return; // a WITH query's name, say
    }
    List<String> found = table.getQualifiedName();
    AzureTable azureTable = table.unwrap(AzureTable.class);
    boolean serviceName = azureTable != null && azureTable.definition() == null;
    if (!serviceName && !found.get(found.size() - 1).equals(written)) {
      throw newValidationError(id, RESOURCE.objectNotFoundDidYouMean(written, found.get(found.size() - 1)));
    }
  }

  private static boolean causedBy(Throwable error, Class<? extends Throwable> kind) {
    for (Throwable cause = error; cause != null; cause = cause.getCause()) {
      if (kind.isInstance(cause)) {
        return true;
      }
    }
    return false;
  }
}
