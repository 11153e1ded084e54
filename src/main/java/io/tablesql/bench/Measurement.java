package io.tablesql.bench;

import java.util.Arrays;

/** Timings of one side of a benchmark case: median after warm-up, and what it cost at the service. */
record Measurement(double medianMillis, long requests, long entities, long rows) {
  interface Run {
    /** Runs once; returns {requests, entities, rows} of that run. */
    long[] run() throws Exception;
  }

  static Measurement of(int warmups, int repetitions, Run run) throws Exception {
    for (int i = 0; i < warmups; i++) {
      run.run();
    }
    double[] millis = new double[repetitions];
    long[] last = null;
    for (int i = 0; i < repetitions; i++) {
      long start = System.nanoTime();
      last = run.run();
      millis[i] = (System.nanoTime() - start) / 1e6;
    }
    Arrays.sort(millis);
    return new Measurement(millis[repetitions / 2], last[0], last[1], last[2]);
  }
}
