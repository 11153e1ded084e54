-- Join in the client: Azure Table storage has no joins. Each side is read by its own access
-- path (here a range scan of Employees and a partition scan of the small Departments table),
-- and the join runs in the driver.
-- "Floor" is quoted because FLOOR is a SQL function.
-- Access path: PARTITION SCAN
SELECT e.FirstName, e.LastName, d."Floor"
FROM Employees e
JOIN Departments d ON d.PartitionKey = 'Department' AND d.RowKey = e.PartitionKey
WHERE e.PartitionKey = 'Engineering' AND e.RowKey LIKE 'empid_%';
-- expect rows: 6
