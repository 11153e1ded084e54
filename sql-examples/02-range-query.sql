-- Range query: one partition, a range of RowKeys. LIKE 'prefix%' becomes
-- RowKey ge 'prefix' and lt the next string, so only the range is read.
-- Access path: RANGE SCAN
SELECT RowKey, FirstName, LastName
FROM Employees
WHERE PartitionKey = 'Engineering' AND RowKey LIKE 'empid%';
-- expect rows: 6

-- BETWEEN on RowKey is a range too.
SELECT RowKey FROM Employees
WHERE PartitionKey = 'Sales' AND RowKey BETWEEN 'empid_000101' AND 'empid_000103';
-- expect rows: 3
