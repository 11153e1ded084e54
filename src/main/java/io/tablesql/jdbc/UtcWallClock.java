package io.tablesql.jdbc;

import io.tablesql.catalog.TimestampMillis;
import java.sql.Date;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Calendar;
import java.util.TimeZone;

/**
 * tablesql's time semantics in one place. A TIMESTAMP holds a UTC instant and behaves as an SQL
 * TIMESTAMP without time zone whose wall clock is UTC: Calcite (run with timeZone=UTC) holds it
 * as the milliseconds of that wall clock, a DATE as days and a TIME as milliseconds of the day.
 * The java.sql classes stand for a wall clock in a time zone: the JVM's current one unless a
 * Calendar names another.
 *
 * <p>Everything here goes through java.time with explicit zones, never through Avatica's
 * conversions, which keep the JVM's zone as it was when they loaded and so go wrong once an
 * application changes {@link TimeZone#setDefault}.
 */
final class UtcWallClock {
  private UtcWallClock() {
  }

  static LocalDateTime ofMillis(long millis) {
    return TimestampMillis.toDateTime(millis).toLocalDateTime();
  }

  /** The wall clock as Calcite holds it, truncated (floored) to the millisecond like stored DateTimes. */
  static long toMillis(LocalDateTime wallClock) {
    return TimestampMillis.floor(wallClock.atOffset(ZoneOffset.UTC));
  }

  static LocalDate ofDays(long days) {
    return LocalDate.ofEpochDay(days);
  }

  static LocalTime ofMillisOfDay(long millis) {
    return LocalTime.ofNanoOfDay(millis * 1_000_000);
  }

  static int toMillisOfDay(LocalTime time) {
    return (int) (time.toNanoOfDay() / 1_000_000);
  }

  /** The zone a java.sql value is read in: the calendar's, or the JVM's as it is now. */
  static ZoneId zone(Calendar calendar) {
    return (calendar == null ? TimeZone.getDefault() : calendar.getTimeZone()).toZoneId();
  }

  /** A Timestamp showing the wall clock in the zone (its instant is that wall clock there). */
  static Timestamp toTimestamp(LocalDateTime wallClock, ZoneId zone) {
    return Timestamp.from(wallClock.atZone(zone).toInstant());
  }

  /** The wall clock a Timestamp shows in the zone. */
  static LocalDateTime wallClockOf(Timestamp timestamp, ZoneId zone) {
    return LocalDateTime.ofInstant(timestamp.toInstant(), zone);
  }

  /** The Date at the start of the day in the zone, as JDBC defines a DATE value. */
  static Date toDate(LocalDate date, ZoneId zone) {
    return new Date(date.atStartOfDay(zone).toInstant().toEpochMilli());
  }

  static LocalDate dateOf(java.util.Date date, ZoneId zone) {
    return Instant.ofEpochMilli(date.getTime()).atZone(zone).toLocalDate();
  }

  /** The Time at that wall clock on 1970-01-01 in the zone, as JDBC defines a TIME value. */
  static Time toTime(LocalTime time, ZoneId zone) {
    return new Time(time.atDate(LocalDate.EPOCH).atZone(zone).toInstant().toEpochMilli());
  }

  static LocalTime timeOf(java.util.Date time, ZoneId zone) {
    return Instant.ofEpochMilli(time.getTime()).atZone(zone).toLocalTime();
  }
}
