package io.tablesql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import com.azure.data.tables.models.TableEntity;
import io.tablesql.store.RequestCounters;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.linq4j.QueryProvider;
import org.apache.calcite.schema.SchemaPlus;
import org.junit.jupiter.api.Test;

/**
 * The concatenation of split ranges over pages held in memory: entities in scan order, and the
 * pages read ahead never more than the budget (pages buffered plus the ones being read), however
 * slowly the reader goes.
 */
class PrefetchingConcatenationUnitTest {
  private static final int SCANS = 6;
  private static final int PAGES = 5;
  private static final int CONCURRENCY = 3;
  private static final int PAGES_AHEAD = 2;

  private final AtomicInteger pagesRead = new AtomicInteger();

  /** A range of {@link #PAGES} pages of two entities each, its keys in scan order. */
  private Supplier<Iterator<List<TableEntity>>> scan(int index) {
    return () -> new Iterator<>() {
      private int page;

      @Override
      public boolean hasNext() {
        return page < PAGES;
      }

      @Override
      public List<TableEntity> next() {
        int p = page++;
        pagesRead.incrementAndGet();
        return List.of(entity(index, p, 0), entity(index, p, 1));
      }
    };
  }

  private static TableEntity entity(int scan, int page, int row) {
    return new TableEntity(String.format("s%02d", scan), String.format("p%02d-r%d", page, row));
  }

  @Test
  void entitiesComeInScanOrderAndReadAheadStaysWithinTheBudget() throws Exception {
    List<Supplier<Iterator<List<TableEntity>>>> scans = new ArrayList<>();
    for (int i = 0; i < SCANS; i++) {
      scans.add(scan(i));
    }
    PrefetchingConcatenation rows = new PrefetchingConcatenation(scans, CONCURRENCY, PAGES_AHEAD,
        new QueryRunner.Guard(new CancelOnly()), new RequestCounters());
    List<String> keys = new ArrayList<>();
    int pagesBegun = 0;
    int mostAhead = 0;
    while (rows.hasNext()) {
      TableEntity entity = rows.next();
      keys.add(entity.getPartitionKey() + "/" + entity.getRowKey());
      if (entity.getRowKey().endsWith("-r0")) {
        pagesBegun++;
        Thread.sleep(20); // a slow reader: the ranges after it read ahead as far as the budget lets them
        mostAhead = Math.max(mostAhead, pagesRead.get() - pagesBegun);
      }
    }
    List<String> expected = new ArrayList<>();
    for (int s = 0; s < SCANS; s++) {
      for (int p = 0; p < PAGES; p++) {
        expected.add(entity(s, p, 0).getPartitionKey() + "/" + entity(s, p, 0).getRowKey());
        expected.add(entity(s, p, 1).getPartitionKey() + "/" + entity(s, p, 1).getRowKey());
      }
    }
    assertThat(keys).isEqualTo(expected);
    // the budget, plus the page of the scan being consumed that it may always read when it holds none
    assertThat(mostAhead).isPositive().isLessThanOrEqualTo(PAGES_AHEAD * CONCURRENCY + 1);
  }

  /**
   * With one page ahead, a scan reads its first page ahead and each next one only when the reader
   * asks for it: a reader that stops after the first page (a LIMIT) leaves the second unread,
   * however quickly it took the first.
   */
  @Test
  void withOnePageAheadAReaderThatStopsAfterAPageReadsNoMore() throws Exception {
    for (int attempt = 0; attempt < 50; attempt++) {
      pagesRead.set(0);
      PrefetchingConcatenation rows = new PrefetchingConcatenation(List.of(scan(0)), 1, 1,
          new QueryRunner.Guard(new CancelOnly()), new RequestCounters());
      assertThat(rows.hasNext()).isTrue();
      rows.next();
      rows.next(); // the first page, taken as soon as it came
      Thread.sleep(5); // time for a background reader to read on, were it allowed to
      assertThat(pagesRead.get()).as("pages read after the first was taken, attempt %d", attempt).isEqualTo(1);
      rows.close();
    }
  }

  /** What the guard reads of a statement's DataContext: a cancel flag never set, no timeout. */
  private static final class CancelOnly implements DataContext {
    private final AtomicBoolean cancelFlag = new AtomicBoolean();

    @Override
    public SchemaPlus getRootSchema() {
      return null;
    }

    @Override
    public JavaTypeFactory getTypeFactory() {
      return null;
    }

    @Override
    public QueryProvider getQueryProvider() {
      return null;
    }

    @Override
    public Object get(String name) {
      return Variable.CANCEL_FLAG.camelName.equals(name) ? cancelFlag : null;
    }
  }
}
