-- Inter-partition secondary index: a separate table keyed by email tells which department
-- (partition) holds the employee, so a lookup by email needs two point queries, never a scan.
-- Access path: POINT LOOKUP
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
