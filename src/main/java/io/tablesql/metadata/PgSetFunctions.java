package io.tablesql.metadata;

import io.tablesql.errors.SqlStates;
import io.tablesql.store.StoreException;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL's set-returning functions that clients' catalog queries use in FROM, as Calcite's
 * table functions ({@code FROM generate_series(1, 32) pos(n)}); those of an array in a select
 * list are {@code prepare.SelectListSetFunctions}'. Each function's Java method is called once at
 * planning with its literal arguments (the others null) for the row type, and again at run time
 * with every argument; the rows are made as they are read.
 */
public final class PgSetFunctions {
  /** The functions, by name; each also in pg_catalog and information_schema. */
  static final List<String> NAMES = List.of("generate_series");

  private PgSetFunctions() {
  }

  /** The integers from {@code start} to {@code stop}: one column named as the function, as PostgreSQL names it. */
  public static ScannableTable generate_series(Integer start, Integer stop) {
    return generate_series(start, stop, 1);
  }

  public static ScannableTable generate_series(Integer start, Integer stop, Integer step) {
    return new Series(start, stop, step);
  }

  /** generate_series' rows, one integer each, made one at a time. */
  private static final class Series extends AbstractTable implements ScannableTable {
    private final Integer start;
    private final Integer stop;
    private final Integer step;

    Series(Integer start, Integer stop, Integer step) {
      this.start = start;
      this.stop = stop;
      this.step = step;
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory types) {
      return types.builder().add("generate_series", SqlTypeName.INTEGER).nullable(true).build();
    }

    @Override
    public Enumerable<Object[]> scan(DataContext root) {
      if (start == null || stop == null || step == null) {
        return Linq4j.emptyEnumerable();
      }
      if (step == 0) {
        throw new StoreException("generate_series' step size cannot be zero.", SqlStates.INVALID_PARAMETER_VALUE,
            null);
      }
      return Linq4j.asEnumerable(() -> new Iterator<Object[]>() {
        private long next = start;

        @Override
        public boolean hasNext() {
          return step > 0 ? next <= stop : next >= stop;
        }

        @Override
        public Object[] next() {
          if (!hasNext()) {
            throw new NoSuchElementException();
          }
          Object[] row = {(int) next};
          next += step;
          return row;
        }
      });
    }
  }
}
