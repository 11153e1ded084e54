/**
 * Entity operations and the service's entity group rules (one table, one partition, at most 100
 * operations and 4 MiB), a transaction's pending writes and savepoints, and the durable intent's
 * record ({@code Intent}, formats 1 to 4; protocol in {@code exec}).
 */
package io.tablesql.txn;
