/**
 * What a plan compiles to and {@code exec} runs: a table access ({@code TableQuery}: its access
 * path, service filter, key bounds, row limit) and a write ({@code WritePlan}), with the table
 * they name ({@code StoredTable}) and the operands bound at execution.
 */
package io.tablesql.query;
