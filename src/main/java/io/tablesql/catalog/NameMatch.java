package io.tablesql.catalog;

import io.tablesql.errors.SqlStates;
import io.tablesql.store.StoreException;
import java.util.Collection;
import java.util.List;

/**
 * How a name written in SQL finds a table or view among names: the one of exactly that name,
 * else, unless it was quoted, the one whose name matches ignoring case. Several matching ignoring
 * case and none exactly is 42000, naming them.
 */
public final class NameMatch {
  private NameMatch() {
  }

  /** The name among {@code names} that {@code name} denotes, or null if none. */
  public static String find(Collection<String> names, String name, boolean quoted) {
    if (names.contains(name)) {
      return name;
    }
    if (quoted) {
      return null;
    }
    List<String> matches = names.stream().filter(candidate -> candidate.equalsIgnoreCase(name)).toList();
    if (matches.size() > 1) {
      throw new Ambiguous("Name " + name + " matches " + String.join(" and ", matches) + ", which differ only "
          + "in case. Write the name in double quotes exactly as it is declared.");
    }
    return matches.isEmpty() ? null : matches.get(0);
  }

  /**
   * Several names match ignoring case and none exactly (42000). Where the name was written in
   * double quotes, the one who knows that (the validator) answers instead that none matched.
   */
  public static final class Ambiguous extends StoreException {
    Ambiguous(String message) {
      super(message, SqlStates.SYNTAX_ERROR, null);
    }
  }
}
