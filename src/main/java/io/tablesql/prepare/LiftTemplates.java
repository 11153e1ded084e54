package io.tablesql.prepare;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.tablesql.prepare.LiteralScanner.Literal;
import io.tablesql.prepare.LiteralScanner.Scan;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.parser.SqlParserPos;

/**
 * Lifts the literals of a statement without parsing it when a statement of the same shape
 * (the same text but for its literals, see {@link LiteralScanner}) was lifted before: parsing
 * with Calcite costs more than planning saves for a quick point lookup.
 *
 * <p>A template is made only when every value Calcite lifted sits exactly on one scanned literal
 * with the same value. It is used only when every literal it did not lift is written exactly as
 * before, so the statement parses the same way and only the lifted values differ.
 */
public final class LiftTemplates {
  /** How a shape lifts: the parameterized text, which literals become parameters (in order). */
  private record Template(String sql, int[] lifted, List<Literal> literals) {
  }

  private final Cache<String, Template> templates;
  private int hits;

  public LiftTemplates(int capacity) {
    this.templates = Caffeine.newBuilder().maximumSize(capacity).executor(Runnable::run).build();
  }

  public LiteralLifter.Lifted lift(String sql) {
    return lift(StatementText.of(sql));
  }

  /**
   * The lifted form of a query, as {@link LiteralLifter#lift} gives it; null for any other
   * statement. Only a statement without a template is parsed.
   */
  synchronized LiteralLifter.Lifted lift(StatementText text) {
    Scan scan = LiteralScanner.scan(text.sql());
    Template template = scan == null ? null : templates.getIfPresent(scan.shape());
    if (template != null) {
      LiteralLifter.Lifted lifted = apply(template, scan.literals());
      if (lifted != null) {
        hits++;
        text.knownQuery(); // only queries are lifted, so only queries make templates
        return lifted;
      }
    }
    LiteralLifter.Lifted lifted = text.lifted();
    if (lifted != null && scan != null) {
      Template made = make(lifted, scan.literals());
      if (made != null) {
        templates.put(scan.shape(), made);
      }
    }
    return lifted;
  }

  /** How many statements were lifted from a template: a measure for tests. */
  public synchronized int hits() {
    return hits;
  }

  private static Template make(LiteralLifter.Lifted lifted, List<Literal> literals) {
    int[] indexes = new int[lifted.values().size()];
    for (int i = 0; i < indexes.length; i++) {
      indexes[i] = at(literals, lifted.positions().get(i));
      if (indexes[i] < 0 || !lifted.values().get(i).equals(literals.get(indexes[i]).value())) {
        return null;
      }
    }
    return new Template(lifted.sql(), indexes, literals);
  }

  private static int at(List<Literal> literals, SqlParserPos position) {
    for (int i = 0; i < literals.size(); i++) {
      Literal literal = literals.get(i);
      if (literal.line() == position.getLineNum() && literal.column() == position.getColumnNum()) {
        return i;
      }
    }
    return -1;
  }

  /** The template filled with a statement's literals; null if a literal it keeps differs. */
  private static LiteralLifter.Lifted apply(Template template, List<Literal> literals) {
    if (literals.size() != template.literals().size()) {
      return null;
    }
    boolean[] lifted = new boolean[literals.size()];
    List<Object> values = new ArrayList<>(template.lifted().length);
    for (int index : template.lifted()) {
      lifted[index] = true;
      values.add(literals.get(index).value());
    }
    for (int i = 0; i < literals.size(); i++) {
      if (!lifted[i] && !literals.get(i).text().equals(template.literals().get(i).text())) {
        return null;
      }
    }
    return new LiteralLifter.Lifted(template.sql(), List.copyOf(values), List.of());
  }
}
