package io.tablesql.bench;

import java.util.Arrays;

/**
 * Timings of one side of a benchmark case: median after warm-up, the spread of the measured runs
 * (lowest and highest), and what it cost at the service.
 */
record Measurement(double medianMillis, double minMillis, double maxMillis, long requests, long entities, long rows) {
  interface Run {
    /** Runs once; returns {requests, entities, rows} of that run. */
    long[] run() throws Exception;
  }

  /**
   * Measures the sides of a case, alternating them run by run so that all see the same machine
   * (Azurite shares its two cores with them); the results in the order of the sides.
   */
  static Measurement[] alternate(int warmups, int repetitions, Run... runs) throws Exception {
    for (int i = 0; i < warmups; i++) {
      for (Run run : runs) {
        run.run();
      }
    }
    double[][] millis = new double[runs.length][repetitions];
    long[][] last = new long[runs.length][];
    for (int i = 0; i < repetitions; i++) {
      // the order of the sides rotates, so that none always runs first after the others' garbage
      for (int k = 0; k < runs.length; k++) {
        int side = (i + k) % runs.length;
        long start = System.nanoTime();
        last[side] = runs[side].run();
        millis[side][i] = (System.nanoTime() - start) / 1e6;
      }
    }
    Measurement[] result = new Measurement[runs.length];
    for (int side = 0; side < runs.length; side++) {
      Arrays.sort(millis[side]);
      result[side] = new Measurement(millis[side][repetitions / 2], millis[side][0], millis[side][repetitions - 1],
          last[side][0], last[side][1], last[side][2]);
    }
    return result;
  }
}
