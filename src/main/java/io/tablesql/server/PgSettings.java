package io.tablesql.server;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A session's settings, by lower-case name: what its startup packet, its options and SET gave;
 * what RESET and DISCARD ALL go back to (the values it opened with); what SHOW answers, with
 * PostgreSQL's defaults for the settings clients ask about.
 */
final class PgSettings {
  /** What SHOW answers for settings that no startup option or SET has given a value: PostgreSQL's defaults. */
  private static final Map<String, String> DEFAULTS = Map.of("application_name", "", "extra_float_digits", "1",
      "statement_timeout", "0", "idle_session_timeout", "0", "search_path", "\"$user\", public",
      "client_min_messages", "notice", "intervalstyle", "postgres", "is_superuser", "off");

  private final Map<String, String> values = new LinkedHashMap<>();
  private Map<String, String> atStartup = Map.of();

  void put(String name, String value) {
    values.put(name.toLowerCase(Locale.ROOT), value);
  }

  String get(String name) {
    return values.get(name);
  }

  String getOrDefault(String name, String otherwise) {
    return values.getOrDefault(name, otherwise);
  }

  String remove(String name) {
    return values.remove(name);
  }

  /** The settings as they are now, for a transaction or savepoint to go back to. */
  Map<String, String> copy() {
    return new LinkedHashMap<>(values);
  }

  /** Goes back to settings as {@link #copy} took them. */
  void restore(Map<String, String> copied) {
    values.clear();
    values.putAll(copied);
  }

  /** The session has opened: its settings now are what RESET goes back to. */
  void opened() {
    atStartup = Map.copyOf(values);
  }

  /** RESET name, or RESET ALL: back to the value the session opened with (its startup options'), or unset. */
  void reset(String name) {
    String key = name.replaceFirst(";\\s*$", "").trim().toLowerCase(Locale.ROOT);
    if (key.equals("all")) {
      values.clear();
      values.putAll(atStartup);
    } else if (atStartup.containsKey(key)) {
      values.put(key, atStartup.get(key));
    } else {
      values.remove(key);
    }
  }

  /** What SHOW answers for a setting (its name in lower case, single-spaced); null for one it does not know. */
  String shown(String key) {
    return switch (key) {
      case "transaction isolation level", "transaction_isolation", "default_transaction_isolation" ->
          "read committed";
      case "server_version" -> PgServer.SERVER_VERSION;
      case "server_encoding", "client_encoding" -> "UTF8";
      case "datestyle" -> "ISO, MDY";
      case "timezone" -> "UTC";
      case "standard_conforming_strings", "integer_datetimes" -> "on";
      default -> values.getOrDefault(key, DEFAULTS.get(key));
    };
  }

  /** A duration setting as PostgreSQL reads it: milliseconds, or a number with a unit (us, ms, s, min, h, d). */
  static long millis(String setting) {
    java.util.regex.Matcher duration = java.util.regex.Pattern.compile("\\s*(\\d+(?:\\.\\d+)?)\\s*([a-z]*)\\s*")
        .matcher(setting.toLowerCase(Locale.ROOT));
    if (!duration.matches()) {
      return 0;
    }
    double value = Double.parseDouble(duration.group(1));
    double unit = switch (duration.group(2)) {
      case "us" -> 0.001;
      case "s" -> 1000;
      case "min" -> 60_000;
      case "h" -> 3_600_000;
      case "d" -> 86_400_000;
      default -> 1;
    };
    return (long) Math.ceil(value * unit);
  }
}
