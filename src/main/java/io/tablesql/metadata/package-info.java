/**
 * The catalogs clients read to learn what a database holds, as schemas of each connection:
 * {@code information_schema} (the SQL standard's views) and {@code pg_catalog} (PostgreSQL's system
 * catalogs, as the clients of the PostgreSQL-protocol server query them: psql, pgjdbc's
 * DatabaseMetaData, BI tools), both generated on each read from the account's schema (its
 * tables, views, materialized views, declared keys and indexes), with object ids that are the
 * same in every session. Also the functions and type names those queries use
 * ({@code format_type}, {@code pg_table_is_visible}, {@code current_database}, {@code 'x'::regclass},
 * {@code ::text}). Nothing here reads the service except a sampled table's columns, when a query
 * asks for them.
 */
package io.tablesql.metadata;
