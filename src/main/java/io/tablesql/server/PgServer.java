package io.tablesql.server;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * tablesql's PostgreSQL-protocol server (docs/architecture/server.md, "The PostgreSQL-protocol server"):
 * {@code java -jar target/tablesql-server.jar [--listen ADDRESS] [--port N] [--max-sessions N]
 * "<connection string>"}. Each client session is a tablesql connection of its own; a thread per
 * session.
 */
public final class PgServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PgServer.class);
  /** The version clients are told: one whose features they all handle. */
  static final String SERVER_VERSION = "14.0";
  /** The environment variable a connection string may come from, so that a key is not an argument. */
  static final String CONNECTION_VARIABLE = "TABLESQL_CONNECTION_STRING";
  private static final String USAGE = "Usage: java -jar tablesql-server.jar [--listen ADDRESS] [--port N] "
      + "[--max-sessions N] [--idle-timeout SECONDS] [--tls-cert FILE --tls-key FILE] [--users FILE]\n"
      + "       [\"<connection string>\" | @FILE]   (without either: the environment's " + CONNECTION_VARIABLE + ")\n"
      + "       java -jar tablesql-server.jar --hash-password < password.txt\n"
      + "  Without --users the connection string names the account without a credential\n"
      + "  (TableEndpoint=...;AccountName=...): clients log in as the account's name with its key or a SAS token\n"
      + "  as the password. With --users FILE (lines name:verifier, made by --hash-password) the connection\n"
      + "  string carries the credential and clients log in as those users (SCRAM-SHA-256).";

  private final ServerSocket listener;
  private final String connectionString;
  private final String accountName;
  private final int maxSessions;
  private final Map<Integer, PgSession> sessions = new ConcurrentHashMap<>();
  private final AtomicInteger nextProcessId = new AtomicInteger(1000);
  private final SecureRandom random = new SecureRandom();
  private final Thread acceptor;
  /** TLS, when --tls-cert and --tls-key give it; null otherwise. */
  private final SSLContext tls;

  /** The users who log in with SCRAM, by name; null when clients log in with the account's credential. */
  private final Map<String, Scram.Verifier> users;
  /** How long a session may wait for its client's next message (--idle-timeout); 0 for ever. */
  private volatile long idleTimeoutMillis;

  private PgServer(ServerSocket listener, String connectionString, String accountName, int maxSessions,
      SSLContext tls, Map<String, Scram.Verifier> users) {
    this.users = users;
    this.listener = listener;
    this.connectionString = connectionString;
    this.accountName = accountName;
    this.maxSessions = maxSessions;
    this.tls = tls;
    this.acceptor = new Thread(this::accept, "tablesql-server-accept");
  }

  /**
   * Starts a server on {@code address}:{@code port} (0: any free port) for the account of
   * {@code connectionString}, which must carry no credential: the clients' passwords are.
   */
  public static PgServer start(String address, int port, int maxSessions, String connectionString)
      throws IOException {
    return start(address, port, maxSessions, connectionString, null, null);
  }

  /** As {@link #start(String, int, int, String)}, speaking TLS with a PEM certificate chain and PKCS#8 key. */
  public static PgServer start(String address, int port, int maxSessions, String connectionString,
      Path tlsCertificate, Path tlsKey) throws IOException {
    return start(address, port, maxSessions, connectionString, tlsCertificate, tlsKey, null);
  }

  /**
   * As above; with {@code users} (a file of {@code name:verifier} lines, SCRAM-SHA-256 verifiers),
   * the connection string carries the credential and clients log in as those users with SCRAM.
   */
  public static PgServer start(String address, int port, int maxSessions, String connectionString,
      Path tlsCertificate, Path tlsKey, Path users) throws IOException {
    String account = accountOf(connectionString, users != null);
    Map<String, Scram.Verifier> verifiers = users == null ? null : users(users);
    if ((tlsCertificate == null) != (tlsKey == null)) {
      throw new IllegalArgumentException("--tls-cert and --tls-key go together.");
    }
    SSLContext tls = tlsCertificate == null ? null : PgTls.load(tlsCertificate, tlsKey);
    ServerSocket listener = new ServerSocket();
    listener.bind(new InetSocketAddress(InetAddress.getByName(address), port), 128);
    PgServer server = new PgServer(listener, connectionString, account, maxSessions, tls, verifiers);
    server.acceptor.start();
    return server;
  }

  /** The users file: one {@code name:verifier} a line; blank lines and {@code #} comments left out. */
  static Map<String, Scram.Verifier> users(Path file) throws IOException {
    Map<String, Scram.Verifier> users = new java.util.HashMap<>();
    int number = 0;
    for (String line : java.nio.file.Files.readAllLines(file)) {
      number++;
      if (line.isBlank() || line.trim().startsWith("#")) {
        continue;
      }
      int colon = line.indexOf(':');
      try {
        if (colon <= 0) {
          throw new IllegalArgumentException("not name:verifier");
        }
        users.put(line.substring(0, colon).trim(), Scram.Verifier.parse(line.substring(colon + 1).trim()));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--users " + file + " line " + number + ": " + e.getMessage()
            + ". Make a verifier with: java -jar tablesql-server.jar --hash-password");
      }
    }
    if (users.isEmpty()) {
      throw new IllegalArgumentException("--users " + file + " lists no user.");
    }
    return Map.copyOf(users);
  }

  /** The verifiers of the users who log in with SCRAM, or null when clients log in with the account's credential. */
  Map<String, Scram.Verifier> users() {
    return users;
  }

  /** Closes sessions idle longer than this (0: never), unless a session sets its own idle_session_timeout. */
  public PgServer idleTimeout(java.time.Duration timeout) {
    idleTimeoutMillis = timeout.toMillis();
    return this;
  }

  long idleTimeoutMillis() {
    return idleTimeoutMillis;
  }

  /** The server's TLS, or null when it speaks none. */
  SSLContext tls() {
    return tls;
  }

  /**
   * The account a connection string names. Without {@code --users} it must carry no credential
   * (the clients' passwords are); with it, it must (the users' logins are the server's).
   */
  static String accountOf(String connectionString, boolean withUsers) {
    String account = null;
    String credential = null;
    for (String pair : connectionString.split(";")) {
      int equals = pair.indexOf('=');
      String key = equals < 0 ? pair.trim() : pair.substring(0, equals).trim();
      String value = equals < 0 ? "" : pair.substring(equals + 1).trim();
      switch (key.toLowerCase(Locale.ROOT)) {
        case "accountkey", "sharedaccesssignature", "password" -> credential = key;
        case "usedevelopmentstorage" -> {
          credential = key;
          account = account == null ? "devstoreaccount1" : account;
        }
        case "accountname" -> account = value;
        default -> { }
      }
    }
    if (credential != null && !withUsers) {
      throw new IllegalArgumentException("The connection string carries a credential (" + credential + "): give it "
          + "without one, and clients log in with the account's key or a SAS token as their password, so the server "
          + "holds no secret; or list the users who may log in with --users FILE.");
    }
    if (credential == null && withUsers) {
      throw new IllegalArgumentException("With --users the connection string carries the credential the sessions "
          + "use (AccountKey=... or SharedAccessSignature=...; from a file or the environment, such as \"$(cat "
          + "account.txt)\", so that it stays out of a process listing).");
    }
    if (account == null || account.isEmpty()) {
      throw new IllegalArgumentException("The connection string names no AccountName: clients log in as the "
          + "account's name, so it must say it (TableEndpoint=...;AccountName=...).");
    }
    return account;
  }

  public int port() {
    return listener.getLocalPort();
  }

  String accountName() {
    return accountName;
  }

  int maxSessions() {
    return maxSessions;
  }

  String driverUrl() {
    return "jdbc:tablesql:" + connectionString;
  }

  private void accept() {
    while (!listener.isClosed()) {
      Socket socket;
      try {
        socket = listener.accept();
      } catch (IOException e) {
        if (!listener.isClosed()) {
          LOG.warn("Accepting a connection failed: {}", e.getMessage());
        }
        continue;
      }
      try {
        socket.setTcpNoDelay(true);
      } catch (IOException e) {
        // a socket that cannot take the option still works
      }
      PgSession session = new PgSession(this, socket, nextProcessId.incrementAndGet(), random.nextInt());
      Thread thread = new Thread(session, "tablesql-session-" + session.processId());
      thread.setDaemon(true);
      thread.start();
    }
  }

  /** Takes a session in, unless --max-sessions are open already. */
  boolean admit(PgSession session) {
    synchronized (sessions) {
      if (sessions.size() >= maxSessions) {
        return false;
      }
      sessions.put(session.processId(), session);
      return true;
    }
  }

  void ended(PgSession session) {
    sessions.remove(session.processId(), session);
  }

  /** A CancelRequest: cancels the running statement of the session it names, if its key matches. */
  void cancel(int processId, int secretKey) {
    PgSession session = sessions.get(processId);
    if (session != null) {
      session.cancel(secretKey);
    }
  }

  @Override
  public void close() throws IOException {
    listener.close();
  }

  /**
   * The connection string the server runs with: the argument as given, or read from the file an
   * {@code @FILE} argument names, or without one the environment's {@value #CONNECTION_VARIABLE}:
   * a string that carries a key stays out of the process listing.
   */
  static String connectionString(String argument, String environment) {
    if (argument == null) {
      if (environment == null || environment.isBlank()) {
        throw new IllegalArgumentException("No connection string: give it as the last argument, as @FILE, or in "
            + CONNECTION_VARIABLE + ".");
      }
      return environment.trim();
    }
    if (!argument.startsWith("@")) {
      return argument;
    }
    try {
      String text = java.nio.file.Files.readString(Path.of(argument.substring(1))).trim();
      if (text.isEmpty()) {
        throw new IllegalArgumentException("The connection string file " + argument.substring(1) + " is empty.");
      }
      return text;
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException("The connection string file " + argument.substring(1)
          + " cannot be read: " + e.getMessage());
    }
  }

  public static void main(String[] args) throws Exception {
    String address = "127.0.0.1";
    int port = 5432;
    int maxSessions = 64;
    String connectionString = null;
    Path tlsCertificate = null;
    Path tlsKey = null;
    Path users = null;
    long idleSeconds = 0;
    try {
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--listen" -> address = args[++i];
          case "--tls-cert" -> tlsCertificate = Path.of(args[++i]);
          case "--users" -> users = Path.of(args[++i]);
          case "--idle-timeout" -> idleSeconds = Long.parseLong(args[++i]);
          case "--hash-password" -> {
            String password = new String(System.in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
                .replaceFirst("\r?\n$", "");
            System.out.println(Scram.verifier(password));
            return;
          }
          case "--tls-key" -> tlsKey = Path.of(args[++i]);
          case "--port" -> port = Integer.parseInt(args[++i]);
          case "--max-sessions" -> maxSessions = Integer.parseInt(args[++i]);
          case "--help", "-h" -> {
            System.out.println(USAGE);
            return;
          }
          default -> {
            if (args[i].startsWith("--") || connectionString != null) {
              throw new IllegalArgumentException("Unknown argument " + args[i] + ".");
            }
            connectionString = args[i];
          }
        }
      }
      connectionString = connectionString(connectionString, System.getenv(CONNECTION_VARIABLE));
      PgServer server = start(address, port, maxSessions, connectionString, tlsCertificate, tlsKey, users)
          .idleTimeout(java.time.Duration.ofSeconds(idleSeconds));
      System.out.println("tablesql server for account " + server.accountName + " listening on " + address + ":"
          + server.port() + "; connect with: psql \"host=" + address + " port=" + server.port() + " user="
          + (users == null ? server.accountName : "<a user of " + users + ">") + " dbname=" + server.accountName
          + "\"" + (users == null ? " (the password is the account key or a SAS token)" : ""));
      server.acceptor.join();
    } catch (IllegalArgumentException | ArrayIndexOutOfBoundsException e) {
      System.err.println((e.getMessage() == null ? "A value is missing." : e.getMessage()) + "\n" + USAGE);
      System.exit(2);
    }
  }
}
