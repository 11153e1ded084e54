/**
 * How a statement's text becomes a plan, below JDBC: the route of each JDBC call
 * ({@code StatementRouter}), the text parsed once ({@code StatementText}), the plan cache and its
 * literal lifting, the batch fast path ({@code InsertBatch}), the lookup run without the planner
 * ({@code UnplannedQuery}), the direct path's execution ({@code DirectPlan}), and Calcite's
 * preparation ({@code TableSqlPrepare}, {@code TableSqlValidator}) with PostgreSQL's spellings
 * written out before validation ({@code PostgresSpellings}, {@code PostgresLabels},
 * {@code FromFunctions}, {@code SelectListSetFunctions}, {@code ArrayTextCoercion}). Design in
 * {@code docs/architecture/front-end.md} and {@code speed.md}.
 */
package io.tablesql.prepare;
