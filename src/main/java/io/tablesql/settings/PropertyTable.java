package io.tablesql.settings;

/**
 * The table of driver properties in docs/driver-properties.md, generated from their declarations
 * ({@link DriverProperty}): one row per property, in the order declared, with its default and
 * its description. DriverPropertiesTest fails when the file differs, and writes it again when run
 * with {@code -Dtablesql.writeDocs=true}.
 */
public final class PropertyTable {
  private PropertyTable() {
  }

  /** The whole file: a heading, how properties are given, and the table. */
  public static String document() {
    StringBuilder text = new StringBuilder()
        .append("# Driver properties\n\n")
        .append("<!-- Generated from io.tablesql.settings.DriverProperty by DriverPropertiesTest "
            + "(-Dtablesql.writeDocs=true): edit the declarations, not this file. -->\n\n")
        .append("Each property is a `key=value;` pair after the connection string in the JDBC URL "
            + "(`jdbc:tablesql:UseDevelopmentStorage=true;pageSize=500`), an entry of the `java.util.Properties` "
            + "given to `DriverManager.getConnection`, or the DataSource's setter of its name (`setPageSize`); "
            + "keys are case-insensitive. A value the property does not take is refused when connecting "
            + "(`08001`), naming the values it takes. `Driver.getPropertyInfo` lists the same properties with "
            + "these descriptions.\n\n")
        .append("| property | default | meaning |\n| --- | --- | --- |\n");
    for (DriverProperty property : DriverProperty.values()) {
      String defaultValue = property.defaultValue().isEmpty() ? "(none)" : "`" + property.defaultValue() + "`";
      text.append("| `").append(property.key()).append("` | ").append(defaultValue).append(" | ")
          .append(property.markdown()).append(" |\n");
    }
    return text.toString();
  }
}
