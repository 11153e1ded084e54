/**
 * How key columns make up PartitionKey and RowKey: tablesql's order-preserving encoding
 * ({@code KeyEncoding}, format 1), a declared table's layout ({@code KeyLayout}) and the formats a
 * key is made in ({@code KeyFormat}: the encoding, an application's template, or generated per
 * row). Design in {@code docs/architecture/tables.md}.
 */
package io.tablesql.keys;
