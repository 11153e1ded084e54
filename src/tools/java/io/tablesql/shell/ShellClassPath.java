package io.tablesql.shell;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * Lays out the shell's class path for the launcher ({@code ./tablesql}) as jars a class data
 * sharing archive can hold, and prints it: the JVM archives classes from jars only, and leaves out
 * the classes of signed jars (the Azure SDK's and Janino's) and of everything that extends or
 * implements them. So the project's class directories become two jars, and each signed dependency
 * a copy without its signature files (Maven checked the jar's checksum when it downloaded it).
 *
 * <p>Arguments: the build's directory (target), the file listing the dependencies' class path,
 * and the directory for the jars. Uses the JDK only, so that it runs with just its own class.
 */
public final class ShellClassPath {
  private static final Pattern SIGNATURE = Pattern.compile("META-INF/[^/]+\\.(SF|RSA|DSA|EC)", Pattern.CASE_INSENSITIVE);

  private ShellClassPath() {
  }

  public static void main(String[] args) throws IOException {
    Path target = Path.of(args[0]);
    String dependencies = Files.readString(Path.of(args[1]), StandardCharsets.UTF_8).trim();
    Path out = Files.createDirectories(Path.of(args[2]));
    Path lib = Files.createDirectories(out.resolve("lib"));
    List<String> classPath = new ArrayList<>();
    classPath.add(jarOf(target.resolve("classes"), out.resolve("classes.jar")).toString());
    classPath.add(jarOf(target.resolve("test-classes"), out.resolve("tools.jar")).toString());
    for (String entry : dependencies.split(Pattern.quote(File.pathSeparator))) {
      if (!entry.isEmpty()) {
        classPath.add(unsigned(Path.of(entry), lib).toString());
      }
    }
    System.out.println(String.join(File.pathSeparator, classPath));
  }

  /** A jar of a class directory's files. */
  static Path jarOf(Path directory, Path jar) throws IOException {
    try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(jar)); Stream<Path> files = Files.walk(directory)) {
      for (Path file : (Iterable<Path>) files.sorted()::iterator) {
        String name = directory.relativize(file).toString().replace(File.separatorChar, '/');
        if (name.isEmpty()) {
          continue;
        }
        boolean folder = Files.isDirectory(file);
        ZipEntry entry = new ZipEntry(folder ? name + "/" : name);
        entry.setLastModifiedTime(Files.getLastModifiedTime(file));
        zip.putNextEntry(entry);
        if (!folder) {
          Files.copy(file, zip);
        }
        zip.closeEntry();
      }
    }
    return jar;
  }

  /** The jar itself if it is not signed (or not a jar), otherwise a copy in lib without its signature. */
  static Path unsigned(Path jar, Path lib) throws IOException {
    if (!Files.isRegularFile(jar)) {
      return jar;
    }
    try (ZipFile zip = new ZipFile(jar.toFile())) {
      if (zip.stream().noneMatch(e -> SIGNATURE.matcher(e.getName()).matches())) {
        return jar;
      }
      Path copy = lib.resolve(jar.getFileName());
      for (int i = 2; Files.exists(copy); i++) { // two artifacts of the same file name
        copy = lib.resolve(i + "-" + jar.getFileName());
      }
      try (OutputStream file = Files.newOutputStream(copy); ZipOutputStream out = new ZipOutputStream(file)) {
        for (Enumeration<? extends ZipEntry> entries = zip.entries(); entries.hasMoreElements(); ) {
          ZipEntry entry = entries.nextElement();
          if (SIGNATURE.matcher(entry.getName()).matches()) {
            continue;
          }
          ZipEntry kept = new ZipEntry(entry.getName());
          kept.setTime(entry.getTime());
          out.putNextEntry(kept);
          try (InputStream in = zip.getInputStream(entry)) {
            in.transferTo(out);
          }
          out.closeEntry();
        }
      }
      return copy;
    }
  }
}
