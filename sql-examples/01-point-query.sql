-- Point query: the most efficient read. PartitionKey and RowKey name exactly one entity,
-- so the service answers with a single GET.
-- Access path: POINT LOOKUP
SELECT FirstName, LastName, Email, Age
FROM Employees
WHERE PartitionKey = 'Sales' AND RowKey = 'empid_000101';
-- expect rows: 1
