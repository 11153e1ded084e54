package io.tablesql.errors;

/** The SQLStates tablesql reports, named by what they mean. */
public final class SqlStates {
  /** The connection string is malformed or names an unknown key. */
  public static final String CONNECTION_REJECTED = "08001";
  /** The endpoint did not answer. */
  public static final String UNABLE_TO_CONNECT = "08001";
  /** The connection to the service broke during a statement. */
  public static final String COMMUNICATION_FAILURE = "08S01";
  /** The service rejected the credentials. */
  public static final String INVALID_AUTHORIZATION = "28000";
  /** The credentials are valid but do not grant the operation (a SAS scoped to other tables). */
  public static final String INSUFFICIENT_PRIVILEGE = "42501";
  public static final String SYNTAX_ERROR = "42000";
  public static final String TABLE_NOT_FOUND = "42S02";
  public static final String COLUMN_NOT_FOUND = "42S22";
  public static final String DATA_TYPE_MISMATCH = "42804";
  public static final String FEATURE_NOT_SUPPORTED = "0A000";
  public static final String QUERY_CANCELED = "57014";
  public static final String TIMEOUT = "HYT00";
  public static final String DATA_EXCEPTION = "22000";
  /** A number does not fit the type asked for without losing digits. */
  public static final String NUMERIC_OUT_OF_RANGE = "22003";
  /** A value has no lossless conversion to the type asked for (text that does not parse, an unrelated class). */
  public static final String INVALID_CONVERSION = "22018";
  public static final String INVALID_DATETIME_FORMAT = "22007";
  public static final String GENERAL_ERROR = "HY000";
  /** A write would break an entity group transaction's rules; nothing was sent. */
  public static final String TRANSACTION_RULE = "25000";
  /** An entity with this key exists already. */
  /** A NULL in a column that does not allow NULLs. */
  public static final String NOT_NULL_VIOLATION = "23502";
  public static final String UNIQUE_VIOLATION = "23505";
  /** The entity changed (or vanished) since it was read: retry the transaction. */
  public static final String SERIALIZATION_FAILURE = "40001";
  /** A write larger than the driver takes (a transaction of more entities than an intent holds). */
  public static final String PROGRAM_LIMIT_EXCEEDED = "54000";
  /** A write's answer was lost and whether it was applied cannot be told. */
  public static final String TRANSACTION_RESOLUTION_UNKNOWN = "08007";
  /** An argument outside the values a setting takes. */
  public static final String INVALID_ATTRIBUTE_VALUE = "HY024";
  /** A call on a closed connection. */
  public static final String CONNECTION_CLOSED = "08003";
  /** A write on a connection set read-only; nothing was sent. */
  public static final String READ_ONLY = "25006";
  /** A savepoint outside a transaction (PostgreSQL's no_active_sql_transaction). */
  public static final String NO_ACTIVE_TRANSACTION = "25P01";
  /** A savepoint that does not exist (released, or of an ended transaction). */
  public static final String INVALID_SAVEPOINT = "3B001";
  /**
   * The service stayed busy (throttling, 5xx) through every retry; the same request may succeed
   * later. Class 53 (insufficient resources), as PostgreSQL uses it.
   */
  public static final String SERVICE_BUSY = "53000";
  /** A table name the service is still deleting. */
  public static final String OBJECT_IN_USE = "55006";
  /** object not in prerequisite state: an intent that is not parked cannot be deleted. */
  public static final String NOT_IN_PREREQUISITE_STATE = "55000";
  /** A call on a closed statement. */
  public static final String INVALID_STATE = "HY010";
  /** A parameter index the statement does not have. */
  public static final String INVALID_PARAMETER_INDEX = "07009";
  /** An argument of a function that it cannot take. */
  public static final String INVALID_PARAMETER_VALUE = "22023";
  /** A column index the result set does not have. */
  public static final String INVALID_COLUMN_INDEX = "07009";
  /** A schema the connection does not have. */
  public static final String INVALID_SCHEMA_NAME = "3F000";
  /** SQL text given to a method of a prepared statement, which runs only its own. */
  public static final String WRONG_OBJECT_TYPE = "42809";
  /** A drop refused because other objects depend on the one dropped (PostgreSQL's dependent_objects_still_exist). */
  public static final String DEPENDENT_OBJECTS = "2BP01";
  public static final String COLUMN_EXISTS = "42S21";
  /** A table, view, index or materialized view of that name exists already. */
  public static final String OBJECT_EXISTS = "42S01";
  /** A warning (SQLWarning) of no more specific class. */
  public static final String WARNING = "01000";

  private SqlStates() {
  }
}
