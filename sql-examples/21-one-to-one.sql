-- One-to-one: each employee has exactly one entry in the email index table; joining the two
-- on the employee's key gives each employee with its index entry.
-- Access path: RANGE SCAN
SELECT e.FirstName, e.LastName, i.PartitionKey AS IndexKey
FROM Employees e
JOIN EmployeesByEmail i ON i.PartitionKey = 'email_' || e.Email AND i.RowKey = 'employee'
WHERE e.PartitionKey = 'Marketing' AND e.RowKey LIKE 'empid%';
-- expect rows: 6
