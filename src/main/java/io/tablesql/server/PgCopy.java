package io.tablesql.server;

import io.tablesql.server.PgWire.Message;
import io.tablesql.server.PgWire.Received;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * One COPY of a session (docs/architecture/server.md, "COPY"): {@code TO STDOUT} streams a query's rows as
 * CopyData lines as they are read; {@code FROM STDIN} reads the client's lines into the driver's
 * batches of a prepared INSERT.
 */
final class PgCopy {
  private final PgSession session;

  PgCopy(PgSession session) {
    this.session = session;
  }

  /** Rows read from the input of COPY ... FROM STDIN and written per batch (each batch commits in auto-commit). */
  private static final int COPY_BATCH = 1000;

  void run(CopyCommand copy) throws SQLException, IOException {
    if (copy.out()) {
      copyOut(copy);
    } else {
      copyIn(copy);
    }
  }

  /** COPY ... TO STDOUT: the rows as CopyData lines, streamed as they are read. */
  private void copyOut(CopyCommand copy) throws SQLException, IOException {
    try (Statement statement = session.connection().createStatement()) {
      session.running(statement);
      statement.setQueryTimeout(session.queryTimeoutSeconds());
      try (ResultSet rows = statement.executeQuery(copy.selectSql())) {
        ResultSetMetaData meta = rows.getMetaData();
        int[] oids = PgTypes.oids(meta);
        Message response = new Message('H').byte1('\0').int16(oids.length);
        for (int c = 0; c < oids.length; c++) {
          response.int16(0);
        }
        session.wire().send(response);
        if (copy.header()) {
          List<String> labels = new java.util.ArrayList<>();
          for (int c = 1; c <= oids.length; c++) {
            labels.add(copy.field(meta.getColumnLabel(c)));
          }
          session.wire().send(line(labels, copy));
        }
        long count = 0;
        while (rows.next()) {
          List<String> fields = new java.util.ArrayList<>(oids.length);
          for (int c = 1; c <= oids.length; c++) {
            byte[] text = PgTypes.text(rows, c, oids[c - 1]);
            fields.add(copy.field(text == null ? null : new String(text, StandardCharsets.UTF_8)));
          }
          session.wire().send(line(fields, copy));
          count++;
        }
        session.wire().send(new Message('c')); // CopyDone
        session.complete("COPY " + count);
      }
    } finally {
      session.running(null);
    }
  }

  private static Message line(List<String> fields, CopyCommand copy) {
    return new Message('d').raw((String.join(String.valueOf(copy.delimiter()), fields) + "\n")
        .getBytes(StandardCharsets.UTF_8));
  }

  /**
   * COPY table FROM STDIN: the client's lines inserted through the driver's batches of
   * {@link #COPY_BATCH} rows. On an error the rest of the input is dropped (as PostgreSQL does).
   */
  private void copyIn(CopyCommand copy) throws SQLException, IOException {
    List<String> columns = copy.columns();
    if (columns.isEmpty()) {
      try (Statement statement = session.connection().createStatement();
           ResultSet none = statement.executeQuery("SELECT * FROM " + copy.table() + " WHERE 1 = 0")) {
        columns = new java.util.ArrayList<>();
        for (int c = 1; c <= none.getMetaData().getColumnCount(); c++) {
          columns.add(none.getMetaData().getColumnName(c));
        }
      }
    }
    String insert = "INSERT INTO " + copy.table() + " (" + String.join(", ", columns) + ") VALUES ("
        + String.join(", ", java.util.Collections.nCopies(columns.size(), "?")) + ")";
    try (java.sql.PreparedStatement batch = session.connection().prepareStatement(insert)) {
      java.sql.ParameterMetaData types = batch.getParameterMetaData();
      Message response = new Message('G').byte1('\0').int16(columns.size());
      for (int c = 0; c < columns.size(); c++) {
        response.int16(0);
      }
      session.wire().send(response);
      session.wire().flush();
      StringBuilder pending = new StringBuilder();
      long rows = 0;
      int batched = 0;
      boolean headerSkipped = !copy.header();
      while (true) {
        Received message = session.wire().read();
        if (message.type() == 'f') {
          throw new SQLException("COPY from stdin failed: " + message.fields().cstring(), PgStates.QUERY_CANCELED);
        }
        if (message.type() == 'X') {
          throw new EOFException();
        }
        boolean done = message.type() == 'c';
        if (message.type() == 'd') {
          pending.append(new String(message.body(), StandardCharsets.UTF_8));
        } else if (!done) {
          continue; // Flush and Sync mean nothing during COPY
        }
        int start = 0; // lines are cut from the buffer, which is compacted once per message
        int end;
        while ((end = pending.indexOf("\n", start)) >= 0 || done && start < pending.length()) {
          String line = end >= 0 ? pending.substring(start, end) : pending.substring(start);
          start = end >= 0 ? end + 1 : pending.length();
          line = line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
          if (!headerSkipped) {
            headerSkipped = true;
            continue;
          }
          if (!copy.csv() && line.equals("\\.")) {
            continue; // the old end-of-data marker
          }
          List<String> fields = copy.fields(line);
          if (fields.size() != columns.size()) {
            throw new SQLException("COPY line " + (rows + 1) + " has " + fields.size() + " fields where " + copy.table()
                + " takes " + columns.size() + ".", PgStates.BAD_COPY_FORMAT);
          }
          for (int c = 0; c < fields.size(); c++) {
            String field = fields.get(c);
            int type = types.getParameterType(c + 1);
            if (field == null) {
              batch.setNull(c + 1, type);
            } else {
              batch.setObject(c + 1, PgBinary.parameter(field.getBytes(StandardCharsets.UTF_8), false, 0, type));
            }
          }
          batch.addBatch();
          rows++;
          if (++batched == COPY_BATCH) {
            batch.executeBatch();
            batched = 0;
          }
        }
        pending.delete(0, start);
        if (done) {
          break;
        }
      }
      if (batched > 0) {
        batch.executeBatch();
      }
      session.complete("COPY " + rows);
    }
  }
}
