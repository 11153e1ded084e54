-- Several partitions at once: PartitionKey IN (...) reads each partition concurrently and
-- merges the results in key order.
-- Access path: MULTI-PARTITION SCAN
SELECT PartitionKey, COUNT(*) AS Employees
FROM Employees
WHERE PartitionKey IN ('Sales', 'Finance') AND EntityType = 'Employee' AND RowKey LIKE 'empid%'
GROUP BY PartitionKey;
-- expect rows: 2
