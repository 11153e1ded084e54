-- One-to-many in one partition: a department entity and its employees share a PartitionKey,
-- so the department is one point lookup and its people one range of the same partition,
-- joined in the client. Name the partition on both sides: each side is read by what its own
-- predicates say. (In separate tables, see 14-join-in-the-client.sql.)
-- Access path: RANGE SCAN
SELECT d.DepartmentName, e.FirstName, e.LastName
FROM Employees d
JOIN Employees e ON e.PartitionKey = d.PartitionKey
WHERE d.PartitionKey = 'Finance' AND d.RowKey = 'department'
  AND e.PartitionKey = 'Finance' AND e.RowKey LIKE 'empid%';
-- expect rows: 6
