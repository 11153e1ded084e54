package io.tablesql.metadata;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * A table of a catalog: its columns, and its rows computed from the connection's relations
 * each time it is scanned (so a table created a moment ago is there).
 */
final class CatalogTable extends AbstractTable implements ScannableTable {
  /** A column: name and type (every column may be null); an array's type is its elements'. */
  record Column(String name, SqlTypeName type, boolean array) {
  }

  /** The type of a column that holds an array of {@code element}s ({@code oid[]}, {@code "char"[]}), as a {@link List}. */
  record ArrayOf(SqlTypeName element) {
  }

  private final List<Column> columns;
  private final Function<Relations, List<Object[]>> rows;
  private final Function<DataContext, Relations> relations;
  private final Schema.TableType type;

  CatalogTable(Schema.TableType type, Function<DataContext, Relations> relations, List<Column> columns,
      Function<Relations, List<Object[]>> rows) {
    this.type = type;
    this.relations = relations;
    this.columns = columns;
    this.rows = rows;
  }

  /** Columns from alternating names and types: {@code "oid", INTEGER, "polroles", new ArrayOf(INTEGER), ...}. */
  static List<Column> columns(Object... namesAndTypes) {
    List<Column> columns = new ArrayList<>();
    for (int i = 0; i < namesAndTypes.length; i += 2) {
      String name = (String) namesAndTypes[i];
      columns.add(namesAndTypes[i + 1] instanceof ArrayOf array ? new Column(name, array.element(), true)
          : new Column(name, (SqlTypeName) namesAndTypes[i + 1], false));
    }
    return columns;
  }

  List<Column> columns() {
    return columns;
  }

  @Override
  public RelDataType getRowType(RelDataTypeFactory types) {
    RelDataTypeFactory.Builder row = types.builder();
    for (Column column : columns) {
      RelDataType type = types.createTypeWithNullability(types.createSqlType(column.type()), true);
      row.add(column.name(), types.createTypeWithNullability(column.array() ? types.createArrayType(type, -1) : type,
          true));
    }
    return row.build();
  }

  @Override
  public Enumerable<Object[]> scan(DataContext root) {
    return Linq4j.asEnumerable(rows.apply(relations.apply(root)));
  }

  @Override
  public Schema.TableType getJdbcTableType() {
    return type;
  }
}
