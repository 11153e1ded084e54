package io.tablesql.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;

/**
 * A writer JVM of the crash tests: one source file of {@code src/test/resources/crash} run by
 * {@code java} with the driver jar alone on its class path, killed ({@code destroyForcibly}) at a
 * random moment after its first commit. A writer prints {@code committed <number>} after each
 * commit that returned.
 */
public final class KilledWriter {
  private final Path source;

  private KilledWriter(Path source) {
    this.source = source;
  }

  /** The writer whose source is the resource {@code /crash/<name>.java}. */
  public static KilledWriter of(String name) throws IOException {
    Path file = Files.createTempDirectory("crash-writer").resolve(name + ".java");
    try (InputStream resource = KilledWriter.class.getResourceAsStream("/crash/" + name + ".java")) {
      assertThat(resource).as("the writer's source /crash/%s.java", name).isNotNull();
      Files.write(file, resource.readAllBytes());
    }
    return new KilledWriter(file);
  }

  /**
   * Runs the writer with {@code arguments} until it has committed once, lets it go on for a
   * random time under {@code maxMillis} (so that it dies anywhere: in a statement, recording,
   * applying, clearing), then kills it; each number it reported committed goes to {@code committed}.
   */
  public void runAndKill(List<String> arguments, int maxMillis, Random random, LongConsumer committed)
      throws Exception {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", System.getProperty("tablesql.driverJar"), source.toString()));
    command.addAll(arguments);
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    CountDownLatch firstCommit = new CountDownLatch(1);
    List<String> said = Collections.synchronizedList(new ArrayList<>());
    Thread output = new Thread(() -> {
      try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
          StandardCharsets.UTF_8))) {
        for (String line; (line = lines.readLine()) != null; ) {
          if (said.size() < 20) {
            said.add(line);
          }
          if (line.startsWith("committed ")) {
            committed.accept(Long.parseLong(line.substring("committed ".length()).trim()));
            firstCommit.countDown();
          }
        }
      } catch (IOException e) {
        // the process was killed
      }
    });
    output.start();
    try {
      assertThat(firstCommit.await(90, TimeUnit.SECONDS)).as("the writer commits; it said %s", said).isTrue();
      Thread.sleep(random.nextInt(maxMillis));
    } finally {
      process.destroyForcibly().waitFor();
      output.join();
    }
  }
}
