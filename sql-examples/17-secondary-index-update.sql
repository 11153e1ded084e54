-- Keeping an intra-partition secondary index consistent: an employee is stored under both
-- 'empid_' and 'email_' RowKeys in its department's partition, so one UPDATE of both entities
-- is one entity group transaction: the two copies never disagree.
-- Access path: MULTI-POINT LOOKUP
UPDATE Employees SET Age = Age + 1
WHERE PartitionKey = 'Sales' AND RowKey IN ('empid_000101', 'email_hugo.oneil@contoso.com');
-- expect updated: 2

SELECT RowKey, Age
FROM Employees
WHERE PartitionKey = 'Sales' AND RowKey IN ('empid_000101', 'email_hugo.oneil@contoso.com');
-- expect rows: 2

UPDATE Employees SET Age = Age - 1
WHERE PartitionKey = 'Sales' AND RowKey IN ('empid_000101', 'email_hugo.oneil@contoso.com');
-- expect updated: 2
