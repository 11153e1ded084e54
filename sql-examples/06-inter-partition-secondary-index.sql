-- Inter-partition secondary index: finding an employee by email without knowing the
-- department (the partition). Declared once (sql-examples/setup/tables.sql):
--   CREATE UNIQUE INDEX PeopleByEmail ON People (Email);
-- tablesql keeps an entry per employee in the index's own table, keyed by the email, and keeps
-- it right on every write. A lookup reads the entry, then the row it names: two requests.
-- Access path: INDEX LOOKUP
SELECT Department, EmployeeId, FirstName, LastName
FROM People
WHERE Email = 'hugo.oneil@contoso.com';
-- expect rows: 1

-- The same pattern kept by hand, as applications do without tablesql: a separate table keyed
-- by email tells which department holds the employee, so a lookup by email needs two point
-- queries, never a scan.
SELECT Department, EmployeeId
FROM EmployeesByEmail
WHERE PartitionKey = 'email_hugo.oneil@contoso.com' AND RowKey = 'employee';
-- expect rows: 1

-- The second hop, joined in the client.
SELECT e.FirstName, e.LastName, e.Age
FROM EmployeesByEmail i
JOIN Employees e ON e.PartitionKey = i.Department AND e.RowKey = 'empid_' || i.EmployeeId
WHERE i.PartitionKey = 'email_hugo.oneil@contoso.com' AND i.RowKey = 'employee';
-- expect rows: 1
