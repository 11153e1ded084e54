/**
 * Entity operations and the service's entity group rules (one table, one partition, at most 100
 * operations and 4 MiB), a transaction's pending writes and savepoints, and the marks an intent
 * leaves on rows ({@code RowMarks}), which every read and write recognises; the intent's record
 * and protocol are {@code io.tablesql.intent}.
 */
package io.tablesql.txn;
