/**
 * Runs queries and writes: {@code QueryRunner} (pages, prefetch, split scans, index scans, marks
 * read as committed), {@code WriteRunner} (rows to entities, index entries and view entities),
 * {@code WriteSender} (one entity group transaction, or a durable intent: {@code IntentCommit},
 * {@code IntentRecovery}, {@code IntentSettlement}, {@code IntentMarks}, {@code IntentLease}),
 * index builds and verification ({@code IndexBuild}), materialized views' upkeep
 * ({@code ViewMaintenance}, {@code SummaryTotals}) and long values in blobs ({@code BlobValues}).
 * Design in {@code docs/architecture/intents.md}, {@code indexes.md}, {@code views.md} and
 * {@code large-values.md}.
 */
package io.tablesql.exec;
