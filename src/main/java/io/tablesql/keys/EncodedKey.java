package io.tablesql.keys;

import io.tablesql.keys.KeyEncoding.Component;
import io.tablesql.keys.KeyLayout.KeyColumn;
import java.util.ArrayList;
import java.util.List;

/** A key written by tablesql: its columns in {@link KeyEncoding}, every one ordered and terminated. */
public record EncodedKey(List<KeyColumn> columns) implements KeyFormat {
  public EncodedKey {
    columns = List.copyOf(columns);
  }

  @Override
  public String encode(List<?> values) {
    List<Object> converted = new ArrayList<>(values.size());
    for (int i = 0; i < values.size(); i++) {
      Object value = values.get(i);
      converted.add(value == null ? null : columns.get(i).toKeyValue(value));
    }
    return KeyEncoding.encode(components(), converted);
  }

  @Override
  public List<Object> decode(String key) {
    List<Object> decoded = KeyEncoding.decode(components(), key);
    List<Object> values = new ArrayList<>(decoded.size());
    for (int i = 0; i < decoded.size(); i++) {
      values.add(columns.get(i).fromKeyValue(decoded.get(i)));
    }
    return values;
  }

  @Override
  public boolean accepts(int i, Object value) {
    try {
      KeyEncoding.encode(List.of(columns.get(i).component()), List.of(columns.get(i).toKeyValue(value)));
      return true;
    } catch (IllegalArgumentException | ClassCastException e) {
      return false;
    }
  }

  @Override
  public boolean rangeKeepsOrder(int i) {
    return true;
  }

  @Override
  public boolean sortsBy(int i) {
    return true;
  }

  private List<Component> components() {
    return columns.stream().map(KeyColumn::component).toList();
  }
}
