package io.tablesql.prepare;

import io.tablesql.store.FirstUse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.calcite.DataContext;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Runs one query through Calcite on an in-memory table, in the background, once the first
 * connection of the JVM has opened and been used. Calcite's first planned statement loads and
 * initializes thousands of classes (parser, validator, planner rules, code generation: seconds
 * of CPU); done ahead, a BI tool's first query does not wait for them.
 *
 * <p>It begins when the connection's first statement has run, when metadata is asked for (what
 * BI tools and the shell do first), or half a second after the connection opened, whichever
 * comes first ({@link FirstUse}): a first statement that needs no planner ({@link UnplannedQuery})
 * then has both cores, which on a small machine is most of the difference to the SDK's first request.
 */
public final class PlannerWarmup {
  private static final AtomicBoolean STARTED = new AtomicBoolean();
  private static final AtomicBoolean PARSED = new AtomicBoolean();
  /** Set once Calcite has planned a statement in this JVM (the warm-up's or any other). */
  private static volatile boolean planned;
  /** The warm-up's thread, once started. */
  private static volatile Thread warmup;

  private PlannerWarmup() {
  }

  /** Whether Calcite has planned a statement in this JVM: then its classes are loaded and initialized. */
  public static boolean planned() {
    return planned;
  }

  /** Calcite planned a statement. */
  static void plannedOne() {
    planned = true;
  }

  /**
   * Parses a statement of the shape a first statement may run unplanned ({@link UnplannedQuery}),
   * once per JVM: the parser's classes load on the thread that makes the first connection's
   * Calcite connection, not on the one that then runs the statement.
   */
  public static void parserOnce() {
    if (PARSED.compareAndSet(false, true)) {
      StatementText.of("SELECT Name FROM Warmup WHERE PartitionKey = 'p' AND RowKey = 'r'").query();
    }
  }

  public static void startOnce(org.apache.calcite.jdbc.Driver calcite, Properties properties) {
    if (!STARTED.compareAndSet(false, true)) {
      return;
    }
    Thread thread = new Thread(() -> {
      if (FirstUse.await() && !planned) { // a statement planned since has done it
        run(calcite, properties);
      }
    }, "tablesql-warmup");
    thread.setDaemon(true);
    thread.setPriority(Thread.MIN_PRIORITY);
    warmup = thread;
    thread.start();
  }

  /**
   * Waits until the warm-up, if it has started, has ended: for measures of the work statements
   * do in the JVM (such as {@link StatementText#parses}), which the warm-up's would blur.
   */
  public static void awaitFinished() throws InterruptedException {
    Thread thread = warmup;
    if (thread != null) {
      thread.join();
    }
  }

  private static void run(org.apache.calcite.jdbc.Driver calcite, Properties properties) {
    try (Connection connection = calcite.connect("jdbc:calcite:", properties)) {
      connection.unwrap(CalciteConnection.class).getRootSchema().add("Warmup", new WarmupTable());
      LiteralLifter.lift("SELECT Name FROM Warmup WHERE PartitionKey = 'p' AND RowKey = 'r'");
      try (PreparedStatement statement = connection.prepareStatement(
              "SELECT Name FROM Warmup WHERE PartitionKey = ? AND RowKey = ?")) {
        statement.setString(1, "p");
        statement.setString(2, "r");
        try (ResultSet resultSet = statement.executeQuery()) {
          while (resultSet.next()) {
            resultSet.getString(1);
          }
        }
      }
    } catch (Exception | LinkageError e) {
      // Only a warm-up: the user's statements report whatever is wrong.
    }
  }

  /** A table of two keys and a name, with one row. */
  private static final class WarmupTable extends AbstractTable implements ScannableTable {
    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
      RelDataType text = typeFactory.createSqlType(SqlTypeName.VARCHAR);
      return typeFactory.builder().add("PartitionKey", text).add("RowKey", text)
          .add("Name", typeFactory.createTypeWithNullability(text, true)).build();
    }

    @Override
    public Enumerable<Object[]> scan(DataContext root) {
      return Linq4j.asEnumerable(List.<Object[]>of(new Object[] {"p", "r", "name"}));
    }
  }
}
