package io.tablesql.plan;

import io.tablesql.catalog.Column;
import io.tablesql.keys.KeyLayout;
import io.tablesql.query.Operand;
import io.tablesql.query.ServiceFilter;
import io.tablesql.query.ServiceFilter.And;
import io.tablesql.query.ServiceFilter.Comparison;
import io.tablesql.query.ServiceFilter.Op;
import io.tablesql.query.ServiceFilter.SequentialRanges;
import io.tablesql.query.TableQuery;
import io.tablesql.store.EdmType;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Keyset paging's row-value comparisons of a table's keys, {@code (k1, ..., km) > (v1, ..., vm)},
 * as ranges of keys read one after another in key order ({@link SequentialRanges}): over a table's
 * own PartitionKey and RowKey, or over a declared key's leading columns. One job of the filter
 * translation ({@link FilterTranslator}), which gives it the operands of the compared values.
 */
final class KeysetRanges {
  /** A value compared with a property, as an operand of the property's Edm type; null if it cannot be one. */
  interface ValueOperands {
    Operand of(RexNode node, Column column, EdmType type);
  }

  /**
   * The ranges of a keyset comparison, and whether they hold exactly its rows (nothing for the
   * client to check again, so that a LIMIT can stop the paging).
   */
  record Ranges(SequentialRanges filter, boolean exact) {
  }

  private final TableQuery query;
  private final RexBuilder rexBuilder;
  private final ValueOperands values;
  private final BiFunction<RexNode, Column, Operand> keyOperands;

  KeysetRanges(TableQuery query, RexBuilder rexBuilder, ValueOperands values,
      BiFunction<RexNode, Column, Operand> keyOperands) {
    this.query = query;
    this.rexBuilder = rexBuilder;
    this.values = values;
    this.keyOperands = keyOperands;
  }

  /**
   * A row-value comparison of a key with values, {@code (k1, ..., km) > (v1, ..., vm)} (or
   * {@code >=, <, <=}), with its sides either way round: the columns, the values, and the
   * comparison read with the columns on the left; null for any other condition.
   */
  private record RowComparison(SqlKind kind, List<RexInputRef> columns, List<RexNode> values) {
    static RowComparison of(RexNode node) {
      SqlKind kind = node.getKind();
      if (kind != SqlKind.GREATER_THAN && kind != SqlKind.GREATER_THAN_OR_EQUAL && kind != SqlKind.LESS_THAN
          && kind != SqlKind.LESS_THAN_OR_EQUAL) {
        return null;
      }
      List<RexNode> sides = ((RexCall) node).getOperands();
      for (int i = 0; i < 2; i++) {
        if (sides.get(i).getKind() == SqlKind.ROW && sides.get(1 - i).getKind() == SqlKind.ROW) {
          List<RexNode> left = ((RexCall) sides.get(i)).getOperands();
          List<RexNode> right = ((RexCall) sides.get(1 - i)).getOperands();
          if (left.size() >= 2 && left.size() == right.size() && left.stream().allMatch(RexInputRef.class::isInstance)
              && right.stream().noneMatch(RexInputRef.class::isInstance)) {
            List<RexInputRef> columns = left.stream().map(RexInputRef.class::cast).toList();
            return new RowComparison(i == 0 ? kind : kind.reverse(), columns, right);
          }
        }
      }
      return null;
    }

    boolean greater() {
      return kind == SqlKind.GREATER_THAN || kind == SqlKind.GREATER_THAN_OR_EQUAL;
    }

    boolean inclusive() {
      return kind == SqlKind.GREATER_THAN_OR_EQUAL || kind == SqlKind.LESS_THAN_OR_EQUAL;
    }

    /** The comparison of the i-th column: strict but for the last column's. */
    SqlKind kindAt(int i) {
      boolean last = i == columns.size() - 1;
      return last ? kind : greater() ? SqlKind.GREATER_THAN : SqlKind.LESS_THAN;
    }

    /**
     * The order in which the ranges of the comparison's disjuncts come in the keys: disjunct i
     * fixes columns 0..i-1 and compares column i. Disjunct i's rows come after those of every
     * later disjunct (which fix column i to its value) when a greater value of column i sorts
     * later, that is for {@code >} on an ascending column and {@code <} on a descending one.
     */
    List<Integer> disjunctsInKeyOrder(List<Boolean> descending) {
      List<Integer> order = new ArrayList<>(List.of(columns.size() - 1));
      for (int i = columns.size() - 2; i >= 0; i--) {
        if (greater() != descending.get(i)) {
          order.add(i);
        } else {
          order.add(0, i);
        }
      }
      return order;
    }
  }

  /**
   * Keyset paging over a table's own keys, {@code (PartitionKey, RowKey) > (p, r)}: the rest of
   * partition p after r, then the partitions after p (for {@code <}, the other way round).
   */
  Ranges overProperties(RexNode conjunct) {
    RowComparison row = RowComparison.of(conjunct);
    if (row == null || row.columns().size() != 2) {
      return null;
    }
    Column partitionColumn = query.columns().get(row.columns().get(0).getIndex());
    Column rowColumn = query.columns().get(row.columns().get(1).getIndex());
    if (!partitionColumn.name().equals(Column.PARTITION_KEY) || !rowColumn.name().equals(Column.ROW_KEY)) {
      return null;
    }
    Operand partition = values.of(row.values().get(0), partitionColumn, EdmType.STRING);
    Operand rowKey = values.of(row.values().get(1), rowColumn, EdmType.STRING);
    if (partition == null || rowKey == null) {
      return null;
    }
    Op rowOp = row.greater() ? (row.inclusive() ? Op.GE : Op.GT) : (row.inclusive() ? Op.LE : Op.LT);
    ServiceFilter inPartition = new And(List.of(
        new Comparison(Column.PARTITION_KEY, Op.EQ, EdmType.STRING, partition, false),
        new Comparison(Column.ROW_KEY, rowOp, EdmType.STRING, rowKey, false)));
    ServiceFilter otherPartitions = new Comparison(Column.PARTITION_KEY, row.greater() ? Op.GT : Op.LT,
        EdmType.STRING, partition, false);
    return new Ranges(new SequentialRanges(row.greater() ? List.of(inPartition, otherPartitions)
        : List.of(otherPartitions, inPartition)), true);
  }

  /**
   * Keyset paging over a declared key, {@code (a, b, c) > (?, ?, ?)} on leading key columns: the
   * comparison is the OR of {@code a > ?}, {@code a = ? and b > ?} and
   * {@code a = ? and b = ? and c > ?}, each a range of keys ({@link KeyPredicates}), read in key
   * order. Null when a disjunct gives no range (a value the key cannot encode, a template whose
   * text does not keep the column's order).
   */
  Ranges overDeclaredKey(RexNode conjunct) {
    RowComparison row = RowComparison.of(conjunct);
    KeyLayout layout = query.shape().layout();
    if (row == null || layout.isGenerated()) {
      return null;
    }
    List<Boolean> descending = new ArrayList<>();
    for (int i = 0; i < row.columns().size(); i++) {
      Column column = query.columns().get(row.columns().get(i).getIndex());
      if (query.shape().keyPosition(column) != i) {
        return null;
      }
      descending.add(layout.columns().get(i).descending());
    }
    List<ServiceFilter> ranges = new ArrayList<>();
    for (int i : row.disjunctsInKeyOrder(descending)) {
      List<RexNode> disjunct = new ArrayList<>();
      for (int j = 0; j <= i; j++) {
        SqlKind kind = j < i ? SqlKind.EQUALS : row.kindAt(i);
        disjunct.add(rexBuilder.makeCall(comparisonOperator(kind), row.columns().get(j), row.values().get(j)));
      }
      KeyPredicates keys = new KeyPredicates(query.shape(), query.columns(), disjunct, keyOperands);
      if (!keys.used.containsAll(disjunct)) {
        return null;
      }
      List<ServiceFilter> parts = new ArrayList<>();
      if (keys.partitionPoints != null) {
        parts.add(new Comparison(Column.PARTITION_KEY, Op.EQ, EdmType.STRING, keys.partitionPoints.get(0), false));
      } else {
        parts.addAll(keys.partitionBounds);
      }
      parts.addAll(keys.rowBounds);
      ranges.add(FilterTranslator.and(parts));
    }
    return new Ranges(new SequentialRanges(List.copyOf(ranges)), exact(row));
  }

  /**
   * Whether the ranges of a declared key's row comparison hold exactly its rows, so that the
   * client need not check it again (and a LIMIT can stop the paging): tablesql's own key encoding
   * holds every value of the compared columns' types (a mapped template may not, nor a DOUBLE's
   * NaN or a TIMESTAMP past the year 9999, which widen a bound), or the values are literals the
   * key holds (checked when the ranges were made). Not over a column that holds NULL (a summary's
   * group): its NULL key sorts after every value, inside the ranges.
   */
  private boolean exact(RowComparison row) {
    if (query.shape().layout().isMapped()) {
      return false;
    }
    for (int i = 0; i < row.values().size(); i++) {
      Column column = query.columns().get(row.columns().get(i).getIndex());
      if (query.shape().layout().holdsNull(column.name())) {
        return false;
      }
      SqlTypeName type = column.sqlType();
      boolean everyValueEncodes = type == SqlTypeName.VARCHAR || type == SqlTypeName.SMALLINT
          || type == SqlTypeName.INTEGER || type == SqlTypeName.BIGINT || type == SqlTypeName.BOOLEAN
          || type == SqlTypeName.VARBINARY;
      if (!(row.values().get(i) instanceof RexLiteral) && !everyValueEncodes) {
        return false;
      }
    }
    return true;
  }

  private static org.apache.calcite.sql.SqlOperator comparisonOperator(SqlKind kind) {
    switch (kind) {
      case EQUALS: return SqlStdOperatorTable.EQUALS;
      case GREATER_THAN: return SqlStdOperatorTable.GREATER_THAN;
      case GREATER_THAN_OR_EQUAL: return SqlStdOperatorTable.GREATER_THAN_OR_EQUAL;
      case LESS_THAN: return SqlStdOperatorTable.LESS_THAN;
      default: return SqlStdOperatorTable.LESS_THAN_OR_EQUAL;
    }
  }
}
