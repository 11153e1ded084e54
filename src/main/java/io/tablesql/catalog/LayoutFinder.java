package io.tablesql.catalog;

import com.azure.data.tables.models.TableEntity;
import io.tablesql.store.EdmType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.sql.dialect.CalciteSqlDialect;

/**
 * Finds the layouts of entities an application wrote into one Azure table, as the design guide
 * lays them out, and the {@code CREATE TABLE ... OVER} statement that maps each: entities told
 * apart by a discriminator property ({@code EntityType = 'Employee'}) and by a RowKey prefix
 * ({@code empid_}, {@code email_}); keys read as fields, numbers zero-padded to a fixed width
 * typed as integers; fields named after the property that holds the same value (in the entity,
 * or for a PartitionKey in another entity of its partition). A layout whose entities copy the
 * properties of another layout's entities in the same partition is reported as that layout's
 * hand-made index entries, with the {@code CREATE INDEX ... LOCAL ROW KEY} statement that adopts
 * them.
 *
 * <p>It reads a sample and guesses: a layout seen in no sampled entity is not found, and a
 * field with no property of its value gets a generic name ({@code PkValue}, {@code RkValue}).
 */
public final class LayoutFinder {
  /** A property telling entity types apart, by the names the guide and applications use. */
  private static final Pattern DISCRIMINATOR = Pattern.compile("(?i)(entity_?)?(type|kind)|discriminator");
  /** Letters, then a separator: {@code empid_}, {@code email_}, {@code order-}. */
  private static final Pattern PREFIX = Pattern.compile("^([A-Za-z]+[_\\-:.|])");
  private static final int MAX_INT_DIGITS = 9;

  /** One layout found, with the statement that maps it. */
  public record Layout(String name, String kind, String discriminator, String partitionKeyTemplate,
      String rowKeyTemplate, String columns, int sampledEntities, String ddl) {
  }

  /**
   * A field of a key: its name, SQL type and width (0 for variable), and whether every entity
   * holds its text as a property of its name too (KEY PROPERTIES).
   */
  private record Field(String name, String sqlType, int width, boolean keyProperty) {
  }

  /** A key template: fixed text and fields, in order (a field is a Field, text a String). */
  private record Template(List<Object> parts) {
    String text() {
      StringBuilder text = new StringBuilder();
      for (Object part : parts) {
        if (part instanceof Field field) {
          text.append('{').append(field.name()).append(field.width() > 0 ? ":" + field.width() : "").append('}');
        } else {
          text.append((String) part);
        }
      }
      return text.toString();
    }

    List<Field> fields() {
      return parts.stream().filter(Field.class::isInstance).map(Field.class::cast).toList();
    }
  }

  /** Entities of one layout, as grouped. */
  private static final class Group {
    final String discriminatorValue;
    final String rowPrefix;
    final List<TableEntity> entities = new ArrayList<>();
    Template partition;
    Template row;
    String name;
    Group indexOf;

    Group(String discriminatorValue, String rowPrefix) {
      this.discriminatorValue = discriminatorValue;
      this.rowPrefix = rowPrefix;
    }
  }

  private LayoutFinder() {
  }

  /** The layouts of the sampled entities of {@code azureTable}, the most entities first. */
  public static List<Layout> find(String azureTable, List<TableEntity> sample) {
    String discriminator = discriminator(sample);
    Map<String, Group> groups = new LinkedHashMap<>();
    for (TableEntity entity : sample) {
      String value = discriminator != null && entity.getProperty(discriminator) instanceof String text ? text : null;
      Matcher prefix = PREFIX.matcher(entity.getRowKey());
      String rowPrefix = prefix.find() ? prefix.group(1) : null;
      groups.computeIfAbsent(value + "\u0000" + rowPrefix, k -> new Group(value, rowPrefix)).entities.add(entity);
    }
    List<Group> found = new ArrayList<>(groups.values());
    found.sort(Comparator.comparingInt((Group g) -> -g.entities.size()));
    for (Group group : found) {
      Set<String> used = new LinkedHashSet<>();
      group.partition = template(group, true, sample, used);
      group.row = template(group, false, sample, used);
    }
    findIndexes(found);
    name(found, azureTable);
    List<Layout> layouts = new ArrayList<>();
    for (Group group : found) {
      layouts.add(layout(group, azureTable, discriminator));
    }
    return layouts;
  }

  /** The discriminator property: a text property named so, with several values. */
  private static String discriminator(List<TableEntity> sample) {
    Map<String, Set<String>> values = new TreeMap<>();
    for (TableEntity entity : sample) {
      entity.getProperties().forEach((name, value) -> {
        if (value instanceof String text && TableShape.isUserProperty(name) && DISCRIMINATOR.matcher(name).matches()) {
          values.computeIfAbsent(name, n -> new LinkedHashSet<>()).add(text);
        }
      });
    }
    return values.entrySet().stream().filter(e -> e.getValue().size() > 1).map(Map.Entry::getKey).findFirst()
        .orElse(null);
  }

  /** The template of the group's PartitionKeys or RowKeys, naming fields not yet in {@code used}. */
  private static Template template(Group group, boolean partition, List<TableEntity> sample, Set<String> used) {
    List<String> keys = group.entities.stream().map(e -> partition ? e.getPartitionKey() : e.getRowKey()).toList();
    List<Object> parts = new ArrayList<>();
    String prefix = partition ? commonPrefix(keys) : group.rowPrefix;
    if (prefix != null) {
      parts.add(prefix);
    }
    List<String> rests = keys.stream().map(k -> k.substring(prefix == null ? 0 : prefix.length())).toList();
    if (group.entities.size() > 1 && rests.stream().distinct().count() == 1) {
      parts.add(rests.get(0)); // one fixed key for the whole layout ('department')
      return new Template(merge(parts));
    }
    int count = rests.get(0).split("_", -1).length;
    boolean split = count > 1 && count <= 3 && rests.stream().allMatch(r -> r.split("_", -1).length == count);
    for (int i = 0; i < (split ? count : 1); i++) {
      int at = i;
      List<String> values = split ? rests.stream().map(r -> r.split("_", -1)[at]).toList() : rests;
      if (i > 0) {
        parts.add("_");
      }
      parts.add(field(group, partition, at, values, sample, used));
    }
    return new Template(merge(parts));
  }

  /**
   * A field over these values: an integer if all are digits, zero-padded to their width if one
   * of them has a leading zero (the guide's padding), else text of any width (a width seen only
   * in the sample would hide longer keys written later).
   */
  private static Field field(Group group, boolean partition, int position, List<String> values,
      List<TableEntity> sample, Set<String> used) {
    boolean digits = values.stream().allMatch(LayoutFinder::isLong);
    boolean padded = values.stream().anyMatch(v -> v.length() > 1 && v.startsWith("0"));
    boolean oneWidth = values.stream().map(String::length).distinct().count() == 1;
    String type = "VARCHAR";
    int width = 0;
    if (digits && (!padded || oneWidth)) {
      type = values.stream().allMatch(v -> v.length() <= MAX_INT_DIGITS) ? "INT" : "BIGINT";
      width = padded ? values.get(0).length() : 0;
    }
    String name = propertyHolding(group, values);
    boolean keyProperty = name != null;
    if (name != null && used.contains(name.toLowerCase(Locale.ROOT))) {
      name = null;
      keyProperty = false;
    }
    if (name == null && partition && position == 0) {
      name = partitionNamedElsewhere(values, sample, used);
    }
    if (name == null) {
      String base = partition ? "PkValue" : "RkValue";
      name = base;
      for (int n = 2; used.contains(name.toLowerCase(Locale.ROOT)); n++) {
        name = base + n;
      }
    }
    used.add(name.toLowerCase(Locale.ROOT));
    return new Field(name, type, width, keyProperty);
  }

  /**
   * The property whose value is the field in every entity of the group, or null: its text, or
   * its number ({@code EmployeeId} Int32 123 beside {@code empid_000123}).
   */
  private static String propertyHolding(Group group, List<String> values) {
    Map<String, Integer> matches = new TreeMap<>();
    for (int i = 0; i < group.entities.size(); i++) {
      String value = values.get(i);
      for (Map.Entry<String, Object> property : group.entities.get(i).getProperties().entrySet()) {
        if (TableShape.isUserProperty(property.getKey()) && holds(property.getValue(), value)) {
          matches.merge(property.getKey(), 1, Integer::sum);
        }
      }
    }
    return matches.entrySet().stream().filter(match -> match.getValue() == group.entities.size())
        .map(Map.Entry::getKey).findFirst().orElse(null);
  }

  /** Whether a property's value is a key field's text, or the number that text writes. */
  private static boolean holds(Object property, String text) {
    if (property instanceof Integer || property instanceof Long) {
      return isLong(text) && Long.parseLong(text) == ((Number) property).longValue();
    }
    return text.equals(property);
  }

  /** A property that another entity of each partition holds the PartitionKey in (a department's name), or null. */
  private static String partitionNamedElsewhere(List<String> values, List<TableEntity> sample, Set<String> used) {
    Set<String> partitions = new LinkedHashSet<>(values);
    Map<String, Set<String>> named = new TreeMap<>();
    for (TableEntity entity : sample) {
      if (partitions.contains(entity.getPartitionKey())) {
        entity.getProperties().forEach((name, value) -> {
          if (TableShape.isUserProperty(name) && entity.getPartitionKey().equals(value)) {
            named.computeIfAbsent(name, n -> new LinkedHashSet<>()).add(entity.getPartitionKey());
          }
        });
      }
    }
    return named.entrySet().stream().filter(name -> name.getValue().size() == partitions.size()
        && !used.contains(name.getKey().toLowerCase(Locale.ROOT))).map(Map.Entry::getKey).findFirst().orElse(null);
  }

  /**
   * A group is another's index entries when both are of one entity type, share its partitions,
   * and each of its entities copies the properties of an entity of the other in its partition.
   */
  private static void findIndexes(List<Group> groups) {
    for (Group index : groups) {
      for (Group base : groups) {
        if (base == index || base.indexOf != null || !Objects.equals(base.discriminatorValue, index.discriminatorValue)
            || index.row.fields().isEmpty() || base.row.fields().isEmpty()) {
          continue;
        }
        Map<String, List<Map<String, Object>>> byPartition = new TreeMap<>();
        base.entities.forEach(e -> byPartition.computeIfAbsent(e.getPartitionKey(), p -> new ArrayList<>())
            .add(TableShape.userProperties(e)));
        boolean copies = index.entities.stream().allMatch(e -> byPartition.getOrDefault(e.getPartitionKey(), List.of())
            .stream().anyMatch(row -> TableShape.sameProperties(row, TableShape.userProperties(e))));
        boolean baseIsKeyedById = base.row.fields().stream().anyMatch(f -> f.name().toLowerCase(Locale.ROOT).endsWith("id"));
        if (copies && (baseIsKeyedById || base.entities.size() > index.entities.size())) {
          index.indexOf = base;
          break;
        }
      }
    }
  }

  private static void name(List<Group> groups, String azureTable) {
    Set<String> taken = new LinkedHashSet<>();
    for (Group group : groups) {
      if (group.indexOf != null) {
        continue;
      }
      String name;
      if (group.discriminatorValue != null) {
        name = group.discriminatorValue;
      } else if (group.rowPrefix != null) {
        name = capitalized(group.rowPrefix.substring(0, group.rowPrefix.length() - 1));
      } else {
        name = azureTable.length() > 1 && azureTable.endsWith("s") ? azureTable.substring(0, azureTable.length() - 1)
            : azureTable + "Entity";
      }
      group.name = unique(identifier(name), taken);
    }
    for (Group group : groups) {
      if (group.indexOf != null) {
        List<Field> fields = group.row.fields();
        group.name = unique(group.indexOf.name + "By" + capitalized(fields.get(fields.size() - 1).name()), taken);
      }
    }
  }

  private static Layout layout(Group group, String azureTable, String discriminator) {
    List<Field> fields = new ArrayList<>(group.partition.fields());
    fields.addAll(group.row.fields());
    Set<String> keyNames = new LinkedHashSet<>();
    List<String> columns = new ArrayList<>();
    List<String> keyProperties = new ArrayList<>();
    for (Field field : fields) {
      keyNames.add(field.name());
      columns.add(quoted(field.name()) + " " + field.sqlType());
      if (field.keyProperty()) {
        keyProperties.add(quoted(field.name()));
      }
    }
    // told apart by the discriminator too, so that writes through the table set it as the application does
    boolean discriminated = group.discriminatorValue != null;
    Map<String, Set<EdmType>> types = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    for (TableEntity entity : group.entities) {
      entity.getProperties().forEach((name, value) -> {
        EdmType type = EdmType.of(value);
        if (type != null && TableShape.isUserProperty(name) && !keyNames.contains(name)
            && !(discriminated && name.equals(discriminator))) {
          types.computeIfAbsent(name, n -> EnumSet.noneOf(EdmType.class)).add(type);
        }
      });
    }
    types.forEach((name, edmTypes) -> columns.add(quoted(name) + " " + sqlType(edmTypes)));
    String where = discriminated ? quoted(discriminator) + " = " + literal(group.discriminatorValue) : null;
    String ddl = "CREATE TABLE " + quoted(group.name) + " (" + String.join(", ", columns) + ") OVER "
        + quoted(azureTable) + " PARTITION KEY " + literal(group.partition.text()) + " ROW KEY "
        + literal(group.row.text())
        + (keyProperties.isEmpty() ? "" : " KEY PROPERTIES (" + String.join(", ", keyProperties) + ")")
        + (where == null ? "" : " WHERE " + where);
    String kind = group.indexOf == null ? "table" : "index entries of " + group.indexOf.name;
    String adoption = group.indexOf == null ? null : adoption(group);
    return new Layout(group.name, kind, where, group.partition.text(), group.row.text(), String.join(", ", columns),
        group.entities.size(), adoption != null ? adoption : ddl);
  }

  /**
   * The statement that adopts a layout's entities as the index of the layout they copy, when that
   * one's rows name themselves by KEY PROPERTIES and both share the partitions' template; else
   * null (the entities are then mapped as a table of their own).
   */
  private static String adoption(Group index) {
    Group base = index.indexOf;
    boolean named = base.row.fields().stream().allMatch(Field::keyProperty);
    List<String> indexed = index.row.fields().stream().map(Field::name).toList();
    Set<String> baseKeys = new LinkedHashSet<>();
    base.partition.fields().forEach(field -> baseKeys.add(field.name()));
    base.row.fields().forEach(field -> baseKeys.add(field.name()));
    if (!named || !index.partition.text().equals(base.partition.text()) || indexed.stream().anyMatch(baseKeys::contains)) {
      return null;
    }
    return "CREATE INDEX " + quoted(index.name) + " ON " + quoted(base.name) + " ("
        + String.join(", ", indexed.stream().map(LayoutFinder::quoted).toList()) + ") LOCAL ROW KEY "
        + literal(index.row.text());
  }

  private static String sqlType(Set<EdmType> types) {
    if (types.equals(EnumSet.of(EdmType.GUID))) {
      return "UUID";
    }
    return switch (Column.sqlTypeFor(types)) {
      case INTEGER -> "INT";
      case BIGINT -> "BIGINT";
      case DOUBLE -> "DOUBLE";
      case BOOLEAN -> "BOOLEAN";
      case TIMESTAMP -> "TIMESTAMP";
      case VARBINARY -> "VARBINARY";
      default -> "VARCHAR";
    };
  }

  /** Adjacent fixed texts joined into one. */
  private static List<Object> merge(List<Object> parts) {
    List<Object> merged = new ArrayList<>();
    for (Object part : parts) {
      if (part instanceof String text && !merged.isEmpty() && merged.get(merged.size() - 1) instanceof String last) {
        merged.set(merged.size() - 1, last + text);
      } else {
        merged.add(part);
      }
    }
    return merged;
  }

  /** The letters-and-separator prefix all keys share, or null. */
  private static String commonPrefix(List<String> keys) {
    String found = null;
    for (String key : keys) {
      Matcher prefix = PREFIX.matcher(key);
      String next = prefix.find() ? prefix.group(1) : null;
      if (next == null || found != null && !found.equals(next)) {
        return null;
      }
      found = next;
    }
    return found;
  }

  private static boolean isLong(String text) {
    if (text.isEmpty() || text.length() > 19 || !text.chars().allMatch(c -> c >= '0' && c <= '9')) {
      return false;
    }
    try {
      Long.parseLong(text);
      return true;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  private static String capitalized(String text) {
    return text.isEmpty() ? text : Character.toUpperCase(text.charAt(0)) + text.substring(1);
  }

  private static String identifier(String name) {
    String cleaned = name.replaceAll("[^A-Za-z0-9_]", "");
    return cleaned.isEmpty() || Character.isDigit(cleaned.charAt(0)) ? "T" + cleaned : cleaned;
  }

  private static String unique(String name, Set<String> taken) {
    String candidate = name;
    for (int n = 2; !taken.add(candidate.toLowerCase(Locale.ROOT)); n++) {
      candidate = name + n;
    }
    return candidate;
  }

  private static String quoted(String identifier) {
    return CalciteSqlDialect.DEFAULT.quoteIdentifier(identifier);
  }

  /** A plain SQL string: the dialect's own quoting writes non-ASCII text as U&'...', which templates do not take. */
  private static String literal(String text) {
    return "'" + text.replace("'", "''") + "'";
  }
}
