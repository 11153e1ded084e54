package io.tablesql.ddl;

import io.tablesql.catalog.Catalog;
import io.tablesql.catalog.Column;
import io.tablesql.catalog.TableDefinition;
import io.tablesql.errors.SqlStates;
import io.tablesql.exec.LookupCache;
import io.tablesql.keys.GeneratedKey;
import io.tablesql.keys.KeyLayout.KeyColumn;
import io.tablesql.keys.KeyLayout;
import io.tablesql.keys.TemplateKey;
import io.tablesql.session.Session;
import io.tablesql.store.RequestCounters;
import io.tablesql.store.StoreException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.ddl.SqlColumnDeclaration;
import org.apache.calcite.sql.ddl.SqlKeyConstraint;
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

  private DeclaredTables() {
  }

  static void create(Session session, String name, boolean ifNotExists, List<SqlColumnDeclaration> declarations,
      List<SqlKeyConstraint> keys) {
    if (keys.size() > 1 || keys.get(0).getOperator().getKind() != org.apache.calcite.sql.SqlKind.PRIMARY_KEY) {
      throw new StoreException("Table " + name + " declares " + (keys.size() > 1 ? "more than one PRIMARY KEY or "
          + "UNIQUE constraint" : "a UNIQUE constraint") + "; a table has one PRIMARY KEY and no other constraint.",
          SqlStates.FEATURE_NOT_SUPPORTED, null);
    }
    if (AzureDdlExecutor.isReserved(name)) {
      throw new StoreException("Table name '" + name + "' is reserved for tablesql's catalog.",
          SqlStates.SYNTAX_ERROR, null);
    }
    List<String> keyNames = keyColumnNames(keys.get(0));
    List<Column> columns = new ArrayList<>();
    for (SqlColumnDeclaration declaration : declarations) {
      String column = declaration.name.getSimple();
      boolean isKey = keyNames.stream().anyMatch(key -> key.equalsIgnoreCase(column));
      columns.add(column(name, declaration, isKey));
    }
    declare(session, name, ifNotExists, columns, layout(name, keys.get(0), columns));
  }

  /**
   * CREATE TABLE without a PRIMARY KEY (as generic SQL tools write it): the driver makes up each
   * row's keys (see {@link GeneratedKey}), which no column shows.
   */
  static void createWithoutKey(Session session, String name, boolean ifNotExists,
      List<SqlColumnDeclaration> declarations) {
    if (AzureDdlExecutor.isReserved(name)) {
      throw new StoreException("Table name '" + name + "' is reserved for tablesql's catalog.",
          SqlStates.SYNTAX_ERROR, null);
    }
    List<Column> columns = new ArrayList<>();
    for (SqlColumnDeclaration declaration : declarations) {
      columns.add(column(name, declaration, false));
    }
    declare(session, name, ifNotExists, columns, new KeyLayout(new GeneratedKey(), new GeneratedKey(), null));
  }

  /** Makes the Azure table of a declared table and records its definition. */
  private static void declare(Session session, String name, boolean ifNotExists, List<Column> columns,
      KeyLayout layout) {
    if (Catalog.fresh(session).tables().containsKey(name.toLowerCase(Locale.ROOT))) {
      if (ifNotExists) {
        return;
      }
      throw exists(name);
    }
    String physical = createPhysicalTable(session, name, false);
    if (physical == null) { // an Azure table of that name, not declared
      if (ifNotExists) {
        return;
      }
      throw exists(name);
    }
    TableDefinition definition = new TableDefinition(name, physical, columns, layout);
    try {
      Catalog.add(session, definition);
    } catch (RuntimeException e) {
      session.store().deleteTable(physical, new RequestCounters()); // nothing half-made
      throw e;
    }
    LookupCache.invalidate(session, physical);
    session.schemaChanged();
  }

  /**
   * Creates the Azure table a declared table's entities go to: of the same name where the
   * service takes it, else a name made from its letters and digits and a hash of the whole name
   * (so that two SQL names never share one), numbered on if that is taken. Null if an Azure
   * table of the very name exists.
   */
  static String createPhysicalTable(Session session, String name, boolean hidden) {
    if (!hidden && AzureDdlExecutor.isAzureTableName(name)) {
      return session.store().createTable(name, new RequestCounters()) ? name : null;
    }
    String letters = name.replaceAll("[^A-Za-z0-9]", "");
    String base = (hidden ? "tsi" : "t") + letters.substring(0, Math.min(40, letters.length()))
        + String.format("x%08x", name.toLowerCase(Locale.ROOT).hashCode());
    for (int attempt = 0; attempt < 100; attempt++) {
      String physical = attempt == 0 ? base : base + attempt;
      if (session.store().createTable(physical, new RequestCounters())) {
        return physical;
      }
    }
    throw new StoreException("No free Azure table name was found for table " + name + " (tried " + base
        + " and 99 numbered ones). Choose a name of 3 to 63 letters and digits.", "42S01", null);
  }

  /**
   * CREATE TABLE ... OVER: a table over the entities of an existing Azure table, whose keys its
   * templates read (see {@link TemplateKey}); nothing is written to the Azure table.
   */
  static void map(Session session, String name, boolean ifNotExists, List<SqlColumnDeclaration> declarations,
      List<SqlKeyConstraint> keys, MappingClause.Mapping mapping) {
    if (AzureDdlExecutor.isReserved(name)) {
      throw new StoreException("Table name '" + name + "' is reserved for tablesql's catalog.",
          SqlStates.SYNTAX_ERROR, null);
    }
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
      columns.add(column(name, declaration, fields.contains(declaration.name.getSimple().toLowerCase(Locale.ROOT))));
    }
    KeyLayout layout = new KeyLayout(template(name, "PARTITION KEY", mapping.partitionKey(), columns),
        template(name, "ROW KEY", mapping.rowKey(), columns),
        mapping.property() == null ? null : new KeyLayout.Discriminator(mapping.property(), mapping.value()));
    List<String> declaredKey = keys.isEmpty() ? null : keyColumnNames(keys.get(0));
    List<String> templateKey = layout.columns().stream().map(KeyColumn::name).toList();
    if (declaredKey != null && !declaredKey.stream().map(k -> k.toLowerCase(Locale.ROOT)).toList()
        .equals(templateKey.stream().map(k -> k.toLowerCase(Locale.ROOT)).toList())) {
      throw new StoreException("The PRIMARY KEY of " + name + " " + declaredKey + " is not the key the templates "
          + "make " + templateKey + "; leave it out, or list those columns in that order.", SqlStates.SYNTAX_ERROR,
          null);
    }
    if (Catalog.fresh(session).tables().containsKey(name.toLowerCase(Locale.ROOT))) {
      if (ifNotExists) {
        return;
      }
      throw exists(name);
    }
    session.store().query(mapping.table(), null, null, 1, new RequestCounters()).hasNext(); // 42S02 if missing
    Catalog.add(session, new TableDefinition(name, mapping.table(), columns, layout));
    session.schemaChanged();
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
   * existing table (whose entities stay); false if {@code name} is not declared.
   */
  static boolean drop(Session session, String name) {
    TableDefinition definition = Catalog.fresh(session).tables().get(name.toLowerCase(Locale.ROOT));
    if (definition == null) {
      return false;
    }
    if (!definition.layout().isMapped()) {
      session.store().deleteTable(definition.physicalTable(), new RequestCounters());
    }
    definition.indexes().stream().filter(index -> !index.local())
        .forEach(index -> session.store().deleteTable(index.table(), new RequestCounters()));
    Catalog.remove(session, definition);
    LookupCache.invalidate(session, definition.physicalTable());
    session.schemaChanged();
    return true;
  }

  private static StoreException exists(String name) {
    return new StoreException("Table " + name + " exists already. Use CREATE TABLE IF NOT EXISTS to accept that.",
        "42S01", null);
  }

  private static List<String> keyColumnNames(SqlKeyConstraint key) {
    List<String> names = new ArrayList<>();
    for (SqlNode node : (SqlNodeList) key.getOperandList().get(1)) {
      names.add(((SqlIdentifier) node).getSimple());
    }
    return names;
  }

  private static KeyLayout layout(String table, SqlKeyConstraint key, List<Column> columns) {
    SqlIdentifier constraintName = (SqlIdentifier) key.getOperandList().get(0);
    List<String> names = keyColumnNames(key);
    KeyClause.Layout layout = constraintName == null ? null : KeyClause.layoutOf(constraintName.getSimple());
    int partitionColumns = layout == null ? 1 : layout.partitionColumns();
    if (layout != null && layout.descending().size() != names.size() || partitionColumns > names.size()) {
      throw new StoreException("The PRIMARY KEY of " + table + " cannot be read.", SqlStates.SYNTAX_ERROR, null);
    }
    List<KeyColumn> partition = new ArrayList<>();
    List<KeyColumn> row = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < names.size(); i++) {
      String name = names.get(i);
      Column column = columns.stream().filter(c -> c.name().equalsIgnoreCase(name)).findFirst()
          .orElseThrow(() -> new StoreException("PRIMARY KEY column " + name + " is not a column of " + table + ".",
              SqlStates.COLUMN_NOT_FOUND, null));
      if (!seen.add(column.name().toLowerCase(Locale.ROOT))) {
        throw new StoreException("PRIMARY KEY of " + table + " names " + name + " twice.", SqlStates.SYNTAX_ERROR,
            null);
      }
      KeyColumn keyColumn = TableDefinition.keyColumn(column, layout != null && layout.descending().get(i));
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

  private static Column column(String table, SqlColumnDeclaration declaration, boolean isKey) {
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
          + "cannot store. Use VARCHAR (CHAR, TEXT), SMALLINT, INTEGER, BIGINT, DOUBLE (FLOAT, REAL), DECIMAL(p, s), "
          + "BOOLEAN, DATE, TIMESTAMP, UUID or VARBINARY.", SqlStates.FEATURE_NOT_SUPPORTED, null);
    }
    if (column.name().equals(Column.PARTITION_KEY) || column.name().equals(Column.ROW_KEY)
        || column.name().equals(Column.TIMESTAMP)) {
      throw new StoreException("Column name " + name + " is the service's own; a table with a PRIMARY KEY has its "
          + "keys made from its key columns. Choose another name.", SqlStates.SYNTAX_ERROR, null);
    }
    return column;
  }

  /** The SQL type a DDL type name stands for, or null for one tablesql cannot store. */
  static SqlTypeName sqlType(String typeName) {
    switch (typeName) {
      case "VARCHAR": case "CHAR": case "CHARACTER": case "TEXT": case "STRING": case "UUID": return SqlTypeName.VARCHAR;
      case "SMALLINT": case "TINYINT": return SqlTypeName.SMALLINT;
      case "INT": case "INTEGER": return SqlTypeName.INTEGER;
      case "BIGINT": return SqlTypeName.BIGINT;
      case "DOUBLE": case "FLOAT": return SqlTypeName.DOUBLE;
      case "REAL": return SqlTypeName.REAL;
      case "DECIMAL": case "NUMERIC": case "DEC": return SqlTypeName.DECIMAL;
      case "BOOLEAN": return SqlTypeName.BOOLEAN;
      case "DATE": return SqlTypeName.DATE;
      case "TIMESTAMP": return SqlTypeName.TIMESTAMP;
      case "VARBINARY": case "BINARY": return SqlTypeName.VARBINARY;
      default: return null;
    }
  }
}
