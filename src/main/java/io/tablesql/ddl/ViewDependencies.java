package io.tablesql.ddl;

import io.tablesql.catalog.ViewDefinition;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * Which views depend on a table or view, for DROP ... RESTRICT and CASCADE: the views whose query
 * reads it in a FROM clause, and the views that depend on those, read from each view's SQL as the
 * catalog keeps it. Names match as table names do (case-insensitively, the last part of a
 * qualified name).
 */
final class ViewDependencies {
  /** How the catalog's view SQL is written: Calcite's dialect, every identifier quoted. */
  private static final SqlParser.Config VIEW_SQL = SqlParser.config()
      .withQuoting(Quoting.DOUBLE_QUOTE)
      .withUnquotedCasing(Casing.UNCHANGED)
      .withQuotedCasing(Casing.UNCHANGED)
      .withParserFactory(DdlParserFactory.INSTANCE);

  private ViewDependencies() {
  }

  /** The views that depend on {@code name}, directly or through other views, nearest first. */
  static List<ViewDefinition> of(String name, Collection<ViewDefinition> views) {
    List<ViewDefinition> dependents = new ArrayList<>();
    Set<String> reached = new HashSet<>(Set.of(name.toLowerCase(Locale.ROOT)));
    for (int i = -1; i < dependents.size(); i++) {
      String target = i < 0 ? name : dependents.get(i).name();
      for (ViewDefinition view : views) {
        if (!reached.contains(view.name().toLowerCase(Locale.ROOT)) && reads(view).contains(lower(target))) {
          reached.add(view.name().toLowerCase(Locale.ROOT));
          dependents.add(view);
        }
      }
    }
    return dependents;
  }

  /** The names, in lower case, a view's query reads in its FROM clauses. */
  static Set<String> reads(ViewDefinition view) {
    Set<String> names = new HashSet<>();
    SqlNode query;
    try {
      query = SqlParser.create(view.sql(), VIEW_SQL).parseQuery();
    } catch (SqlParseException e) {
      return names; // a view that no longer parses reads nothing this driver can name
    }
    query.accept(new SqlBasicVisitor<Void>() {
      @Override
      public Void visit(SqlCall call) {
        if (call instanceof SqlSelect select && select.getFrom() != null) {
          from(select.getFrom(), names);
        }
        return super.visit(call);
      }
    });
    return names;
  }

  private static void from(SqlNode node, Set<String> names) {
    if (node instanceof SqlIdentifier identifier) {
      names.add(lower(identifier.names.get(identifier.names.size() - 1)));
    } else if (node instanceof SqlJoin join) {
      from(join.getLeft(), names);
      from(join.getRight(), names);
    } else if (node instanceof SqlCall call && call.getKind() == SqlKind.AS) {
      from(call.operand(0), names);
    }
  }

  private static String lower(String name) {
    return name.toLowerCase(Locale.ROOT);
  }
}
