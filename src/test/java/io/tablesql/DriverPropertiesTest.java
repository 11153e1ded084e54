package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablesql.settings.DriverProperty;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * One source of truth for driver properties: every property has a row in the README's table with
 * its default, and a bean setter on the DataSource (pools such as HikariCP set properties by
 * setter name). No backend needed.
 */
class DriverPropertiesTest {
  private static final Pattern ROW = Pattern.compile("^\\| `([A-Za-z]+)` \\| (?:`([^`]*)`|\\(none\\)) \\|", Pattern.MULTILINE);

  @Test
  void theReadmeTableListsEveryPropertyWithItsDefault() throws IOException {
    String readme = Files.readString(Path.of("README.md"));
    String table = readme.substring(readme.indexOf("### Driver properties"));
    for (DriverProperty property : DriverProperty.values()) {
      Matcher row = ROW.matcher(table);
      String documentedDefault = null;
      boolean found = false;
      while (row.find()) {
        if (row.group(1).equals(property.key())) {
          found = true;
          documentedDefault = row.group(2) == null ? "" : row.group(2);
        }
      }
      assertThat(found).as("README row for " + property.key()).isTrue();
      assertThat(documentedDefault).as("README default of " + property.key()).isEqualTo(property.defaultValue());
    }
  }

  @Test
  void everyPropertyHasADataSourceSetter() {
    for (DriverProperty property : DriverProperty.values()) {
      String setter = "set" + property.key().substring(0, 1).toUpperCase(Locale.ROOT) + property.key().substring(1);
      assertThat(Arrays.stream(TableSqlDataSource.class.getMethods()).map(Method::getName))
          .as("TableSqlDataSource." + setter).contains(setter);
    }
  }
}
