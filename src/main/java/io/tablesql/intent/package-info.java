/**
 * The durable intent, its format and its protocol together: the record ({@code Intent}, formats 1
 * to 5), the commit of writes across entity groups ({@code IntentCommit}), the lease that owns an
 * intent ({@code IntentLease}), the marks and tombstones it leaves on rows and their clearing
 * ({@code IntentMarks}; their property names are {@code txn.RowMarks}, which every read needs),
 * settling a failed commit ({@code IntentSettlement}), recovery of others' intents
 * ({@code IntentRecovery}), and reading rows as committed ({@code CommittedReads}). The commit
 * drives index and view upkeep through {@code GroupUpkeep}, which {@code exec} implements.
 * Design in {@code docs/architecture/intents.md}.
 */
package io.tablesql.intent;
