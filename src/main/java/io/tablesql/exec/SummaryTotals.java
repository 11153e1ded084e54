package io.tablesql.exec;

import com.azure.data.tables.models.TableEntity;
import io.tablesql.catalog.Column;
import io.tablesql.catalog.MaterializedViewDefinition;
import io.tablesql.catalog.MaterializedViewDefinition.Aggregate;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The running totals of one group of a summary view, and how its entity holds them: each
 * aggregate's value under its column, the group's row count ({@value #ROWS}), each sum's count of
 * non-NULL values ({@code TablesqlValues<i>}: a sum of none is NULL), each average's running sum
 * ({@code TablesqlSum<i>}; its column holds the quotient, as a query's AVG computes it), whether the group is live
 * ({@link MaterializedViewDefinition#GROUP_STATE}) and the writes already added
 * ({@value #APPLIED}: intent ids, so that a write's change is added once however often it is
 * applied). Also a change of totals: a row's contribution, added or taken away.
 */
final class SummaryTotals {
  static final String ROWS = "TablesqlRows";
  static final String APPLIED = "TablesqlApplied";
  private static final String VALUES = "TablesqlValues";
  private static final String SUM = "TablesqlSum";
  private static final String EMPTY = "empty";

  private final MaterializedViewDefinition view;
  private long rows;
  /** Per aggregate: its count, or its sum. */
  private final BigDecimal[] values;
  /** Per aggregate: for a sum, its count of non-NULL values. */
  private final long[] counts;
  private final Set<String> applied = new LinkedHashSet<>();

  SummaryTotals(MaterializedViewDefinition view) {
    this.view = view;
    this.values = new BigDecimal[view.aggregates().size()];
    Arrays.fill(values, BigDecimal.ZERO);
    this.counts = new long[view.aggregates().size()];
  }

  /** The totals a summary entity holds. */
  static SummaryTotals of(MaterializedViewDefinition view, TableEntity entity) {
    SummaryTotals totals = new SummaryTotals(view);
    totals.rows = number(entity.getProperty(ROWS)).longValue();
    List<Aggregate> aggregates = view.aggregates();
    for (int i = 0; i < aggregates.size(); i++) {
      Object value = entity.getProperty(aggregates.get(i).average() ? SUM + i : aggregates.get(i).name());
      totals.values[i] = value == null ? BigDecimal.ZERO : number(value);
      totals.counts[i] = number(entity.getProperty(VALUES + i)).longValue();
    }
    if (entity.getProperty(APPLIED) instanceof String ids && !ids.isEmpty()) {
      totals.applied.addAll(Arrays.asList(ids.split(",")));
    }
    return totals;
  }

  private static BigDecimal number(Object value) {
    return value == null ? BigDecimal.ZERO : new BigDecimal(value.toString());
  }

  /** Adds ({@code sign} 1) or takes away (-1) one qualifying row's contribution (values by column name). */
  void add(Map<String, Object> row, int sign) {
    rows += sign;
    List<Aggregate> aggregates = view.aggregates();
    for (int i = 0; i < aggregates.size(); i++) {
      Aggregate aggregate = aggregates.get(i);
      Object value = aggregate.column() == null ? Boolean.TRUE : row.get(aggregate.column());
      if (value == null) {
        continue;
      }
      if (aggregate.sums()) {
        BigDecimal number = value instanceof BigDecimal d ? d : BigDecimal.valueOf(((Number) value).longValue());
        values[i] = values[i].add(sign > 0 ? number : number.negate());
        counts[i] += sign;
      } else {
        values[i] = values[i].add(BigDecimal.valueOf(sign));
      }
    }
  }

  /** Adds a change (another instance's totals, counted as a change). */
  void add(SummaryTotals change) {
    rows += change.rows;
    for (int i = 0; i < values.length; i++) {
      values[i] = values[i].add(change.values[i]);
      counts[i] += change.counts[i];
    }
  }

  /** Whether the change changes nothing. */
  boolean isZero() {
    return rows == 0 && Arrays.stream(values).allMatch(v -> v.signum() == 0) && Arrays.stream(counts)
        .allMatch(c -> c == 0);
  }

  boolean applied(String intentId) {
    return applied.contains(intentId);
  }

  /** The writes recorded as added; the entity keeps only those whose intents still exist. */
  Set<String> appliedIds() {
    return applied;
  }

  /** The entity's properties for these totals, recording {@code applied} as the writes added. */
  Map<String, Object> properties(io.tablesql.catalog.TableDefinition base, List<String> appliedIds) {
    Map<String, Object> properties = new HashMap<>();
    properties.put(ROWS, rows);
    properties.put(MaterializedViewDefinition.GROUP_STATE, rows > 0 ? MaterializedViewDefinition.LIVE : EMPTY);
    List<Aggregate> aggregates = view.aggregates();
    for (int i = 0; i < aggregates.size(); i++) {
      Aggregate aggregate = aggregates.get(i);
      if (aggregate.sums()) {
        properties.put(VALUES + i, counts[i]);
        if (counts[i] == 0) {
          continue; // a sum, or an average, of no values is NULL
        }
      }
      Column column = MaterializedViewDefinition.aggregateColumn(aggregate, base);
      boolean decimal = column.sqlType() == org.apache.calcite.sql.type.SqlTypeName.DECIMAL;
      if (aggregate.average()) {
        Column summed = MaterializedViewDefinition.aggregateColumn(new Aggregate(aggregate.name(), "SUM",
            aggregate.column()), base);
        properties.put(SUM + i, summed.toSdk(decimal ? values[i] : (Object) values[i].longValueExact()));
        // as a query's AVG: the sum divided by the count, truncated to the average's scale
        BigDecimal average = values[i].divide(BigDecimal.valueOf(counts[i]), decimal ? Math.max(0, column.scale()) : 0,
            java.math.RoundingMode.DOWN);
        properties.put(aggregate.name(), column.toSdk(decimal ? average : (Object) average.longValueExact()));
        continue;
      }
      properties.put(aggregate.name(), column.toSdk(decimal ? values[i] : (Object) values[i].longValueExact()));
    }
    if (!appliedIds.isEmpty()) {
      properties.put(APPLIED, String.join(",", appliedIds));
    }
    return properties;
  }

  /** The ids of writes recorded, as a list. */
  List<String> appliedList() {
    return new ArrayList<>(applied);
  }
}
