/**
 * The model of tables and where it is kept: the catalog table of an account ({@code Catalog},
 * formats 1 to 13), table, index, view and materialized-view definitions, the columns of sampled
 * tables ({@code TableShape}, {@code ShapeCache}) and declared ones ({@code DeclaredColumns}), long
 * values' parts and blob references ({@code ValueParts}, {@code BlobReference}), and the layouts
 * of existing entities ({@code LayoutFinder}). Formats in {@code docs/architecture/tables.md}.
 */
package io.tablesql.catalog;
