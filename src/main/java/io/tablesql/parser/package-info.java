/**
 * tablesql's SQL grammar, generated at build time from Calcite's parser template
 * ({@code src/main/codegen}: FMPP, then JavaCC, {@code TableSqlParserImpl}), read through
 * {@code TableSqlParser} with PostgreSQL's token rules ({@code PostgresTokens}), and the typed nodes
 * of the statements it adds ({@code CreateTableNode}, {@code TableKeyNode}, the index and
 * materialized-view statements, ...). It names nothing of the driver.
 */
package io.tablesql.parser;
