package io.tablesql.exec;

import com.azure.data.tables.models.TableEntity;
import io.tablesql.catalog.Column;
import io.tablesql.catalog.TableShape;
import io.tablesql.catalog.ValueParts;
import io.tablesql.errors.SqlExceptions;
import io.tablesql.errors.SqlStates;
import io.tablesql.intent.IntentMarks;
import io.tablesql.keys.GeneratedKey;
import io.tablesql.keys.KeyLayout;
import io.tablesql.query.WritePlan;
import io.tablesql.session.Session;
import io.tablesql.session.StatementContext;
import io.tablesql.session.StatementKind;
import io.tablesql.settings.Choices;
import io.tablesql.settings.DriverProperty;
import io.tablesql.store.StoreException;
import io.tablesql.txn.WriteOperation.Kind;
import io.tablesql.txn.WriteOperation;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.core.TableModify;

/**
 * Runs INSERT, UPSERT, UPDATE and DELETE: turns the rows Calcite computed into entity
 * operations, validates them, and sends them (auto-commit), keeps them (transaction) or collects
 * them (batch). Returns the exact number of entities written.
 */
public final class WriteRunner {
  private WriteRunner() {
  }

  /** Called by the code Calcite generates for an {@link io.tablesql.plan.EnumerableAzureTableModify}. */
  public static Enumerable<Long> execute(DataContext root, WritePlan plan, Enumerable<?> rows, boolean scalarRows) {
    Session session = plan.table().session();
    StatementContext context = session.context(root);
    List<WriteOperation> operations = new ArrayList<>();
    long rowsWritten = 0;
    String origin = context.collectsBatch() ? "batch row " + (context.execution() + 1) : null;
    String newPartition = session.partitionForNewRows();
    QueryRunner.Guard guard = new QueryRunner.Guard(root); // a wait for another's intent stops on a cancel
    try {
      session.requireWritable(); // before the rows are read: an UPDATE or DELETE sends nothing
      for (Object row : rows) {
        Object[] values = scalarRows ? new Object[] {row} : (Object[]) row;
        for (WriteOperation operation : operations(plan, context, values, origin, newPartition, guard)) {
          session.store().checkEntities(operation);
          operations.add(operation);
        }
        rowsWritten++;
      }
      finish(session, context, operations, guard::check);
    } catch (SQLException e) {
      throw StoreException.of(e);
    } finally {
      if (context.collectsBatch()) {
        context.executionDone();
      }
    }
    return Linq4j.singletonEnumerable(rowsWritten);
  }

  /**
   * Ends a write statement with its validated writes: kept for the batch, joined to the
   * transaction, or sent (auto-commit). {@code stopIfAsked} throws once the statement is cancelled.
   */
  public static void finish(Session session, StatementContext context, List<WriteOperation> operations,
      Runnable stopIfAsked) throws SQLException {
    if (context.collectsBatch()) {
      context.addBatchWrites(operations);
    } else if (!session.autoCommit()) {
      session.pending().add(operations);
    } else {
      WriteSender.sendStatement(session, operations, context.counters(), stopIfAsked);
    }
  }

  /** The writes of one row: one entity operation, or for an UPDATE of a declared key a delete and an insert. */
  private static List<WriteOperation> operations(WritePlan plan, StatementContext context, Object[] values,
      String origin, String newPartition, QueryRunner.Guard guard) throws SQLException {
    TableShape shape = plan.shape();
    String table = plan.table().name();
    if (plan.operation() == TableModify.Operation.INSERT) {
      if (givesTimestamp(shape, values)) {
        context.warn(TIMESTAMP_SET_BY_THE_SERVICE);
      }
      return List.of(insert(table, shape, values,
          insertKind(plan.table().session(), context.kind()), origin, newPartition,
          new BlobValues(plan.table().session(), context.counters())));
    }
    String[] keys = keysOfRowRead(shape, values, table, context);
    String partitionKey = keys[0];
    String rowKey = keys[1];
    switch (plan.operation()) {
      case UPDATE:
        return update(plan, context, values, table, partitionKey, rowKey, origin, guard);
      case DELETE: {
        TableEntity read = context.readEntity(new WriteOperation.EntityKey(table.toLowerCase(java.util.Locale.ROOT),
            partitionKey, rowKey));
        IntentMarks.checkNotPending(plan.table().session(), read, context.counters(), guard::check);
        return List.of(new WriteOperation(table, partitionKey, rowKey, Kind.DELETE, Map.of(),
            read == null ? null : read.getETag(), origin, TableShape.userProperties(read)));
      }
      default:
        throw SqlExceptions.of(plan.operation() + " is not supported; use INSERT, UPSERT, UPDATE or DELETE.",
            SqlStates.FEATURE_NOT_SUPPORTED);
    }
  }

  /** What an INSERT or UPSERT statement does to each row. */
  public static Kind insertKind(Session session, StatementKind statement) {
    if (statement != StatementKind.UPSERT) {
      return Kind.INSERT;
    }
    return session.settings().choice(DriverProperty.UPSERT_MODE, Choices.UpsertMode.class)
        == Choices.UpsertMode.REPLACE ? Kind.UPSERT_REPLACE : Kind.UPSERT_MERGE;
  }

  /** The warning of an INSERT that gave Timestamp values, which the service sets itself. */
  public static final String TIMESTAMP_SET_BY_THE_SERVICE = "The Timestamp values given were not written: the service "
      + "sets each entity's Timestamp on every write, so the rows carry the time of this write (a copy of a table, "
      + "by INSERT ... SELECT or by Spark, gets new Timestamps). Copy the old ones into a column of another name to "
      + "keep them.";

  /** Whether an inserted row (in the order of the shape's columns) gives a Timestamp, which is not written. */
  public static boolean givesTimestamp(TableShape shape, Object[] values) {
    int timestamp = shape.indexOf(Column.TIMESTAMP);
    return timestamp >= 0 && values[timestamp] != null;
  }

  /**
   * The write of one inserted row, given in Calcite's representation in the order of the
   * shape's columns: the properties with the Edm types of their columns, NULLs left out.
   */
  public static WriteOperation insert(String table, TableShape shape, Object[] values, Kind kind,
      String origin, String newPartition, BlobValues blobs) throws SQLException {
    String[] keys = shape.layout() != null && shape.layout().isGenerated()
        ? new String[] {newPartition, GeneratedKey.newRowKey()} : keys(shape, values);
    String partitionKey = keys[0];
    String rowKey = keys[1];
    if (kind == Kind.UPSERT_REPLACE) {
      for (Column column : shape.columns()) {
        if (column.referencesBlob()) {
          throw SqlExceptions.of("An UPSERT in replace mode rewrites whole entities, and would drop the blob name "
              + "column " + column.name() + " holds (REFERENCES BLOB: the application's to write). Use UPDATE, or "
              + "upsertMode=merge.", SqlStates.FEATURE_NOT_SUPPORTED);
        }
      }
    }
    Map<String, Object> properties = new HashMap<>();
    KeyLayout.Discriminator discriminator = shape.layout() == null ? null : shape.layout().discriminator();
    if (discriminator != null) {
      properties.put(discriminator.property(), discriminator.value());
    }
    if (shape.layout() != null) {
      properties.putAll(shape.layout().keyPropertyValues(partitionKey, rowKey));
    }
    for (int i = 0; i < shape.columns().size(); i++) {
      Column column = shape.columns().get(i);
      if (isProperty(shape, column) && values[i] != null) {
        refuseBlobReference(column);
        Object value = sdkValue(column, values[i], partitionKey, rowKey);
        if (column.large()) {
          ValueParts.put(properties, column, value, kind == Kind.UPSERT_MERGE,
              blobs.writer(table, partitionKey, rowKey));
        } else {
          properties.put(column.name(), value);
        }
      }
    }
    WriteOperation write = new WriteOperation(table, partitionKey, rowKey, kind, properties, null, origin);
    blobs.fit(write, shape);
    return write;
  }

  /**
   * A MERGE of the new values, conditional on the ETag read; a REPLACE of the whole entity as
   * read when a property is set to NULL, since only a replace removes a property.
   */
  private static List<WriteOperation> update(WritePlan plan, StatementContext context, Object[] values, String table,
      String partitionKey, String rowKey, String origin, QueryRunner.Guard guard) throws SQLException {
    TableShape shape = plan.shape();
    BlobValues blobs = new BlobValues(plan.table().session(), context.counters());
    Map<String, Object> changes = new HashMap<>();
    List<Column> large = new ArrayList<>();
    boolean removes = false;
    Object[] updatedRow = Arrays.copyOf(values, shape.columns().size());
    for (int i = 0; i < plan.updatedColumns().size(); i++) {
      String name = plan.updatedColumns().get(i);
      Column column = shape.columns().get(shape.indexOf(name));
      if (shape.keyPosition(column) >= 0 || (shape.layout() == null && column.isKey())) {
        // a new key moves the row: see move()
        updatedRow[shape.indexOf(name)] = values[shape.columns().size() + i];
        continue;
      }
      if (!isProperty(shape, column)) {
        throw SqlExceptions.of("UPDATE cannot change " + name + ": the service sets an entity's Timestamp on "
            + "every write.", SqlStates.FEATURE_NOT_SUPPORTED);
      }
      refuseBlobReference(column);
      Object value = values[shape.columns().size() + i];
      removes |= value == null;
      Object sdk = sdkValue(column, value, partitionKey, rowKey);
      if (column.large()) {
        large.add(column);
        if (sdk != null) {
          ValueParts.put(changes, column, sdk, true, blobs.writer(table, partitionKey, rowKey));
          continue;
        }
      }
      changes.put(column.name(), sdk);
    }
    TableEntity read = context.readEntity(new WriteOperation.EntityKey(table.toLowerCase(java.util.Locale.ROOT),
        partitionKey, rowKey));
    IntentMarks.checkNotPending(plan.table().session(), read, context.counters(), guard::check);
    String etag = read == null ? null : read.getETag();
    Map<String, Object> before = TableShape.userProperties(read);
    Map<String, Object> entity = before == null ? new HashMap<>() : new HashMap<>(before);
    for (Column column : large) {
      // parts of the value before go with it: only a replace removes properties
      removes |= ValueParts.isSplit(before, column.name()) || ValueParts.referenceIn(before, column.name()) != null;
      ValueParts.removeParts(entity, column.name());
    }
    for (Column column : shape.columns()) {
      // parts a merge disowned (an UPSERT's) still count against the entity's limits: a replace drops them
      if (column.large() && ValueParts.hasDisownedParts(before, column.name())) {
        removes = true;
        ValueParts.removeDisowned(entity, column.name());
      }
    }
    changes.forEach((name, value) -> {
      if (value == null) {
        entity.remove(name);
      } else {
        entity.put(name, value);
      }
    });
    // a replaced entity keeps no parts of earlier values: a value in one property needs no count
    large.forEach(column -> entity.remove(ValueParts.countName(column.name()), 1));
    String[] newKeys = shape.layout() != null && shape.layout().isGenerated() ? new String[] {partitionKey, rowKey}
        : keys(shape, updatedRow);
    if (!newKeys[1].equals(rowKey) || !newKeys[0].equals(partitionKey)) {
      if (shape.layout() != null) {
        entity.putAll(shape.layout().keyPropertyValues(newKeys[0], newKeys[1])); // the moved row's key fields
      }
      blobs.copyForMove(entity, shape, table, newKeys[0], newKeys[1]);
      blobs.fit(new WriteOperation(table, newKeys[0], newKeys[1], Kind.INSERT, entity, null, origin), shape);
      return move(table, new String[] {partitionKey, rowKey}, newKeys, entity, etag, origin, before);
    }
    WriteOperation replace = new WriteOperation(table, partitionKey, rowKey, Kind.REPLACE, entity, etag, origin,
        before);
    // values the row keeps may have to leave the entity for the new ones to fit: a replace moves them
    removes |= blobs.fit(replace, shape);
    if (removes) {
      return List.of(replace);
    }
    // the service counts the entity a merge leaves behind against the limits, not the merge alone
    plan.table().session().store().checkEntities(replace);
    return List.of(new WriteOperation(table, partitionKey, rowKey, Kind.MERGE, changes, etag, origin, before));
  }

  /**
   * An UPDATE of a row's key (a declared table's key columns, a raw table's PartitionKey or
   * RowKey): the row moves to its new key, as a delete of the entity read (conditional on its
   * ETag) and an insert of the new one. Within a partition that is one entity group transaction;
   * across partitions the statement or transaction commits them together through an intent.
   */
  private static List<WriteOperation> move(String table, String[] from, String[] to,
      Map<String, Object> entity, String etag, String origin, Map<String, Object> before) {
    return List.of(new WriteOperation(table, from[0], from[1], Kind.DELETE, Map.of(), etag, origin, before),
        new WriteOperation(table, to[0], to[1], Kind.INSERT, entity, null, origin));
  }

  /** A column that reads an application's blob by the name its property holds is the application's to write. */
  private static void refuseBlobReference(Column column) throws SQLException {
    if (column.referencesBlob()) {
      throw SqlExceptions.of("Column " + column.name() + " REFERENCES BLOB: its value is the content of a blob the "
          + "application writes and names, which tablesql reads but never writes. Write the blob and its name as the "
          + "application does, or leave the column out of this statement.", SqlStates.FEATURE_NOT_SUPPORTED);
    }
  }

  /** Whether a column is stored as a property of its own (not a key, nor the service's Timestamp). */
  private static boolean isProperty(TableShape shape, Column column) {
    return !column.isKey() && !column.name().equals(Column.TIMESTAMP) && shape.keyPosition(column) < 0;
  }

  /**
   * The keys of a row an UPDATE or DELETE read: those its columns give, or for a table without a
   * primary key those of the entity the statement read it from.
   */
  private static String[] keysOfRowRead(TableShape shape, Object[] values, String table, StatementContext context)
      throws SQLException {
    if (shape.layout() == null || !shape.layout().isGenerated()) {
      return keys(shape, values);
    }
    WriteOperation.EntityKey read = context.takeRow(table, Arrays.asList(values).subList(0, shape.columns().size()));
    if (read == null) {
      throw SqlExceptions.of("A row of " + shape.tableName() + " to change could not be told from the others: the "
          + "table has no PRIMARY KEY, so tablesql finds a row by the entity it was read from. Nothing was written.",
          SqlStates.DATA_EXCEPTION);
    }
    return new String[] {read.partitionKey(), read.rowKey()};
  }

  /**
   * The PartitionKey and RowKey of a row given in the order of the shape's columns: its key
   * columns, or for a declared table its key columns' values encoded.
   */
  private static String[] keys(TableShape shape, Object[] values) throws SQLException {
    KeyLayout layout = shape.layout();
    if (layout == null) {
      return new String[] {(String) values[shape.indexOf(Column.PARTITION_KEY)],
          (String) values[shape.indexOf(Column.ROW_KEY)]};
    }
    List<Object> partition = new ArrayList<>();
    List<Object> row = new ArrayList<>();
    for (KeyLayout.KeyColumn key : layout.columns()) {
      Object value = values[shape.indexOf(key.name())];
      if (value == null) {
        throw SqlExceptions.of("Column " + key.name() + " of " + shape.tableName() + " is part of its PRIMARY KEY and "
            + "cannot be NULL. Nothing was written.", SqlStates.NOT_NULL_VIOLATION);
      }
      (partition.size() < layout.partition().size() ? partition : row).add(value);
    }
    try {
      return new String[] {layout.partitionKey(partition), layout.rowKey(row)};
    } catch (IllegalArgumentException e) {
      throw SqlExceptions.of("The PRIMARY KEY " + describe(layout, partition, row) + " of " + shape.tableName()
          + " cannot be stored: " + e.getMessage() + ". Nothing was written.", SqlStates.DATA_EXCEPTION);
    }
  }

  private static String describe(KeyLayout layout, List<Object> partition, List<Object> row) {
    List<Object> values = new ArrayList<>(partition);
    values.addAll(row);
    StringBuilder text = new StringBuilder("(");
    for (int i = 0; i < values.size(); i++) {
      text.append(i == 0 ? "" : ", ").append(layout.columns().get(i).name()).append(" = ").append(values.get(i));
    }
    return text.append(")").toString();
  }

  private static Object sdkValue(Column column, Object value, String partitionKey, String rowKey)
      throws SQLException {
    if (value instanceof io.tablesql.catalog.StreamedValue) {
      return value; // written to its blob by ValueParts.put, as it is read
    }
    try {
      return column.toSdk(value);
    } catch (IllegalArgumentException e) {
      throw SqlExceptions.of("Cannot write '" + value + "' to " + column.name() + " of (PartitionKey '" + partitionKey
          + "', RowKey '" + rowKey + "'): the column holds GUIDs, written as 8-4-4-4-12 hexadecimal digits.",
          SqlStates.DATA_EXCEPTION);
    }
  }
}
