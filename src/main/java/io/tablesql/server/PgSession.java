package io.tablesql.server;

import io.tablesql.server.PgWire.Message;
import io.tablesql.server.PgWire.ProtocolViolation;
import io.tablesql.server.PgWire.Received;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import javax.net.ssl.SSLSocket;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client session (docs/architecture/server.md, "The PostgreSQL-protocol server"): the startup and
 * authentication, then the client's messages in order, each statement run through the session's
 * own tablesql connection. Runs on its own thread, which it blocks on the socket and the driver.
 */
final class PgSession implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(PgSession.class);
  private static final int PROTOCOL_3 = 196608;
  private static final int SSL_REQUEST = 80877103;
  private static final int GSSENC_REQUEST = 80877104;
  private static final int CANCEL_REQUEST = 80877102;

  private final PgServer server;
  private final Socket socket;
  private final int processId;
  private final int secretKey;
  private final PgSettings settings = new PgSettings();
  /** The open transaction's savepoints, oldest first, each with the settings as they were when it was set. */
  private final List<Mark> savepoints = new java.util.ArrayList<>();
  /** The settings as the open transaction began with them: a rollback goes back to them, as in PostgreSQL. */
  private Map<String, String> settingsAtBegin;

  /** A savepoint of the open transaction and the session's settings at it. */
  private record Mark(java.sql.Savepoint savepoint, Map<String, String> settings) {
  }
  private java.util.Set<String> driverProperties;
  private PgWire wire;
  private Connection connection;
  private final PgExtendedQuery extended = new PgExtendedQuery(this);
  private volatile Statement running;
  /** Whether the session speaks TLS. */
  private boolean encrypted;
  /** The socket the session reads: the client's, or the TLS one over it. */
  private Socket active;
  /** ReadyForQuery's status: idle, in a transaction, or in a failed one. */
  private char status = 'I';

  PgSession(PgServer server, Socket socket, int processId, int secretKey) {
    this.server = server;
    this.socket = socket;
    this.active = socket;
    this.processId = processId;
    this.secretKey = secretKey;
  }

  int processId() {
    return processId;
  }

  /** Cancels the statement running now, if the key is this session's (CancelRequest). */
  void cancel(int key) {
    Statement statement = running;
    if (key == secretKey && statement != null) {
      try {
        statement.cancel();
      } catch (SQLException e) {
        LOG.debug("Cancelling session {}'s statement failed: {}", processId, e.getMessage());
      }
    }
  }

  @Override
  public void run() {
    try {
      serve();
    } finally {
      closeConnection();
      try {
        socket.close(); // after any last error was sent: closing first would lose it
      } catch (IOException e) {
        // closed already
      }
      server.ended(this);
    }
  }

  private void serve() {
    try {
      wire = new PgWire(socket.getInputStream(), socket.getOutputStream());
      if (!startup()) {
        return;
      }
      while (true) {
        Received message;
        try {
          active.setSoTimeout((int) Math.min(Integer.MAX_VALUE, idleTimeoutMillis()));
          message = wire.read();
        } catch (java.net.SocketTimeoutException e) {
          fatal(PgStates.IDLE_SESSION_TIMEOUT, "The session was idle longer than its idle timeout (--idle-timeout, idle_session_timeout) "
              + "and is closed.");
          return;
        } finally {
          active.setSoTimeout(0);
        }
        if (!handle(message)) {
          return;
        }
      }
    } catch (ProtocolViolation e) {
      fatal(PgStates.PROTOCOL_VIOLATION, e.getMessage());
    } catch (EOFException e) {
      // the client went away
    } catch (IOException e) {
      LOG.debug("Session {} ended: {}", processId, e.getMessage());
    }
  }

  /** The startup packet, its SSL and GSS preludes, authentication; false if the session ends there. */
  private boolean startup() throws IOException {
    PgWire.Fields startup;
    int code;
    while (true) {
      startup = new PgWire.Fields(wire.readStartup());
      code = startup.int32();
      if (code == SSL_REQUEST && server.tls() != null && !encrypted) {
        wire.sendByte('S');
        startTls();
        continue;
      }
      if (code == SSL_REQUEST || code == GSSENC_REQUEST) {
        wire.sendByte('N'); // not offered: the client goes on in the clear, or gives up
        continue;
      }
      break;
    }
    if (code == CANCEL_REQUEST) {
      server.cancel(startup.int32(), startup.int32());
      return false;
    }
    if (code != PROTOCOL_3) {
      fatal(PgStates.PROTOCOL_VIOLATION, "Protocol version " + (code >>> 16) + "." + (code & 0xffff) + " is not supported: tablesql "
          + "speaks PostgreSQL's protocol 3.0.");
      return false;
    }
    while (!startup.atEnd()) {
      String name = startup.cstring();
      if (name.isEmpty()) {
        break;
      }
      settings.put(name, startup.cstring());
    }
    if (!server.admit(this)) {
      fatal(PgStates.TOO_MANY_CONNECTIONS, "Sorry, too many clients already: the server takes " + server.maxSessions() + " sessions "
          + "(--max-sessions).");
      return false;
    }
    return authenticate();
  }

  /** The TLS handshake on the session's socket, as the server; the session goes on over it. */
  private void startTls() throws IOException {
    SSLSocket tls = (SSLSocket) server.tls().getSocketFactory().createSocket(socket,
        socket.getInetAddress().getHostAddress(), socket.getPort(), true);
    tls.setUseClientMode(false);
    tls.startHandshake();
    active = tls;
    wire = new PgWire(tls.getInputStream(), tls.getOutputStream());
    encrypted = true;
  }

  /**
   * Mode (a): the client's password is the account key or SAS token, judged by the service when
   * the session's driver connection opens with it; a cleartext password only from loopback.
   */
  private boolean authenticate() throws IOException {
    String user = settings.getOrDefault("user", "");
    String account = server.accountName();
    String database = settings.getOrDefault("database", user);
    if (server.users() != null) {
      return checkDatabase(server.users().containsKey(database) ? account : database)
          && authenticateWithScram(user) && open(user, new Properties());
    }
    if (!encrypted && !socket.getInetAddress().isLoopbackAddress()) {
      // a password in clear text crosses only the machine's own loopback
      fatal(PgStates.INVALID_AUTHORIZATION, server.tls() != null ? "This server takes passwords from other machines only over TLS: "
          + "connect with sslmode=require (or verify-full)." : "This server takes passwords from other machines only "
          + "over TLS, which it was started without (--tls-cert, --tls-key): connect from the machine it runs on.");
      return false;
    }
    if (!checkDatabase(database)) {
      return false;
    }
    wire.send(new Message('R').int32(3)); // AuthenticationCleartextPassword
    wire.flush();
    Received answer = wire.read();
    if (answer.type() != 'p') {
      throw new ProtocolViolation("a message of type '" + answer.type() + "' where a password was due");
    }
    String password = answer.fields().cstring();
    if (!user.equals(account)) {
      fatal(PgStates.INVALID_PASSWORD, "Password authentication failed for user \"" + user + "\": log in as the storage account's "
          + "name, " + account + ", with its key or a SAS token as the password.");
      return false;
    }
    Properties properties = new Properties();
    properties.setProperty("password", password);
    return open(user, properties);
  }

  /** The database is the account: any other name is 3D000 (an empty one, or the user's by default, is the account's). */
  private boolean checkDatabase(String database) {
    if (!database.isEmpty() && !database.equals(server.accountName())) {
      fatal(PgStates.INVALID_CATALOG_NAME, "Database \"" + database + "\" does not exist: the database is the storage account, "
          + server.accountName() + ".");
      return false;
    }
    return true;
  }

  /**
   * Mode (b): SCRAM-SHA-256 against the users file's verifier; the password never crosses the
   * wire. A user not in the file fails as a wrong password does, at the same step.
   */
  private boolean authenticateWithScram(String user) throws IOException {
    wire.send(new Message('R').int32(10).cstring(Scram.MECHANISM).byte1('\0')); // AuthenticationSASL
    wire.flush();
    Received initial = wire.read();
    if (initial.type() != 'p') {
      throw new ProtocolViolation("a message of type '" + initial.type() + "' where SASLInitialResponse was due");
    }
    PgWire.Fields fields = initial.fields();
    String mechanism = fields.cstring();
    int length = fields.int32();
    if (!mechanism.equals(Scram.MECHANISM) || length < 0) {
      fatal(PgStates.INVALID_AUTHORIZATION, "Authentication " + mechanism + " is not offered: this server takes " + Scram.MECHANISM + ".");
      return false;
    }
    Scram.Exchange exchange = new Scram.Exchange(server.users().get(user), user);
    String serverFirst;
    try {
      serverFirst = exchange.serverFirst(new String(fields.bytes(length), StandardCharsets.UTF_8));
    } catch (IllegalArgumentException e) {
      fatal(PgStates.INVALID_AUTHORIZATION, "SCRAM authentication failed: " + e.getMessage() + ".");
      return false;
    }
    wire.send(new Message('R').int32(11).raw(serverFirst.getBytes(StandardCharsets.UTF_8))); // SASLContinue
    wire.flush();
    Received response = wire.read();
    if (response.type() != 'p') {
      throw new ProtocolViolation("a message of type '" + response.type() + "' where SASLResponse was due");
    }
    String serverFinal = exchange.serverFinal(new String(response.body(), StandardCharsets.UTF_8));
    if (serverFinal == null) {
      LOG.info("Session {} from {} was refused: 28P01", processId, socket.getInetAddress().getHostAddress());
      fatal(PgStates.INVALID_PASSWORD, "Password authentication failed for user \"" + user + "\".");
      return false;
    }
    wire.send(new Message('R').int32(12).raw(serverFinal.getBytes(StandardCharsets.UTF_8))); // SASLFinal
    return true;
  }

  /**
   * The startup packet's {@code options} ({@code -c name=value} or {@code --name=value}, as libpq
   * writes them): the driver's own properties for this session's connection (its
   * {@code getPropertyInfo} names them); the others are session settings, as SET would make them.
   */
  private void applyOptions(Properties properties) throws SQLException {
    String options = settings.remove("options");
    if (options == null || options.isBlank()) {
      return;
    }
    java.util.Set<String> driverProperties = driverProperties();
    java.util.regex.Matcher option = java.util.regex.Pattern.compile("(?:-c\\s*|--)([A-Za-z_][\\w.]*)=(\\S*)")
        .matcher(options);
    while (option.find()) {
      String name = option.group(1);
      if (driverProperties.contains(name.toLowerCase(Locale.ROOT))) {
        properties.setProperty(name, option.group(2));
      } else {
        settings.put(name, option.group(2));
      }
    }
  }

  /** The names of the driver's properties (its {@code getPropertyInfo}), in lower case; read once a session. */
  private java.util.Set<String> driverProperties() throws SQLException {
    if (driverProperties == null) {
      java.util.Set<String> names = new java.util.HashSet<>();
      for (java.sql.DriverPropertyInfo info : DriverManager.getDriver(server.driverUrl())
          .getPropertyInfo(server.driverUrl(), null)) {
        names.add(info.name.toLowerCase(Locale.ROOT));
      }
      driverProperties = names;
    }
    return driverProperties;
  }

  /** Opens the session's driver connection; then AuthenticationOk and the session's parameters. */
  private boolean open(String user, Properties properties) throws IOException {
    try {
      applyOptions(properties);
      // columns without a name are labelled as PostgreSQL's clients expect (count, not EXPR$0),
      // unless the connection string or the client's options say otherwise
      properties.putIfAbsent("columnLabels", "postgresql");
      connection = DriverManager.getConnection(server.driverUrl(), properties);
    } catch (SQLException e) {
      // the client's password, when it is the credential; otherwise the server's own was refused
      boolean refused = server.users() == null && e.getSQLState() != null && e.getSQLState().startsWith("28");
      LOG.info("Session {} from {} was refused: {}", processId, socket.getInetAddress().getHostAddress(),
          e.getSQLState());
      fatal(refused ? PgStates.INVALID_PASSWORD : PgErrors.state(e), refused ? "Password authentication failed for user \"" + user
          + "\": " + e.getMessage() : server.users() == null ? e.getMessage()
          : "The server could not open the account with its connection string: " + e.getMessage());
      return false;
    }
    settings.opened();
    wire.send(new Message('R').int32(0)); // AuthenticationOk
    for (Map.Entry<String, String> parameter : parameters().entrySet()) {
      wire.send(new Message('S').cstring(parameter.getKey()).cstring(parameter.getValue()));
    }
    wire.send(new Message('K').int32(processId).int32(secretKey));
    ready();
    return true;
  }

  /** What ParameterStatus reports at startup: what clients check before they go on. */
  private Map<String, String> parameters() {
    Map<String, String> parameters = new LinkedHashMap<>();
    parameters.put("server_version", PgServer.SERVER_VERSION);
    parameters.put("server_encoding", "UTF8");
    parameters.put("client_encoding", "UTF8");
    parameters.put("DateStyle", "ISO, MDY");
    parameters.put("IntervalStyle", "postgres");
    parameters.put("TimeZone", "UTC");
    parameters.put("integer_datetimes", "on");
    parameters.put("standard_conforming_strings", "on");
    parameters.put("is_superuser", "off");
    parameters.put("session_authorization", settings.getOrDefault("user", ""));
    parameters.put("application_name", settings.getOrDefault("application_name", ""));
    return parameters;
  }

  /** One message; false when the session ends. */
  private boolean handle(Received message) throws IOException {
    switch (message.type()) {
      case 'Q' -> simpleQuery(message.fields().cstring());
      case 'X' -> {
        return false;
      }
      case 'S' -> {
        extended.sync();
        ready();
      }
      case 'd', 'c', 'f' -> { } // the rest of a COPY's input after it failed: dropped
      case 'H' -> wire.flush();
      case 'P', 'B', 'D', 'E', 'C' -> {
        try {
          extended.handle(message);
        } catch (SQLException | RuntimeException | LinkageError | AssertionError failure) {
          SQLException e = asSqlException(failure);
          // the extended protocol's rule: after an error, everything up to Sync is skipped
          error(PgErrors.state(e), e.getMessage());
          if (status == 'T') {
            status = 'E';
          }
          skipToSync();
        }
      }
      default -> throw new ProtocolViolation("a message of unknown type '" + message.type() + "'");
    }
    return true;
  }

  private void skipToSync() throws IOException {
    while (true) {
      Received message = wire.read();
      if (message.type() == 'S') {
        extended.sync();
        ready();
        return;
      }
      if (message.type() == 'X') {
        throw new EOFException();
      }
    }
  }

  /** A simple-query message: its statements in order, until one fails; then ReadyForQuery. */
  private void simpleQuery(String text) throws IOException {
    List<String> statements = QueryText.statements(text);
    if (statements.isEmpty()) {
      wire.send(new Message('I')); // EmptyQueryResponse
    }
    for (String sql : statements) {
      try {
        execute(sql);
      } catch (SQLException | RuntimeException | LinkageError | AssertionError failure) {
        SQLException e = asSqlException(failure);
        error(PgErrors.state(e), e.getMessage());
        if (status == 'T') {
          status = 'E';
        }
        break;
      }
    }
    ready();
  }

  private void execute(String sql) throws SQLException, IOException {
    List<String> words = QueryText.leadingWords(sql, 3);
    if (!control(sql, words, true)) {
      run(sql, words);
    }
  }

  /** Refuses a statement in a failed transaction other than one that ends it (25P02). */
  void checkNotFailed(List<String> words) throws SQLException {
    String first = words.isEmpty() ? "" : words.get(0);
    if (status == 'E' && !List.of("COMMIT", "END", "ROLLBACK", "ABORT").contains(first)) {
      throw new SQLException("The transaction has failed: statements are ignored until it ends (ROLLBACK).",
          PgStates.IN_FAILED_TRANSACTION);
    }
  }

  /** Whether a statement is one the session itself runs rather than the driver (transactions, SET, SHOW). */
  static boolean isControl(List<String> words) {
    String first = words.isEmpty() ? "" : words.get(0);
    return List.of("BEGIN", "START", "COMMIT", "END", "ROLLBACK", "ABORT", "SET", "RESET", "SHOW", "COPY",
        "DEALLOCATE", "DISCARD", "SAVEPOINT", "RELEASE").contains(first);
  }

  /**
   * Runs a statement the session runs itself; false for one of the driver's. {@code describe}:
   * SHOW sends its RowDescription (not when a portal was described already).
   */
  boolean control(String sql, List<String> words, boolean describe) throws SQLException, IOException {
    checkNotFailed(words);
    String first = words.isEmpty() ? "" : words.get(0);
    if (!isControl(words)) {
      return false;
    }
    switch (first) {
      case "BEGIN", "START" -> {
        if (status == 'I') {
          begin();
        } else {
          notice(PgStates.ACTIVE_TRANSACTION, "There is already a transaction in progress.");
        }
        complete(first.equals("BEGIN") ? "BEGIN" : "START TRANSACTION");
      }
      case "COMMIT", "END" -> {
        complete(endTransaction(status != 'E'));
        chainIfAsked(words);
      }
      case "ROLLBACK", "ABORT" -> {
        if (words.size() > 1 && words.get(1).equals("PREPARED")) {
          throw new SQLException("ROLLBACK PREPARED: there are no prepared (two-phase) transactions here.",
              PgStates.FEATURE_NOT_SUPPORTED);
        }
        String to = savepointAfter(sql, "(?i)^\\s*(ROLLBACK|ABORT)(\\s+(WORK|TRANSACTION))?\\s+TO(\\s+SAVEPOINT)?\\s+");
        if (to == null && sql.matches("(?is)^\\s*(ROLLBACK|ABORT)(\\s+(WORK|TRANSACTION))?\\s+TO\\b.*")) {
          throw new SQLException("ROLLBACK TO needs a savepoint's name: ROLLBACK TO SAVEPOINT name.",
              PgStates.SYNTAX_ERROR);
        }
        if (to != null) {
          Mark mark = savepoint(to, "ROLLBACK TO SAVEPOINT");
          connection.rollback(mark.savepoint());
          settings.restore(mark.settings());
          status = 'T'; // a failed transaction goes on from the savepoint
          complete("ROLLBACK");
        } else {
          complete(endTransaction(false));
          chainIfAsked(words);
        }
      }
      case "SAVEPOINT" -> {
        if (status == 'I') {
          throw new SQLException("SAVEPOINT can only be used in transaction blocks (BEGIN first).", PgStates.NO_ACTIVE_TRANSACTION);
        }
        String name = savepointAfter(sql, "(?i)^\\s*SAVEPOINT\\s+");
        if (name == null) {
          throw new SQLException("SAVEPOINT needs a name: SAVEPOINT name.", PgStates.SYNTAX_ERROR);
        }
        savepoints.add(new Mark(connection.setSavepoint(name), settings.copy()));
        complete("SAVEPOINT");
      }
      case "RELEASE" -> {
        Mark mark = savepoint(savepointAfter(sql, "(?i)^\\s*RELEASE(\\s+SAVEPOINT)?\\s+"), "RELEASE SAVEPOINT");
        connection.releaseSavepoint(mark.savepoint());
        savepoints.subList(savepoints.indexOf(mark), savepoints.size()).clear();
        complete("RELEASE");
      }
      case "SET" -> {
        set(sql.substring(3).trim());
        complete("SET");
      }
      case "RESET" -> {
        settings.reset(sql.substring(5).trim());
        complete("RESET");
      }
      case "COPY" -> new PgCopy(this).run(CopyCommand.parse(sql));
      case "DEALLOCATE" -> {
        String name = sql.trim().substring("DEALLOCATE".length()).trim().replaceFirst("(?i)^PREPARE\\s+", "")
            .replaceFirst(";\\s*$", "").trim();
        extended.deallocate(name.equalsIgnoreCase("ALL") ? null : identifier(name));
        complete(name.equalsIgnoreCase("ALL") ? "DEALLOCATE ALL" : "DEALLOCATE");
      }
      case "DISCARD" -> discard(words.size() > 1 ? words.get(1).replace(";", "") : "");
      default -> show(sql.substring(4).trim(), describe);
    }
    return true;
  }

  /** Ends the transaction: commits it, or rolls it back; its tag. A failed commit ends it too. */
  private String endTransaction(boolean commit) throws SQLException, IOException {
    if (status == 'I') {
      notice(PgStates.NO_ACTIVE_TRANSACTION, "There is no transaction in progress.");
      return commit ? "COMMIT" : "ROLLBACK";
    }
    status = 'I';
    savepoints.clear();
    Map<String, String> atBegin = settingsAtBegin;
    settingsAtBegin = null;
    boolean committed = false;
    try {
      if (commit) {
        connection.commit();
        committed = true;
      } else {
        connection.rollback();
      }
    } catch (SQLException e) {
      connection.rollback();
      throw e;
    } finally {
      connection.setAutoCommit(true);
      if (!committed && atBegin != null) {
        settings.restore(atBegin); // SET in a transaction that did not commit is undone, as in PostgreSQL
      } else {
        // SET LOCAL lasts until the transaction ends
        beforeLocal.forEach((key, before) -> before.ifPresentOrElse(v -> settings.put(key, v),
            () -> settings.remove(key)));
      }
      beforeLocal.clear();
    }
    return commit ? "COMMIT" : "ROLLBACK";
  }

  /** Opens a transaction block: the driver connection leaves auto-commit. */
  private void begin() throws SQLException {
    connection.setAutoCommit(false);
    status = 'T';
    settingsAtBegin = settings.copy();
  }

  /** COMMIT AND CHAIN, ROLLBACK AND CHAIN: a new transaction begins at once (AND NO CHAIN: none). */
  private void chainIfAsked(List<String> words) throws SQLException {
    if (words.size() > 2 && words.get(1).equals("AND") && words.get(2).startsWith("CHAIN")) {
      begin();
    }
  }

  /**
   * SET name = value, SET name TO value, SET SESSION ...: kept for SHOW. A driver property is its
   * connection's, fixed when the session opens: SET of one is refused (55P02) rather than kept
   * without effect, naming the startup option that sets it.
   */
  private void set(String assignment) throws SQLException, IOException {
    boolean local = assignment.regionMatches(true, 0, "LOCAL ", 0, 6);
    String text = assignment.replaceFirst("(?i)^(SESSION|LOCAL)\\s+", "");
    String[] parts = text.split("(?i)\\s*(=|\\s+TO\\s+)\\s*", 2);
    String value = parts.length > 1 ? parts[1].trim() : "";
    if (value.length() > 1 && value.startsWith("'") && value.endsWith("'")) {
      value = value.substring(1, value.length() - 1).replace("''", "'");
    }
    String name = parts[0].trim();
    if (driverProperties().contains(name.toLowerCase(Locale.ROOT))) {
      throw new SQLException("Parameter \"" + name + "\" is a property of the session's tablesql connection, set "
          + "when the session opens: connect with options='-c " + name + "=" + value + "' (libpq's PGOPTIONS), or "
          + "put it in the server's connection string.", PgStates.CANT_CHANGE_RUNTIME_PARAM);
    }
    String key = name.toLowerCase(Locale.ROOT);
    if (local && status == 'I') {
      notice(PgStates.NO_ACTIVE_TRANSACTION, "SET LOCAL can only be used in transaction blocks.");
      return; // as PostgreSQL: a warning, and nothing set
    }
    if (local) {
      beforeLocal.putIfAbsent(key, java.util.Optional.ofNullable(settings.get(key)));
    } else if (beforeLocal.containsKey(key)) {
      beforeLocal.put(key, java.util.Optional.of(value)); // the session's value, which the transaction's end keeps
    }
    settings.put(name, value);
  }

  /** Values SET LOCAL replaced in this transaction (empty: unset), given back when it ends. */
  private final Map<String, java.util.Optional<String>> beforeLocal = new java.util.HashMap<>();

  /** The savepoint's name that follows {@code prefix} in a statement, as PostgreSQL reads names; null if none. */
  private static String savepointAfter(String sql, String prefix) {
    java.util.regex.Matcher matcher = java.util.regex.Pattern.compile(prefix).matcher(sql);
    if (!matcher.find()) {
      return null;
    }
    String name = sql.substring(matcher.end()).replaceFirst(";\\s*$", "").trim();
    return name.isEmpty() ? null : identifier(name);
  }

  /** The latest savepoint of that name (PostgreSQL lets a name be reused); 3B001 if there is none. */
  private Mark savepoint(String name, String command) throws SQLException {
    if (status == 'I') {
      throw new SQLException(command + " can only be used in transaction blocks.", PgStates.NO_ACTIVE_TRANSACTION);
    }
    for (int i = savepoints.size() - 1; i >= 0; i--) {
      if (savepoints.get(i).savepoint().getSavepointName().equals(name)) {
        Mark found = savepoints.get(i);
        if (command.startsWith("ROLLBACK")) {
          savepoints.subList(i + 1, savepoints.size()).clear();
        }
        return found;
      }
    }
    throw new SQLException("Savepoint \"" + name + "\" does not exist.", PgStates.INVALID_SAVEPOINT);
  }

  /**
   * DISCARD ALL (what connection pools send when a connection goes back): the settings reset, every
   * named statement and portal closed; outside a transaction only, as PostgreSQL has it. DISCARD
   * PLANS, SEQUENCES and TEMP hold nothing here to discard.
   */
  private void discard(String what) throws SQLException, IOException {
    switch (what) {
      case "ALL" -> {
        if (status != 'I') {
          throw new SQLException("DISCARD ALL cannot run inside a transaction block.", PgStates.ACTIVE_TRANSACTION);
        }
        settings.reset("ALL");
        extended.deallocate(null);
      }
      case "PLANS", "SEQUENCES", "TEMP", "TEMPORARY" -> {
      }
      default -> throw new SQLException("DISCARD takes ALL, PLANS, SEQUENCES or TEMP, not \"" + what + "\".",
          PgStates.SYNTAX_ERROR);
    }
    complete("DISCARD " + (what.equals("TEMPORARY") ? "TEMP" : what));
  }

  /** A name as PostgreSQL reads it: as written in double quotes, else in lower case. */
  private static String identifier(String name) {
    return name.length() > 1 && name.startsWith("\"") && name.endsWith("\"")
        ? name.substring(1, name.length() - 1).replace("\"\"", "\"") : name.toLowerCase(Locale.ROOT);
  }

  /** The RowDescription of SHOW's one column. */
  static Message showDescription(String name) {
    String key = name.toLowerCase(Locale.ROOT).trim().replaceAll("\\s+", "_");
    return new Message('T').int16(1).cstring(key).int32(0).int16(0).int32(PgTypes.TEXT).int16(-1).int32(-1).int16(0);
  }

  private void show(String name, boolean describe) throws IOException, SQLException {
    String key = name.toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
    String value = settings.shown(key);
    if (value == null) {
      throw new SQLException("Unrecognized configuration parameter \"" + name + "\".", PgStates.UNDEFINED_OBJECT);
    }
    if (describe) {
      wire.send(showDescription(name));
    }
    wire.send(new Message('D').int16(1).value(value.getBytes(StandardCharsets.UTF_8)));
    complete("SHOW");
  }

  /** A statement for the driver: its rows described and sent as they are read, or its count. */
  private void run(String sql, List<String> words) throws SQLException, IOException {
    try (Statement statement = connection.createStatement()) {
      running = statement;
      statement.setQueryTimeout(queryTimeoutSeconds());
      boolean rows = statement.execute(sql);
      notices(statement.getWarnings());
      if (!rows) {
        complete(PgErrors.tag(words, statement.getLargeUpdateCount()));
        return;
      }
      try (ResultSet result = statement.getResultSet()) {
        int[] oids = PgTypes.oids(result.getMetaData());
        wire.send(PgTypes.description(result.getMetaData(), oids, null));
        long count = 0;
        while (result.next()) {
          wire.send(PgTypes.row(result, oids, null));
          count++;
        }
        notices(result.getWarnings());
        complete("SELECT " + count);
      }
    } finally {
      running = null;
    }
  }

  Connection connection() {
    return connection;
  }

  PgWire wire() {
    return wire;
  }

  /** How long the session may wait for a client's next message: idle_session_timeout, else --idle-timeout; 0 for ever. */
  private long idleTimeoutMillis() {
    String set = settings.get("idle_session_timeout");
    return set != null ? PgSettings.millis(set) : server.idleTimeoutMillis();
  }

  /**
   * The query timeout of the session's statements (JDBC's, in whole seconds, rounded up) from
   * statement_timeout: a statement past it is stopped with 57014.
   */
  int queryTimeoutSeconds() {
    long millis = PgSettings.millis(settings.getOrDefault("statement_timeout", "0"));
    return (int) Math.min(Integer.MAX_VALUE, (millis + 999) / 1000);
  }

  /** The statement running now, for CancelRequest; null when none is. */
  void running(Statement statement) {
    running = statement;
  }

  void notices(Statement statement) throws IOException, SQLException {
    notices(statement.getWarnings());
  }

  /**
   * A failure as the client is told it: the driver's SQLException as it is; anything else (a
   * value a message could not hold, say) as an internal error the session survives.
   */
  /** A statement's failure as the error its client gets; the driver's own are SQLExceptions, anything else (a bug) ends only the statement. */
  private static SQLException asSqlException(Throwable failure) {
    return failure instanceof SQLException e ? e : new SQLException("Internal error of the server: " + failure,
        PgStates.INTERNAL_ERROR, failure);
  }

  void complete(String tag) throws IOException {
    wire.send(new Message('C').cstring(tag));
  }

  private void ready() throws IOException {
    wire.send(new Message('Z').byte1(status));
    wire.flush();
  }

  private void notices(SQLWarning warnings) throws IOException {
    for (SQLWarning warning = warnings; warning != null; warning = warning.getNextWarning()) {
      notice(warning.getSQLState() == null ? PgStates.WARNING : warning.getSQLState(), warning.getMessage());
    }
  }

  private void notice(String state, String text) throws IOException {
    wire.send(fields('N', "WARNING", state, text));
  }

  private void error(String state, String text) throws IOException {
    wire.send(fields('E', "ERROR", state, text));
  }

  /** An error that ends the session, sent if the client is still there. */
  private void fatal(String state, String text) {
    try {
      wire.send(fields('E', "FATAL", state, text));
      wire.flush();
    } catch (IOException e) {
      // the client has gone already
    }
  }

  private static Message fields(char type, String severity, String state, String text) {
    return new Message(type).byte1('S').cstring(severity).byte1('V').cstring(severity).byte1('C').cstring(state)
        .byte1('M').cstring(text == null ? "" : text).byte1('\0');
  }

  private void closeConnection() {
    if (connection != null) {
      try {
        connection.close(); // discards an open transaction, as PostgreSQL does for a session that ends
      } catch (SQLException e) {
        LOG.debug("Closing session {}'s connection: {}", processId, e.getMessage());
      }
    }
  }
}
