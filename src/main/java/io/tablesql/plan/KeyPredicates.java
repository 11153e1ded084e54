package io.tablesql.plan;

import io.tablesql.catalog.Column;
import io.tablesql.catalog.TableShape;
import io.tablesql.keys.EncodedKey;
import io.tablesql.keys.KeyEncoding;
import io.tablesql.keys.KeyFormat;
import io.tablesql.keys.KeyLayout.KeyColumn;
import io.tablesql.keys.KeyLayout;
import io.tablesql.query.KeyBound;
import io.tablesql.query.Operand;
import io.tablesql.query.ServiceFilter.Comparison;
import io.tablesql.query.ServiceFilter.Op;
import io.tablesql.query.ServiceFilter;
import io.tablesql.store.EdmType;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;

/**
 * What the conditions on a declared table's key columns say about PartitionKey and RowKey.
 * Since the key encoding keeps SQL's order (see {@link io.tablesql.keys.KeyEncoding}), equality
 * on leading key columns is a key prefix, and a range on the next column a range of keys:
 * <ul>
 *   <li>every partition column fixed by equality (or IN): the PartitionKeys, and likewise the
 *       RowKeys when every row column is fixed too (a POINT or MULTI-POINT LOOKUP);</li>
 *   <li>otherwise bounds: {@code PartitionKey ge/lt} over leading partition columns, and
 *       {@code RowKey ge/lt} over leading row columns (a RANGE SCAN).</li>
 * </ul>
 * Equalities the keys express are {@link #absorbed}: the client need not check them again;
 * so are ranges whose bounds are exact ({@link #exactIf}) and sent. Other ranges stay in the
 * client's condition too.
 */
final class KeyPredicates {
  private final TableShape shape;
  private final KeyLayout layout;
  private final Constraint[] constraints;
  /** The conjuncts the derived keys express exactly. */
  final Set<RexNode> absorbed = new LinkedHashSet<>();
  /** Range conjuncts whose PartitionKey or RowKey bounds are exact ({@link #exactIf}). */
  private final List<RexNode> exactPartitionRanges = new java.util.ArrayList<>();
  private final List<RexNode> exactRowRanges = new java.util.ArrayList<>();
  /** The conjuncts the derived keys or bounds come from, for EXPLAIN. */
  final Set<RexNode> used = new LinkedHashSet<>();
  /** The PartitionKeys, when every partition column is fixed; otherwise null. */
  final List<Operand> partitionPoints;
  /**
   * The RowKeys, when every key column is fixed (with at most {@link FilterTranslator#MAX_POINTS}
   * whole keys); otherwise null.
   */
  final List<Operand> rowPoints;
  /** Comparisons on PartitionKey, when it is not fixed. */
  final List<ServiceFilter> partitionBounds;
  /** Comparisons on RowKey, for scans: true of every partition. */
  final List<ServiceFilter> rowBounds;

  /** The equality values and range of one key column, and the conjuncts they come from. */
  private static final class Constraint {
    List<Operand> values;
    RexNode equality;
    SqlKind lowerKind;
    Operand lower;
    RexNode lowerConjunct;
    SqlKind upperKind;
    Operand upper;
    RexNode upperConjunct;
  }

  /**
   * @param columns  the scan's columns, which the conditions' field references index
   * @param operands the value a key column is compared with, as an operand, or null if it cannot be one
   */
  KeyPredicates(TableShape shape, List<Column> columns, List<RexNode> conjuncts,
      BiFunction<RexNode, Column, Operand> operands) {
    this.shape = shape;
    this.layout = shape.layout();
    this.constraints = new Constraint[layout.columns().size()];
    for (int i = 0; i < constraints.length; i++) {
      constraints[i] = new Constraint();
    }
    for (RexNode conjunct : conjuncts) {
      collect(conjunct, columns, operands);
    }
    int partitionSize = layout.partition().size();
    partitionPoints = points(0, partitionSize, true);
    List<Operand> rows = layout.row().isEmpty() && !layout.rowFormat().isGenerated()
        ? List.of(Operand.literal(layout.rowKey(List.of()))) : points(partitionSize, layout.row().size(), false);
    // RowKeys serve only as the other half of whole keys; a scan takes the row bounds instead
    boolean lookups = partitionPoints != null && rows != null
        && partitionPoints.size() * rows.size() <= FilterTranslator.MAX_POINTS;
    rowPoints = lookups ? rows : null;
    if (partitionPoints != null) {
      absorb(0, partitionSize);
    }
    if (lookups) {
      absorb(partitionSize, layout.row().size());
    }
    partitionBounds = partitionPoints != null ? List.of() : bounds(layout.partition(), 0, true);
    rowBounds = bounds(layout.row(), partitionSize, false);
    // an exact range is absorbed only where its bound is sent: lookups of whole keys send none
    absorbed.addAll(exactPartitionRanges);
    if (!lookups) {
      absorbed.addAll(exactRowRanges);
    }
  }

  private void collect(RexNode conjunct, List<Column> columns, BiFunction<RexNode, Column, Operand> operands) {
    List<Operand> values = new ArrayList<>();
    int position = -1;
    for (RexNode disjunct : RelOptUtil.disjunctions(conjunct)) {
      Comparison found = comparison(disjunct, columns, operands);
      if (found == null || found.kind != SqlKind.EQUALS || position >= 0 && found.position != position) {
        values = null;
        break;
      }
      position = found.position;
      values.add(found.value);
    }
    if (values != null && position >= 0) {
      if (constraints[position].values == null) {
        constraints[position].values = values;
        constraints[position].equality = conjunct;
      }
      return;
    }
    Comparison range = comparison(conjunct, columns, operands);
    if (range == null || range.kind == SqlKind.EQUALS) {
      return;
    }
    Constraint constraint = constraints[range.position];
    boolean lower = range.kind == SqlKind.GREATER_THAN || range.kind == SqlKind.GREATER_THAN_OR_EQUAL;
    if (lower && constraint.lower == null) {
      constraint.lowerKind = range.kind;
      constraint.lower = range.value;
      constraint.lowerConjunct = conjunct;
    } else if (!lower && constraint.upper == null) {
      constraint.upperKind = range.kind;
      constraint.upper = range.value;
      constraint.upperConjunct = conjunct;
    }
  }

  private record Comparison(int position, SqlKind kind, Operand value) {
  }

  /** {@code keyColumn op value} (either way round) with an operand the key can encode, or null. */
  private Comparison comparison(RexNode node, List<Column> columns, BiFunction<RexNode, Column, Operand> operands) {
    SqlKind kind = node.getKind();
    if (kind != SqlKind.EQUALS && kind != SqlKind.LESS_THAN && kind != SqlKind.LESS_THAN_OR_EQUAL
        && kind != SqlKind.GREATER_THAN && kind != SqlKind.GREATER_THAN_OR_EQUAL) {
      return null;
    }
    List<RexNode> sides = ((RexCall) node).getOperands();
    for (int i = 0; i < 2; i++) {
      if (sides.get(i) instanceof RexInputRef ref) {
        Column column = columns.get(ref.getIndex());
        int position = shape.keyPosition(column);
        Operand value = position < 0 ? null : operands.apply(sides.get(1 - i), column);
        if (value != null && encodable(position, value)) {
          return new Comparison(position, i == 0 ? kind : kind.reverse(), value);
        }
      }
    }
    return null;
  }

  /** A literal the key cannot hold (NaN, a year past 9999, a number wider than its field) is left to the client. */
  private boolean encodable(int position, Operand value) {
    int partitionColumns = layout.partition().size();
    boolean partition = position < partitionColumns;
    return value.isParameter()
        || layout.format(partition).accepts(partition ? position : position - partitionColumns, value.literal());
  }

  /** Every combination of the equality values of key columns [from, from + count), or null if one is not fixed. */
  private List<Operand> points(int from, int count, boolean partition) {
    if (layout.format(partition).isGenerated()) {
      return null; // no condition gives a made-up key
    }
    List<List<Operand>> combinations = new ArrayList<>();
    combinations.add(List.of());
    for (int i = from; i < from + count; i++) {
      List<Operand> values = constraints[i].values;
      if (values == null || combinations.size() * values.size() > FilterTranslator.MAX_POINTS) {
        return null;
      }
      List<List<Operand>> extended = new ArrayList<>();
      for (List<Operand> combination : combinations) {
        for (Operand value : values) {
          List<Operand> longer = new ArrayList<>(combination);
          longer.add(value);
          extended.add(longer);
        }
      }
      combinations = extended;
    }
    KeyBound bound = new KeyBound(layout, partition, false, KeyBound.Role.EQUAL);
    return combinations.stream().map(values -> Operand.keyBound(bound, values)).toList();
  }

  /** The equalities of key columns [from, from + count) are expressed exactly by the keys. */
  private void absorb(int from, int count) {
    for (int i = from; i < from + count; i++) {
      absorbed.add(constraints[i].equality);
      used.add(constraints[i].equality);
    }
  }

  /** Bounds of one key from single equalities on its leading columns and a range on the next. */
  private List<ServiceFilter> bounds(List<KeyColumn> keyColumns, int from, boolean partition) {
    String property = partition ? Column.PARTITION_KEY : Column.ROW_KEY;
    List<Operand> prefix = new ArrayList<>();
    while (prefix.size() < keyColumns.size() && constraints[from + prefix.size()].values != null
        && constraints[from + prefix.size()].values.size() == 1) {
      Constraint fixed = constraints[from + prefix.size()];
      prefix.add(fixed.values.get(0));
      absorbed.add(fixed.equality);
      used.add(fixed.equality);
    }
    KeyFormat format = layout.format(partition);
    if (!prefix.isEmpty() && prefix.size() == keyColumns.size()) {
      return List.of(new ServiceFilter.Comparison(property, Op.EQ, EdmType.STRING,
          Operand.keyBound(new KeyBound(layout, partition, false, KeyBound.Role.EQUAL), prefix), false));
    }
    Operand lower = null;
    Operand upper = null;
    Constraint next = prefix.size() < keyColumns.size() ? constraints[from + prefix.size()] : null;
    if (next != null && format.rangeKeepsOrder(prefix.size())) {
      boolean descending = keyColumns.get(prefix.size()).descending();
      if (next.lower != null) {
        // c > a: keys after every key starting with a (before them, DESC); c >= a: from a on (up to its end, DESC)
        boolean inclusive = next.lowerKind == SqlKind.GREATER_THAN_OR_EQUAL;
        Operand bound = bound(partition, prefix, next.lower, descending == inclusive,
            descending ? KeyBound.Role.UPPER : KeyBound.Role.LOWER);
        if (descending) {
          upper = bound;
        } else {
          lower = bound;
        }
        used.add(next.lowerConjunct);
        exactIf(partition, format, keyColumns.get(prefix.size()), next.lower, next.lowerConjunct);
      }
      if (next.upper != null) {
        boolean inclusive = next.upperKind == SqlKind.LESS_THAN_OR_EQUAL;
        Operand bound = bound(partition, prefix, next.upper, descending != inclusive,
            descending ? KeyBound.Role.LOWER : KeyBound.Role.UPPER);
        if (descending) {
          lower = bound;
        } else {
          upper = bound;
        }
        used.add(next.upperConjunct);
        exactIf(partition, format, keyColumns.get(prefix.size()), next.upper, next.upperConjunct);
      }
    }
    // the text keys with these leading values start with (a template's fixed text even with none)
    boolean bounded = !prefix.isEmpty() || !format.encode(List.of()).isEmpty();
    if (bounded && lower == null) {
      lower = Operand.keyBound(new KeyBound(layout, partition, false, KeyBound.Role.EQUAL), prefix);
    }
    if (bounded && upper == null) {
      upper = Operand.keyBound(new KeyBound(layout, partition, true, KeyBound.Role.EQUAL), prefix);
    }
    List<ServiceFilter> bounds = new ArrayList<>();
    if (lower != null) {
      bounds.add(new ServiceFilter.Comparison(property, Op.GE, EdmType.STRING, lower, false));
    }
    if (upper != null) {
      bounds.add(new ServiceFilter.Comparison(property, Op.LT, EdmType.STRING, upper, false));
    }
    return bounds;
  }

  /**
   * A range conjunct whose bound says exactly what it does needs no check in the client (and a
   * LIMIT in key order can then go to the service): tablesql's own key encoding, a type whose
   * encoded order is SQL's order, and a value the key holds: a literal (checked by
   * {@link #encodable}), or a parameter of a type every value of which encodes. Not DOUBLE (SQL
   * holds -0.0 equal to 0.0), TIMESTAMP or DECIMAL (a literal may be finer than the key), UUID
   * (SQL compares it as text), as {@code KeysetRanges.exact} decides for row values.
   * Nor a column that holds NULL: its NULL key sorts after every value, inside open ranges.
   */
  private void exactIf(boolean partition, KeyFormat format, KeyColumn column, Operand value, RexNode conjunct) {
    if (column.component().nullable()) {
      return;
    }
    KeyEncoding.KeyType type = column.component().type();
    boolean everyValueEncodes = type == KeyEncoding.KeyType.VARCHAR || type == KeyEncoding.KeyType.SMALLINT
        || type == KeyEncoding.KeyType.INTEGER || type == KeyEncoding.KeyType.BIGINT;
    boolean exactOrder = everyValueEncodes || type == KeyEncoding.KeyType.DATE;
    if (format instanceof EncodedKey && exactOrder && (!value.isParameter() || everyValueEncodes)) {
      (partition ? exactPartitionRanges : exactRowRanges).add(conjunct);
    }
  }

  private Operand bound(boolean partition, List<Operand> prefix, Operand value, boolean successor,
      KeyBound.Role role) {
    List<Operand> values = new ArrayList<>(prefix);
    values.add(value);
    return Operand.keyBound(new KeyBound(layout, partition, successor, role), values);
  }
}
