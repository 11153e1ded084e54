package io.tablesql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tablesql.shell.LocalEmulator;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The emulator the shell starts. */
class LocalEmulatorTest {
  /**
   * Ctrl-C in the shell's terminal signals the terminal's foreground process group: the
   * emulator is in a session of its own, so it outlives a Ctrl-C that cancels a statement.
   */
  @Test
  void theEmulatorIsOutOfReachOfTheTerminalsCtrlC() throws Exception {
    assumeTrue(Files.exists(Path.of("/proc/self/stat")), "a Linux /proc to read process groups from");
    assumeTrue(java.util.Arrays.stream(System.getenv("PATH").split(java.io.File.pathSeparator))
        .anyMatch(directory -> Files.isExecutable(Path.of(directory, "setsid"))), "setsid, which the emulator runs under");
    try (LocalEmulator emulator = LocalEmulator.start(Path.of("").toAbsolutePath())) {
      String[] own = stat("self");
      String[] node = stat(String.valueOf(emulator.pid()));
      assertThat(node[4]).as("process group").isNotEqualTo(own[4]);
      assertThat(node[5]).as("session").isNotEqualTo(own[5]);
    }
  }

  /** The fields of /proc/<pid>/stat after the command name: state, ppid, pgrp, session, ... (index 2 on). */
  private static String[] stat(String pid) throws Exception {
    String text = Files.readString(Path.of("/proc", pid, "stat"));
    String[] rest = text.substring(text.lastIndexOf(')') + 2).split(" ");
    String[] fields = new String[rest.length + 2];
    System.arraycopy(rest, 0, fields, 2, rest.length);
    return fields;
  }
}
