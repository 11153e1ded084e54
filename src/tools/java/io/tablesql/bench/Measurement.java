package io.tablesql.bench;

import java.util.Arrays;

/** Timings of one side of a benchmark case: median after warm-up, and what it cost at the service. */
record Measurement(double medianMillis, long requests, long entities, long rows) {
  interface Run {
    /** Runs once; returns {requests, entities, rows} of that run. */
    long[] run() throws Exception;
  }

  /**
   * Measures two sides of a case, alternating them run by run so that both see the same
   * machine (Azurite shares its two cores): {SDK, tablesql}.
   */
  static Measurement[] pair(int warmups, int repetitions, Run first, Run second) throws Exception {
    for (int i = 0; i < warmups; i++) {
      first.run();
      second.run();
    }
    double[][] millis = new double[2][repetitions];
    long[][] last = new long[2][];
    Run[] runs = {first, second};
    for (int i = 0; i < repetitions; i++) {
      for (int side = 0; side < 2; side++) {
        long start = System.nanoTime();
        last[side] = runs[side].run();
        millis[side][i] = (System.nanoTime() - start) / 1e6;
      }
    }
    Measurement[] result = new Measurement[2];
    for (int side = 0; side < 2; side++) {
      Arrays.sort(millis[side]);
      result[side] = new Measurement(millis[side][repetitions / 2], last[side][0], last[side][1], last[side][2]);
    }
    return result;
  }
}
