package io.tablesql.metadata;

import io.tablesql.errors.SqlStates;
import io.tablesql.prepare.InternalFunction;
import io.tablesql.store.StoreException;
import java.lang.reflect.Method;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.temporal.TemporalAdjusters;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.DataContext;
import org.apache.calcite.runtime.SqlFunctions;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * PostgreSQL's date functions that BI tools group time by, which Calcite's libraries lack in
 * PostgreSQL's form: {@code date_trunc('month', ts)} and {@code now()}. They work on the values as
 * Calcite holds them (a TIMESTAMP as the milliseconds of its UTC wall clock), so no time zone of
 * the JVM enters; an {@link InternalFunction} declares its SQL types.
 */
public final class PgTimeFunctions {
  private static final long SECOND = 1000;
  private static final long MINUTE = 60 * SECOND;
  private static final long HOUR = 60 * MINUTE;
  private static final long DAY = 24 * HOUR;

  private PgTimeFunctions() {
  }

  /** {@code date_trunc(field, ts)}: the timestamp with the fields below {@code field} set to their start. */
  public static long date_trunc(String field, long timestamp) {
    String unit = field.trim().toLowerCase(Locale.ROOT);
    switch (unit) {
      case "microseconds", "milliseconds" -> {
        return timestamp;
      }
      case "second" -> {
        return timestamp - Math.floorMod(timestamp, SECOND);
      }
      case "minute" -> {
        return timestamp - Math.floorMod(timestamp, MINUTE);
      }
      case "hour" -> {
        return timestamp - Math.floorMod(timestamp, HOUR);
      }
      case "day" -> {
        return timestamp - Math.floorMod(timestamp, DAY);
      }
      default -> { }
    }
    LocalDate date = LocalDate.ofEpochDay(Math.floorDiv(timestamp, DAY));
    LocalDate start = switch (unit) {
      case "week" -> date.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY)); // ISO weeks, as PostgreSQL's
      case "month" -> date.withDayOfMonth(1);
      case "quarter" -> date.withDayOfMonth(1).withMonth((date.getMonthValue() - 1) / 3 * 3 + 1);
      case "year" -> date.withDayOfYear(1);
      case "decade" -> LocalDate.of(Math.floorDiv(date.getYear(), 10) * 10, 1, 1);
      case "century" -> LocalDate.of(Math.floorDiv(date.getYear() - 1, 100) * 100 + 1, 1, 1);
      case "millennium" -> LocalDate.of(Math.floorDiv(date.getYear() - 1, 1000) * 1000 + 1, 1, 1);
      default -> throw new StoreException("date_trunc does not know the unit '" + field + "': use microseconds, "
          + "milliseconds, second, minute, hour, day, week, month, quarter, year, decade, century or millennium.",
          SqlStates.INVALID_PARAMETER_VALUE, null);
    };
    return start.toEpochDay() * DAY;
  }

  /** {@code now()}: the statement's time, as CURRENT_TIMESTAMP. */
  public static long now(DataContext root) {
    return SqlFunctions.currentTimestamp(root);
  }

  /** The functions, by name. */
  static List<InternalFunction> all() {
    return List.of(new InternalFunction(method("date_trunc", String.class, long.class), SqlTypeName.TIMESTAMP,
            SqlTypeName.VARCHAR, SqlTypeName.TIMESTAMP),
        new InternalFunction(method("now", DataContext.class), SqlTypeName.TIMESTAMP));
  }

  private static Method method(String name, Class<?>... parameters) {
    try {
      return PgTimeFunctions.class.getMethod(name, parameters);
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException(e);
    }
  }
}
