-- Intra-partition secondary index: each employee is stored twice in its department's
-- partition, under RowKey 'empid_<id>' and under 'email_<address>'. Looking someone up by email
-- is then a point query instead of a partition scan.
-- Access path: POINT LOOKUP
SELECT EmployeeId, FirstName, LastName
FROM Employees
WHERE PartitionKey = 'Finance' AND RowKey = 'email_nia.smith@contoso.com';
-- expect rows: 1

-- Both index entries of several employees at once: one GET per key, concurrently.
SELECT RowKey, EmployeeId
FROM Employees
WHERE PartitionKey = 'Sales' AND RowKey IN ('empid_000101', 'empid_000102', 'empid_000103');
-- expect rows: 3
