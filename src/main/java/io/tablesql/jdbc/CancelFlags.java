package io.tablesql.jdbc;

import java.lang.reflect.Field;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.calcite.avatica.AvaticaStatement;

/**
 * Reads and clears the cancel flag of Calcite's statement. It is cleared before the statement
 * runs again. Avatica sets the flag on
 * {@code cancel()} and never clears it, so a cancelled statement, or a cached plan cancelled
 * once, would fail every later execution at once; in JDBC a cancel ends only the execution
 * under way. Avatica offers no accessor, hence the reflection.
 */
final class CancelFlags {
  private static final Field FLAG = flagField();

  private CancelFlags() {
  }

  static void clear(Statement calcite) {
    if (FLAG != null && calcite instanceof AvaticaStatement avatica) {
      try {
        ((AtomicBoolean) FLAG.get(avatica)).set(false);
      } catch (IllegalAccessException e) {
        throw new IllegalStateException(e); // made accessible in flagField
      }
    }
  }

  /**
   * The cancel flag of Calcite's statement, which its executions carry in their DataContext
   * ({@code DataContext.Variable.CANCEL_FLAG}); null if it cannot be read.
   */
  static AtomicBoolean of(Statement calcite) {
    if (FLAG != null && calcite instanceof AvaticaStatement avatica) {
      try {
        return (AtomicBoolean) FLAG.get(avatica);
      } catch (IllegalAccessException e) {
        throw new IllegalStateException(e); // made accessible in flagField
      }
    }
    return null;
  }

  /** Null if a future Avatica renames the field: a cancelled statement then stays cancelled, as before. */
  private static Field flagField() {
    try {
      Field field = AvaticaStatement.class.getDeclaredField("cancelFlag");
      field.setAccessible(true);
      return field;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }
}
