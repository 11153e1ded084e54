package io.tablesql.ddl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tablesql.ddl.KeyClause.Token;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * The clause that maps a table over an existing Azure table, which Calcite's grammar does not
 * read: {@code CREATE TABLE Employee (...) OVER Employees PARTITION KEY '{Department}' ROW KEY
 * 'empid_{EmployeeId:6}' WHERE EntityType = 'Employee'}. It is rewritten to a CHECK constraint
 * named {@value #NAME} whose condition carries the mapping as text ({@link #mappingOf} reads it
 * back).
 */
public final class MappingClause {
  /** The name of the constraint that carries a mapping. */
  public static final String NAME = "TABLESQL_MAP";
  private static final ObjectMapper JSON = new ObjectMapper();

  /** What the clause says: the Azure table, the key templates (null if not given), the discriminator (or null). */
  public record Mapping(String table, String partitionKey, String rowKey, String property, String value) {
  }

  private MappingClause() {
  }

  /** The mapping a constraint's text (see {@link #rewrite}) carries, or null if it is not one. */
  public static Mapping mappingOf(String text) {
    try {
      JsonNode node = JSON.readTree(Base64.getUrlDecoder().decode(text));
      return new Mapping(node.path("table").asText(), text(node, "partitionKey"), text(node, "rowKey"),
          text(node, "property"), text(node, "value"));
    } catch (java.io.IOException | IllegalArgumentException e) {
      return null;
    }
  }

  private static String text(JsonNode node, String field) {
    return node.hasNonNull(field) ? node.get(field).asText() : null;
  }

  /** {@code sql} with its OVER clause rewritten, or unchanged if it has none it can read. */
  public static String rewrite(String sql) {
    List<Token> tokens = Token.scan(sql);
    if (tokens.size() < 4 || !tokens.get(0).is("CREATE") || !tokens.get(1).is("TABLE")) {
      return sql;
    }
    int open = -1;
    for (int i = 2; i < tokens.size() && open < 0; i++) {
      open = tokens.get(i).text().equals("(") ? i : -1;
    }
    List<int[]> elements = open < 0 ? null : KeyClause.elements(tokens, open);
    if (elements == null || elements.isEmpty()) {
      return sql;
    }
    int close = elements.get(elements.size() - 1)[1] + 1; // the list's ")"
    int i = close + 1;
    if (i + 1 >= tokens.size() || !tokens.get(i).is("OVER") || !tokens.get(i + 1).isName()) {
      return sql;
    }
    ObjectNode mapping = JSON.createObjectNode().put("table", tokens.get(i + 1).unquoted());
    i += 2;
    for (String key : new String[] {"PARTITION", "ROW"}) {
      if (i + 2 < tokens.size() && tokens.get(i).is(key) && tokens.get(i + 1).is("KEY")
          && tokens.get(i + 2).text().startsWith("'")) {
        mapping.put(key.equals("ROW") ? "rowKey" : "partitionKey", tokens.get(i + 2).unquoted());
        i += 3;
      }
    }
    if (i + 3 < tokens.size() && tokens.get(i).is("WHERE") && tokens.get(i + 1).isName()
        && tokens.get(i + 2).text().equals("=") && tokens.get(i + 3).text().startsWith("'")) {
      mapping.put("property", tokens.get(i + 1).unquoted()).put("value", tokens.get(i + 3).unquoted());
      i += 4;
    }
    if (i != tokens.size()) {
      return sql; // more than the clause: the parser reports it
    }
    String text = Base64.getUrlEncoder().withoutPadding()
        .encodeToString(mapping.toString().getBytes(StandardCharsets.UTF_8));
    return sql.substring(0, tokens.get(close).start()) + ", CONSTRAINT \"" + NAME + "\" CHECK ('" + text
        + "' IS NOT NULL))";
  }
}
