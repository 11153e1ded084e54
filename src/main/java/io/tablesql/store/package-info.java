/**
 * The wire: {@code TableStore}, the only code that calls the Table SDK (paging, point reads,
 * entity group transactions, what a failure means, {@code OutcomeCheck} for answers lost after a
 * write was applied), {@code BlobStore} for long values, the pipeline's policies (request
 * counting, rate limiting, the ETags of a transaction's answer), metrics and the request log,
 * OData literals and the service's comparisons, and the spread sample of a table's key space.
 */
package io.tablesql.store;
