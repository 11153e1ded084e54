package io.tablesql.shell;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Azurite's Table and Blob services on free loopback ports, in memory, for the tests, the shell
 * and the benchmark (Blob storage holds values longer than an entity: ARCHITECTURE.md, "Large
 * values and wide rows"). Installs the pinned emulator project-locally ({@code npm ci} in src/azurite) the
 * first time it is needed.
 */
public final class LocalEmulator implements AutoCloseable {
  public static final String ACCOUNT = "devstoreaccount1";
  public static final String KEY =
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

  private final Process process;
  private final int port;
  private final int blobPort;
  private final Path workspace;

  private LocalEmulator(Process process, int port, int blobPort, Path workspace) {
    this.process = process;
    this.port = port;
    this.blobPort = blobPort;
    this.workspace = workspace;
  }

  /** Starts an emulator; {@code projectDir} holds src/azurite/package.json. */
  public static LocalEmulator start(Path projectDir) throws IOException {
    Path home = projectDir.resolve("src/azurite").toAbsolutePath();
    Path script = home.resolve("node_modules/azurite/dist/src/azurite.js");
    if (!Files.exists(script)) {
      install(home);
    }
    for (int attempt = 1; ; attempt++) {
      try {
        return launch(script);
      } catch (IOException e) {
        // a port found free was taken before Azurite bound it: try other ports
        if (attempt == 3 || e.getMessage() == null || !e.getMessage().contains("EADDRINUSE")) {
          throw e;
        }
      }
    }
  }

  private static LocalEmulator launch(Path script) throws IOException {
    // three ports held at once, so that no two are the same (Azurite's all-services entry point
    // starts a queue service too)
    int[] ports = freePorts(3);
    int port = ports[0];
    int blobPort = ports[1];
    int queuePort = ports[2];
    Path workspace = Files.createTempDirectory("tablesql-azurite");
    List<String> command = new java.util.ArrayList<>();
    if (onPath("setsid")) {
      // a session of its own: Ctrl-C in the shell's terminal (which signals the terminal's whole
      // foreground group) cancels a statement and leaves the emulator running; it stops with the shell
      command.add("setsid");
    }
    command.addAll(List.of("node", script.toString(),
        "--tableHost", "127.0.0.1", "--tablePort", String.valueOf(port),
        "--blobHost", "127.0.0.1", "--blobPort", String.valueOf(blobPort),
        "--queueHost", "127.0.0.1", "--queuePort", String.valueOf(queuePort),
        "--inMemoryPersistence", "--disableTelemetry", "--skipApiVersionCheck", "--silent",
        "--tableKeepAliveTimeout", "120", "--blobKeepAliveTimeout", "120"));
    ProcessBuilder builder = new ProcessBuilder(command)
        .directory(workspace.toFile())
        .redirectErrorStream(true);
    Process process = builder.start();
    LocalEmulator emulator = new LocalEmulator(process, port, blobPort, workspace);
    try {
      emulator.awaitListening();
    } catch (IOException e) {
      emulator.close(); // its process is gone; its workspace too
      throw e;
    }
    return emulator;
  }

  private static boolean onPath(String program) {
    String path = System.getenv("PATH");
    return path != null && java.util.Arrays.stream(path.split(java.io.File.pathSeparator))
        .anyMatch(directory -> Files.isExecutable(Path.of(directory, program)));
  }

  /** Runs {@code npm ci} so the lockfile's exact emulator is installed. */
  private static void install(Path home) throws IOException {
    Process npm = new ProcessBuilder("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
        .directory(home.toFile()).redirectErrorStream(true).start();
    String output = new String(npm.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    try {
      if (!npm.waitFor(10, TimeUnit.MINUTES) || npm.exitValue() != 0) {
        throw new IOException("Installing the Azurite emulator with 'npm ci' in " + home + " failed:\n" + output);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("Interrupted while installing the Azurite emulator", e);
    }
  }

  private void awaitListening() throws IOException {
    BufferedReader reader = new BufferedReader(
        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    Deque<String> lastLines = new ArrayDeque<>();
    CompletableFuture<Boolean> listening = CompletableFuture.supplyAsync(() -> {
      try {
        for (String line; (line = reader.readLine()) != null; ) {
          lastLines.addLast(line);
          if (lastLines.size() > 20) {
            lastLines.removeFirst();
          }
          if (line.contains("Table service is successfully listening")) { // the last of the three
            drainInBackground(reader);
            return true;
          }
        }
      } catch (IOException ignored) {
        // the process died; reported below
      }
      return false;
    });
    boolean ok;
    try {
      ok = listening.get(60, TimeUnit.SECONDS);
    } catch (Exception e) {
      ok = false;
    }
    if (!ok) {
      process.destroyForcibly();
      throw new IOException("Azurite did not start on port " + port + ". Its last output:\n"
          + String.join("\n", lastLines));
    }
  }

  /** Keeps reading the emulator's output so it never blocks on a full pipe. */
  private static void drainInBackground(BufferedReader reader) {
    Thread drain = new Thread(() -> {
      try {
        while (reader.readLine() != null) {
          // discarded: Azurite logs each request
        }
      } catch (IOException ignored) {
        // the emulator stopped
      }
    }, "azurite-output");
    drain.setDaemon(true);
    drain.start();
  }

  /** {@code count} different ports free now on the loopback address. */
  private static int[] freePorts(int count) throws IOException {
    List<ServerSocket> sockets = new java.util.ArrayList<>();
    try {
      int[] ports = new int[count];
      for (int i = 0; i < count; i++) {
        ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress());
        sockets.add(socket);
        ports[i] = socket.getLocalPort();
      }
      return ports;
    } finally {
      for (ServerSocket socket : sockets) {
        socket.close();
      }
    }
  }

  public int port() {
    return port;
  }

  public String tableEndpoint() {
    return "http://127.0.0.1:" + port + "/" + ACCOUNT;
  }

  public String blobEndpoint() {
    return "http://127.0.0.1:" + blobPort + "/" + ACCOUNT;
  }

  /** The emulator's process id. */
  public long pid() {
    return process.pid();
  }

  /** The connection string body (after {@code jdbc:tablesql:}) for this emulator. */
  public String connectionString() {
    return "TableEndpoint=" + tableEndpoint() + ";BlobEndpoint=" + blobEndpoint() + ";AccountName=" + ACCOUNT
        + ";AccountKey=" + KEY;
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
    try (java.util.stream.Stream<Path> files = Files.walk(workspace)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException ignored) {
      // a temporary directory left behind is harmless
    }
  }
}
