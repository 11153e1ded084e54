package io.tablesql.settings;

/**
 * What values a driver property takes, declared once with it ({@link DriverProperty}): a flag, a
 * whole number in a range (or {@code auto}), one of a few words, or free text (a list of names).
 * Validation, {@code getPropertyInfo}'s choices and the messages for a bad value come from it.
 */
public sealed interface PropertyKind {
  /** Whether the value is one this kind takes (words ignoring case). */
  boolean accepts(String value);

  /** What a bad value should have been, for the message that refuses it. */
  String expected();

  /** The words a choice takes; empty for other kinds. */
  default String[] choices() {
    return new String[0];
  }

  PropertyKind FLAG = new Flag();
  PropertyKind NAMES = new Names();

  static PropertyKind whole(long min, long max) {
    return new Whole(min, max, false);
  }

  static PropertyKind wholeOrAuto(long min, long max) {
    return new Whole(min, max, true);
  }

  /** One of the constants of {@code values}, written as its name in lower case. */
  static PropertyKind choice(Class<? extends Enum<?>> values) {
    return new Choice(java.util.Arrays.stream(values.getEnumConstants())
        .map(constant -> constant.name().toLowerCase(java.util.Locale.ROOT)).toArray(String[]::new));
  }

  /** true or false. */
  record Flag() implements PropertyKind {
    @Override
    public boolean accepts(String value) {
      return value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false");
    }

    @Override
    public String expected() {
      return "true or false";
    }
  }

  /** A whole number from {@code min} to {@code max}; with {@code auto}, that word too. */
  record Whole(long min, long max, boolean auto) implements PropertyKind {
    @Override
    public boolean accepts(String value) {
      if (auto && value.trim().equalsIgnoreCase("auto")) {
        return true;
      }
      try {
        long number = Long.parseLong(value.trim());
        return number >= min && number <= max;
      } catch (NumberFormatException e) {
        return false;
      }
    }

    @Override
    public String expected() {
      return (auto ? "auto or " : "") + "a whole number from " + min + " to " + max;
    }
  }

  /** One of a few words, ignoring case. */
  record Choice(String... words) implements PropertyKind {
    @Override
    public boolean accepts(String value) {
      for (String word : words) {
        if (word.equalsIgnoreCase(value.trim())) {
          return true;
        }
      }
      return false;
    }

    @Override
    public String expected() {
      return "one of " + String.join(", ", words);
    }

    @Override
    public String[] choices() {
      return words.clone();
    }
  }

  /** Free text: a comma-separated list of names. */
  record Names() implements PropertyKind {
    @Override
    public boolean accepts(String value) {
      return true;
    }

    @Override
    public String expected() {
      return "a list of names";
    }
  }
}
