-- Optimistic concurrency: every UPDATE and DELETE is conditional on the ETag the entity had
-- when the statement read it. If another writer changed it in between, nothing is overwritten:
-- the statement fails with SQLState 40001 and can simply be retried. A counter incremented this
-- way by many clients loses no update.
-- Access path: POINT LOOKUP
UPDATE Departments SET "Floor" = "Floor" + 10
WHERE PartitionKey = 'Department' AND RowKey = 'Finance';
-- expect updated: 1

UPDATE Departments SET "Floor" = "Floor" - 10
WHERE PartitionKey = 'Department' AND RowKey = 'Finance';
-- expect updated: 1
