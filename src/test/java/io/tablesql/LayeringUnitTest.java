package io.tablesql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The layering of the driver's packages, read from the sources without a backend: each package
 * uses only the packages below it in {@link #LAYERS} (and itself), by import or by a fully
 * qualified name in its code. The one way up is the public API's contracts: an interface of the
 * root package that uses nothing of the driver (such as {@code KeyRanges}, which the connection
 * implements) may be implemented and named anywhere.
 */
class LayeringUnitTest {
  /** Top to bottom: a package may use the ones after it. */
  static final List<String> LAYERS = List.of(
      "io.tablesql.server",
      "io.tablesql",
      "io.tablesql.jdbc",
      "io.tablesql.metadata",
      "io.tablesql.prepare",
      "io.tablesql.ddl",
      "io.tablesql.plan",
      "io.tablesql.exec",
      "io.tablesql.intent",
      "io.tablesql.query",
      "io.tablesql.catalog",
      "io.tablesql.session",
      "io.tablesql.keys",
      "io.tablesql.store",
      "io.tablesql.txn",
      "io.tablesql.settings",
      "io.tablesql.parser",
      "io.tablesql.errors");

  private static final Path SOURCES = Path.of("src/main/java/io/tablesql");
  private static final Pattern PACKAGE = Pattern.compile("(?m)^package\\s+([\\w.]+)\\s*;");
  private static final Pattern IMPORT = Pattern.compile("(?m)^import\\s+(?:static\\s+)?(io\\.tablesql\\.[\\w.]+)");
  /** A qualified name in code: the packages' segments are lower case, a type's start upper case. */
  private static final Pattern QUALIFIED = Pattern.compile("(?<![\\w.])(io\\.tablesql(?:\\.[a-z_]\\w*)*)\\.([A-Z]\\w*)");

  @Test
  void eachPackageUsesOnlyThePackagesBelowIt() throws IOException {
    List<String> violations = new ArrayList<>();
    List<Path> files;
    try (Stream<Path> walk = Files.walk(SOURCES)) {
      files = walk.filter(path -> path.toString().endsWith(".java")).sorted().toList();
    }
    assertTrue(files.size() > 50, "the sources are read from " + SOURCES.toAbsolutePath());
    for (Path file : files) {
      String text = Files.readString(file);
      Matcher declared = PACKAGE.matcher(text);
      assertTrue(declared.find(), file + " declares no package");
      String own = declared.group(1);
      if (!LAYERS.contains(own)) {
        violations.add(file + ": package " + own + " has no place in LayeringUnitTest.LAYERS");
        continue;
      }
      List<String> used = new ArrayList<>();
      Matcher imports = IMPORT.matcher(text);
      while (imports.find()) {
        used.add(imports.group(1));
      }
      Matcher qualified = QUALIFIED.matcher(withoutImports(code(text)));
      while (qualified.find()) {
        used.add(qualified.group(0));
      }
      for (String name : used) {
        String target = packageOf(name);
        if (!LAYERS.contains(target)) {
          violations.add(file + ": " + name + " is in " + target + ", which has no place in LayeringUnitTest.LAYERS");
        } else if (LAYERS.indexOf(target) < LAYERS.indexOf(own) && !isContract(name)) {
          violations.add(file + ": " + own + " uses " + name + ", but " + target + " is above it");
        }
      }
    }
    assertTrue(violations.isEmpty(), () -> "uses against the layering:\n" + String.join("\n", violations));
  }

  /** The package of a qualified name: its segments up to the first type's. */
  static String packageOf(String name) {
    StringBuilder result = new StringBuilder();
    for (String segment : name.split("\\.")) {
      if (Character.isUpperCase(segment.charAt(0))) {
        break;
      }
      result.append(result.length() == 0 ? "" : ".").append(segment);
    }
    return result.toString();
  }

  /**
   * Whether a name is of a contract of the public API: an interface of the root package that
   * names no other type of the driver.
   */
  private static boolean isContract(String name) throws IOException {
    if (!packageOf(name).equals("io.tablesql")) {
      return false;
    }
    String type = name.substring("io.tablesql.".length()).split("\\.")[0];
    String source = Files.readString(SOURCES.resolve(type + ".java"));
    String code = withoutImports(code(source));
    if (source.contains("import io.tablesql") || code.contains("io.tablesql")
        || !Pattern.compile("\\binterface\\s+" + type + "\\b").matcher(code).find()) {
      return false;
    }
    try (Stream<Path> root = Files.list(SOURCES)) {
      return root.map(path -> path.getFileName().toString())
          .filter(file -> file.endsWith(".java") && !file.equals(type + ".java"))
          .noneMatch(file -> Pattern.compile("\\b" + file.replace(".java", "") + "\\b").matcher(code).find());
    }
  }

  /** The source without comments and without the contents of string and character literals. */
  static String code(String source) {
    StringBuilder out = new StringBuilder();
    int i = 0;
    while (i < source.length()) {
      char c = source.charAt(i);
      if (source.startsWith("//", i)) {
        int end = source.indexOf('\n', i);
        i = end < 0 ? source.length() : end;
      } else if (source.startsWith("/*", i)) {
        int end = source.indexOf("*/", i + 2);
        i = end < 0 ? source.length() : end + 2;
        out.append(' ');
      } else if (source.startsWith("\"\"\"", i)) {
        int end = source.indexOf("\"\"\"", i + 3);
        i = end < 0 ? source.length() : end + 3;
        out.append("\"\"");
      } else if (c == '"' || c == '\'') {
        int j = i + 1;
        while (j < source.length() && source.charAt(j) != c) {
          j += source.charAt(j) == '\\' ? 2 : 1;
        }
        i = j + 1;
        out.append(c).append(c);
      } else {
        out.append(c);
        i++;
      }
    }
    return out.toString();
  }

  private static String withoutImports(String code) {
    return code.replaceAll("(?m)^(import|package)\\s.*$", "");
  }

  @Test
  void theReaderFindsPackagesInNamesAndLeavesCommentsAndTextOut() throws IOException {
    assertEquals("io.tablesql.catalog", packageOf("io.tablesql.catalog.IndexDefinition.IndexColumn"));
    assertEquals("io.tablesql", packageOf("io.tablesql.KeyRanges"));
    assertEquals("int a = \"\"; \n char q = '';  x",
        code("int a = \"io.tablesql.plan.X\"; // io.tablesql.plan.Y\n char q = '\"'; /* io.tablesql.plan.Z */x"));
    assertTrue(isContract("io.tablesql.KeyRanges"));
    assertFalse(isContract("io.tablesql.TableSqlDriver"), "a class of the root package is no contract");
  }
}
