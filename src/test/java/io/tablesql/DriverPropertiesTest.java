package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;

import io.tablesql.settings.DriverProperty;
import io.tablesql.settings.PropertyTable;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * One source of truth for driver properties: the docs' table is generated from the declarations,
 * getPropertyInfo describes them, and each has a bean setter on the DataSource (pools such as
 * HikariCP set properties by setter name). No backend needed.
 */
class DriverPropertiesTest {
  private static final Path DOCS = Path.of("docs", "driver-properties.md");

  /** The docs' table is generated from the declarations; {@code -Dtablesql.writeDocs=true} writes it again. */
  @Test
  void theDocsListEveryPropertyAsDeclared() throws IOException {
    String generated = PropertyTable.document();
    if (Boolean.getBoolean("tablesql.writeDocs")) {
      Files.createDirectories(DOCS.getParent());
      Files.writeString(DOCS, generated);
    }
    assertThat(Files.readString(DOCS)).as(DOCS + " is generated from DriverProperty: run this test with "
        + "-Dtablesql.writeDocs=true").isEqualTo(generated);
    assertThat(Files.readString(Path.of("README.md"))).contains("(docs/driver-properties.md)");
  }

  @Test
  void getPropertyInfoDescribesEachPropertyInPlainText() throws Exception {
    java.sql.DriverPropertyInfo[] infos = new TableSqlDriver().getPropertyInfo("jdbc:tablesql:UseDevelopmentStorage=true",
        new java.util.Properties());
    assertThat(DriverProperty.COLUMN_LABELS.description()).contains("count for count(*)");
    assertThat(DriverProperty.UNPLANNED_LOOKUPS.description()).contains("SELECT of columns or * from one table");
    assertThat(DriverProperty.MATERIALIZED_VIEWS.description()).contains("(see Materialized views)");
    for (DriverProperty property : DriverProperty.values()) {
      assertThat(Arrays.stream(infos).filter(info -> info.name.equals(property.key())).findFirst())
          .as(property.key()).get().satisfies(info -> {
            assertThat(info.description).startsWith(property.description()).doesNotContain("`")
                .doesNotContainPattern("\\*[A-Z]");
            assertThat(info.value).isNotNull();
          });
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
