package io.tablesql.store;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/** Runs requests concurrently, at most a given number at a time, on one shared daemon pool. */
public final class Parallel {
  private static final ExecutorService POOL = Executors.newCachedThreadPool(runnable -> {
    Thread thread = new Thread(runnable, "tablesql-request");
    thread.setDaemon(true);
    return thread;
  });

  private Parallel() {
  }

  /** Applies {@code task} to every item, {@code concurrency} at a time; results (null ones too) in item order. */
  public static <T, R> List<R> map(List<T> items, int concurrency, Function<T, R> task) {
    if (items.size() <= 1) {
      return items.isEmpty() ? List.of() : Collections.singletonList(task.apply(items.get(0)));
    }
    Object[] results = new Object[items.size()];
    AtomicInteger next = new AtomicInteger();
    List<CompletableFuture<Void>> workers = new ArrayList<>();
    for (int w = 0; w < Math.min(concurrency, items.size()); w++) {
      workers.add(CompletableFuture.runAsync(() -> {
        for (int i; (i = next.getAndIncrement()) < items.size(); ) {
          results[i] = task.apply(items.get(i));
        }
      }, POOL));
    }
    try {
      CompletableFuture.allOf(workers.toArray(new CompletableFuture[0])).join();
    } catch (CompletionException e) {
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw e;
    }
    @SuppressWarnings("unchecked")
    List<R> list = (List<R>) java.util.Arrays.asList(results);
    return list;
  }

  /** Starts {@code task} in the background. */
  public static <R> CompletableFuture<R> start(java.util.function.Supplier<R> task) {
    return CompletableFuture.supplyAsync(task, POOL);
  }
}
