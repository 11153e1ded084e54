package io.tablesql.metadata;

import io.tablesql.catalog.IndexDefinition;
import io.tablesql.keys.KeyLayout;
import io.tablesql.plan.AzureTable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.zip.CRC32;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.Table;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * What the catalogs list, read from a connection's schemas when a catalog is scanned: the
 * namespaces, and the relations of each (tables, views, materialized views, and the indexes of
 * declared tables) with their columns (read only when asked for: a sampled table's columns cost
 * requests) and keys. Object ids are derived from names, so every session gives the same.
 */
final class Relations {
  /** The account's schema: PostgreSQL's {@code public}, whose OID it takes. */
  static final int ACCOUNT_NAMESPACE = 2200;
  static final int INFORMATION_SCHEMA_NAMESPACE = 13_000;
  static final int SYSTEM_NAMESPACE = 13_001;
  /** The first OID PostgreSQL gives to objects users create; derived OIDs lie above it. */
  private static final int FIRST_USER_OID = 16_384;

  /** A namespace: its OID and name. */
  record Namespace(int oid, String name) {
  }

  /** A column: its name, position (from 1), SQL type, PostgreSQL type and modifier, and whether it may be null. */
  record Attribute(String name, int number, RelDataType type, PgType pgType, int modifier, boolean notNull) {
  }

  /** An index of a relation: its own relation, whether UNIQUE or the primary key, and its columns' positions. */
  record Index(Relation relation, Relation table, boolean unique, boolean primary, List<Integer> columns) {
  }

  /** A relation: OID, name, namespace, PostgreSQL kind ({@code r}, {@code v}, {@code m}, {@code i}), its columns. */
  static final class Relation {
    final int oid;
    final String name;
    final Namespace namespace;
    final char kind;
    private final Supplier<List<Attribute>> attributes;
    /** The SQL text of a view, null for others. */
    final String definition;

    Relation(String name, Namespace namespace, char kind, Supplier<List<Attribute>> attributes, String definition) {
      this.oid = oid(namespace.name(), name);
      this.name = name;
      this.namespace = namespace;
      this.kind = kind;
      this.attributes = memoized(attributes);
      this.definition = definition;
    }

    List<Attribute> attributes() {
      return attributes.get();
    }

    Attribute attribute(String column) {
      return attributes().stream().filter(a -> a.name().equalsIgnoreCase(column)).findFirst().orElse(null);
    }
  }

  final List<Namespace> namespaces = new ArrayList<>();
  final List<Relation> relations = new ArrayList<>();
  final List<Index> indexes = new ArrayList<>();
  /** The database's name: the account's, as the JDBC schema is. */
  final String database;

  private Relations(String database) {
    this.database = database;
  }

  /** The relation OID of {@code name} in namespace {@code namespace}. */
  static int oid(String namespace, String name) {
    CRC32 crc = new CRC32();
    crc.update((namespace + "." + name).toLowerCase(Locale.ROOT).getBytes(StandardCharsets.UTF_8));
    return FIRST_USER_OID + (int) (crc.getValue() % (Integer.MAX_VALUE - FIRST_USER_OID));
  }

  /** The namespace OID of a schema of the root; 0 for none. */
  static int namespaceOid(String account, String schema) {
    if (schema.equalsIgnoreCase(account)) {
      return ACCOUNT_NAMESPACE;
    }
    return switch (schema.toLowerCase(Locale.ROOT)) {
      case "pg_catalog" -> PgType.PG_CATALOG_NAMESPACE;
      case "information_schema" -> INFORMATION_SCHEMA_NAMESPACE;
      default -> SYSTEM_NAMESPACE;
    };
  }

  /** The relations of every schema of the root: the account's, tablesql's own, and the catalogs themselves. */
  static Relations of(SchemaPlus root, String account, RelDataTypeFactory types) {
    Relations relations = new Relations(account);
    List<String> schemas = new ArrayList<>(root.getSubSchemaNames());
    schemas.sort(String.CASE_INSENSITIVE_ORDER);
    for (String schemaName : schemas) {
      SchemaPlus schema = root.getSubSchema(schemaName);
      if (schema == null || schemaName.equals("metadata")) { // Calcite's own, which JDBC metadata reads
        continue;
      }
      Namespace namespace = new Namespace(namespaceOid(account, schemaName), schemaName);
      relations.namespaces.add(namespace);
      List<String> names = new ArrayList<>(schema.getTableNames());
      names.sort(String.CASE_INSENSITIVE_ORDER);
      for (String name : names) {
        Table table = schema.getTable(name);
        if (table != null) {
          relations.add(namespace, name, table, types);
        }
      }
    }
    return relations;
  }

  private void add(Namespace namespace, String name, Table table, RelDataTypeFactory types) {
    Schema.TableType type = table.getJdbcTableType();
    char kind = type == Schema.TableType.VIEW || type == Schema.TableType.SYSTEM_VIEW ? 'v'
        : type == Schema.TableType.MATERIALIZED_VIEW ? 'm' : 'r';
    String definition = table instanceof org.apache.calcite.schema.impl.ViewTable view ? view.getViewSql() : null;
    Relation relation = new Relation(name, namespace, kind, () -> attributes(table, types), definition);
    relations.add(relation);
    if (table instanceof AzureTable azure && kind == 'r') {
      addKeys(relation, azure);
    }
  }

  /** The primary key (PartitionKey and RowKey, or a declared table's key) and a declared table's indexes. */
  private void addKeys(Relation table, AzureTable azure) {
    List<String> key = azure.definition() == null ? List.of("PartitionKey", "RowKey")
        : azure.definition().layout().columns().stream().map(KeyLayout.KeyColumn::name).toList();
    addIndex(table, "PK_" + table.name, true, true, key);
    if (azure.definition() != null) {
      for (IndexDefinition index : azure.definition().indexes()) {
        addIndex(table, index.name(), index.unique(), false,
            index.columns().stream().map(IndexDefinition.IndexColumn::column).toList());
      }
    }
  }

  private void addIndex(Relation table, String name, boolean unique, boolean primary, List<String> columns) {
    Relation index = new Relation(name, table.namespace, 'i', () -> columns.stream().map(column -> {
      Attribute attribute = table.attribute(column);
      return new Attribute(column, columns.indexOf(column) + 1, attribute == null ? null : attribute.type(),
          attribute == null ? PgType.TEXT : attribute.pgType(), attribute == null ? -1 : attribute.modifier(), true);
    }).toList(), null);
    relations.add(index);
    indexes.add(new Index(index, table, unique, primary, lazyPositions(table, columns)));
  }

  private static List<Integer> lazyPositions(Relation table, List<String> columns) {
    return new java.util.AbstractList<>() {
      @Override
      public Integer get(int i) {
        Attribute attribute = table.attribute(columns.get(i));
        return attribute == null ? 0 : attribute.number();
      }

      @Override
      public int size() {
        return columns.size();
      }
    };
  }

  private static List<Attribute> attributes(Table table, RelDataTypeFactory types) {
    List<Attribute> attributes = new ArrayList<>();
    for (RelDataTypeField field : table.getRowType(types).getFieldList()) {
      RelDataType type = field.getType();
      String declared = table instanceof AzureTable azure && azure.definition() != null
          && azure.shape().indexOf(field.getName()) >= 0
          ? azure.shape().columns().get(azure.shape().indexOf(field.getName())).describeType() : null;
      PgType pgType = PgType.ofColumn(type.getSqlTypeName() == SqlTypeName.ANY ? java.sql.Types.OTHER
          : type.getSqlTypeName().getJdbcOrdinal(), declared);
      attributes.add(new Attribute(field.getName(), field.getIndex() + 1, type, pgType, PgType.modifier(pgType, type),
          !type.isNullable()));
    }
    return attributes;
  }

  /** The relation of an OID, or null. */
  Relation relation(int oid) {
    return relations.stream().filter(r -> r.oid == oid).findFirst().orElse(null);
  }

  private static <T> Supplier<T> memoized(Supplier<T> supplier) {
    return new Supplier<>() {
      private T value;

      @Override
      public synchronized T get() {
        if (value == null) {
          value = supplier.get();
        }
        return value;
      }
    };
  }
}
