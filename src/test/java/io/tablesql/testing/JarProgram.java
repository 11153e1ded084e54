package io.tablesql.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A program of the ITs: one source file of {@code src/test/resources/programs} run to its end by
 * {@code java} with the driver jar alone on its class path, as an application runs it, with the
 * JVM options a test gives (a small heap, say).
 */
public final class JarProgram {
  /** What a program did: its exit code and everything it printed. */
  public record Outcome(int exitCode, String output) {
  }

  private JarProgram() {
  }

  /** Runs {@code /programs/<name>.java} with {@code jvmOptions} and {@code arguments}, for at most {@code seconds}. */
  public static Outcome run(String name, List<String> jvmOptions, List<String> arguments, int seconds)
      throws IOException, InterruptedException {
    Path file = Files.createTempDirectory("jar-program").resolve(name + ".java");
    try (InputStream resource = JarProgram.class.getResourceAsStream("/programs/" + name + ".java")) {
      assertThat(resource).as("the program's source /programs/%s.java", name).isNotNull();
      Files.write(file, resource.readAllBytes());
    }
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.addAll(List.of("-cp", System.getProperty("tablesql.driverJar"), file.toString()));
    command.addAll(arguments);
    Path log = Files.createTempFile("jar-program", ".log");
    Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
      throw new AssertionError(name + " ran past " + seconds + " s; it said: " + Files.readString(log));
    }
    return new Outcome(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
  }
}
