package io.tablesql.prepare;

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
 * Runs one query through Calcite on an in-memory table, in the background, when the first
 * connection of the JVM opens. Calcite's first statement loads and initializes thousands of
 * classes (parser, planner rules, code generation); doing that while the connection sets up the
 * Azure SDK and lists tables takes it off the path of the user's first query.
 */
public final class PlannerWarmup {
  private static final AtomicBoolean STARTED = new AtomicBoolean();

  private PlannerWarmup() {
  }

  public static void startOnce(org.apache.calcite.jdbc.Driver calcite, Properties properties) {
    if (!STARTED.compareAndSet(false, true)) {
      return;
    }
    Thread thread = new Thread(() -> run(calcite, properties), "tablesql-warmup");
    thread.setDaemon(true);
    thread.setPriority(Thread.MIN_PRIORITY);
    thread.start();
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
