package io.tablesql.exec;

import com.azure.data.tables.models.TableEntity;
import io.tablesql.store.Parallel;
import io.tablesql.store.RequestCounters;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * Scans one after another in the order given (key order where each scan is in key order and
 * covers keys below the next one's), each started up to {@code concurrency} scans ahead so that
 * their first pages arrive in parallel. With {@code pagesAhead} above 1 started scans keep reading
 * in the background while the pages not yet consumed stay within a budget of {@code pagesAhead}
 * pages per started scan, shared in scan order: a scan reads on while the scans from the one
 * being consumed up to it hold fewer pages than the budget (the key ranges of a split scan: the
 * ranges read next get the budget, so several are read concurrently to their end while the reader
 * is still on an earlier one, and memory stays bounded). With 1 a scan reads its first page ahead
 * and the rest on demand (partition scans: a LIMIT reads no page it does not need).
 */
final class PrefetchingConcatenation implements Iterator<TableEntity> {
  /** Heap set aside per page held. */
  private static final long PAGE_MEMORY = 8L << 20;
  private final List<Supplier<Iterator<List<TableEntity>>>> scans;
  /** Read by the background readers too (the budget), so a list safe to read while it grows. */
  private final List<Prefetch> started = new CopyOnWriteArrayList<>();
  private final int concurrency;
  private final int pagesAhead;
  /** Pages held at most, buffered or being read, by the scans from the one consumed on. */
  private final int budget;
  private final QueryRunner.Guard guard;
  private final RequestCounters requests;
  private volatile boolean closed;
  /** The scan being consumed; read by the background readers for the budget. */
  private volatile int current = -1;
  private Iterator<TableEntity> entities = Collections.emptyIterator();

  PrefetchingConcatenation(List<Supplier<Iterator<List<TableEntity>>>> scans, int concurrency, int pagesAhead,
      QueryRunner.Guard guard, RequestCounters requests) {
    this.scans = scans;
    this.concurrency = Math.max(1, concurrency);
    this.pagesAhead = Math.max(1, pagesAhead);
    this.budget = Math.max(2, Math.min(this.pagesAhead * this.concurrency, heapPages()));
    this.guard = guard;
    this.requests = requests;
  }

  @Override
  public boolean hasNext() {
    while (!entities.hasNext()) {
      guard.check();
      if (current >= 0 && current < scans.size()) {
        List<TableEntity> page = started.get(current).nextPage();
        if (page != null) {
          entities = page.iterator();
          fillAll(); // a page consumed frees budget for the scans after it
          continue;
        }
        started.set(current, null); // done: its pages may be collected
      }
      if (closed || ++current >= scans.size()) {
        return false;
      }
      while (started.size() < Math.min(scans.size(), current + concurrency)) {
        Prefetch prefetch = new Prefetch(scans.get(started.size()), started.size());
        started.add(prefetch);
        prefetch.fill();
      }
      fillAll();
    }
    return true;
  }

  /** With pages read ahead: lets every started scan read on that the budget allows. */
  private void fillAll() {
    if (pagesAhead == 1) {
      return; // a scan reads its first page ahead when started, the rest on demand
    }
    for (int i = Math.max(0, current); i < started.size(); i++) {
      Prefetch prefetch = started.get(i);
      if (prefetch != null) {
        prefetch.fill();
      }
    }
  }

  /**
   * Pages the heap leaves room for: a page of 1000 entities with its response text takes a few
   * MB while it is parsed, and a scan streamed in a small heap (64 MiB) must not run out.
   */
  static int heapPages() {
    return (int) Math.min(Integer.MAX_VALUE, Runtime.getRuntime().maxMemory() / PAGE_MEMORY);
  }

  /**
   * Whether the scan at {@code index} may read another page: with one page ahead, until it holds
   * one; otherwise while all started scans together hold (buffered or being read) fewer pages
   * than the budget, and always when it is the scan being consumed and holds none (the reader
   * waits for it). Scans stopped by the budget start again in scan order as pages are consumed
   * ({@link #fillAll}), so the ranges read next get the freed budget first.
   */
  private boolean mayRead(int index, int buffered) {
    if (pagesAhead == 1) {
      return buffered < 1;
    }
    if (index == current && buffered == 0) {
      return true;
    }
    int held = 0;
    for (int i = Math.max(0, current); i < started.size(); i++) {
      Prefetch prefetch = started.get(i);
      held += prefetch == null ? 0 : prefetch.count;
    }
    return held < budget;
  }

  @Override
  public TableEntity next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return entities.next();
  }

  /**
   * Stops the scans: those not started never start, and those waiting for a response send no
   * further request (no retry, no next page).
   */
  void close() {
    closed = true;
    requests.stop();
    for (Prefetch prefetch : started) {
      if (prefetch != null) {
        prefetch.cancel();
      }
    }
    current = scans.size();
    entities = Collections.emptyIterator();
  }

  /** One started scan: the pages read ahead, and at most one background task reading more. */
  private final class Prefetch {
    private final Supplier<Iterator<List<TableEntity>>> scan;
    private final int index;
    private final ArrayDeque<List<TableEntity>> buffered = new ArrayDeque<>();
    /** The pages buffered and the one being read, for the budget checks (read without this scan's lock). */
    private volatile int count;
    /** A page is being read (under this scan's lock). */
    private boolean reading;
    /** Only the running task touches it, and only one task runs at a time. */
    private Iterator<List<TableEntity>> pages;
    private CompletableFuture<Void> task;
    private boolean exhausted;
    private RuntimeException failure;

    Prefetch(Supplier<Iterator<List<TableEntity>>> scan, int index) {
      this.scan = scan;
      this.index = index;
    }

    /** Starts reading in the background unless a task runs, the scan is done, or enough is buffered. */
    synchronized void fill() {
      if (task == null && !exhausted && failure == null && !closed && mayRead(index, buffered.size())) {
        task = Parallel.start(() -> {
          read();
          return null;
        });
      }
    }

    private void read() {
      try {
        while (true) {
          synchronized (this) {
            if (closed || !mayRead(index, buffered.size())) {
              task = null;
              return;
            }
            reading = true; // the page about to be read counts against the budget
            counted();
          }
          if (pages == null) {
            pages = scan.get();
          }
          boolean more = pages.hasNext();
          List<TableEntity> page = more ? pages.next() : null;
          synchronized (this) {
            reading = false;
            if (!more) {
              exhausted = true;
              counted();
              task = null;
              notifyAll();
              return;
            }
            buffered.add(page);
            counted();
            notifyAll();
            if (pagesAhead == 1) {
              // one page per task: were the loop to look again, a reader that took this page
              // meanwhile would let it read the next, which a LIMIT may not need
              task = null;
              return;
            }
          }
        }
      } catch (RuntimeException | Error e) {
        // an Error too: a reader left waiting for a page that never comes would hang its statement
        synchronized (this) {
          failure = e instanceof RuntimeException runtime ? runtime
              : new IllegalStateException("reading a page failed: " + e, e);
          reading = false;
          counted();
          task = null;
          notifyAll();
        }
      }
    }

    /** The next page, waiting for it if needed; null once the scan has no more. */
    synchronized List<TableEntity> nextPage() {
      while (buffered.isEmpty()) {
        if (failure != null) {
          throw failure;
        }
        if (exhausted || closed) {
          return null;
        }
        fill(); // a scan reading on demand, or one that stopped with its buffer full
        try {
          wait(100);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted while waiting for a page", e);
        }
        guard.check();
      }
      List<TableEntity> page = buffered.poll();
      counted();
      return page;
    }

    /** Publishes the pages held for the budget checks: those buffered and the one being read. */
    private void counted() {
      count = buffered.size() + (reading ? 1 : 0);
    }

    synchronized void cancel() {
      buffered.clear();
      count = 0;
      notifyAll();
    }
  }
}
