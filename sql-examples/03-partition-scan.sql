-- Partition scan: one partition, filtered on properties that are not keys. The filter still
-- runs at the service ($filter), so only matching entities come back. Each employee is stored
-- twice (see 05-intra-partition-secondary-index.sql), so both copies match.
-- Access path: PARTITION SCAN
SELECT RowKey, FirstName, Age
FROM Employees
WHERE PartitionKey = 'Marketing' AND EntityType = 'Employee' AND Age >= 40;
-- expect rows: 6
