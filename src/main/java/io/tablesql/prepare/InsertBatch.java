package io.tablesql.prepare;

import io.tablesql.catalog.Catalog;
import io.tablesql.catalog.Column;
import io.tablesql.catalog.ShapeCache;
import io.tablesql.catalog.StreamedValue;
import io.tablesql.catalog.TableDefinition;
import io.tablesql.catalog.TableShape;
import io.tablesql.exec.WriteRunner;
import io.tablesql.session.Session;
import io.tablesql.session.StatementKind;
import io.tablesql.txn.WriteOperation;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.calcite.sql.SqlDynamicParam;

/**
 * The fast path of a batch of {@code INSERT INTO t [(columns)] VALUES (?, ...)} (without a column
 * list, of a declared table's columns in order): the parameters of
 * each batch row become an entity directly, instead of one execution of Calcite's generated code
 * per row. Anything it does not understand exactly (another statement shape, a parameter type it
 * does not convert) leaves the batch to the general path, which gives the same result. That
 * includes a row that cannot be written (a missing or invalid key, a value too large): WriteRunner
 * and EntityRules refuse it on both paths, and both stop the batch there, sending the rows before
 * it (see {@link Rows}). Only those rows' update counts differ: 1 here, SUCCESS_NO_INFO where
 * Calcite, stopped, gives none.
 */
public final class InsertBatch {
  /** Parameters the fast path converts: strings, numbers, booleans, bytes for columns of long values, and NULL. */
  private static final Object UNSUPPORTED = new Object();

  private final String table;
  private final List<String> columns;
  /** For each column, the parameter it takes (0-based), or -1 for a literal. */
  private final int[] parameters;
  private final StatementKind kind;
  private Object[] current;
  private final List<Object[]> rows = new ArrayList<>();
  private boolean usable = true;

  private InsertBatch(String table, List<String> columns, int[] parameters, StatementKind kind) {
    this.table = table;
    this.columns = columns;
    this.parameters = parameters;
    this.kind = kind;
    this.current = new Object[parameters.length];
  }

  /**
   * The fast path for a statement; for anything but a plain INSERT or UPSERT of parameters, one
   * that only ever sends its batch down the general path.
   */
  public static InsertBatch of(StatementText text) {
    InsertBatch batch = parse(text);
    if (batch == null) {
      batch = new InsertBatch(null, List.of(), new int[0], StatementKind.OTHER);
      batch.usable = false;
    }
    return batch;
  }

  private static InsertBatch parse(StatementText text) {
    StatementText.Insert insert = text.insert();
    if (insert == null || insert.table() == null || insert.rows() != 1 || insert.columnList() && insert.columns() == null
        || insert.columns() != null && insert.firstRow().size() != insert.columns().size()) {
      return null;
    }
    String table = insert.table();
    int[] parameters = new int[insert.firstRow().size()];
    for (int i = 0; i < parameters.length; i++) {
      if (!(insert.firstRow().get(i) instanceof SqlDynamicParam parameter)) {
        return null;
      }
      parameters[i] = parameter.getIndex();
    }
    return new InsertBatch(table, insert.columns(), parameters, text.kind());
  }

  public void record(int parameterIndex, Object value) {
    int index = parameterIndex - 1;
    if (index >= 0 && index < current.length) {
      current[index] = value;
    }
  }

  /** A parameter was set in a way the fast path does not convert. */
  public void unsupported(int parameterIndex) {
    record(parameterIndex, UNSUPPORTED);
  }

  public void clearParameters() {
    current = new Object[parameters.length];
  }

  public void addBatch() {
    rows.add(current.clone());
  }

  public void clear() {
    rows.clear();
  }

  /** The table named by the statement, as written. */
  public String table() {
    return table;
  }

  /**
   * The writes of the rows before the first that cannot be written, one per row in order, and
   * why that row cannot be (null if every row can).
   */
  public record Rows(List<WriteOperation> writes, SQLException failure, boolean gaveTimestamps) {
  }

  /** The batch's rows converted and validated; null if any row needs the general path. */
  public Rows writes(Session session, String storedTable) throws SQLException {
    return writes(session, storedTable, rows);
  }

  /**
   * The parameters set now as one row's write, converted and validated; null if it needs the
   * general path. How a value given as a stream longer than an entity ({@link StreamedValue})
   * is written without holding it: its upload is part of the conversion.
   */
  public Rows currentWrites(Session session, String storedTable, io.tablesql.store.RequestCounters counters)
      throws SQLException {
    return writes(session, storedTable, List.<Object[]>of(current), counters);
  }

  private Rows writes(Session session, String storedTable, List<Object[]> rows) throws SQLException {
    return writes(session, storedTable, rows, null);
  }

  /** {@code counters}: the statement's, for one row run as a statement; null for a batch's rows. */
  private Rows writes(Session session, String storedTable, List<Object[]> rows, io.tablesql.store.RequestCounters counters)
      throws SQLException {
    if (!usable || storedTable == null || rows.isEmpty()) {
      return null;
    }
    TableDefinition declared = Catalog.known(session, storedTable);
    TableShape shape = declared != null ? declared.shape() : ShapeCache.shape(session, storedTable);
    int[] positions = new int[parameters.length];
    if (columns == null) {
      // no column list: the declared table's columns in order, as Calcite fills them (a sampled
      // table's columns may differ from those its plan was made with)
      if (declared == null || parameters.length != shape.columns().size()) {
        return null;
      }
      Arrays.setAll(positions, i -> i);
    }
    for (int i = 0; columns != null && i < positions.length; i++) {
      positions[i] = indexIgnoringCase(shape, columns.get(i));
      if (positions[i] < 0) {
        return null;
      }
    }
    WriteOperation.Kind writeKind = WriteRunner.insertKind(session, kind);
    String newPartition = session.partitionForNewRows();
    List<WriteOperation> writes = new ArrayList<>();
    boolean gaveTimestamps = false;
    List<Object[]> converted = new ArrayList<>(rows.size());
    for (Object[] row : rows) { // every row first: a streamed value must not be read for a batch that goes elsewhere
      Object[] values = new Object[shape.columns().size()];
      for (int i = 0; i < positions.length; i++) {
        Column column = shape.columns().get(positions[i]);
        Object value = internal(column, row[parameters[i]]);
        if (value == UNSUPPORTED) {
          return null;
        }
        values[positions[i]] = value;
      }
      converted.add(values);
    }
    for (int r = 0; r < rows.size(); r++) {
      Object[] values = converted.get(r);
      gaveTimestamps |= WriteRunner.givesTimestamp(shape, values);
      try {
        WriteOperation write = WriteRunner.insert(declared != null ? declared.physicalTable() : storedTable, shape,
            values, writeKind, counters == null ? "batch row " + (r + 1) : null, newPartition,
            new io.tablesql.exec.BlobValues(session, counters != null ? counters : new io.tablesql.store.RequestCounters()));
        session.store().checkEntities(write);
        writes.add(write);
      } catch (SQLException e) {
        // the general path stops at this row too, never looking at the rows after it
        return new Rows(writes, e, gaveTimestamps);
      }
    }
    return new Rows(writes, null, gaveTimestamps);
  }

  private static int indexIgnoringCase(TableShape shape, String name) {
    for (int i = 0; i < shape.columns().size(); i++) {
      if (shape.columns().get(i).name().equalsIgnoreCase(name)) {
        return i;
      }
    }
    return -1;
  }

  /** A parameter value in Calcite's representation of the column's type, as a cast would give. */
  private static Object internal(Column column, Object value) {
    if (value == null) {
      return null;
    }
    switch (column.sqlType()) {
      case VARCHAR:
        return value instanceof String || value instanceof StreamedValue streamed && !streamed.binary()
            && column.large() ? value : UNSUPPORTED;
      case VARBINARY:
        // of a length the catalog does not keep, a VARBINARY(n) is Calcite's to cast
        return column.large() && (value instanceof StreamedValue streamed && streamed.binary()
            || value instanceof org.apache.calcite.avatica.util.ByteString) ? value : UNSUPPORTED;
      case BOOLEAN:
        return value instanceof Boolean ? value : UNSUPPORTED;
      case INTEGER:
        return integral(value) != null && integral(value) == integral(value).intValue()
            ? (Object) integral(value).intValue() : UNSUPPORTED;
      case BIGINT:
        return integral(value) != null ? (Object) integral(value) : UNSUPPORTED;
      case DOUBLE:
        return value instanceof Number number && !(value instanceof BigDecimal) ? (Object) number.doubleValue()
            : UNSUPPORTED;
      default:
        return UNSUPPORTED;
    }
  }

  private static Long integral(Object value) {
    if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
      return ((Number) value).longValue();
    }
    return null;
  }

  @Override
  public String toString() {
    return "InsertBatch{" + table + " " + columns + " " + Arrays.toString(parameters) + "}";
  }
}
