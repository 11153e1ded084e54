package io.tablesql.jdbc;

/** The driver's version, as the driver ({@code TableSqlDriver}) and its database metadata report it. */
public final class DriverVersion {
  public static final int MAJOR = 0;
  public static final int MINOR = 1;

  private DriverVersion() {
  }
}
