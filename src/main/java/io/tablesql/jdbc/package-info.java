/**
 * The JDBC objects over Calcite's: connection, statements, result sets and their metadata,
 * database metadata, savepoints. Each wraps a generated {@code Forwarding*} class (every method
 * delegates and translates its errors in one place, {@code SqlErrors}) and overrides only what
 * does more; a statement's route is {@code prepare.StatementRouter}'s, which the objects carry
 * out. Also the JDBC escapes, the hooks into Calcite's driver ({@code CalciteDriver}) and the
 * conversions JDBC's getters and setters need.
 */
package io.tablesql.jdbc;
