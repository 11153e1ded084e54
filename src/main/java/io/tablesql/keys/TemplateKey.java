package io.tablesql.keys;

import io.tablesql.keys.KeyLayout.KeyColumn;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The key of an existing table as its writer composed it: fixed text and fields, as in
 * {@code empid_{EmployeeId:6}} (the text {@code empid_}, then EmployeeId zero-padded to 6 digits).
 * A field is VARCHAR text, of a fixed length ({@code {Month:7}}) or not, or a non-negative integer,
 * zero-padded ({@code {Id:6}}) or not ({@code {Id}}); one of variable width ends where the next
 * fixed text starts, or at the key's end.
 */
public record TemplateKey(String template, List<Part> parts) implements KeyFormat {
  /** Fixed text, or a field: a key column and its width in characters (0 for variable). */
  public record Part(String text, KeyColumn column, int width) {
    boolean isField() {
      return column != null;
    }
  }

  public TemplateKey {
    parts = List.copyOf(parts);
  }

  /**
   * Reads a template against the columns it may name.
   *
   * @throws IllegalArgumentException naming what is wrong with it
   */
  public static TemplateKey parse(String template, java.util.function.Function<String, KeyColumn> columns) {
    List<Part> parts = new ArrayList<>();
    int i = 0;
    while (i < template.length()) {
      int open = template.indexOf('{', i);
      if (open < 0) {
        parts.add(new Part(template.substring(i), null, 0));
        break;
      }
      if (open > i) {
        parts.add(new Part(template.substring(i, open), null, 0));
      }
      int close = template.indexOf('}', open);
      if (close < 0) {
        throw new IllegalArgumentException("'{' at " + open + " has no '}'");
      }
      String[] field = template.substring(open + 1, close).split(":", 2);
      KeyColumn column = columns.apply(field[0].trim());
      if (column == null) {
        throw new IllegalArgumentException("{" + field[0] + "} is not a column of the table");
      }
      int width = field.length == 2 ? Integer.parseInt(field[1].trim()) : 0;
      boolean integral = column.sqlType() == SqlTypeName.SMALLINT || column.sqlType() == SqlTypeName.INTEGER
          || column.sqlType() == SqlTypeName.BIGINT;
      if (!integral && column.sqlType() != SqlTypeName.VARCHAR || width < 0 || integral && width > 19) {
        throw new IllegalArgumentException("{" + field[0] + "} must be VARCHAR or an integer, with a width of 1 to "
            + "19 digits for an integer");
      }
      if (!parts.isEmpty() && parts.get(parts.size() - 1).isField() && parts.get(parts.size() - 1).width() == 0) {
        throw new IllegalArgumentException("{" + parts.get(parts.size() - 1).column().name() + "} is followed by "
            + "another field: fixed text must end a field of variable width");
      }
      parts.add(new Part(null, column, width));
      i = close + 1;
    }
    return new TemplateKey(template, parts);
  }

  @Override
  public List<KeyColumn> columns() {
    return parts.stream().filter(Part::isField).map(Part::column).toList();
  }

  @Override
  public String encode(List<?> values) {
    StringBuilder key = new StringBuilder();
    int field = 0;
    for (int i = 0; i < parts.size(); i++) {
      Part part = parts.get(i);
      if (!part.isField()) {
        key.append(part.text());
        continue;
      }
      if (field == values.size()) {
        break;
      }
      Object value = values.get(field++);
      if (value == null) {
        throw new IllegalArgumentException("a key column cannot be NULL");
      }
      key.append(text(part, value, i + 1 < parts.size() ? parts.get(i + 1).text() : null));
    }
    return key.toString();
  }

  /** The text of field {@code field} (0-based among the fields) for a value, as {@link #encode} writes it. */
  public String fieldText(int field, Object value) {
    int seen = 0;
    for (int i = 0; i < parts.size(); i++) {
      if (parts.get(i).isField() && seen++ == field) {
        return text(parts.get(i), value, i + 1 < parts.size() ? parts.get(i + 1).text() : null);
      }
    }
    throw new IllegalArgumentException("the template has no field " + field);
  }

  private static String text(Part part, Object value, String next) {
    if (part.column().sqlType() == SqlTypeName.VARCHAR) {
      String text = value.toString();
      if (part.width() > 0 && text.length() != part.width()) {
        throw new IllegalArgumentException("'" + text + "' is not " + part.width() + " characters long, as "
            + part.column().name() + " is in the key");
      }
      if (next != null && text.contains(next)) {
        throw new IllegalArgumentException("'" + text + "' contains '" + next + "', which ends " + part.column().name()
            + " in the key");
      }
      return text;
    }
    long number = ((Number) value).longValue();
    String digits = Long.toString(number);
    if (part.width() == 0) {
      return digits;
    }
    if (number < 0 || digits.length() > part.width()) {
      throw new IllegalArgumentException(number + " does not fit " + part.column().name() + "'s " + part.width()
          + " digits");
    }
    return "0".repeat(part.width() - digits.length()) + digits;
  }

  @Override
  public List<Object> decode(String key) {
    List<Object> values = new ArrayList<>();
    List<String> texts = fieldTexts(key);
    List<Part> fields = parts.stream().filter(Part::isField).toList();
    for (int i = 0; i < fields.size(); i++) {
      values.add(value(fields.get(i), texts.get(i)));
    }
    return values;
  }

  /**
   * The key whose fields have these texts, in order (as {@link #fieldTexts} reads them), or null
   * if they make no key of this template (a width, a non-integer, text that would end a field).
   */
  public String keyOfTexts(List<String> texts) {
    StringBuilder key = new StringBuilder();
    int field = 0;
    for (Part part : parts) {
      if (!part.isField()) {
        key.append(part.text());
      } else if (field < texts.size() && texts.get(field) != null) {
        key.append(texts.get(field++));
      } else {
        return null;
      }
    }
    try {
      decode(key.toString());
      return fieldTexts(key.toString()).equals(texts) ? key.toString() : null;
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /**
   * The text of each field in a key, in order, as the key holds it ({@code 000101} of
   * {@code empid_000101}).
   *
   * @throws IllegalArgumentException if the key does not match the template
   */
  public List<String> fieldTexts(String key) {
    List<String> values = new ArrayList<>();
    int position = 0;
    for (int i = 0; i < parts.size(); i++) {
      Part part = parts.get(i);
      if (!part.isField()) {
        if (!key.startsWith(part.text(), position)) {
          throw new IllegalArgumentException("key '" + key + "' does not match " + template);
        }
        position += part.text().length();
        continue;
      }
      String next = i + 1 < parts.size() ? parts.get(i + 1).text() : null;
      int end = part.width() > 0 ? position + part.width() : next == null ? key.length() : key.indexOf(next, position);
      if (end < position || end > key.length()) {
        throw new IllegalArgumentException("key '" + key + "' does not match " + template);
      }
      values.add(key.substring(position, end));
      position = end;
    }
    if (position != key.length()) {
      throw new IllegalArgumentException("key '" + key + "' does not match " + template);
    }
    return values;
  }

  /** A field's value; integers only in the form encode writes, so that equal keys are equal values. */
  private static Object value(Part part, String text) {
    SqlTypeName type = part.column().sqlType();
    if (type == SqlTypeName.VARCHAR) {
      return text;
    }
    if (text.isEmpty() || !text.chars().allMatch(c -> c >= '0' && c <= '9' || c == '-')) {
      throw new IllegalArgumentException("'" + text + "' is not an integer");
    }
    long number = Long.parseLong(text);
    if (part.width() == 0 && !Long.toString(number).equals(text)) {
      throw new IllegalArgumentException("'" + text + "' is not an integer as written");
    }
    switch (type) {
      case SMALLINT: return (short) Math.toIntExact(number);
      case INTEGER: return Math.toIntExact(number);
      default: return number;
    }
  }

  @Override
  public boolean accepts(int i, Object value) {
    Part part = field(i);
    int index = parts.indexOf(part);
    try {
      text(part, value, index + 1 < parts.size() ? parts.get(index + 1).text() : null);
      return true;
    } catch (IllegalArgumentException | ClassCastException e) {
      return false;
    }
  }

  @Override
  public boolean rangeKeepsOrder(int i) {
    return field(i).width() > 0;
  }

  @Override
  public boolean sortsBy(int i) {
    Part part = field(i);
    return part.width() > 0 || part.column().sqlType() == SqlTypeName.VARCHAR && parts.get(parts.size() - 1) == part;
  }

  private Part field(int i) {
    return parts.stream().filter(Part::isField).toList().get(i);
  }
}
