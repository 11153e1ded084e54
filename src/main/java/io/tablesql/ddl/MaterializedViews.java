package io.tablesql.ddl;

import io.tablesql.catalog.Catalog;
import io.tablesql.catalog.Column;
import io.tablesql.catalog.IndexDefinition.IndexColumn;
import io.tablesql.catalog.IndexDefinition;
import io.tablesql.catalog.MaterializedViewDefinition;
import io.tablesql.catalog.ObjectErrors;
import io.tablesql.catalog.RowCondition;
import io.tablesql.catalog.TableDefinition;
import io.tablesql.errors.SqlStates;
import io.tablesql.exec.MaterializedViewBuild;
import io.tablesql.parser.CreateMaterializedViewNode;
import io.tablesql.plan.FullScans;
import io.tablesql.session.Session;
import io.tablesql.store.RequestCounters;
import io.tablesql.store.StoreException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.dialect.CalciteSqlDialect;

/**
 * Runs CREATE, DROP and ALTER MATERIALIZED VIEW against the catalog and the account
 * (docs/architecture/views.md, "Derived data"). A view that copies is accepted over one declared or mapped
 * table: a projection of its columns and a WHERE evaluated on each row ({@link RowCondition}),
 * under a key that identifies rows (it holds the table's key columns, or a UNIQUE index's).
 */
final class MaterializedViews {
  /** Aggregates by name, as the parser leaves them unresolved. */
  private static final Set<String> AGGREGATES = Set.of("COUNT", "SUM", "AVG", "MIN", "MAX");

  private MaterializedViews() {
  }

  static void create(Session session, CreateMaterializedViewNode create, Consumer<String> progress) {
    if (create.getReplace()) {
      throw refused("CREATE OR REPLACE MATERIALIZED VIEW is not supported: DROP MATERIALIZED VIEW, then CREATE "
          + "MATERIALIZED VIEW.");
    }
    String name = Names.last(create.name);
    Catalog.Contents catalog = Catalog.fresh(session);
    if (owner(catalog, name) != null) {
      if (create.ifNotExists) {
        return;
      }
      throw ObjectErrors.exists("Materialized view", name, "CREATE MATERIALIZED VIEW");
    }
    if (catalog.table(name, false) != null || catalog.view(name, false) != null
        || catalog.tables().values().stream().anyMatch(t -> t.index(name) != null)) {
      throw new StoreException("A table, view or index is named " + name + " already: choose another name.", SqlStates.OBJECT_EXISTS,
          null);
    }
    if (!(create.query instanceof SqlSelect select)) {
      throw refused("A materialized view's query is one SELECT of columns FROM one table [WHERE ...].");
    }
    if (select.getHaving() != null || select.isDistinct()
        || select.hasOrderBy() || select.getFetch() != null || select.getOffset() != null
        || select.getWindowList() != null && !select.getWindowList().isEmpty()) {
      throw refused("Materialized view " + name + " is SELECT columns FROM one table [WHERE ...] (a copy), or "
          + "SELECT group columns and COUNT and SUM aggregates FROM one table [WHERE ...] GROUP BY the group columns "
          + "(a summary): without HAVING, DISTINCT, ORDER BY or LIMIT.");
    }
    if (!(select.getFrom() instanceof SqlIdentifier from)) {
      throw refused("Materialized view " + name + " reads one table, named in FROM (no joins, subqueries or "
          + "aliases).");
    }
    TableDefinition base = catalog.table(Names.last(from), Names.quoted(from));
    if (base == null) {
      throw new StoreException("Table " + Names.last(from) + " is not a table declared with CREATE TABLE (or mapped "
          + "OVER existing data), so tablesql cannot keep a materialized view of it.", SqlStates.TABLE_NOT_FOUND,
          null);
    }
    if (create.key == null) {
      throw refused("Materialized view " + name + " copies rows, so it needs a key: write PRIMARY KEY ((...), ...) "
          + "before AS, with the columns a query looks it up by and enough of the table's key to tell its rows "
          + "apart. (A summary, SELECT ... GROUP BY, is keyed by its GROUP BY columns when it has no PRIMARY KEY.)");
    }
    List<MaterializedViewDefinition.Aggregate> aggregates = new ArrayList<>();
    List<String> columns = columns(select, base, aggregates);
    if (select.getGroup() != null || !aggregates.isEmpty()) {
      checkGroups(name, select, base, columns, aggregates, create);
    }
    RowCondition condition;
    try {
      condition = select.getWhere() == null ? null : RowCondition.of(select.getWhere(), base);
    } catch (RowCondition.Refused e) {
      throw refused(e.getMessage());
    }
    List<IndexColumn> partition = new ArrayList<>();
    List<IndexColumn> row = new ArrayList<>();
    List<String> nullGroups = new ArrayList<>();
    for (int i = 0; i < create.key.columns.size(); i++) {
      String keyName = create.key.columns.get(i).getSimple();
      String column = columns.stream().filter(c -> c.equalsIgnoreCase(keyName)).findFirst()
          .orElseThrow(() -> new StoreException("Key column " + keyName + " of materialized view " + name + " is not "
              + "among the columns its query selects.", SqlStates.COLUMN_NOT_FOUND, null));
      if (TableDefinition.keyColumn(base.column(column), false) == null) {
        throw refused("Column " + column + " (" + base.column(column).sqlType() + ") cannot be part of a key: keys "
            + "hold text, numbers, dates, timestamps, booleans, UUIDs and binary values.");
      }
      if (base.column(column).nullable() && !impliesNotNull(select.getWhere(), column)) {
        if (aggregates.isEmpty()) {
          throw refused("Key column " + column + " of materialized view " + name + " may be NULL, and a copy's "
              + "key cannot hold NULL: add WHERE " + column + " IS NOT NULL to the view's query.");
        }
        nullGroups.add(column); // GROUP BY puts the NULLs in a group of their own, and so does the summary
      }
      (i < create.key.partitionColumns ? partition : row)
          .add(new IndexColumn(column, create.key.descending.get(i)));
    }
    if (aggregates.isEmpty()) {
      checkIdentifiesRows(name, base, partition, row);
    }
    if (base.layout().isMapped()) {
      for (TableDefinition other : catalog.tables().values()) {
        if (other != base && other.physicalTable().equalsIgnoreCase(base.physicalTable())
            && (!other.indexes().isEmpty() || !other.materializedViews().isEmpty())) {
          throw refused("Table " + other.name() + ", mapped over the same Azure table, has indexes or materialized "
              + "views already: one table over an Azure table keeps them, so that every write knows which.");
        }
      }
    }
    for (io.tablesql.catalog.Column column : base.columns()) {
      if (column.referencesBlob() && (columns.contains(column.name())
          || condition != null && condition.reads(column.name()))) {
        throw Indexes.referencesBlob(column);
      }
    }
    io.tablesql.catalog.WideRows.checkCopy("Materialized view " + name, columns.size());
    String physical = DeclaredTables.createPhysicalTable(session, "mv" + base.name() + name, true);
    MaterializedViewDefinition view = new MaterializedViewDefinition(name, columns, partition, row,
        condition == null ? null : condition.text(), create.query.toSqlString(CalciteSqlDialect.DEFAULT).getSql(),
        physical, false, null, aggregates, nullGroups);
    TableDefinition declared;
    try {
      declared = Catalog.update(session, base.name(), definition -> {
        List<MaterializedViewDefinition> views = new ArrayList<>(definition.materializedViews());
        views.add(view);
        return definition.withMaterializedViews(views);
      });
    } catch (RuntimeException e) {
      session.store().deleteTable(physical, new RequestCounters());
      throw e;
    }
    session.schemaChanged();
    try {
      build(session, declared, view, false, progress);
    } catch (StoreException e) {
      if (view.summary()) { // writes of the table wait while a summary is built: none stays half-built
        drop(session, declared, view);
        throw new StoreException(e.getMessage().replaceAll(" Materialized view .* REBUILD goes on.*$", "")
            + " Materialized view " + name + " was not created.", e.sqlState(), e);
      }
      throw e;
    }
  }

  /**
   * The view's columns in SELECT order: the base columns a SELECT list names (or all, for *), each
   * once, as declared, and the names of its aggregates (added to {@code aggregates}).
   */
  private static List<String> columns(SqlSelect select, TableDefinition base,
      List<MaterializedViewDefinition.Aggregate> aggregates) {
    List<String> columns = new ArrayList<>();
    for (SqlNode item : select.getSelectList()) {
      SqlNode value = item.getKind() == SqlKind.AS ? ((SqlCall) item).operand(0) : item;
      if (value instanceof SqlCall call && (call.getOperator().isAggregator() || AGGREGATES.contains(
          call.getOperator().getName().toUpperCase(java.util.Locale.ROOT)))) {
        MaterializedViewDefinition.Aggregate aggregate = aggregate(item, call, base);
        if (columns.contains(aggregate.name())
            || base.columns().stream().anyMatch(c -> c.name().equalsIgnoreCase(aggregate.name()))) {
          throw new StoreException("Column name " + aggregate.name() + " is taken: name the aggregate another way.",
              SqlStates.SYNTAX_ERROR, null);
        }
        aggregates.add(aggregate);
        columns.add(aggregate.name());
        continue;
      }
      if (!(item instanceof SqlIdentifier id)) {
        throw refused("A materialized view that copies selects columns as they are: "
            + item.toSqlString(CalciteSqlDialect.DEFAULT).getSql() + " is not a column of " + base.name() + ".");
      }
      if (id.isStar()) {
        base.columns().forEach(c -> columns.add(c.name()));
        continue;
      }
      String named = Names.last(id);
      Column column = base.columns().stream().filter(c -> c.name().equals(named)).findFirst()
          .or(() -> base.columns().stream().filter(c -> c.name().equalsIgnoreCase(named)).findFirst())
          .orElseThrow(() -> ObjectErrors.noSuchColumn("Column", named, base.name()));
      if (columns.contains(column.name())) {
        throw new StoreException("Column " + column.name() + " is selected twice.", SqlStates.SYNTAX_ERROR, null);
      }
      columns.add(column.name());
    }
    return columns;
  }

  /**
   * A summary's aggregate: COUNT(*), COUNT(c), or SUM(c) or AVG(c) of an integer or DECIMAL column, named
   * with AS. The others are refused, saying why: a running value cannot keep them.
   */
  private static MaterializedViewDefinition.Aggregate aggregate(SqlNode item, SqlCall call, TableDefinition base) {
    String function = call.getOperator().getName().toUpperCase(java.util.Locale.ROOT);
    String shown = item.toSqlString(CalciteSqlDialect.DEFAULT).getSql();
    if (function.equals("MIN") || function.equals("MAX")) {
      throw refused(shown + ": MIN and MAX are not kept by a summary, since deleting the row that holds the extreme "
          + "needs the other rows of the group. Keep a copy keyed by the group and the column instead.");
    }
    if (!function.equals("COUNT") && !function.equals("SUM") && !function.equals("AVG")) {
      throw refused(shown + ": a summary keeps COUNT(*), COUNT(column), SUM(column) and AVG(column), which each write "
          + "changes by a known amount.");
    }
    if (call.getFunctionQuantifier() != null || call.operandCount() != 1) {
      throw refused(shown + ": DISTINCT and several arguments are not kept by a summary.");
    }
    if (item.getKind() != SqlKind.AS) {
      throw refused(shown + ": name each aggregate of a materialized view (" + shown + " AS name).");
    }
    String name = Names.last((SqlIdentifier) ((SqlCall) item).operand(1));
    SqlNode argument = call.operand(0);
    if (argument instanceof SqlIdentifier id && id.isStar() && function.equals("COUNT")) {
      return new MaterializedViewDefinition.Aggregate(name, function, null);
    }
    if (!(argument instanceof SqlIdentifier id)) {
      throw refused(shown + ": the argument of a kept aggregate is a column.");
    }
    Column column = base.columns().stream().filter(c -> c.name().equalsIgnoreCase(Names.last(id))).findFirst()
        .orElseThrow(() -> ObjectErrors.noSuchColumn("Column", Names.last(id), base.name()));
    if (!function.equals("COUNT") && !List.of(org.apache.calcite.sql.type.SqlTypeName.TINYINT,
        org.apache.calcite.sql.type.SqlTypeName.SMALLINT, org.apache.calcite.sql.type.SqlTypeName.INTEGER,
        org.apache.calcite.sql.type.SqlTypeName.BIGINT, org.apache.calcite.sql.type.SqlTypeName.DECIMAL)
        .contains(column.sqlType())) {
      throw refused(shown + ": a summary keeps sums and averages of integers and DECIMAL exactly; a sum of "
          + column.sqlType() + " would drift as rows are taken away.");
    }
    return new MaterializedViewDefinition.Aggregate(name, function, column.name());
  }

  /** A summary groups by exactly its key's columns, which are the base columns it selects. */
  private static void checkGroups(String name, SqlSelect select, TableDefinition base, List<String> columns,
      List<MaterializedViewDefinition.Aggregate> aggregates, CreateMaterializedViewNode create) {
    Set<String> grouped = new HashSet<>();
    if (select.getGroup() != null) {
      for (SqlNode group : select.getGroup()) {
        if (!(group instanceof SqlIdentifier id)) {
          throw refused("Materialized view " + name + " groups by columns only.");
        }
        grouped.add(base.columns().stream().filter(c -> c.name().equalsIgnoreCase(Names.last(id))).findFirst()
            .map(Column::name).orElseThrow(() -> new StoreException("Column " + Names.last(id) + " is not a column of "
                + base.name() + ".", SqlStates.COLUMN_NOT_FOUND, null)));
      }
    }
    Set<String> selected = new HashSet<>(columns);
    aggregates.forEach(a -> selected.remove(a.name()));
    Set<String> key = new HashSet<>();
    create.key.columns.forEach(c -> selected.stream().filter(s -> s.equalsIgnoreCase(c.getSimple())).findFirst()
        .ifPresent(key::add));
    if (grouped.isEmpty() || !grouped.equals(selected) || !grouped.equals(key)
        || key.size() != create.key.columns.size()) {
      throw refused("Materialized view " + name + " summarizes groups: it selects its GROUP BY columns and "
          + "aggregates, and its PRIMARY KEY is made of exactly the GROUP BY columns (one summary per group).");
    }
  }

  /** Whether a WHERE has {@code column IS NOT NULL} among its top-level conjuncts. */
  private static boolean impliesNotNull(SqlNode where, String column) {
    if (!(where instanceof SqlCall call)) {
      return false;
    }
    if (call.getKind() == SqlKind.AND) {
      return call.getOperandList().stream().anyMatch(operand -> impliesNotNull(operand, column));
    }
    return call.getKind() == SqlKind.IS_NOT_NULL && call.operand(0) instanceof SqlIdentifier id
        && Names.last(id).equalsIgnoreCase(column);
  }

  /** A view's key must identify rows: hold the base table's key columns, or a UNIQUE index's columns. */
  private static void checkIdentifiesRows(String name, TableDefinition base, List<IndexColumn> partition,
      List<IndexColumn> row) {
    Set<String> key = new HashSet<>();
    partition.forEach(c -> key.add(c.column()));
    row.forEach(c -> key.add(c.column()));
    List<String> baseKey = base.layout().columns().stream().map(c -> c.name()).toList();
    if (!baseKey.isEmpty() && key.containsAll(baseKey)) {
      return;
    }
    for (IndexDefinition index : base.indexes()) {
      if (index.unique() && index.ready() && key.containsAll(index.columns().stream().map(IndexColumn::column).toList())) {
        return;
      }
    }
    throw refused("The key of materialized view " + name + " must identify the rows of " + base.name() + ": hold its "
        + "key columns (" + String.join(", ", baseKey) + ") or the columns of one of its UNIQUE indexes.");
  }

  static void drop(Session session, String name, boolean ifExists) {
    TableDefinition base = owner(Catalog.fresh(session), name);
    if (base == null) {
      if (ifExists) {
        return;
      }
      throw ObjectErrors.missing("Materialized view", name, "DROP MATERIALIZED VIEW");
    }
    drop(session, base, base.materializedView(name));
  }

  /** Forgets a view, then deletes its entities with their table (one request). */
  static void drop(Session session, TableDefinition base, MaterializedViewDefinition view) {
    Catalog.update(session, base.name(), definition -> {
      MaterializedViewDefinition current = definition.materializedView(view.name());
      if (current == null) {
        return null;
      }
      List<MaterializedViewDefinition> views = new ArrayList<>(definition.materializedViews());
      views.remove(current);
      return definition.withMaterializedViews(views);
    });
    session.store().deleteTable(view.table(), new RequestCounters());
    session.schemaChanged();
  }

  static void rebuild(Session session, String name, boolean rebuild, Consumer<String> progress) {
    TableDefinition base = owner(Catalog.fresh(session), name);
    if (base == null) {
      throw ObjectErrors.missing("Materialized view", name, null);
    }
    MaterializedViewDefinition view = base.materializedView(name);
    build(session, base, view, rebuild && !view.ready(), progress);
  }

  private static void build(Session session, TableDefinition base, MaterializedViewDefinition view, boolean resume,
      Consumer<String> progress) {
    MaterializedViewBuild.Outcome outcome;
    try {
      outcome = MaterializedViewBuild.run(session, base, view, FullScans.fullScan(session, base), resume,
          progress);
    } catch (StoreException e) {
      throw new StoreException(e.getMessage() + " Materialized view " + view.name() + " is recorded but not ready; "
          + "ALTER MATERIALIZED VIEW " + view.name() + " REBUILD goes on from where this build stopped"
          + (view.summary() ? " (until then writes of " + base.name() + " wait for it and fail with 40001)" : "")
          + ".", e.sqlState(), e);
    }
    session.schemaChanged();
    progress.accept("Materialized view " + view.name() + ": " + outcome.rows() + " rows of " + base.name() + " read, "
        + outcome.entitiesChecked() + " entities checked, " + outcome.entitiesRepaired()
        + " entities written or removed.");
  }

  /** Whether a view's condition reads a column. */
  static boolean readsInCondition(TableDefinition base, MaterializedViewDefinition view, String column) {
    return view.condition() != null && RowCondition.parse(view.condition(), base).reads(column);
  }

  /** The table with a materialized view of this name, or null. */
  static TableDefinition owner(Catalog.Contents catalog, String name) {
    return catalog.tables().values().stream().filter(t -> t.materializedView(name) != null).findFirst().orElse(null);
  }

  private static StoreException refused(String message) {
    return new StoreException(message, SqlStates.FEATURE_NOT_SUPPORTED, null);
  }
}
