/**
 * CREATE, DROP and ALTER of tables, views, indexes and materialized views, run against the
 * account when the statement executes ({@code AzureDdlExecutor}): declared tables and tables
 * mapped over existing data ({@code DeclaredTables}), indexes and their builds ({@code Indexes}),
 * materialized views ({@code MaterializedViews}). Definitions are written to the catalog
 * ({@code catalog.Catalog}) conditionally on its ETag.
 */
package io.tablesql.ddl;
