-- Intra-partition secondary index: looking an employee up by email within a department, as a
-- point query instead of a partition scan. Declared once (sql-examples/setup/tables.sql):
--   CREATE INDEX PeopleByEmailInDepartment ON People (Email) INCLUDE (FirstName, LastName) LOCAL;
-- Each entry lives in the row's own partition and is written in the same entity group
-- transaction as the row, so row and entry never disagree; with the names copied into it
-- (INCLUDE: a covering index, copies of the row's columns in its entries) the lookup reads the
-- entry alone: one request.
-- Access path: INDEX LOOKUP
SELECT EmployeeId, FirstName, LastName
FROM People
WHERE Department = 'Finance' AND Email = 'nia.smith@contoso.com';
-- expect rows: 1

-- The same kept by hand: each employee stored twice in its department's partition, under RowKey
-- 'empid_<id>' and under 'email_<address>'. The two kinds of entity are the tables Employee and
-- EmployeeByEmail (sql-examples/setup/tables.sql maps them over Employees).
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

-- The copies kept by hand, adopted: tables.sql declares them the index EmployeeEmail of Employee
-- (CREATE INDEX ... LOCAL ROW KEY 'email_{Email}'), so the lookup by email on Employee reads the
-- copy (one request), and every write through Employee keeps the copy as the application does.
SELECT EmployeeId, FirstName, LastName
FROM Employee
WHERE Department = 'Finance' AND Email = 'nia.smith@contoso.com';
-- expect rows: 1
