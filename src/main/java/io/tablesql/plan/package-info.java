/**
 * Calcite's view of the account and tablesql's planning: the schema and its tables
 * ({@code AzureSchema}, {@code AzureTable}), the rules that turn a filter into the cheapest access
 * path the service offers ({@code AzureRules}, {@code FilterTranslator} and its roles, {@code
 * IndexPaths}), lookup joins ({@code LookupJoin}), the planning program ({@code PlanningProgram}),
 * materialized views offered as materializations ({@code ViewMaterializations}), EXPLAIN's text and
 * the {@code tablesql} schema ({@code SystemSchema}). Only what the service evaluates exactly like
 * SQL is pushed down; the rest is evaluated in the client.
 */
package io.tablesql.plan;
