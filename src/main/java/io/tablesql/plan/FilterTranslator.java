package io.tablesql.plan;

import io.tablesql.catalog.Column;
import io.tablesql.catalog.ValueParts;
import io.tablesql.catalog.IndexDefinition;
import io.tablesql.catalog.TableDefinition;
import io.tablesql.catalog.TableShape;
import io.tablesql.keys.KeyLayout;
import io.tablesql.query.AccessPath;
import io.tablesql.query.KeyBound;
import io.tablesql.query.Operand;
import io.tablesql.query.ServiceFilter.And;
import io.tablesql.query.ServiceFilter.Comparison;
import io.tablesql.query.ServiceFilter.SequentialRanges;
import io.tablesql.query.ServiceFilter.Op;
import io.tablesql.query.ServiceFilter.Or;
import io.tablesql.query.ServiceFilter;
import io.tablesql.query.StoredTable;
import io.tablesql.query.TableQuery;
import io.tablesql.session.Session;
import io.tablesql.store.EdmType;
import io.tablesql.store.ODataLiteral;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlLikeOperator;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.NlsString;

/**
 * Turns a WHERE condition over a table into the cheapest access path plus a {@code $filter},
 * and what the service cannot evaluate exactly like SQL into a residual condition for the client.
 *
 * <p>Exactness rests on three facts: the service compares type-strictly, a missing property (or
 * one of another type, which reads as NULL here) matches no {@code eq/lt/le/gt/ge} comparison,
 * and strings compare by ordinal order like Java's. So SQL's three-valued logic is kept by never
 * sending {@code ne} or {@code not} on properties: {@code x <> v} becomes
 * {@code x lt v or x gt v}, and NOT is pushed into the comparisons.
 */
public final class FilterTranslator {
  /** More keys than this are read by scans rather than by one GET each. */
  static final int MAX_POINTS = 100;

  private final TableQuery query;
  private final RexBuilder rexBuilder;

  /**
   * The result: the new query, the condition left to the client (null if none), and the values
   * of the other side of a lookup join its operands refer to, by slot.
   */
  public record Result(TableQuery query, RexNode residual, List<RexNode> correlated) {
  }

  /** The operands of key comparisons, and the lookup join's values the query takes. */
  private final KeyOperands operands = new KeyOperands();

  private record Translation(ServiceFilter filter, boolean exact) {
  }

  public FilterTranslator(TableQuery query, RexBuilder rexBuilder) {
    this.query = query;
    this.rexBuilder = rexBuilder;
  }

  public Result translate(RexNode condition) {
    List<RexNode> conjuncts = RelOptUtil.conjunctions(RexUtil.expandSearch(rexBuilder, null, condition));
    if (query.shape().layout() != null) {
      return translateDeclared(conjuncts);
    }
    List<RexNode> residual = new ArrayList<>();

    List<Operand> partitionPoints = null;
    List<Operand> rowPoints = null;
    RexNode partitionConjunct = null;
    RexNode rowConjunct = null;
    for (RexNode conjunct : conjuncts) {
      if (partitionPoints == null && (partitionPoints = equalities(conjunct, Column.PARTITION_KEY)) != null) {
        partitionConjunct = conjunct;
      } else if (rowPoints == null && (rowPoints = equalities(conjunct, Column.ROW_KEY)) != null) {
        rowConjunct = conjunct;
      }
    }

    // Full keys: one GET per key; a GET cannot filter, so everything else stays in the client.
    if (partitionPoints != null && rowPoints != null
        && partitionPoints.size() * rowPoints.size() <= MAX_POINTS) {
      List<TableQuery.Key> keys = new ArrayList<>();
      for (Operand partition : partitionPoints) {
        for (Operand row : rowPoints) {
          keys.add(new TableQuery.Key(partition, row));
        }
      }
      for (RexNode conjunct : conjuncts) {
        if (conjunct != partitionConjunct && conjunct != rowConjunct) {
          residual.add(conjunct);
        }
      }
      return pointLookups(keys, residual);
    }
    for (RexNode conjunct : conjuncts) {
      List<TableQuery.Key> keys = keyPairs(conjunct);
      if (keys != null) {
        for (RexNode other : conjuncts) {
          if (other != conjunct) {
            residual.add(other);
          }
        }
        return pointLookups(keys, residual);
      }
    }

    if (partitionPoints != null && partitionPoints.size() > 1 && partitionPoints.size() <= MAX_POINTS) {
      List<RexNode> rest = new ArrayList<>(conjuncts);
      rest.remove(partitionConjunct);
      ServiceFilter filter = pushConjuncts(rest, ServiceFilter.MAX_COMPARISONS - 1, residual);
      RexNode client = compose(residual);
      return new Result(query.withAccess(AccessPath.MULTI_PARTITION_SCAN, List.of(), partitionPoints, filter,
          describe(client)), client, operands.correlated());
    }

    // One query: key comparisons first, so that they are the ones that fit in the filter.
    SequentialRanges keyRanges = null;
    RexNode keysetConjunct = null; // its ranges hold exactly its rows: nothing for the client to check
    for (RexNode conjunct : conjuncts) {
      KeysetRanges.Ranges found = keysets().overProperties(conjunct);
      if (found != null) {
        keyRanges = found.filter();
        keysetConjunct = conjunct;
        break;
      }
    }
    List<RexNode> ordered = new ArrayList<>();
    for (RexNode conjunct : conjuncts) {
      if (conjunct != keysetConjunct && constrainsKey(conjunct)) {
        ordered.add(conjunct);
      }
    }
    for (RexNode conjunct : conjuncts) {
      if (conjunct != keysetConjunct && !constrainsKey(conjunct)) {
        ordered.add(conjunct);
      }
    }
    int budget = ServiceFilter.MAX_COMPARISONS - (keyRanges == null ? 0 : keyRanges.comparisons());
    ServiceFilter filter = pushConjuncts(ordered, budget, residual);
    AccessPath path = scanPath(filter);
    if (keyRanges != null) {
      filter = filter == null ? keyRanges : and(List.of(filter, keyRanges));
      path = AccessPath.RANGE_SCAN;
    }
    RexNode client = compose(residual);
    return new Result(query.withAccess(path, List.of(), List.of(), filter, describe(client)), client,
        operands.correlated());
  }

  /**
   * A table declared with a primary key: its key columns give the keys or key ranges (see
   * {@link KeyPredicates}), the other conditions a {@code $filter} as for any table.
   */
  private Result translateDeclared(List<RexNode> conjuncts) {
    KeyPredicates keys = new KeyPredicates(query.shape(), query.columns(), conjuncts, operands::key);
    List<RexNode> rest = new ArrayList<>(conjuncts);
    rest.removeAll(keys.absorbed);
    KeysetRanges.Ranges keyset = null;
    RexNode keysetConjunct = null;
    if (keys.rowPoints == null && (keys.partitionPoints == null || keys.partitionPoints.size() == 1)) {
      for (RexNode conjunct : rest) {
        keyset = keysets().overDeclaredKey(conjunct);
        if (keyset != null) {
          keysetConjunct = conjunct;
          keys.used.add(conjunct);
          break;
        }
      }
    }
    SequentialRanges keyRanges = keyset == null ? null : keyset.filter();
    String keyPredicate = keys.used.isEmpty() ? null : describe(compose(new ArrayList<>(keys.used)));
    List<RexNode> residual = new ArrayList<>();
    if (keys.partitionPoints != null && keys.rowPoints != null
        && keys.partitionPoints.size() * keys.rowPoints.size() <= MAX_POINTS) {
      List<TableQuery.Key> points = new ArrayList<>();
      for (Operand partition : keys.partitionPoints) {
        for (Operand row : keys.rowPoints) {
          points.add(new TableQuery.Key(partition, row));
        }
      }
      Result result = pointLookups(points, rest);
      return new Result(result.query().withKeyPredicate(keyPredicate), result.residual(), result.correlated());
    }
    List<ServiceFilter> bounds = new ArrayList<>(keys.rowBounds);
    List<Operand> partitions = List.of();
    AccessPath path = null;
    if (keys.partitionPoints != null && keys.partitionPoints.size() > 1) {
      partitions = keys.partitionPoints;
      path = AccessPath.MULTI_PARTITION_SCAN;
    } else if (keys.partitionPoints != null) {
      bounds.add(0, new Comparison(Column.PARTITION_KEY, Op.EQ, EdmType.STRING, keys.partitionPoints.get(0), false));
    } else {
      bounds.addAll(0, keys.partitionBounds);
    }
    KeyLayout.Discriminator discriminator = query.shape().layout().discriminator();
    if (discriminator != null) {
      bounds.add(new Comparison(discriminator.property(), Op.EQ, EdmType.STRING,
          Operand.literal(discriminator.value()), false));
    }
    // local index entries share the rows' partitions, with RowKeys above every row's: a bound on
    // every read of the rows, which is no range of their keys (the access path is decided without it)
    boolean belowEntries = TableQuery.holdsIndexEntries(query.table());
    int budget = ServiceFilter.MAX_COMPARISONS - (path == null ? 0 : 1) - bounds.size() - (belowEntries ? 1 : 0)
        - (keyRanges == null ? 0 : keyRanges.comparisons());
    if (keysetConjunct != null) {
      rest.remove(keysetConjunct);
      if (!keyset.exact()) {
        residual.add(keysetConjunct); // the ranges may be wider than the comparison: the client checks it again
      }
    }
    ServiceFilter others = pushConjuncts(rest, budget, residual);
    List<ServiceFilter> parts = new ArrayList<>(bounds);
    if (others != null) {
      parts.add(others);
    }
    AccessPath access = path != null ? path : scanPath(and(parts));
    if (keyRanges != null) {
      parts.add(keyRanges);
      access = AccessPath.RANGE_SCAN;
    }
    if (belowEntries) {
      parts.add(new Comparison(Column.ROW_KEY, Op.LT, EdmType.STRING,
          Operand.literal(String.valueOf(IndexDefinition.LOCAL_MARK)), false));
    }
    ServiceFilter filter = and(parts);
    RexNode client = compose(residual);
    TableQuery translated = query.withAccess(access, List.of(), partitions, filter, describe(client))
        .withKeyPredicate(keyPredicate);
    return new Result(translated, client, operands.correlated());
  }

  private KeysetRanges keysets() {
    return new KeysetRanges(query, rexBuilder, this::value, operands::key);
  }

  static ServiceFilter and(List<ServiceFilter> parts) {
    return parts.isEmpty() ? null : parts.size() == 1 ? parts.get(0) : new And(List.copyOf(parts));
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

  /** All rows of a declared table, or all entries of an index ({@link IndexDefinition#entries}). */
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
   * What every read of a table mapped over an existing one (or holding local index entries)
   * starts from, with no condition given: the key bounds of its templates' fixed text, its
   * discriminator, and below the entries' RowKeys, so that only its rows are read.
   */
  private static TableQuery mappedBase(TableQuery query) {
    return new FilterTranslator(query, null).translateDeclared(List.of()).query();
  }

  private Result pointLookups(List<TableQuery.Key> keys, List<RexNode> residual) {
    AccessPath path = keys.size() == 1 ? AccessPath.POINT_LOOKUP : AccessPath.MULTI_POINT_LOOKUP;
    RexNode client = compose(residual);
    return new Result(query.withAccess(path, keys, List.of(), null, describe(client)), client, operands.correlated());
  }

  /** The client's part of the condition with column names for field references, for EXPLAIN. */
  String describe(RexNode client) {
    if (client == null) {
      return null;
    }
    String text = client.toString();
    StringBuilder shown = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      int end = i + 1;
      while (!quoted && c == '$' && end < text.length() && Character.isDigit(text.charAt(end))) {
        end++;
      }
      if (end > i + 1) {
        int index = Integer.parseInt(text.substring(i + 1, end));
        shown.append(index < query.columns().size() ? query.columns().get(index).name() : text.substring(i, end));
        i = end - 1;
      } else {
        quoted ^= c == '\'';
        shown.append(c);
      }
    }
    return shown.toString();
  }

  private RexNode compose(List<RexNode> residual) {
    return residual.isEmpty() ? null : RexUtil.composeConjunction(rexBuilder, residual);
  }

  /** Pushes the conjuncts that translate, within the comparison budget; the rest go to the residual. */
  private ServiceFilter pushConjuncts(List<RexNode> conjuncts, int budget, List<RexNode> residual) {
    List<ServiceFilter> pushed = new ArrayList<>();
    int used = 0;
    for (RexNode conjunct : conjuncts) {
      Translation translation = translate(conjunct, false);
      if (translation != null && used + translation.filter().comparisons() <= budget) {
        pushed.add(translation.filter());
        used += translation.filter().comparisons();
        if (!translation.exact()) {
          residual.add(conjunct);
        }
      } else {
        residual.add(conjunct);
      }
    }
    return pushed.isEmpty() ? null : pushed.size() == 1 ? pushed.get(0) : new And(List.copyOf(pushed));
  }

  private static AccessPath scanPath(ServiceFilter filter) {
    boolean partitionEquality = false;
    boolean partitionRange = false;
    boolean rowKey = false;
    for (ServiceFilter part : ServiceFilter.topLevelComparisons(filter)) {
      if (part instanceof Comparison c) {
        if (c.property().equals(Column.PARTITION_KEY)) {
          partitionEquality |= c.op() == Op.EQ;
          partitionRange |= c.op() != Op.EQ && c.op() != Op.NE;
        } else if (c.property().equals(Column.ROW_KEY)) {
          rowKey |= c.op() != Op.NE;
        }
      }
    }
    if (partitionEquality) {
      return rowKey ? AccessPath.RANGE_SCAN : AccessPath.PARTITION_SCAN;
    }
    return partitionRange ? AccessPath.RANGE_SCAN : AccessPath.TABLE_SCAN;
  }

  private boolean constrainsKey(RexNode node) {
    if (node instanceof RexCall call && !call.getOperands().isEmpty()) {
      Column column = column(call.getOperands().get(0));
      return column != null && column.isKey();
    }
    return false;
  }

  /** {@code column = v}, or an OR of such: the values; otherwise null. */
  private List<Operand> equalities(RexNode node, String keyColumn) {
    List<Operand> values = new ArrayList<>();
    for (RexNode disjunct : RelOptUtil.disjunctions(node)) {
      Operand value = keyEquality(disjunct, keyColumn);
      if (value == null) {
        return null;
      }
      values.add(value);
    }
    return values;
  }

  /** An OR of branches that each fix PartitionKey and RowKey and nothing else: the keys. */
  private List<TableQuery.Key> keyPairs(RexNode node) {
    List<RexNode> disjuncts = RelOptUtil.disjunctions(node);
    if (disjuncts.size() > MAX_POINTS) {
      return null;
    }
    List<TableQuery.Key> keys = new ArrayList<>();
    for (RexNode disjunct : disjuncts) {
      List<RexNode> parts = RelOptUtil.conjunctions(disjunct);
      if (parts.size() != 2) {
        return null;
      }
      Operand partition = keyEquality(parts.get(0), Column.PARTITION_KEY);
      Operand row = keyEquality(parts.get(1), Column.ROW_KEY);
      if (partition == null || row == null) {
        partition = keyEquality(parts.get(1), Column.PARTITION_KEY);
        row = keyEquality(parts.get(0), Column.ROW_KEY);
      }
      if (partition == null || row == null) {
        return null;
      }
      keys.add(new TableQuery.Key(partition, row));
    }
    return keys;
  }

  private Operand keyEquality(RexNode node, String keyColumn) {
    if (node.getKind() != SqlKind.EQUALS) {
      return null;
    }
    List<RexNode> operands = ((RexCall) node).getOperands();
    for (int i = 0; i < 2; i++) {
      Column column = column(operands.get(i));
      if (column != null && column.name().equals(keyColumn)) {
        return value(operands.get(1 - i), column, EdmType.STRING);
      }
    }
    return null;
  }

  /**
   * The column an expression reads directly, if the service compares its stored values as SQL
   * compares the column (not a declared table's key column, nor a DECIMAL stored as text); else null.
   */
  private Column column(RexNode node) {
    if (node instanceof RexInputRef ref) {
      Column column = query.columns().get(ref.getIndex());
      return column.comparableAtService() && query.shape().keyPosition(column) < 0 ? column : null;
    }
    return null;
  }

  private Translation translate(RexNode node, boolean negated) {
    switch (node.getKind()) {
      case AND:
      case OR: {
        boolean and = (node.getKind() == SqlKind.AND) != negated;
        List<ServiceFilter> parts = new ArrayList<>();
        boolean exact = true;
        for (RexNode operand : ((RexCall) node).getOperands()) {
          Translation part = translate(operand, negated);
          if (part == null) {
            if (!and) {
              return null;
            }
            exact = false; // a weaker AND still selects a superset; the client re-checks
            continue;
          }
          parts.add(part.filter());
          exact &= part.exact();
        }
        if (parts.isEmpty()) {
          return null;
        }
        ServiceFilter filter = parts.size() == 1 ? parts.get(0) : and ? new And(parts) : new Or(parts);
        return new Translation(filter, exact);
      }
      case NOT:
        return translate(((RexCall) node).getOperands().get(0), !negated);
      case EQUALS:
      case NOT_EQUALS:
      case LESS_THAN:
      case LESS_THAN_OR_EQUAL:
      case GREATER_THAN:
      case GREATER_THAN_OR_EQUAL:
        return onFirstParts(comparison((RexCall) node, negated));
      case IS_NOT_NULL:
      case IS_NULL: {
        boolean notNull = (node.getKind() == SqlKind.IS_NOT_NULL) != negated;
        Column column = column(((RexCall) node).getOperands().get(0));
        return notNull && column != null ? isNotNull(column) : null;
      }
      case LIKE:
        return negated || ((SqlLikeOperator) ((RexCall) node).getOperator()).isNegated()
            ? null : onFirstParts(like((RexCall) node));
      case INPUT_REF: {
        Column column = column(node);
        if (column != null && column.singleEdmType() == EdmType.BOOLEAN) {
          return exact(new Comparison(column.name(), Op.EQ, EdmType.BOOLEAN, Operand.literal(!negated), false));
        }
        return null;
      }
      default:
        return null;
    }
  }

  /**
   * A comparison on a large column as the service can judge it, on the first part of a long
   * value (ServiceFilter.FirstPart): never exact, so the client checks it again; binary values,
   * whose first part no comparison is written for, are left to the client.
   */
  private Translation onFirstParts(Translation translation) {
    if (translation == null || !onLargeColumn(translation.filter())) {
      return translation;
    }
    ServiceFilter filter = firstParts(translation.filter());
    return filter == null ? null : new Translation(filter, false);
  }

  private boolean onLargeColumn(ServiceFilter filter) {
    if (filter instanceof Comparison comparison) {
      return query.shape().columns().stream().anyMatch(c -> c.large() && c.name().equals(comparison.property()));
    }
    List<ServiceFilter> parts = filter instanceof And and ? and.operands() : ((Or) filter).operands();
    return parts.stream().anyMatch(this::onLargeColumn);
  }

  private static ServiceFilter firstParts(ServiceFilter filter) {
    if (filter instanceof Comparison comparison) {
      return comparison.type() == EdmType.STRING
          ? new ServiceFilter.FirstPart(comparison, ValueParts.SHORTEST_FIRST_TEXT) : null;
    }
    boolean and = filter instanceof And;
    List<ServiceFilter> parts = new ArrayList<>();
    for (ServiceFilter part : and ? ((And) filter).operands() : ((Or) filter).operands()) {
      ServiceFilter wrapped = firstParts(part);
      if (wrapped == null) {
        return null;
      }
      parts.add(wrapped);
    }
    return and ? new And(parts) : new Or(parts);
  }

  private static Translation exact(ServiceFilter filter) {
    return new Translation(filter, true);
  }

  private Translation comparison(RexCall call, boolean negated) {
    SqlKind kind = negated ? call.getKind().negateNullSafe() : call.getKind();
    Column column = column(call.getOperands().get(0));
    RexNode other = call.getOperands().get(1);
    if (column == null) {
      column = column(call.getOperands().get(1));
      other = call.getOperands().get(0);
      kind = kind.reverse();
    }
    if (column == null) {
      return null;
    }
    EdmType type = column.singleEdmType();
    Operand value = type == null ? null : value(other, column, type);
    if (value == null) {
      return null;
    }
    String name = column.name();
    switch (type) {
      case GUID:
      case BINARY:
        return kind == SqlKind.EQUALS ? exact(new Comparison(name, Op.EQ, type, value, false)) : null;
      case DATETIME:
        return dateTime(name, kind, value);
      case BOOLEAN:
        if (kind == SqlKind.EQUALS) {
          return exact(new Comparison(name, Op.EQ, type, value, false));
        }
        if (kind == SqlKind.NOT_EQUALS && !value.isParameter()) {
          return exact(new Comparison(name, Op.EQ, type, Operand.literal(!(Boolean) value.literal()), false));
        }
        return null;
      default:
        break;
    }
    switch (kind) {
      case EQUALS: return exact(new Comparison(name, Op.EQ, type, value, false));
      case LESS_THAN: return exact(new Comparison(name, Op.LT, type, value, false));
      case LESS_THAN_OR_EQUAL: return exact(new Comparison(name, Op.LE, type, value, false));
      case GREATER_THAN: return exact(new Comparison(name, Op.GT, type, value, false));
      case GREATER_THAN_OR_EQUAL: return exact(new Comparison(name, Op.GE, type, value, false));
      case NOT_EQUALS:
        if (column.isKey()) {
          return exact(new Comparison(name, Op.NE, type, value, false)); // keys are never missing
        }
        return exact(new Or(List.of(new Comparison(name, Op.LT, type, value, false),
            new Comparison(name, Op.GT, type, value, false))));
      default:
        return null;
    }
  }

  /**
   * The client sees DateTimes floored to the millisecond, so {@code t <= X} is {@code t lt X+1ms}
   * at the service, {@code t = X} is {@code t ge X and t lt X+1ms}, and so on: exact either way.
   */
  private static Translation dateTime(String name, SqlKind kind, Operand value) {
    EdmType type = EdmType.DATETIME;
    Comparison atLeastX = new Comparison(name, Op.GE, type, value, false);
    Comparison belowX = new Comparison(name, Op.LT, type, value, false);
    Comparison atLeastNext = new Comparison(name, Op.GE, type, value, true);
    Comparison belowNext = new Comparison(name, Op.LT, type, value, true);
    switch (kind) {
      case EQUALS: return exact(new And(List.of(atLeastX, belowNext)));
      case NOT_EQUALS: return exact(new Or(List.of(belowX, atLeastNext)));
      case LESS_THAN: return exact(belowX);
      case LESS_THAN_OR_EQUAL: return exact(belowNext);
      case GREATER_THAN: return exact(atLeastNext);
      case GREATER_THAN_OR_EQUAL: return exact(atLeastX);
      default: return null;
    }
  }

  /** Present with the column's type, as a comparison every such value passes. */
  private static Translation isNotNull(Column column) {
    EdmType type = column.singleEdmType();
    if (type == null) {
      return null;
    }
    String name = column.name();
    switch (type) {
      case STRING: return exact(new Comparison(name, Op.GE, type, Operand.literal(""), false));
      case INT32: return exact(new Comparison(name, Op.GE, type, Operand.literal(Integer.MIN_VALUE), false));
      case INT64: return exact(new Comparison(name, Op.GE, type, Operand.literal(Long.MIN_VALUE), false));
      case BOOLEAN:
        return exact(new Or(List.of(new Comparison(name, Op.EQ, type, Operand.literal(true), false),
            new Comparison(name, Op.EQ, type, Operand.literal(false), false))));
      default: return null;
    }
  }

  /** {@code LIKE 'prefix%'} is the range [prefix, next string after every prefix). */
  private Translation like(RexCall call) {
    Column column = column(call.getOperands().get(0));
    if (column == null || column.singleEdmType() != EdmType.STRING
        || !(call.getOperands().get(1) instanceof RexLiteral literal)) {
      return null;
    }
    Character escape = null;
    if (call.getOperands().size() == 3) {
      String text = call.getOperands().get(2) instanceof RexLiteral e ? e.getValueAs(String.class) : null;
      if (text == null || text.length() != 1) {
        return null;
      }
      escape = text.charAt(0);
    }
    String pattern = literal.getValueAs(String.class);
    LikePrefix prefix = pattern == null ? null : LikePrefix.of(pattern, escape);
    if (prefix == null) {
      return null;
    }
    String name = column.name();
    if (!prefix.open()) {
      return exact(new Comparison(name, Op.EQ, EdmType.STRING, Operand.literal(prefix.text()), false));
    }
    Comparison lower = new Comparison(name, Op.GE, EdmType.STRING, Operand.literal(prefix.text()), false);
    String upper = KeyBound.successorOfPrefix(prefix.text());
    if (upper == null) {
      return exact(lower);
    }
    return exact(new And(List.of(lower, new Comparison(name, Op.LT, EdmType.STRING, Operand.literal(upper), false))));
  }

  /**
   * A LIKE pattern that is literal text, optionally followed by one final {@code %}
   * ({@code open}); null for any other pattern.
   */
  record LikePrefix(String text, boolean open) {
    static LikePrefix of(String pattern, Character escape) {
      StringBuilder text = new StringBuilder();
      for (int i = 0; i < pattern.length(); i++) {
        char c = pattern.charAt(i);
        if (escape != null && c == escape) {
          if (++i == pattern.length()) {
            return null;
          }
          text.append(pattern.charAt(i));
        } else if (c == '%' && i == pattern.length() - 1) {
          return new LikePrefix(text.toString(), true);
        } else if (c == '%' || c == '_') {
          return null;
        } else {
          text.append(c);
        }
      }
      return new LikePrefix(text.toString(), false);
    }
  }

  /**
   * A literal or parameter that can be compared with {@code column} at the service with SQL's
   * result, as an operand of Edm type {@code type}; otherwise null.
   */
  private Operand value(RexNode node, Column column, EdmType type) {
    if (node instanceof RexFieldAccess access && access.getReferenceExpr() instanceof RexCorrelVariable) {
      boolean sameType = access.getType().getSqlTypeName() == column.sqlType()
          || (type == EdmType.STRING && access.getType().getSqlTypeName() == SqlTypeName.CHAR);
      return sameType && type != EdmType.GUID && type != EdmType.BINARY ? operands.correlated(access) : null;
    }
    if (node instanceof RexDynamicParam param) {
      boolean sameType = param.getType().getSqlTypeName() == column.sqlType()
          || (type == EdmType.STRING && param.getType().getSqlTypeName() == SqlTypeName.CHAR);
      return sameType && type != EdmType.GUID && type != EdmType.BINARY ? Operand.parameter(param.getIndex()) : null;
    }
    if (!(node instanceof RexLiteral literal) || literal.isNull()) {
      return null;
    }
    Object value = literal.getValue();
    switch (type) {
      case STRING:
        return value instanceof NlsString ? Operand.literal(literal.getValueAs(String.class)) : null;
      case GUID: {
        String text = value instanceof NlsString ? literal.getValueAs(String.class) : null;
        return text != null && ODataLiteral.isCanonicalGuid(text) ? Operand.literal(text) : null;
      }
      case INT32:
      case INT64: {
        if (!(value instanceof BigDecimal decimal) || !isExactNumeric(literal)) {
          return null;
        }
        try {
          long integral = decimal.longValueExact();
          if (type == EdmType.INT32) {
            return Operand.literal(Math.toIntExact(integral));
          }
          return Operand.literal(integral);
        } catch (ArithmeticException e) {
          return null;
        }
      }
      case DOUBLE:
        // Calcite 1.41 holds approximate literals as Double (earlier versions as BigDecimal)
        return (value instanceof BigDecimal || value instanceof Double) && column.sqlType() == SqlTypeName.DOUBLE
            && literal.getType().getSqlTypeName() == SqlTypeName.DOUBLE
            ? Operand.literal(literal.getValueAs(Double.class)) : null;
      case BOOLEAN:
        return value instanceof Boolean b ? Operand.literal(b) : null;
      case DATETIME:
        return literal.getType().getSqlTypeName() == SqlTypeName.TIMESTAMP
            ? Operand.literal(literal.getValueAs(Long.class)) : null;
      case BINARY:
        return value instanceof ByteString ? Operand.literal(value) : null;
      default:
        return null;
    }
  }

  private static boolean isExactNumeric(RexLiteral literal) {
    switch (literal.getType().getSqlTypeName()) {
      case TINYINT:
      case SMALLINT:
      case INTEGER:
      case BIGINT:
        return true;
      case DECIMAL:
        return literal.getType().getScale() == 0;
      default:
        return false;
    }
  }
}
