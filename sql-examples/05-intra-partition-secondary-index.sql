-- Intra-partition secondary index: each employee is stored twice in its department's
-- partition, under RowKey 'empid_<id>' and under 'email_<address>'. Looking someone up by email
-- is then a point query instead of a partition scan. The two kinds of entity are the tables
-- Employee and EmployeeByEmail (sql-examples/setup/tables.sql maps them over Employees).
-- Access path: POINT LOOKUP
SELECT EmployeeId, FirstName, LastName
FROM EmployeeByEmail
WHERE Department = 'Finance' AND Email = 'nia.smith@contoso.com';
-- expect rows: 1

-- Several employees by id at once: one GET per key ('empid_000101', ...), concurrently.
SELECT EmployeeId, Email
FROM Employee
WHERE Department = 'Sales' AND EmployeeId IN (101, 102, 103);
-- expect rows: 3

-- The same lookup on the Azure table itself, keys written out by hand.
SELECT RowKey, EmployeeId
FROM Employees
WHERE PartitionKey = 'Finance' AND RowKey = 'email_nia.smith@contoso.com';
-- expect rows: 1
