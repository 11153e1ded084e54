package io.tablesql.testing;

/**
 * Calcite reads its charset settings once, when its classes load, and the driver sets them
 * (Unicode SQL) as its connection class loads. Unit tests that build Calcite objects without a
 * connection call {@link #ensure} first, so that tests sharing their JVM never see Calcite with
 * its Latin-1 defaults.
 */
public final class UnicodeCalcite {
  private UnicodeCalcite() {
  }

  public static void ensure() {
    try {
      Class.forName("io.tablesql.jdbc.TableSqlConnection");
    } catch (ClassNotFoundException e) {
      throw new ExceptionInInitializerError(e);
    }
  }
}
