package io.tablesql.ddl;

import com.azure.data.tables.models.TableEntity;
import io.tablesql.catalog.Catalog;
import io.tablesql.catalog.Column;
import io.tablesql.catalog.IndexDefinition;
import io.tablesql.catalog.MaterializedViewDefinition;
import io.tablesql.catalog.ObjectErrors;
import io.tablesql.catalog.TableDefinition;
import io.tablesql.catalog.ValueParts;
import io.tablesql.catalog.WideRows;
import io.tablesql.errors.SqlStates;
import io.tablesql.exec.LookupCache;
import io.tablesql.exec.PageEnds;
import io.tablesql.keys.GeneratedKey;
import io.tablesql.keys.KeyLayout.KeyColumn;
import io.tablesql.keys.KeyLayout;
import io.tablesql.keys.TemplateKey;
import io.tablesql.parser.DropBehavior;
import io.tablesql.parser.TableKeyNode;
import io.tablesql.parser.TableMappingNode;
import io.tablesql.session.Session;
import io.tablesql.store.RequestCounters;
import io.tablesql.store.StoreException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.ddl.SqlColumnDeclaration;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * CREATE TABLE with a PRIMARY KEY and DROP TABLE of such a table: typed columns whose key
 * columns are encoded into each entity's PartitionKey and RowKey, with the definition kept in
 * the account's {@link Catalog}.
 */
final class DeclaredTables {
  /** A DECIMAL without a precision holds this many digits. */
  private static final int DEFAULT_DECIMAL_PRECISION = 19;
  /** Keys hold a DECIMAL's unscaled value as a BIGINT. */
  private static final int MAX_KEY_DECIMAL_PRECISION = 18;

  /** What an OVER clause says: the Azure table, the key templates (null if not given), the discriminator (or null). */
  private record Mapping(String table, String partitionKey, String rowKey, String property, String value) {
  }

  private DeclaredTables() {
  }

  /** CREATE TABLE with a PRIMARY KEY; false if it exists and IF NOT EXISTS accepts that. */
  static boolean create(Session session, String name, boolean quoted, boolean ifNotExists,
      List<SqlColumnDeclaration> declarations, TableKeyNode key) {
    AzureDdlExecutor.checkNotReserved(name);
    List<String> keyNames = key.columnNames();
    List<Column> columns = new ArrayList<>();
    for (SqlColumnDeclaration declaration : declarations) {
      String column = declaration.name.getSimple();
      boolean isKey = keyNames.stream().anyMatch(keyName -> keyName.equalsIgnoreCase(column));
      columns.add(column(name, declaration, isKey, true));
    }
    checkPartNames(name, columns);
    return declare(session, name, quoted, ifNotExists, columns, layout(name, key, columns));
  }

  /**
   * Refuses a column named as a property that holds part of another column's long values
   * ({@code Body_TsN} beside a {@code Body} without a length): it would read or overwrite them.
   */
  static void checkPartNames(String table, List<Column> columns) {
    for (Column large : columns) {
      for (Column other : columns) {
        if (large.large() && ValueParts.isPartOf(other.name(), large.name())) {
          throw new StoreException("Column " + other.name() + " of " + table + " is named as the property that "
              + "holds part of the long values of column " + large.name() + ". Choose another name.",
              SqlStates.SYNTAX_ERROR, null);
        }
      }
    }
  }

  /**
   * CREATE TABLE without a PRIMARY KEY (as generic SQL tools write it): the driver makes up each
   * row's keys (see {@link GeneratedKey}), which no column shows. False if it exists and IF NOT
   * EXISTS accepts that.
   */
  static boolean createWithoutKey(Session session, String name, boolean quoted, boolean ifNotExists,
      List<SqlColumnDeclaration> declarations) {
    AzureDdlExecutor.checkNotReserved(name);
    List<Column> columns = new ArrayList<>();
    for (SqlColumnDeclaration declaration : declarations) {
      columns.add(column(name, declaration, false, true));
    }
    checkPartNames(name, columns);
    return declare(session, name, quoted, ifNotExists, columns,
        new KeyLayout(new GeneratedKey(), new GeneratedKey(), null));
  }

  /**
   * Makes the Azure table of a declared table and records its definition; false if it existed:
   * one of exactly that name, or, for an unquoted name, one matching it ignoring case.
   */
  private static boolean declare(Session session, String name, boolean quoted, boolean ifNotExists,
      List<Column> columns, KeyLayout layout) {
    if (Catalog.fresh(session).table(name, quoted) != null) {
      if (ifNotExists) {
        return false;
      }
      throw exists(name);
    }
    WideRows.place(name, columns, layout, layout.partitionFormat() instanceof io.tablesql.keys.EncodedKey
        && layout.rowFormat() instanceof io.tablesql.keys.EncodedKey); // refused before the Azure table is made
    String physical = quoted ? createPhysicalTableOwnCase(session, name) : createPhysicalTable(session, name, false);
    if (physical == null) { // an Azure table of that name, not declared
      if (ifNotExists) {
        return false;
      }
      throw exists(name);
    }
    TableDefinition definition = new TableDefinition(name, physical, WideRows.place(name, columns, layout,
        layout.partitionFormat() instanceof io.tablesql.keys.EncodedKey
            && layout.rowFormat() instanceof io.tablesql.keys.EncodedKey), layout);
    try {
      Catalog.add(session, definition);
    } catch (RuntimeException e) {
      session.store().deleteTable(physical, new RequestCounters()); // nothing half-made
      throw e;
    }
    LookupCache.invalidate(session, physical);
    PageEnds.forget(session, physical);
    session.schemaChanged();
    return true;
  }

  /**
   * Creates the Azure table a declared table's entities go to: of the same name where the
   * service takes it, else a name made from its letters and digits and a hash of the whole name
   * (so that two SQL names never share one), numbered on if that is taken. Null if an Azure
   * table of the very name exists.
   */
  /**
   * The Azure table of a quoted name: as {@link #createPhysicalTable}, but where an Azure table
   * exists whose name equals this one only ignoring case (another declared table's, or one of
   * the account's), a table of a name of its own, never that one.
   */
  private static String createPhysicalTableOwnCase(Session session, String name) {
    String physical = createPhysicalTable(session, name, false);
    if (physical != null || !AzureDdlExecutor.isAzureTableName(name)) {
      return physical;
    }
    boolean sameCase;
    try {
      sameCase = session.store().listTables(new RequestCounters()).contains(name);
    } catch (StoreException e) {
      sameCase = true; // credentials that may not list tables: the name is taken, as before
    }
    return sameCase ? null : createPhysicalTable(session, name, true, "t");
  }

  static String createPhysicalTable(Session session, String name, boolean hidden) {
    return createPhysicalTable(session, name, hidden, hidden ? "tsi" : "t");
  }

  private static String createPhysicalTable(Session session, String name, boolean hashed, String prefix) {
    if (!hashed && AzureDdlExecutor.isAzureTableName(name)) {
      return session.store().createTable(name, new RequestCounters()) ? name : null;
    }
    String letters = name.replaceAll("[^A-Za-z0-9]", "");
    String base = prefix + letters.substring(0, Math.min(40, letters.length()))
        + String.format("x%08x", name.toLowerCase(Locale.ROOT).hashCode());
    for (int attempt = 0; attempt < 100; attempt++) {
      String physical = attempt == 0 ? base : base + attempt;
      if (session.store().createTable(physical, new RequestCounters())) {
        return physical;
      }
    }
    throw new StoreException("No free Azure table name was found for table " + name + " (tried " + base
        + " and 99 numbered ones). Choose a name of 3 to 63 letters and digits.", SqlStates.OBJECT_EXISTS, null);
  }

  /**
   * CREATE TABLE ... OVER: a table over the entities of an existing Azure table, whose keys its
   * templates read (see {@link TemplateKey}); nothing is written to the Azure table.
   */
  static void map(Session session, String name, boolean quoted, boolean ifNotExists,
      List<SqlColumnDeclaration> declarations, TableKeyNode key, TableMappingNode over, List<String> blobReferences) {
    Mapping mapping = new Mapping(over.tableName(), over.partitionKeyTemplate(), over.rowKeyTemplate(),
        over.property(), over.value());
    AzureDdlExecutor.checkNotReserved(name);
    if (mapping.partitionKey() == null || mapping.rowKey() == null) {
      throw new StoreException("CREATE TABLE " + name + " ... OVER " + mapping.table() + " needs PARTITION KEY "
          + "'<template>' ROW KEY '<template>': how the existing keys are made of the columns, such as "
          + "PARTITION KEY '{Department}' ROW KEY 'empid_{EmployeeId:6}'.", SqlStates.SYNTAX_ERROR, null);
    }
    Set<String> fields = new HashSet<>();
    Matcher field = Pattern.compile("\\{([^}:]+)").matcher(mapping.partitionKey() + mapping.rowKey());
    while (field.find()) {
      if (!fields.add(field.group(1).trim().toLowerCase(Locale.ROOT))) {
        throw new StoreException("The key templates of " + name + " name {" + field.group(1) + "} twice.",
            SqlStates.SYNTAX_ERROR, null);
      }
    }
    List<Column> columns = new ArrayList<>();
    for (SqlColumnDeclaration declaration : declarations) {
      // the application reads its entities' properties as they are: no value is split into parts
      Column column = column(name, declaration, fields.contains(declaration.name.getSimple().toLowerCase(Locale.ROOT)),
          false);
      if (blobReferences.stream().anyMatch(column.name()::equalsIgnoreCase)) {
        if (!column.canBeLarge() || fields.contains(column.name().toLowerCase(Locale.ROOT))) {
          throw new StoreException("Column " + column.name() + " of " + name + " REFERENCES BLOB, so its value is the "
              + "content of the blob its property names: declare it as text (CLOB, VARCHAR) or binary (BLOB, "
              + "VARBINARY), and not as a field of the key.", SqlStates.SYNTAX_ERROR, null);
        }
        column = column.referencingBlobs();
      }
      columns.add(column);
    }
    List<String> keyProperties = new ArrayList<>();
    for (String named : over.keyProperties()) {
      Column column = columns.stream().filter(c -> c.name().equalsIgnoreCase(named)).findFirst().orElse(null);
      if (column == null || !fields.contains(named.toLowerCase(Locale.ROOT))) {
        throw new StoreException("KEY PROPERTIES of " + name + " names " + named + ", which is not a field of its key "
            + "templates: list the fields whose text the entities also hold as properties of their names.",
            SqlStates.SYNTAX_ERROR, null);
      }
      if (keyProperties.contains(column.name())) {
        throw new StoreException("KEY PROPERTIES of " + name + " names " + named + " twice.", SqlStates.SYNTAX_ERROR,
            null);
      }
      keyProperties.add(column.name());
    }
    KeyLayout layout = new KeyLayout(template(name, "PARTITION KEY", mapping.partitionKey(), columns),
        template(name, "ROW KEY", mapping.rowKey(), columns),
        mapping.property() == null ? null : new KeyLayout.Discriminator(mapping.property(), mapping.value()),
        keyProperties, Set.of());
    List<String> declaredKey = key == null ? null : key.columnNames();
    List<String> templateKey = layout.columns().stream().map(KeyColumn::name).toList();
    if (declaredKey != null && !declaredKey.stream().map(k -> k.toLowerCase(Locale.ROOT)).toList()
        .equals(templateKey.stream().map(k -> k.toLowerCase(Locale.ROOT)).toList())) {
      throw new StoreException("The PRIMARY KEY of " + name + " " + declaredKey + " is not the key the templates "
          + "make " + templateKey + "; leave it out, or list those columns in that order.", SqlStates.SYNTAX_ERROR,
          null);
    }
    if (Catalog.fresh(session).table(name, quoted) != null) {
      if (ifNotExists) {
        return;
      }
      throw exists(name);
    }
    layout = withNumericKeyProperties(session, mapping.table(), layout); // 42S02 if the table is missing
    Catalog.add(session, new TableDefinition(name, mapping.table(), columns, layout));
    session.schemaChanged();
  }

  /** Entities read to learn how the application stores its key properties: one request. */
  private static final int KEY_PROPERTY_SAMPLE = 100;

  /**
   * The layout with the key properties that the application's rows (among the first entities of
   * its table) hold as numbers (Int32, Int64) where the key column is an integer: tablesql then
   * writes them as numbers too, and reads an index copy's number back into the key's text.
   */
  private static KeyLayout withNumericKeyProperties(Session session, String table, KeyLayout layout) {
    Iterator<List<TableEntity>> pages = session.store().query(table, null, null, KEY_PROPERTY_SAMPLE,
        new RequestCounters());
    List<TableEntity> sample = pages.hasNext() ? pages.next() : List.of();
    Set<String> numeric = new HashSet<>();
    for (KeyColumn column : layout.columns()) {
      if (!layout.keyProperties().contains(column.name()) || column.sqlType() == SqlTypeName.VARCHAR) {
        continue;
      }
      boolean asNumbers = sample.stream()
          .filter(entity -> layout.isRow(entity.getPartitionKey(), entity.getRowKey(), entity.getProperties()))
          .map(entity -> entity.getProperties().get(column.name())).filter(java.util.Objects::nonNull)
          .findFirst().map(value -> value instanceof Integer || value instanceof Long).orElse(false);
      if (asNumbers) {
        numeric.add(column.name());
      }
    }
    return new KeyLayout(layout.partitionFormat(), layout.rowFormat(), layout.discriminator(),
        layout.keyProperties(), numeric);
  }

  private static TemplateKey template(String table, String clause, String template, List<Column> columns) {
    try {
      return TemplateKey.parse(template, field -> columns.stream().filter(c -> c.name().equalsIgnoreCase(field))
          .findFirst().map(c -> TableDefinition.keyColumn(c, false)).orElse(null));
    } catch (IllegalArgumentException e) {
      throw new StoreException("The " + clause + " template '" + template + "' of " + table + " cannot be used: "
          + e.getMessage() + ".", SqlStates.SYNTAX_ERROR, e);
    }
  }

  /**
   * Drops a declared table and its definition, with its entities unless it is mapped over an
   * existing table (whose entities stay).
   */
  static Dropped drop(Session session, String name) {
    return drop(session, new SqlIdentifier(name, org.apache.calcite.sql.parser.SqlParserPos.ZERO));
  }

  static Dropped drop(Session session, SqlIdentifier name) {
    Catalog.Contents catalog = Catalog.fresh(session);
    TableDefinition definition = catalog.table(Names.last(name), Names.quoted(name));
    if (definition == null) {
      // a quoted name of another case than a declared table's: not the Azure table holding that one's rows
      return catalog.table(Names.last(name), false) == null ? Dropped.NOT_DECLARED : Dropped.OTHER_CASE;
    }
    if (!definition.layout().isMapped()) {
      session.store().deleteTable(definition.physicalTable(), new RequestCounters());
      if (definition.columns().stream().anyMatch(Column::blobs)) {
        io.tablesql.exec.BlobValues.deleteAll(session, definition.physicalTable()); // their rows are gone
      }
    }
    definition.indexes().stream().filter(index -> !index.local())
        .forEach(index -> session.store().deleteTable(index.table(), new RequestCounters()));
    definition.materializedViews() // kept from the table's rows only: they go with it
        .forEach(view -> session.store().deleteTable(view.table(), new RequestCounters()));
    Catalog.remove(session, definition);
    LookupCache.invalidate(session, definition.physicalTable());
    PageEnds.forget(session, definition.physicalTable());
    session.schemaChanged();
    return Dropped.DROPPED;
  }

  /** What DROP TABLE found: a declared table it dropped, none, or one whose name a quoted name differs from in case. */
  enum Dropped { DROPPED, NOT_DECLARED, OTHER_CASE }

  /**
   * ALTER TABLE ... ALTER COLUMN ... TYPE: a column of text or binary of a table whose entities are
   * tablesql's widened to hold long values (CLOB, TEXT, VARCHAR without a length; BLOB, VARBINARY
   * without one), in parts and blobs. Only the catalog changes: every value stored before is one
   * property, which a column of long values reads as it is. The table then has catalog format 12,
   * which earlier drivers refuse rather than read a long value's first part.
   */
  static void alterColumnType(Session session, TableDefinition table, String name, SqlDataTypeSpec type) {
    Column column = table.columns().stream().filter(c -> c.name().equalsIgnoreCase(name)).findFirst()
        .orElseThrow(() -> ObjectErrors.noSuchColumn("Column", name, table.name()));
    String typeName = type.getTypeName().getSimple().toUpperCase(Locale.ROOT);
    int length = type.getTypeNameSpec() instanceof SqlBasicTypeNameSpec basic ? basic.getPrecision() : -1;
    SqlTypeName target = sqlType(typeName);
    boolean sameKind = target != null && column.canBeLarge()
        && (column.singleEdmType() == io.tablesql.store.EdmType.BINARY)
            == (target == SqlTypeName.VARBINARY || target == SqlTypeName.BINARY);
    if (table.layout().isMapped()) {
      throw new StoreException("Table " + table.name() + " is mapped over an application's entities, whose properties "
          + "the application reads as they are: its columns keep one property per value.",
          SqlStates.FEATURE_NOT_SUPPORTED, null);
    }
    if (!sameKind || !declaresNoLimit(typeName, length) || table.shape().keyPosition(column) >= 0) {
      throw new StoreException("ALTER COLUMN " + column.name() + " TYPE " + typeName + ": a change of type widens a "
          + "column of text or binary that is not part of the key to hold long values (text to CLOB, TEXT or VARCHAR "
          + "without a length; binary to BLOB or VARBINARY without one). Other changes would rewrite every row, "
          + "which tablesql does not do: copy the table with INSERT ... SELECT.", SqlStates.FEATURE_NOT_SUPPORTED,
          null);
    }
    if (column.blobs()) {
      return; // holds long values of any length already
    }
    Catalog.update(session, table.name(), definition -> {
      List<Column> columns = new ArrayList<>(definition.columns());
      columns.replaceAll(c -> c.name().equals(column.name()) ? c.holdingBlobs() : c);
      checkPartNames(table.name(), columns);
      WideRows.checkChange(definition, definition.column(column.name()).holdingBlobs(),
          "change the type of column " + column.name());
      return new TableDefinition(definition.name(), definition.physicalTable(), columns, definition.layout(),
          definition.indexes(), definition.droppedColumns(), definition.materializedViews());
    });
  }

  /** ALTER TABLE ... ADD COLUMN: a nullable column, which every row written before holds as NULL. */
  static void addColumn(Session session, TableDefinition table, SqlColumnDeclaration declaration) {
    Column column = column(table.name(), declaration, false, !table.layout().isMapped());
    if (!column.nullable()) {
      throw new StoreException("Column " + column.name() + " is NOT NULL, but the rows of " + table.name() + " written "
          + "before it hold no value: ALTER TABLE adds nullable columns only.", SqlStates.FEATURE_NOT_SUPPORTED, null);
    }
    Catalog.update(session, table.name(), definition -> {
      if (definition.columns().stream().anyMatch(c -> c.name().equalsIgnoreCase(column.name()))) {
        throw new StoreException("Column " + column.name() + " exists already in " + table.name() + ".",
            SqlStates.COLUMN_EXISTS, null);
      }
      if (!definition.layout().isMapped()
          && definition.droppedColumns().stream().anyMatch(c -> c.equalsIgnoreCase(column.name()))) {
        throw new StoreException("Column " + column.name() + " was dropped from " + table.name() + ", and its rows "
            + "still hold its old values (dropping a column rewrites no entity): a column of that name would show them. "
            + "Choose another name.", SqlStates.FEATURE_NOT_SUPPORTED, null);
      }
      WideRows.checkChange(definition, column, "add column " + column.name());
      TableDefinition added = definition.withColumnAdded(column);
      checkPartNames(table.name(), added.columns());
      return added;
    });
  }

  /**
   * ALTER TABLE ... DROP COLUMN: the column leaves the definition; the entities keep its values
   * (no entity is rewritten). A key column cannot be dropped; an indexed one only with CASCADE,
   * which drops its indexes first.
   */
  static void dropColumn(Session session, TableDefinition table, String name, DropBehavior behavior) {
    Column column = table.columns().stream().filter(c -> c.name().equalsIgnoreCase(name)).findFirst()
        .orElseThrow(() -> ObjectErrors.noSuchColumn("Column", name, table.name()));
    if (table.layout().columns().stream().anyMatch(key -> key.name().equals(column.name()))) {
      throw new StoreException("Column " + column.name() + " is part of the key of " + table.name() + " and cannot be "
          + "dropped: every row's PartitionKey and RowKey are made of it.", SqlStates.DEPENDENT_OBJECTS, null);
    }
    if (column.part() > 1) {
      // its values stay in the row's later entity, and a column dropped is not known to be there
      throw new StoreException("Column " + column.name() + " of " + table.name() + " is kept in entity " + column.part()
          + " of each of its wide rows, whose columns cannot be dropped yet. Create a table without it and copy the "
          + "rows (INSERT INTO ... SELECT).", SqlStates.FEATURE_NOT_SUPPORTED, null);
    }
    List<IndexDefinition> indexes = table.indexes().stream().filter(index -> index.columns().stream()
        .anyMatch(c -> c.column().equals(column.name())) || index.include().contains(column.name())).toList();
    if (!indexes.isEmpty() && behavior != DropBehavior.CASCADE) {
      throw new StoreException("Column " + column.name() + " of " + table.name() + " is in index"
          + (indexes.size() == 1 ? " " : "es ") + String.join(", ", indexes.stream().map(IndexDefinition::name).toList())
          + ". Drop the index first, or use DROP COLUMN ... CASCADE to drop it with the column.",
          SqlStates.DEPENDENT_OBJECTS, null);
    }
    List<MaterializedViewDefinition> views = table.materializedViews().stream()
        .filter(view -> view.columns().contains(column.name()) || MaterializedViews.readsInCondition(table, view,
            column.name())).toList();
    if (!views.isEmpty() && behavior != DropBehavior.CASCADE) {
      throw new StoreException("Column " + column.name() + " of " + table.name() + " is read by materialized view"
          + (views.size() == 1 ? " " : "s ") + String.join(", ", views.stream().map(MaterializedViewDefinition::name)
          .toList()) + ". Drop the view first, or use DROP COLUMN ... CASCADE to drop it with the column.",
          SqlStates.DEPENDENT_OBJECTS, null);
    }
    for (IndexDefinition index : indexes) {
      Indexes.drop(session, table, index);
    }
    for (MaterializedViewDefinition view : views) {
      MaterializedViews.drop(session, table, view);
    }
    Catalog.update(session, table.name(), definition -> definition.columns().contains(column)
        ? definition.withColumnDropped(column) : null);
  }

  private static StoreException exists(String name) {
    return ObjectErrors.exists("Table", name, "CREATE TABLE");
  }

  private static KeyLayout layout(String table, TableKeyNode key, List<Column> columns) {
    List<String> names = key.columnNames();
    int partitionColumns = key.partitionColumns;
    List<KeyColumn> partition = new ArrayList<>();
    List<KeyColumn> row = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < names.size(); i++) {
      String name = names.get(i);
      Column column = columns.stream().filter(c -> c.name().equalsIgnoreCase(name)).findFirst()
          .orElseThrow(() -> ObjectErrors.noSuchColumn("PRIMARY KEY column", name, table));
      if (!seen.add(column.name().toLowerCase(Locale.ROOT))) {
        throw new StoreException("PRIMARY KEY of " + table + " names " + name + " twice.", SqlStates.SYNTAX_ERROR,
            null);
      }
      KeyColumn keyColumn = TableDefinition.keyColumn(column, key.descending.get(i));
      if (keyColumn == null || column.sqlType() == SqlTypeName.DECIMAL
          && column.precision() > MAX_KEY_DECIMAL_PRECISION) {
        throw new StoreException("Column " + column.name() + " of " + table + " cannot be in the PRIMARY KEY: keys "
            + "hold VARCHAR, SMALLINT, INTEGER, BIGINT, DOUBLE, REAL, DECIMAL up to 18 digits, BOOLEAN, DATE, "
            + "TIMESTAMP, UUID and VARBINARY.", SqlStates.FEATURE_NOT_SUPPORTED, null);
      }
      (i < partitionColumns ? partition : row).add(keyColumn);
    }
    return new KeyLayout(partition, row);
  }

  /**
   * A declared column. {@code ownEntities}: the table's entities are tablesql's own (not an
   * application's it is mapped over), so a text or binary column without a length (or CLOB, BLOB)
   * holds large values.
   */
  static Column column(String table, SqlColumnDeclaration declaration, boolean isKey, boolean ownEntities) {
    String name = declaration.name.getSimple();
    String typeName = declaration.dataType.getTypeName().getSimple().toUpperCase(Locale.ROOT);
    int precision = -1;
    int scale = -1;
    if (declaration.dataType.getTypeNameSpec() instanceof SqlBasicTypeNameSpec basic) {
      precision = basic.getPrecision();
      scale = basic.getScale();
    }
    SqlTypeName type = sqlType(typeName);
    if (type == SqlTypeName.DECIMAL && precision < 0) {
      precision = DEFAULT_DECIMAL_PRECISION;
    }
    boolean nullable = !isKey && !Boolean.FALSE.equals(declaration.dataType.getNullable());
    Column column = type == null ? null
        : Column.declared(name, type, typeName.equals("UUID"), precision, scale, nullable);
    if (column == null) {
      throw new StoreException("Column " + name + " of " + table + " has type " + typeName + ", which tablesql "
          + "cannot store. Use VARCHAR (CHAR, TEXT, CLOB), SMALLINT, INTEGER, BIGINT, DOUBLE (FLOAT, REAL), "
          + "DECIMAL(p, s), BOOLEAN, DATE, TIMESTAMP, UUID or VARBINARY (BLOB).", SqlStates.FEATURE_NOT_SUPPORTED, null);
    }
    if (ownEntities && !isKey && column.canBeLarge() && declaresNoLimit(typeName, precision)) {
      column = column.holdingBlobs();
    }
    if (column.name().equals(Column.PARTITION_KEY) || column.name().equals(Column.ROW_KEY)
        || column.name().equals(Column.TIMESTAMP)) {
      throw new StoreException("Column name " + name + " is the service's own; a table with a PRIMARY KEY has its "
          + "keys made from its key columns. Choose another name.", SqlStates.SYNTAX_ERROR, null);
    }
    return column;
  }

  /**
   * Whether a text or binary type is declared without a length one property holds: CLOB, BLOB,
   * TEXT, or VARCHAR and VARBINARY without a length or with one longer.
   */
  private static boolean declaresNoLimit(String typeName, int length) {
    switch (typeName) {
      case "CLOB": case "BLOB": case "TEXT": case "STRING": return true;
      case "VARCHAR": return length < 0 || length > ValueParts.TEXT_PART;
      case "VARBINARY": return length < 0 || length > ValueParts.BINARY_PART;
      default: return false;
    }
  }

  /** The SQL type a DDL type name stands for, or null for one tablesql cannot store. */
  static SqlTypeName sqlType(String typeName) {
    switch (typeName) {
      case "VARCHAR": case "CHAR": case "CHARACTER": case "TEXT": case "STRING": case "UUID": case "CLOB":
        return SqlTypeName.VARCHAR;
      case "SMALLINT": case "TINYINT": return SqlTypeName.SMALLINT;
      case "INT": case "INTEGER": return SqlTypeName.INTEGER;
      case "BIGINT": return SqlTypeName.BIGINT;
      case "DOUBLE": case "FLOAT": return SqlTypeName.DOUBLE;
      case "REAL": return SqlTypeName.REAL;
      case "DECIMAL": case "NUMERIC": case "DEC": return SqlTypeName.DECIMAL;
      case "BOOLEAN": return SqlTypeName.BOOLEAN;
      case "DATE": return SqlTypeName.DATE;
      case "TIMESTAMP": return SqlTypeName.TIMESTAMP;
      case "VARBINARY": case "BINARY": case "BLOB": return SqlTypeName.VARBINARY;
      default: return null;
    }
  }
}
