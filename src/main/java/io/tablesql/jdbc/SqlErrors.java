package io.tablesql.jdbc;

import io.tablesql.errors.SqlExceptions;
import io.tablesql.errors.SqlStates;
import io.tablesql.prepare.TableSqlValidator;
import io.tablesql.store.StoreException;
import java.sql.BatchUpdateException;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.parser.SqlParseException;

/**
 * Turns whatever a statement threw into a {@link SQLException} with a SQLState and a message
 * that says what is wrong and what to do, without Calcite's wrapping.
 */
final class SqlErrors {
  private static final Pattern OBJECT_NOT_FOUND = Pattern.compile("Object '([^']*)' not found");
  /** A quoted name that matches a table only ignoring case ({@link TableSqlValidator}). */
  private static final Pattern OTHER_CASE = Pattern.compile("Object '([^']*)' not found; did you mean '([^']*)'");
  private static final Pattern TABLE_NOT_FOUND = Pattern.compile("Table '([^']*)' not found");
  private static final Pattern COLUMN_NOT_FOUND = Pattern.compile("Column '([^']*)' not found");
  // What Avatica's result sets, statements and connections say, without a SQLState.
  private static final Pattern NO_SUCH_LABEL = Pattern.compile("column '(.*)' not found");
  private static final Pattern NO_SUCH_COLUMN = Pattern.compile("invalid column ordinal: (-?\\d+)");
  private static final Pattern NO_SUCH_PARAMETER = Pattern.compile("parameter ordinal (-?\\d+) out of range");
  private static final Pattern CONVERSION = Pattern.compile("cannot convert to (\\w+).*");
  /** Avatica's refusal of text cast to a DATE, TIME or TIMESTAMP (it says DATE for each). */
  private static final Pattern NOT_A_DATETIME = Pattern.compile("Invalid (?:DATE|TIME|TIMESTAMP) value, '(.*)'",
      Pattern.DOTALL);

  private SqlErrors() {
  }

  static SQLException translate(Throwable error) {
    if (error instanceof BatchUpdateException batch) {
      return batch; // made by the driver, with the update counts the caller needs
    }
    for (Throwable cause = error; cause != null; cause = cause.getCause()) {
      if (cause instanceof StoreException store) {
        return store.toSqlException();
      }
    }
    for (Throwable cause = error; cause != null; cause = cause.getCause()) {
      if (cause instanceof SqlParseException parse) {
        String position = parse.getPos() == null ? ""
            : " (line " + parse.getPos().getLineNum() + ", column " + parse.getPos().getColumnNum() + ")";
        return SqlExceptions.of("SQL syntax error" + position + ": " + firstLine(parse.getMessage()),
            SqlStates.SYNTAX_ERROR, error);
      }
      if (cause instanceof CalciteContextException context) {
        return validationError(context, error);
      }
    }
    for (Throwable cause = error; cause != null; cause = cause.getCause()) {
      if (cause instanceof UnsupportedOperationException || cause instanceof SQLFeatureNotSupportedException) {
        return SqlExceptions.of("Not supported by tablesql: " + messageOf(cause),
            SqlStates.FEATURE_NOT_SUPPORTED, error);
      }
    }
    if (error instanceof SQLException sql && sql.getSQLState() != null) {
      return SqlExceptions.matching(sql);
    }
    for (Throwable cause = error; cause != null; cause = cause.getCause()) {
      if (cause instanceof org.apache.calcite.runtime.CalciteException conversion && conversion.getMessage() != null
          && conversion.getMessage().startsWith("Invalid character for cast")) {
        // a run-time CAST of text to a boolean or a date ('f'::BOOLEAN where the text is not one); Calcite's
        // generated code may meet it while initialising its constants (an ExceptionInInitializerError)
        return SqlExceptions.of(messageOf(conversion) + ". Convert only text that holds a value of the type.",
            SqlStates.INVALID_CONVERSION, error);
      }
      Matcher datetime = cause instanceof IllegalArgumentException ? NOT_A_DATETIME.matcher(
          String.valueOf(cause.getMessage())) : null;
      if (datetime != null && datetime.matches()) {
        // Avatica's parse of text cast to a DATE, TIME or TIMESTAMP, often met while Calcite's generated
        // code initialises its constants; the commonest cause is a raw table's Timestamp column in an INSERT
        String text = datetime.group(1);
        return SqlExceptions.of("'" + (text.length() > 40 ? text.substring(0, 40) + "..." : text) + "' is not a date "
            + "or time: write a date as 'YYYY-MM-DD' and a timestamp as 'YYYY-MM-DD hh:mm:ss[.fff]'. An INSERT "
            + "without a column list gives its values to the columns in order, and an Azure table's third column is "
            + "its Timestamp: name the columns the values are for.", SqlStates.INVALID_DATETIME_FORMAT, error);
      }
      if (cause instanceof NumberFormatException number) {
        // Calcite's run-time CAST of text to a number ('a'::INTEGER, a number's text in an array literal)
        return SqlExceptions.of("A value is not a number of the type it is converted to (" + messageOf(number)
            + "). Convert only text that holds a number, or compare it as text.", SqlStates.INVALID_CONVERSION, error);
      }
    }
    for (Throwable cause = error; cause != null; cause = cause.getCause()) {
      if (cause instanceof org.apache.calcite.plan.RelOptPlanner.CannotPlanException) {
        // an operator Calcite parses and validates but has no implementation of (PERCENTILE_CONT, say)
        return SqlExceptions.of("Not supported by tablesql: Calcite's planner has no way to run this statement "
            + "(one of its functions or operators has no implementation). Write it another way.",
            SqlStates.FEATURE_NOT_SUPPORTED, error);
      }
      if (cause.getClass().getName().startsWith("org.codehaus.commons.compiler.")) { // Janino's, at run time only
        // Calcite's generated code for the plan that the JVM's limits refuse (too many values in one method)
        return SqlExceptions.of("Not supported by tablesql: the code Calcite generated for this statement does not "
            + "compile (" + messageOf(cause) + "). Write it another way (fewer conditions or columns), or report it "
            + "with the statement.", SqlStates.FEATURE_NOT_SUPPORTED, error);
      }
    }
    if (error instanceof AssertionError) {
      // Calcite's planner and code generator assert what they were not built to handle
      return SqlExceptions.of("Not supported by tablesql: Calcite's planner cannot run this statement ("
          + messageOf(error) + "). Write it another way, or report it with the statement.",
          SqlStates.FEATURE_NOT_SUPPORTED, error);
    }
    if (error instanceof SQLException sql && sql.getMessage() != null) {
      SQLException refusal = avaticaRefusal(sql);
      if (refusal != null) {
        return refusal;
      }
    }
    return SqlExceptions.of(messageOf(error), SqlStates.GENERAL_ERROR, error);
  }

  /** The name of the table a statement named and the schema lacks, or null. */
  static String missingTable(Throwable error) {
    for (Throwable cause = error; cause != null; cause = cause.getCause()) {
      if (cause instanceof CalciteContextException context) {
        String message = context.getCause() != null ? context.getCause().getMessage() : context.getMessage();
        for (Pattern pattern : new Pattern[] {TABLE_NOT_FOUND, OBJECT_NOT_FOUND}) {
          Matcher matcher = pattern.matcher(message);
          if (matcher.find()) {
            return matcher.group(1);
          }
        }
      }
    }
    return null;
  }

  private static SQLException validationError(CalciteContextException context, Throwable error) {
    String position = "line " + context.getPosLine() + ", column " + context.getPosColumn();
    String message = context.getCause() != null ? context.getCause().getMessage() : context.getMessage();
    Matcher otherCase = OTHER_CASE.matcher(message);
    if (otherCase.find()) {
      return SqlExceptions.of("Table '" + otherCase.group(1) + "' not found (" + position + "). A quoted name matches "
          + "only in its own case: the table is \"" + otherCase.group(2) + "\" (or write the name without quotes).",
          SqlStates.TABLE_NOT_FOUND, error);
    }
    Matcher table = OBJECT_NOT_FOUND.matcher(message);
    Matcher namedTable = TABLE_NOT_FOUND.matcher(message);
    if (table.find() || namedTable.find()) {
      String name = table.find(0) ? table.group(1) : namedTable.group(1);
      return SqlExceptions.of("Table '" + name + "' not found (" + position + "). Table names are those of the "
          + "account's tables; list them with DatabaseMetaData.getTables or !tables in the shell.",
          SqlStates.TABLE_NOT_FOUND, error);
    }
    Matcher column = COLUMN_NOT_FOUND.matcher(message);
    if (column.find()) {
      return SqlExceptions.of("Column '" + column.group(1) + "' not found (" + position + "). A declared table's "
          + "columns are those it was declared with; an Azure table's are PartitionKey, RowKey, Timestamp and the "
          + "properties seen in its first entities (driver property sampleSize). List them with "
          + "DatabaseMetaData.getColumns or !columns in the shell.", SqlStates.COLUMN_NOT_FOUND, error);
    }
    String state = message.contains("Cannot apply") || message.contains("type") || message.contains("Type")
        ? SqlStates.DATA_TYPE_MISMATCH : SqlStates.SYNTAX_ERROR;
    return SqlExceptions.of(message + " (" + position + ")", state, error);
  }

  /** One of Avatica's refusals of a call (a wrong column or parameter, a closed object) with its SQLState; or null. */
  private static SQLException avaticaRefusal(SQLException error) {
    String message = error.getMessage();
    Matcher label = NO_SUCH_LABEL.matcher(message);
    if (label.matches()) {
      return SqlExceptions.of("Column '" + label.group(1) + "' is not in this result set; ResultSetMetaData."
          + "getColumnLabel gives the labels it has.", SqlStates.COLUMN_NOT_FOUND, error);
    }
    Matcher column = NO_SUCH_COLUMN.matcher(message);
    if (column.matches()) {
      return SqlExceptions.of("There is no column " + column.group(1) + " in this result set: columns are numbered "
          + "from 1 to ResultSetMetaData.getColumnCount().", SqlStates.INVALID_COLUMN_INDEX, error);
    }
    Matcher parameter = NO_SUCH_PARAMETER.matcher(message);
    if (parameter.matches()) {
      return SqlExceptions.of("There is no parameter " + parameter.group(1) + " in this statement: parameters are "
          + "numbered from 1 to ParameterMetaData.getParameterCount().", SqlStates.INVALID_PARAMETER_INDEX, error);
    }
    Matcher conversion = CONVERSION.matcher(message);
    if (error instanceof SQLDataException && conversion.matches()) {
      return SqlExceptions.of("The value cannot be read as " + conversion.group(1) + "; read it with a getter of "
          + "its column's type (ResultSetMetaData.getColumnType).", SqlStates.INVALID_CONVERSION, error);
    }
    switch (message) {
      case "ResultSet closed":
        return SqlExceptions.of("The result set is closed.", SqlStates.INVALID_STATE, error);
      case "Statement closed":
        return SqlExceptions.of("The statement is closed; create a new one.", SqlStates.INVALID_STATE, error);
      case "Connection closed":
        return SqlExceptions.of("The connection is closed; open a new one.", SqlStates.CONNECTION_CLOSED, error);
      default:
        return null;
    }
  }

  private static String messageOf(Throwable error) {
    String message = error.getMessage();
    if (message == null) {
      return error.getClass().getSimpleName();
    }
    // Calcite prefixes "Error while executing SQL "...": "; the statement is the caller's own.
    int colon = message.startsWith("Error while executing SQL") ? message.indexOf("\": ") : -1;
    return colon >= 0 ? message.substring(colon + 3) : message;
  }

  private static String firstLine(String message) {
    int newline = message.indexOf('\n');
    return newline < 0 ? message : message.substring(0, newline);
  }
}
