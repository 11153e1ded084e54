/**
 * Runs queries and writes: {@code QueryRunner} (pages, prefetch, split scans, index scans, marks
 * read as committed through {@code intent.CommittedReads}), {@code WriteRunner} (rows to entities,
 * index entries and view entities), {@code WriteSender} (one entity group transaction, or a
 * durable intent through {@code intent.IntentCommit}), index entries of a write
 * ({@code IndexedWrites}), index builds and verification ({@code IndexBuild}), materialized
 * views' upkeep ({@code ViewMaintenance}, {@code SummaryTotals}), the upkeep the intent protocol
 * drives ({@code IndexAndViewUpkeep}) and long values in blobs ({@code BlobValues}). Design in
 * {@code docs/architecture/indexes.md}, {@code views.md} and {@code large-values.md}.
 */
package io.tablesql.exec;
