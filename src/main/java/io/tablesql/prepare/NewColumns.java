package io.tablesql.prepare;

import io.tablesql.catalog.Catalog;
import io.tablesql.catalog.Column;
import io.tablesql.catalog.ShapeCache;
import io.tablesql.session.Session;
import io.tablesql.store.EdmType;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNumericLiteral;

/**
 * Azure tables are schemaless, so INSERT and UPSERT may name a property no sampled entity has:
 * before such a statement is planned, the column is added to the table's shape with the Edm type
 * of the first value written to it (a string, a parameter or an expression make it a String).
 */
public final class NewColumns {
  private NewColumns() {
  }

  public static void declare(StatementText text, Session session) {
    String table = text.insertTarget();
    if (table == null || Catalog.known(session, table) != null) {
      return; // not an INSERT naming columns, or a declared table, which has exactly its declared columns
    }
    StatementText.Insert insert = text.insert();
    List<Column> columns = new ArrayList<>();
    for (int i = 0; i < insert.columns().size(); i++) {
      String name = insert.columns().get(i);
      if (!name.equalsIgnoreCase(Column.PARTITION_KEY) && !name.equalsIgnoreCase(Column.ROW_KEY)
          && !name.equalsIgnoreCase(Column.TIMESTAMP)) {
        columns.add(Column.of(name, Set.of(typeOf(insert.firstRow().size() > i ? insert.firstRow().get(i) : null))));
      }
    }
    try {
      ShapeCache.extend(session, table, columns);
    } catch (RuntimeException e) {
      // an unknown table: planning reports it
    }
  }

  private static EdmType typeOf(SqlNode value) {
    if (value instanceof SqlNumericLiteral number) {
      BigDecimal decimal = number.getValueAs(BigDecimal.class);
      if (!number.isExact() || decimal.scale() > 0) {
        return EdmType.DOUBLE;
      }
      return decimal.abs().compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) <= 0 ? EdmType.INT32 : EdmType.INT64;
    }
    if (value instanceof SqlLiteral literal) {
      switch (literal.getTypeName()) {
        case BOOLEAN: return EdmType.BOOLEAN;
        case TIMESTAMP: case DATE: return EdmType.DATETIME;
        case BINARY: return EdmType.BINARY;
        default: return EdmType.STRING;
      }
    }
    return EdmType.STRING;
  }
}
