package io.tablesql.server;

import io.tablesql.server.PgWire.Fields;
import io.tablesql.server.PgWire.Message;
import io.tablesql.server.PgWire.Received;
import java.io.IOException;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A session's extended query protocol: Parse makes a prepared statement of the driver (so its
 * plan is the driver's, cached), Bind a portal with its parameters and result formats, Describe
 * and Execute (with a row limit: a portal suspended keeps its rows for the next Execute), Close.
 * Errors go to {@link PgSession}, which skips to Sync.
 */
final class PgExtendedQuery {
  /** A parsed statement: its text, the driver's prepared statement (null for one the session runs itself), and
   * the JDBC type the driver expects for each {@code ?} (read once: Bind runs on every execution). */
  private record Parsed(String sql, List<String> words, QueryText.JdbcText jdbc, int[] declaredTypes,
      PreparedStatement prepared, int[] jdbcTypes) {
  }

  /** A bound statement: its parameters set, its result formats, and its rows once executed. */
  private static final class Portal {
    final Parsed parsed;
    final int[] resultFormats;
    ResultSet rows;
    int[] oids;
    long sent;
    boolean described;

    Portal(Parsed parsed, int[] resultFormats) {
      this.parsed = parsed;
      this.resultFormats = resultFormats;
    }
  }

  private final PgSession session;
  private final Map<String, Parsed> statements = new HashMap<>();
  private final Map<String, Portal> portals = new HashMap<>();

  PgExtendedQuery(PgSession session) {
    this.session = session;
  }

  void handle(Received message) throws IOException, SQLException {
    Fields fields = message.fields();
    switch (message.type()) {
      case 'P' -> parse(fields);
      case 'B' -> bind(fields);
      case 'D' -> describe(fields);
      case 'E' -> execute(fields);
      default -> close(fields);
    }
  }

  /** Sync: the unnamed portal ends with the implicit transaction's messages. */
  void sync() {
    closePortal("");
  }

  private void parse(Fields fields) throws IOException, SQLException {
    String name = fields.cstring();
    String sql = fields.cstring();
    int[] types = new int[fields.int16()];
    for (int i = 0; i < types.length; i++) {
      types[i] = fields.int32();
    }
    closeStatement(name);
    List<String> words = QueryText.leadingWords(sql, 3);
    QueryText.JdbcText jdbc = QueryText.jdbc(sql);
    PreparedStatement prepared = PgSession.isControl(words) || jdbc.sql().isBlank() ? null
        : session.connection().prepareStatement(jdbc.sql());
    int[] jdbcTypes = new int[jdbc.parameters().size()];
    java.util.Arrays.fill(jdbcTypes, Types.OTHER);
    if (prepared != null && jdbcTypes.length > 0) {
      ParameterMetaData meta = prepared.getParameterMetaData();
      for (int j = 0; j < jdbcTypes.length; j++) {
        jdbcTypes[j] = meta.getParameterType(j + 1);
      }
    }
    statements.put(name, new Parsed(sql, words, jdbc, types, prepared, jdbcTypes));
    session.wire().send(new Message('1')); // ParseComplete
  }

  private void bind(Fields fields) throws IOException, SQLException {
    String portalName = fields.cstring();
    Parsed parsed = statement(fields.cstring());
    int[] parameterFormats = shorts(fields);
    byte[][] values = new byte[fields.int16()][];
    for (int i = 0; i < values.length; i++) {
      int length = fields.int32();
      values[i] = length < 0 ? null : fields.bytes(length);
    }
    int[] resultFormats = shorts(fields);
    if (parsed.prepared() != null) {
      PreparedStatement prepared = parsed.prepared();
      prepared.clearParameters();
      for (int j = 0; j < parsed.jdbc().parameters().size(); j++) {
        int n = parsed.jdbc().parameters().get(j) - 1;
        if (n >= values.length) {
          throw new SQLException("The statement has parameter $" + (n + 1) + ", and Bind gave " + values.length
              + " values.", PgStates.PROTOCOL_VIOLATION);
        }
        boolean binary = parameterFormats.length == 1 ? parameterFormats[0] == 1
            : parameterFormats.length > n && parameterFormats[n] == 1;
        int oid = n < parsed.declaredTypes().length ? parsed.declaredTypes()[n] : 0;
        int jdbcType = parsed.jdbcTypes()[j];
        Object value = PgBinary.parameter(values[n], binary, oid, jdbcType);
        if (value == null) {
          prepared.setNull(j + 1, jdbcType == Types.OTHER ? PgBinary.jdbcTypeOf(oid) : jdbcType);
        } else {
          prepared.setObject(j + 1, value);
        }
      }
    }
    closePortal(portalName);
    portals.put(portalName, new Portal(parsed, resultFormats));
    session.wire().send(new Message('2')); // BindComplete
  }

  private void describe(Fields fields) throws IOException, SQLException {
    char kind = (char) fields.byte1();
    String name = fields.cstring();
    if (kind == 'S') {
      Parsed parsed = statement(name);
      Message parameters = new Message('t').int16(parameterCount(parsed));
      for (int n = 0; n < parameterCount(parsed); n++) {
        parameters.int32(parameterType(parsed, n));
      }
      session.wire().send(parameters);
      sendDescription(parsed, null);
      return;
    }
    Portal portal = portal(name);
    portal.described = true;
    sendDescription(portal.parsed, portal.resultFormats);
  }

  /** RowDescription of what a statement returns, or NoData. */
  private void sendDescription(Parsed parsed, int[] formats) throws IOException, SQLException {
    if (parsed.prepared() == null) {
      boolean show = !parsed.words().isEmpty() && parsed.words().get(0).equals("SHOW");
      session.wire().send(show ? PgSession.showDescription(parsed.sql().trim().substring(4)) : new Message('n'));
      return;
    }
    ResultSetMetaData meta = returnsRows(parsed) ? parsed.prepared().getMetaData() : null;
    if (meta == null || meta.getColumnCount() == 0) {
      session.wire().send(new Message('n')); // NoData
      return;
    }
    session.wire().send(PgTypes.description(meta, PgTypes.oids(meta), formats));
  }

  private static boolean returnsRows(Parsed parsed) {
    String first = parsed.words().isEmpty() ? "" : parsed.words().get(0);
    return List.of("SELECT", "WITH", "VALUES", "EXPLAIN", "TABLE", "(").contains(first) || first.startsWith("(");
  }

  private static int parameterCount(Parsed parsed) {
    return parsed.jdbc().parameters().stream().mapToInt(Integer::intValue).max().orElse(0);
  }

  /** The type of $n+1: as the client declared it, else as the driver infers it. */
  private static int parameterType(Parsed parsed, int n) {
    if (n < parsed.declaredTypes().length && parsed.declaredTypes()[n] != 0) {
      return parsed.declaredTypes()[n];
    }
    int position = parsed.jdbc().parameters().indexOf(n + 1);
    if (position < 0) {
      return PgTypes.TEXT;
    }
    return PgTypes.oid(parsed.jdbcTypes()[position]);
  }

  private void execute(Fields fields) throws IOException, SQLException {
    Portal portal = portal(fields.cstring());
    int limit = fields.int32();
    Parsed parsed = portal.parsed;
    if (parsed.prepared() == null) {
      if (parsed.words().isEmpty()) {
        session.wire().send(new Message('I')); // EmptyQueryResponse
      } else {
        session.control(parsed.sql(), parsed.words(), false);
      }
      return;
    }
    if (portal.rows == null) {
      session.checkNotFailed(parsed.words());
      session.running(parsed.prepared());
      parsed.prepared().setQueryTimeout(session.queryTimeoutSeconds());
      try {
        if (!parsed.prepared().execute()) {
          session.notices(parsed.prepared());
          session.complete(PgErrors.tag(parsed.words(), parsed.prepared().getLargeUpdateCount()));
          return;
        }
        portal.rows = parsed.prepared().getResultSet();
        portal.oids = PgTypes.oids(portal.rows.getMetaData());
      } finally {
        session.running(null);
      }
    }
    long sentNow = 0;
    while ((limit <= 0 || sentNow < limit) && portal.rows.next()) {
      session.wire().send(PgTypes.row(portal.rows, portal.oids, portal.resultFormats));
      sentNow++;
    }
    portal.sent += sentNow;
    if (limit > 0 && sentNow == limit) {
      session.wire().send(new Message('s')); // PortalSuspended: the next Execute goes on
      return;
    }
    session.notices(parsed.prepared());
    session.complete("SELECT " + portal.sent);
    portal.rows.close();
  }

  private void close(Fields fields) throws IOException, SQLException {
    char kind = (char) fields.byte1();
    String name = fields.cstring();
    if (kind == 'S') {
      closeStatement(name);
    } else {
      closePortal(name);
    }
    session.wire().send(new Message('3')); // CloseComplete
  }

  private Parsed statement(String name) throws SQLException {
    Parsed parsed = statements.get(name);
    if (parsed == null) {
      throw new SQLException("Prepared statement \"" + name + "\" does not exist.", PgStates.INVALID_STATEMENT_NAME);
    }
    return parsed;
  }

  private Portal portal(String name) throws SQLException {
    Portal portal = portals.get(name);
    if (portal == null) {
      throw new SQLException("Portal \"" + name + "\" does not exist.", PgStates.INVALID_CURSOR_NAME);
    }
    return portal;
  }

  /**
   * DEALLOCATE: closes the named statement (the SQL command and the protocol share the names),
   * 26000 if there is none; with a null name every named statement and portal (the unnamed ones
   * stay: the command itself may be running as them).
   */
  void deallocate(String name) throws SQLException {
    if (name != null) {
      statement(name);
      closeStatement(name);
      return;
    }
    for (String named : List.copyOf(statements.keySet())) {
      if (!named.isEmpty()) {
        closeStatement(named);
      }
    }
    for (String named : List.copyOf(portals.keySet())) {
      if (!named.isEmpty()) {
        closePortal(named);
      }
    }
  }

  private void closeStatement(String name) {
    Parsed parsed = statements.remove(name);
    portals.entrySet().removeIf(entry -> {
      if (entry.getValue().parsed == parsed) {
        closeRows(entry.getValue());
        return true;
      }
      return false;
    });
    if (parsed != null && parsed.prepared() != null) {
      try {
        parsed.prepared().close();
      } catch (SQLException e) {
        // closing frees what the driver held; nothing to tell the client
      }
    }
  }

  private void closePortal(String name) {
    Portal portal = portals.remove(name);
    if (portal != null) {
      closeRows(portal);
    }
  }

  private static void closeRows(Portal portal) {
    if (portal.rows != null) {
      try {
        portal.rows.close();
      } catch (SQLException e) {
        // nothing to tell the client
      }
    }
  }

  private static int[] shorts(Fields fields) throws PgWire.ProtocolViolation {
    int[] values = new int[fields.int16()];
    for (int i = 0; i < values.length; i++) {
      values[i] = fields.int16();
    }
    return values;
  }
}
