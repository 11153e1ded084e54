package io.tablesql;

import io.tablesql.jdbc.CalciteDriver;
import io.tablesql.jdbc.TableSqlConnection;
import io.tablesql.settings.ConnectionSettings;
import io.tablesql.settings.DriverProperty;
import io.tablesql.settings.PropertyKind;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * The tablesql JDBC driver: {@code jdbc:tablesql:<Azure Storage connection string>[;property=value]...}.
 * Registered with {@link DriverManager} when the class loads (and through META-INF/services).
 */
public final class TableSqlDriver implements Driver {
  public static final int MAJOR_VERSION = CalciteDriver.MAJOR_VERSION;
  public static final int MINOR_VERSION = CalciteDriver.MINOR_VERSION;

  static {
    try {
      DriverManager.registerDriver(new TableSqlDriver());
    } catch (SQLException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  @Override
  public Connection connect(String url, Properties info) throws SQLException {
    if (!acceptsURL(url)) {
      return null;
    }
    return TableSqlConnection.open(ConnectionSettings.parse(url, info));
  }

  @Override
  public boolean acceptsURL(String url) {
    return ConnectionSettings.acceptsUrl(url);
  }

  @Override
  public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
    List<DriverPropertyInfo> infos = new ArrayList<>();
    for (DriverProperty property : DriverProperty.values()) {
      String given = info == null ? null : info.getProperty(property.key());
      DriverPropertyInfo propertyInfo =
          new DriverPropertyInfo(property.key(), given != null ? given : property.defaultValue());
      propertyInfo.description = property.description() + " Default: " + property.defaultValue() + ".";
      propertyInfo.required = false;
      if (property.kind() == PropertyKind.FLAG) {
        propertyInfo.choices = new String[] {"true", "false"};
      } else if (property.choices().length > 0) {
        propertyInfo.choices = property.choices();
      }
      infos.add(propertyInfo);
    }
    return infos.toArray(new DriverPropertyInfo[0]);
  }

  @Override
  public int getMajorVersion() {
    return MAJOR_VERSION;
  }

  @Override
  public int getMinorVersion() {
    return MINOR_VERSION;
  }

  @Override
  public boolean jdbcCompliant() {
    return false; // no stored procedures, no full SQL-92 entry level: the JDBC test of compliance
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    throw new SQLFeatureNotSupportedException("tablesql does not log through java.util.logging");
  }
}
