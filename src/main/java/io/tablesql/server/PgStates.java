package io.tablesql.server;

/**
 * The SQLSTATEs the server answers with, by PostgreSQL's names for them (its errcodes): the one
 * place the server writes a state. The driver's own states reach the client through
 * {@link PgErrors}, which maps the few PostgreSQL names otherwise.
 */
final class PgStates {
  /** A command that cannot run inside a transaction block. */
  static final String ACTIVE_TRANSACTION = "25001";
  /** COPY data that does not parse. */
  static final String BAD_COPY_FORMAT = "22P04";
  /** A SET of a setting fixed when the session opened. */
  static final String CANT_CHANGE_RUNTIME_PARAM = "55P02";
  /** The driver's 42S21: a column of that name exists. */
  static final String DUPLICATE_COLUMN = "42701";
  /** The driver's 42S01: a table of that name exists. */
  static final String DUPLICATE_TABLE = "42P07";
  /** Something PostgreSQL has that the server does not. */
  static final String FEATURE_NOT_SUPPORTED = "0A000";
  /** A session closed after idle_session_timeout. */
  static final String IDLE_SESSION_TIMEOUT = "57P05";
  /** A failure of the server itself; the session goes on. */
  static final String INTERNAL_ERROR = "XX000";
  /** A login refused for another reason than its password. */
  static final String INVALID_AUTHORIZATION = "28000";
  /** A database other than the account. */
  static final String INVALID_CATALOG_NAME = "3D000";
  /** A portal that does not exist. */
  static final String INVALID_CURSOR_NAME = "34000";
  /** A parameter's format code or value out of range. */
  static final String INVALID_PARAMETER_VALUE = "22023";
  /** A wrong password or unknown user. */
  static final String INVALID_PASSWORD = "28P01";
  /** A savepoint that does not exist. */
  static final String INVALID_SAVEPOINT = "3B001";
  /** A prepared statement that does not exist. */
  static final String INVALID_STATEMENT_NAME = "26000";
  /** A parameter value in text that its type cannot read. */
  static final String INVALID_TEXT_REPRESENTATION = "22P02";
  /** A statement in a failed transaction before it ends. */
  static final String IN_FAILED_TRANSACTION = "25P02";
  /** A savepoint command outside a transaction block. */
  static final String NO_ACTIVE_TRANSACTION = "25P01";
  /** A malformed, oversized or unknown message. */
  static final String PROTOCOL_VIOLATION = "08P01";
  /** A statement cancelled or past statement_timeout. */
  static final String QUERY_CANCELED = "57014";
  /** A statement or command that does not parse. */
  static final String SYNTAX_ERROR = "42601";
  /** A session beyond --max-sessions. */
  static final String TOO_MANY_CONNECTIONS = "53300";
  /** The driver's 42S22: no such column. */
  static final String UNDEFINED_COLUMN = "42703";
  /** An unknown setting. */
  static final String UNDEFINED_OBJECT = "42704";
  /** The driver's 42S02: no such table. */
  static final String UNDEFINED_TABLE = "42P01";
  /** A notice of no more specific class. */
  static final String WARNING = "01000";

  private PgStates() {
  }
}
