-- One-to-many in one partition: a department entity and its employees share a PartitionKey,
-- so the department is one point lookup and its people one range of the same partition,
-- joined in the client. (In separate tables, see 14-join-in-the-client.sql.)
-- Access path: POINT LOOKUP
SELECT d.DepartmentName, e.FirstName, e.LastName
FROM DepartmentSummary d
JOIN Employee e ON e.Department = d.DepartmentName
WHERE d.DepartmentName = 'Finance' AND e.Department = 'Finance';
-- expect rows: 6

-- An employee's orders, kept in the employee's partition of Orders: one partition scan.
SELECT OrderNo, Amount, OrderDate
FROM EmployeeOrder
WHERE EmployeeId = 101;
-- expect rows: 2
