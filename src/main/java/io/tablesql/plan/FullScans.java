package io.tablesql.plan;

import io.tablesql.catalog.TableDefinition;
import io.tablesql.catalog.TableShape;
import io.tablesql.query.AccessPath;
import io.tablesql.query.StoredTable;
import io.tablesql.query.TableQuery;
import io.tablesql.session.Session;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.rex.RexBuilder;

/**
 * A table's full scan as a query: every column, no condition, and for a table mapped over part
 * of an Azure table the bounds every read of its rows has (its key template's prefix, its
 * discriminator), as the filter translation makes them from no condition at all.
 */
public final class FullScans {
  /** Builds only the TRUE condition of a mapped table's base scan. */
  private static final RexBuilder REX = new RexBuilder(new JavaTypeFactoryImpl());

  private FullScans() {
  }

  /** All rows of a table; {@code cached} for a lookup table served from the cache. */
  public static TableQuery fullScan(StoredTable table, TableShape shape, boolean cached) {
    List<Integer> all = new ArrayList<>();
    for (int i = 0; i < shape.columns().size(); i++) {
      all.add(i);
    }
    TableQuery full = new TableQuery(table, shape, AccessPath.TABLE_SCAN, List.of(), List.of(), null,
        List.copyOf(all), null, null, null, cached, null);
    return full.hasBase() ? mappedBase(full) : full;
  }

  /** All rows of a declared table, or all entries of an index ({@link io.tablesql.catalog.IndexDefinition#entries}). */
  public static TableQuery fullScan(Session session, TableDefinition table) {
    return fullScan(new StoredTable(session, table), table.shape(), false);
  }

  /** True for a query no rule has changed yet, apart from its projection. */
  static boolean isUnconstrained(TableQuery query) {
    if (query.hasBase()) {
      TableQuery base = mappedBase(query);
      return query.path() == base.path() && query.keys().equals(base.keys())
          && query.partitions().equals(base.partitions()) && java.util.Objects.equals(query.filter(), base.filter())
          && query.limit() == null;
    }
    return query.path() == AccessPath.TABLE_SCAN && query.filter() == null && query.limit() == null;
  }

  /**
   * Whether the query returns every row of its table: its base with nothing added (no keys, filter,
   * limit, index or condition judged in the client) but a projection. A plan's scan that does not
   * is a restriction the plan's other nodes do not show.
   */
  static boolean readsWholeTable(TableQuery query) {
    String baseCondition = query.hasBase() ? mappedBase(query).clientPredicate() : null;
    return isUnconstrained(query) && query.index() == null
        && java.util.Objects.equals(query.clientPredicate(), baseCondition);
  }

  /**
   * What every read of a table mapped over an existing one (or holding local index entries)
   * starts from, with no condition given: the key bounds of its templates' fixed text, its
   * discriminator, and below the entries' RowKeys, so that only its rows are read.
   */
  private static TableQuery mappedBase(TableQuery query) {
    return new FilterTranslator(query, REX).translate(REX.makeLiteral(true)).query();
  }
}
