package io.tablesql.compat;

import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * Lets client libraries of the test class path that connect through {@link DriverManager}
 * (sqlline, SchemaCrawler, Spark) reach the isolated driver jar with an unchanged
 * {@code jdbc:tablesql:} URL. {@code DriverManager} hands a caller only drivers whose class its
 * class loader sees, so the jar's driver is registered behind this forwarding driver of the test
 * class path, and the test class path's own {@code TableSqlDriver} (there for the unit tests) is
 * deregistered until {@link #close}.
 */
public final class DriverManagerBridge implements Driver {
  private static volatile Driver target;

  private final Driver delegate;

  /** Forwards to the driver installed now: for clients that instantiate the driver class they found. */
  public DriverManagerBridge() {
    this(installedTarget());
  }

  private DriverManagerBridge(Driver delegate) {
    this.delegate = delegate;
  }

  /** A registration of {@code jarDriver}; closing it puts the test class path's driver back. */
  static Installation install(Driver jarDriver) throws SQLException {
    List<Driver> displaced = new ArrayList<>();
    for (Driver registered : Collections.list(DriverManager.getDrivers())) {
      if (registered.getClass().getName().equals(IsolatedDriverJar.DRIVER_CLASS)) {
        DriverManager.deregisterDriver(registered);
        displaced.add(registered);
      }
    }
    target = jarDriver;
    DriverManagerBridge bridge = new DriverManagerBridge(jarDriver);
    DriverManager.registerDriver(bridge);
    return new Installation(bridge, displaced);
  }

  private static Driver installedTarget() {
    Driver installed = target;
    if (installed == null) {
      throw new IllegalStateException("no driver jar installed");
    }
    return installed;
  }

  /** The bridge while it is registered. */
  record Installation(DriverManagerBridge bridge, List<Driver> displaced) implements AutoCloseable {
    @Override
    public void close() throws SQLException {
      DriverManager.deregisterDriver(bridge);
      target = null;
      for (Driver driver : displaced) {
        DriverManager.registerDriver(driver);
      }
    }
  }

  @Override
  public Connection connect(String url, Properties info) throws SQLException {
    return delegate.connect(url, info);
  }

  @Override
  public boolean acceptsURL(String url) throws SQLException {
    return delegate.acceptsURL(url);
  }

  @Override
  public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) throws SQLException {
    return delegate.getPropertyInfo(url, info);
  }

  @Override
  public int getMajorVersion() {
    return delegate.getMajorVersion();
  }

  @Override
  public int getMinorVersion() {
    return delegate.getMinorVersion();
  }

  @Override
  public boolean jdbcCompliant() {
    return delegate.jdbcCompliant();
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    return delegate.getParentLogger();
  }
}
