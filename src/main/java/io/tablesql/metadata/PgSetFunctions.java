package io.tablesql.metadata;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL's set-returning functions that clients' catalog queries use, as Calcite's table
 * functions ({@code FROM generate_series(1, 32) pos(n)}). {@code _pg_expandarray}, which pgjdbc
 * calls in a select list, is reached through {@code prepare.SelectListSetFunctions}. Each
 * function's Java method is called once at planning with its literal arguments (the others null)
 * for the row type, and again at run time with every argument.
 */
public final class PgSetFunctions {
  /** The functions, by name; each of them also in pg_catalog (and information_schema's own in information_schema). */
  static final List<String> NAMES = List.of("generate_series", "_pg_expandarray");

  private PgSetFunctions() {
  }

  /** The integers from {@code start} to {@code stop}: one column named as the function, as PostgreSQL names it. */
  public static ScannableTable generate_series(Integer start, Integer stop) {
    return generate_series(start, stop, 1);
  }

  public static ScannableTable generate_series(Integer start, Integer stop, Integer step) {
    return new Rows(List.of("generate_series"), () -> {
      List<Object[]> rows = new ArrayList<>();
      if (start == null || stop == null || step == null) {
        return rows;
      }
      if (step == 0) {
        throw new IllegalArgumentException("step size cannot equal zero");
      }
      for (long i = start; step > 0 ? i <= stop : i >= stop; i += step) {
        rows.add(new Object[] {(int) i});
      }
      return rows;
    });
  }

  /**
   * information_schema's {@code _pg_expandarray}: each element of an array as {@code x} with its
   * position from 1 as {@code n}. The catalogs' int2vector columns ({@code pg_index.indkey}) are
   * text, as PostgreSQL prints them ({@code "1 2"}).
   */
  public static ScannableTable _pg_expandarray(String vector) {
    List<Object> elements = new ArrayList<>();
    if (vector != null) {
      for (String element : vector.replace("{", "").replace("}", "").split("[ ,]+")) {
        if (!element.isEmpty()) {
          elements.add(Integer.valueOf(element));
        }
      }
    }
    return _pg_expandarray(elements);
  }

  public static ScannableTable _pg_expandarray(List<?> array) {
    return new Rows(List.of("x", "n"), () -> {
      List<Object[]> rows = new ArrayList<>();
      if (array != null) {
        for (int i = 0; i < array.size(); i++) {
          Object element = array.get(i);
          rows.add(new Object[] {element == null ? null : ((Number) element).intValue(), i + 1});
        }
      }
      return rows;
    });
  }

  /** A table of integer columns whose rows are computed when scanned. */
  private static final class Rows extends AbstractTable implements ScannableTable {
    private final List<String> names;
    private final java.util.function.Supplier<List<Object[]>> rows;

    Rows(List<String> names, java.util.function.Supplier<List<Object[]>> rows) {
      this.names = names;
      this.rows = rows;
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory types) {
      RelDataTypeFactory.Builder builder = types.builder();
      names.forEach(name -> builder.add(name, SqlTypeName.INTEGER).nullable(true));
      return builder.build();
    }

    @Override
    public Enumerable<Object[]> scan(DataContext root) {
      return Linq4j.asEnumerable(rows.get());
    }
  }
}
