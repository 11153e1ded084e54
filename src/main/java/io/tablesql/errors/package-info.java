/**
 * Errors for every package: SQLStates as named constants ({@code SqlStates}) and the
 * SQLExceptions built from them ({@code SqlExceptions}).
 */
package io.tablesql.errors;
