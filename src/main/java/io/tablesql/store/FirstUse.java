package io.tablesql.store;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * When the JVM's first connection has been used: a statement of it ran, or its metadata was
 * asked for. Work a process needs soon but not for its first statement (Calcite's warm-up, the
 * platform MBean server's start) waits for that, or for half a second, so that a first statement
 * that needs neither has the machine's cores to itself: on two cores, each of them costs the
 * first statement about its own CPU time.
 */
public final class FirstUse {
  private static final CountDownLatch USED = new CountDownLatch(1);
  private static final long PATIENCE_MILLIS = 500;

  private FirstUse() {
  }

  /** A connection ran a statement or was asked for metadata. */
  public static void signal() {
    USED.countDown();
  }

  /** Waits for the first use, at most half a second; false if interrupted. */
  public static boolean await() {
    try {
      USED.await(PATIENCE_MILLIS, TimeUnit.MILLISECONDS);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
