package io.tablesql.ddl;

import io.tablesql.catalog.IndexDefinition.IndexColumn;
import io.tablesql.parser.AlterIndexNode;
import io.tablesql.parser.CreateIndexNode;
import io.tablesql.parser.DropIndexNode;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;

/**
 * What an index statement asks for, as {@link Indexes} runs it: CREATE [UNIQUE] INDEX (also made
 * for a table's UNIQUE constraint), DROP INDEX, ALTER INDEX ... VERIFY | REBUILD.
 *
 * @param adoptedRowKey the RowKey template of an application's own entries to adopt (LOCAL ROW KEY), or null
 */
record IndexStatement(Kind kind, String name, boolean unique, boolean ifExistsClause, String table,
    boolean tableQuoted, List<IndexColumn> columns, List<String> include, boolean local, String adoptedRowKey) {

  enum Kind { CREATE, DROP, VERIFY, REBUILD }

  static IndexStatement of(CreateIndexNode create) {
    List<IndexColumn> columns = new ArrayList<>();
    for (int i = 0; i < create.columns.size(); i++) {
      columns.add(new IndexColumn(create.columns.get(i).getSimple(), create.descending.get(i)));
    }
    List<String> include = new ArrayList<>();
    if (create.include != null) {
      for (SqlNode column : create.include) {
        include.add(((SqlIdentifier) column).getSimple());
      }
    }
    return new IndexStatement(Kind.CREATE, create.name.getSimple(), create.unique, create.ifNotExists,
        Names.last(create.table), create.table.isComponentQuoted(create.table.names.size() - 1), columns, include,
        create.local, create.rowKeyTemplate());
  }

  static IndexStatement of(DropIndexNode drop) {
    return new IndexStatement(Kind.DROP, drop.name.getSimple(), false, drop.ifExists, null, false, List.of(),
        List.of(), false, null);
  }

  static IndexStatement of(AlterIndexNode alter) {
    return new IndexStatement(alter.rebuild ? Kind.REBUILD : Kind.VERIFY, alter.name.getSimple(), false, false, null,
        false, List.of(), List.of(), false, null);
  }

  /** The UNIQUE index a table's UNIQUE constraint declares. */
  static IndexStatement unique(String name, String table, List<String> columns) {
    return new IndexStatement(Kind.CREATE, name, true, false, table, false,
        columns.stream().map(column -> new IndexColumn(column, false)).toList(), List.of(), false, null);
  }
}
