package io.tablesql.plan;

import io.tablesql.store.EdmType;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;

/** A {@code $filter} expression: comparisons of a property with a value, under AND and OR. */
public sealed interface ServiceFilter {
  /** The service evaluates at most this many comparisons in one filter. */
  int MAX_COMPARISONS = 15;

  int comparisons();

  /**
   * The filter text; {@code values} resolves operands (null renders parameters as {@code ?n}).
   * A comparison with a NULL value can match nothing and renders as a filter that matches nothing.
   */
  String render(Function<Operand, Object> values);

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
        String shown = value.isParameter() ? "?" + value.parameter()
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
  }
}
