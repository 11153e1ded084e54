package io.tablesql.metadata;

import static io.tablesql.metadata.CatalogTable.columns;
import static org.apache.calcite.sql.type.SqlTypeName.INTEGER;
import static org.apache.calcite.sql.type.SqlTypeName.VARCHAR;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.calcite.DataContext;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;

/**
 * The SQL standard's {@code information_schema}, as PostgreSQL has it (the catalog is the
 * database, the account): schemata, tables, columns, views, table constraints (each table's
 * primary key, a declared table's UNIQUE indexes) and the key columns they use.
 */
final class InformationSchema extends AbstractSchema {
  static final String NAME = "information_schema";

  private final Map<String, Table> tables = new LinkedHashMap<>();

  InformationSchema() {
    Function<DataContext, Relations> relations = PgFunctions::relations;
    table("schemata", relations, columns("catalog_name", VARCHAR, "schema_name", VARCHAR, "schema_owner", VARCHAR,
        "default_character_set_catalog", VARCHAR, "default_character_set_schema", VARCHAR,
        "default_character_set_name", VARCHAR, "sql_path", VARCHAR), r -> r.namespaces.stream()
        .map(n -> new Object[] {r.database, n.name(), r.database, null, null, null, null}).toList());
    table("tables", relations, columns("table_catalog", VARCHAR, "table_schema", VARCHAR, "table_name", VARCHAR,
        "table_type", VARCHAR, "self_referencing_column_name", VARCHAR, "reference_generation", VARCHAR,
        "user_defined_type_catalog", VARCHAR, "user_defined_type_schema", VARCHAR, "user_defined_type_name",
        VARCHAR, "is_insertable_into", VARCHAR, "is_typed", VARCHAR, "commit_action", VARCHAR), r -> tables(r)
        .stream().map(c -> new Object[] {r.database, c.namespace.name(), c.name, c.kind == 'r' ? "BASE TABLE"
            : "VIEW", null, null, null, null, null, c.kind == 'r' ? "YES" : "NO", "NO", null}).toList());
    table("columns", relations, columns("table_catalog", VARCHAR, "table_schema", VARCHAR, "table_name", VARCHAR,
        "column_name", VARCHAR, "ordinal_position", INTEGER, "column_default", VARCHAR, "is_nullable", VARCHAR,
        "data_type", VARCHAR, "character_maximum_length", INTEGER, "character_octet_length", INTEGER,
        "numeric_precision", INTEGER, "numeric_precision_radix", INTEGER, "numeric_scale", INTEGER,
        "datetime_precision", INTEGER, "interval_type", VARCHAR, "interval_precision", INTEGER,
        "character_set_catalog", VARCHAR, "character_set_schema", VARCHAR, "character_set_name", VARCHAR,
        "collation_catalog", VARCHAR, "collation_schema", VARCHAR, "collation_name", VARCHAR, "domain_catalog",
        VARCHAR, "domain_schema", VARCHAR, "domain_name", VARCHAR, "udt_catalog", VARCHAR, "udt_schema", VARCHAR,
        "udt_name", VARCHAR, "is_identity", VARCHAR, "is_generated", VARCHAR, "is_updatable", VARCHAR), r -> {
          List<Object[]> rows = new ArrayList<>();
          for (Relations.Relation relation : tables(r)) {
            for (Relations.Attribute a : relation.attributes()) {
              rows.add(column(r, relation, a));
            }
          }
          return rows;
        });
    table("views", relations, columns("table_catalog", VARCHAR, "table_schema", VARCHAR, "table_name", VARCHAR,
        "view_definition", VARCHAR, "check_option", VARCHAR, "is_updatable", VARCHAR, "is_insertable_into",
        VARCHAR, "is_trigger_updatable", VARCHAR, "is_trigger_deletable", VARCHAR,
        "is_trigger_insertable_into", VARCHAR), r -> r.relations.stream().filter(c -> c.kind == 'v'
            && c.namespace.oid() != Relations.INFORMATION_SCHEMA_NAMESPACE)
        .map(c -> new Object[] {r.database, c.namespace.name(), c.name, c.definition, "NONE", "NO", "NO", "NO", "NO",
            "NO"}).toList());
    table("table_constraints", relations, columns("constraint_catalog", VARCHAR, "constraint_schema", VARCHAR,
        "constraint_name", VARCHAR, "table_catalog", VARCHAR, "table_schema", VARCHAR, "table_name", VARCHAR,
        "constraint_type", VARCHAR, "is_deferrable", VARCHAR, "initially_deferred", VARCHAR, "enforced", VARCHAR,
        "nulls_distinct", VARCHAR), r -> r.indexes.stream().filter(Relations.Index::unique)
        .map(i -> new Object[] {r.database, i.table().namespace.name(), i.relation().name, r.database,
            i.table().namespace.name(), i.table().name, i.primary() ? "PRIMARY KEY" : "UNIQUE", "NO", "NO", "YES",
            i.primary() ? null : "YES"}).toList());
    table("key_column_usage", relations, columns("constraint_catalog", VARCHAR, "constraint_schema", VARCHAR,
        "constraint_name", VARCHAR, "table_catalog", VARCHAR, "table_schema", VARCHAR, "table_name", VARCHAR,
        "column_name", VARCHAR, "ordinal_position", INTEGER, "position_in_unique_constraint", INTEGER), r -> {
          List<Object[]> rows = new ArrayList<>();
          for (Relations.Index index : r.indexes) {
            if (index.unique()) {
              for (Relations.Attribute a : index.relation().attributes()) {
                rows.add(new Object[] {r.database, index.table().namespace.name(), index.relation().name, r.database,
                    index.table().namespace.name(), index.table().name, a.name(), a.number(), null});
              }
            }
          }
          return rows;
        });
  }

  private void table(String name, Function<DataContext, Relations> relations, List<CatalogTable.Column> columns,
      Function<Relations, List<Object[]>> rows) {
    tables.put(name, new CatalogTable(Schema.TableType.SYSTEM_VIEW, relations, columns, rows));
  }

  /** Tables, views and materialized views (PostgreSQL lists the latter nowhere here; BI tools expect them). */
  private static List<Relations.Relation> tables(Relations relations) {
    return relations.relations.stream().filter(c -> c.kind != 'i').toList();
  }

  private static Object[] column(Relations relations, Relations.Relation table, Relations.Attribute a) {
    RelDataType type = a.type();
    PgType pg = a.pgType();
    boolean text = pg == PgType.VARCHAR || pg == PgType.TEXT;
    boolean numeric = pg.category == 'N';
    Integer precision = switch (pg) {
      case NUMERIC -> type.getPrecision() > 0 ? Integer.valueOf(type.getPrecision()) : null;
      case INT2 -> 16;
      case INT4 -> 32;
      case INT8 -> 64;
      case FLOAT4 -> 24;
      case FLOAT8 -> 53;
      default -> null;
    };
    Integer length = text && a.modifier() >= 4 ? a.modifier() - 4 : null;
    return new Object[] {relations.database, table.namespace.name(), table.name, a.name(), a.number(), null,
        a.notNull() ? "NO" : "YES", pg.formatted, length, length != null ? Integer.valueOf(length * 4) : text ? Integer.valueOf(1_073_741_824) : null,
        precision, numeric ? (pg == PgType.NUMERIC ? 10 : 2) : null,
        pg == PgType.NUMERIC ? Integer.valueOf(Math.max(0, type.getScale())) : numeric ? Integer.valueOf(0) : null,
        pg.category == 'D' ? Integer.valueOf(pg == PgType.DATE ? 0 : 3) : null, null, null, null, null, null, null,
        null, null, null, null, null, relations.database, PgCatalogSchema.NAME, pg.typname, "NO", "NEVER",
        table.kind == 'r' ? "YES" : "NO"};
  }

  @Override
  protected Map<String, Table> getTableMap() {
    return tables;
  }
}
