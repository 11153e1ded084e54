package io.tablesql.query;

import java.util.List;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The most rows a table query needs: a LIMIT's count plus its OFFSET, each a literal or a
 * statement parameter ({@code LIMIT ? OFFSET ?}, as jOOQ writes), added up when the query runs.
 */
public record RowLimit(List<Operand> terms) {
  /** The rows needed by one execution; null (no limit) if a parameter is bound to NULL. */
  public Long resolve(Function<Operand, Object> values) {
    long rows = 0;
    for (Operand term : terms) {
      Object value = values.apply(term);
      if (!(value instanceof Number number)) {
        return null;
      }
      long count = Math.max(0, number.longValue());
      rows = count > Long.MAX_VALUE - rows ? Long.MAX_VALUE : rows + count; // no limit rather than a negative one
    }
    return rows;
  }

  /** The rows needed if no parameter is involved, else null. */
  public Long known() {
    return terms.stream().anyMatch(Operand::isParameter) ? null : resolve(term -> term.literal());
  }

  /** As EXPLAIN shows it: the count, or its terms with parameters as {@code ?n}. */
  @Override
  public String toString() {
    Long known = known();
    return known != null ? known.toString()
        : terms.stream().map(term -> term.isParameter() ? term.label() : String.valueOf(term.literal()))
            .collect(Collectors.joining(" + "));
  }
}
