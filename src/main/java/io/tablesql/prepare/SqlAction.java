package io.tablesql.prepare;

import java.sql.SQLException;

/** A step of a statement's execution that may fail with a SQLException. */
@FunctionalInterface
public interface SqlAction<T> {
  T run() throws SQLException;
}
