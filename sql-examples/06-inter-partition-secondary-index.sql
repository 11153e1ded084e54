-- Inter-partition secondary index that duplicates the entity: finding an employee by email
-- without knowing the department (the partition). Declared once (sql-examples/setup/tables.sql):
--   CREATE UNIQUE INDEX PeopleByEmail ON People (Email);
--   CREATE MATERIALIZED VIEW PeopleByEmailCopy PRIMARY KEY ((Email))
--     AS SELECT Email, Department, EmployeeId, FirstName, Age FROM People
--     WHERE Email IS NOT NULL;
-- The query names People; the planner answers it from the materialized view, a copy of each
-- employee keyed by email that tablesql keeps on every write: one request (EXPLAIN names
-- PeopleByEmailCopy). A query of columns the view does not hold (LastName) is not answered
-- from it. The UNIQUE index keeps emails unique; through it alone the lookup reads
-- the entry, then the row: two requests (connect with materializedViews=false to see that).
-- Access path: POINT LOOKUP
SELECT Department, EmployeeId, FirstName
FROM People
WHERE Email = 'hugo.oneil@contoso.com';
-- expect rows: 1

-- The view can be named too, like a table.
SELECT FirstName, Department
FROM PeopleByEmailCopy
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
