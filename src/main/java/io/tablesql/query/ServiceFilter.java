package io.tablesql.query;

import io.tablesql.store.EdmType;
import io.tablesql.store.EdmValues;
import io.tablesql.store.ODataLiteral;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A {@code $filter} expression: comparisons of a property with a value, under AND and OR, and
 * {@link SequentialRanges}, disjoint ranges of keys read one request chain after another.
 */
public sealed interface ServiceFilter {
  /** The service evaluates at most this many comparisons in one filter. */
  int MAX_COMPARISONS = 15;

  int comparisons();

  /**
   * The filter text; {@code values} resolves operands (null renders parameters as {@code ?n}).
   * A comparison with a NULL value can match nothing and renders as a filter that matches nothing.
   */
  String render(Function<Operand, Object> values);

  /**
   * Whether an entity passes this filter as the service would judge it: type-strict, a missing
   * property matches nothing. {@code property} reads a property (PartitionKey, RowKey and
   * Timestamp included) as the SDK would return it.
   */
  boolean matches(Function<String, Object> property, Function<Operand, Object> values);

  /** The parts of a filter that bound all of it: the operands of its top-level AND, or itself. */
  static List<ServiceFilter> topLevelComparisons(ServiceFilter filter) {
    List<ServiceFilter> parts = new ArrayList<>();
    if (filter instanceof And and) {
      and.operands().forEach(part -> parts.addAll(topLevelComparisons(part)));
    } else if (filter != null) {
      parts.add(filter);
    }
    return parts;
  }

  /** The operators of OData filters. */
  enum Op {
    EQ, NE, LT, LE, GT, GE;

    String odata() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  record Comparison(String property, Op op, EdmType type, Operand value, boolean nextMillisecond)
      implements ServiceFilter {
    /** Nothing is less than the empty string: a comparison that matches no entity. */
    static final String MATCHES_NOTHING = "PartitionKey lt ''";

    @Override
    public int comparisons() {
      return 1;
    }

    @Override
    public String render(Function<Operand, Object> values) {
      if (values == null) {
        String shown = value.isParameter() ? value.label()
            : ODataLiteral.render(type, value.literal(), nextMillisecond);
        if (value.isParameter() && nextMillisecond) {
          shown += " + 1 ms";
        }
        return property + " " + op.odata() + " " + shown;
      }
      Object resolved = values.apply(value);
      if (resolved == null) {
        return MATCHES_NOTHING;
      }
      return property + " " + op.odata() + " " + ODataLiteral.render(type, resolved, nextMillisecond);
    }

    @Override
    public boolean matches(Function<String, Object> properties, Function<Operand, Object> values) {
      Object actual = properties.apply(property);
      Object expected = values.apply(value);
      if (actual == null || expected == null || EdmType.of(actual) != type) {
        return false;
      }
      int order = EdmValues.compare(type, actual, expected, nextMillisecond);
      switch (op) {
        case EQ: return order == 0;
        case NE: return order != 0;
        case LT: return order < 0;
        case LE: return order <= 0;
        case GT: return order > 0;
        default: return order >= 0;
      }
    }
  }

  /**
   * A comparison on a large column (catalog.ValueParts), whose property holds only a long value's
   * first part. Against text shorter than any first part, the first part compares as the whole
   * value does (it is the value's beginning); against longer text it may not, so the comparison
   * then widens to "the value is there" (every comparison needs that), and the client, which
   * checks every such comparison again, decides.
   */
  record FirstPart(Comparison comparison, int shortestFirstPart) implements ServiceFilter {
    @Override
    public int comparisons() {
      return 1;
    }

    @Override
    public String render(Function<Operand, Object> values) {
      Object value = values == null ? null : values.apply(comparison.value());
      return longer(value) ? present().render(values) : comparison.render(values);
    }

    @Override
    public boolean matches(Function<String, Object> properties, Function<Operand, Object> values) {
      return longer(values.apply(comparison.value())) ? present().matches(properties, values)
          : comparison.matches(properties, values);
    }

    private boolean longer(Object value) {
      return value instanceof String text && text.length() >= shortestFirstPart;
    }

    /** Every text is at least the empty one: the property holds text. */
    private Comparison present() {
      return new Comparison(comparison.property(), Op.GE, EdmType.STRING, Operand.literal(""), false);
    }
  }

  record And(List<ServiceFilter> operands) implements ServiceFilter {
    @Override
    public int comparisons() {
      return operands.stream().mapToInt(ServiceFilter::comparisons).sum();
    }

    @Override
    public String render(Function<Operand, Object> values) {
      return operands.stream().map(f -> f instanceof Or ? "(" + f.render(values) + ")" : f.render(values))
          .collect(Collectors.joining(" and "));
    }

    @Override
    public boolean matches(Function<String, Object> properties, Function<Operand, Object> values) {
      return operands.stream().allMatch(f -> f.matches(properties, values));
    }
  }

  record Or(List<ServiceFilter> operands) implements ServiceFilter {
    @Override
    public int comparisons() {
      return operands.stream().mapToInt(ServiceFilter::comparisons).sum();
    }

    @Override
    public String render(Function<Operand, Object> values) {
      return operands.stream().map(f -> f instanceof And ? "(" + f.render(values) + ")" : f.render(values))
          .collect(Collectors.joining(" or "));
    }

    @Override
    public boolean matches(Function<String, Object> properties, Function<Operand, Object> values) {
      return operands.stream().anyMatch(f -> f.matches(properties, values));
    }
  }

  /**
   * Disjoint ranges of keys in key order, which the rows of the filter are the union of: what a
   * row-value comparison over a key ({@code (PartitionKey, RowKey) > (?, ?)}) reads. The service
   * treats an {@code or} of key conditions as one scan from the start of the table or partition,
   * not as ranges, so each range is read by a query of its own, one after the other
   * ({@link #split}); rendered whole (EXPLAIN) the ranges are joined by {@code then}.
   */
  record SequentialRanges(List<ServiceFilter> ranges) implements ServiceFilter {
    /** The comparisons one request carries: its range's. */
    @Override
    public int comparisons() {
      return ranges.stream().mapToInt(ServiceFilter::comparisons).max().orElse(0);
    }

    @Override
    public String render(Function<Operand, Object> values) {
      return ranges.stream().map(range -> "(" + range.render(values) + ")").collect(Collectors.joining(" then "));
    }

    @Override
    public boolean matches(Function<String, Object> properties, Function<Operand, Object> values) {
      return ranges.stream().anyMatch(range -> range.matches(properties, values));
    }

    /**
     * The filters of the requests that read {@code filter} in key order, one per range, when its
     * top-level AND holds key ranges; otherwise null (one request chain reads it).
     */
    public static List<ServiceFilter> split(ServiceFilter filter) {
      List<ServiceFilter> parts = topLevelComparisons(filter);
      SequentialRanges keyRanges = null;
      for (ServiceFilter part : parts) {
        if (part instanceof SequentialRanges found) {
          keyRanges = found;
        }
      }
      if (keyRanges == null) {
        return null;
      }
      List<ServiceFilter> filters = new ArrayList<>();
      for (ServiceFilter range : keyRanges.ranges()) {
        List<ServiceFilter> conjuncts = new ArrayList<>(parts);
        conjuncts.set(parts.indexOf(keyRanges), range);
        filters.add(conjuncts.size() == 1 ? range : new And(conjuncts));
      }
      return filters;
    }
  }
}
