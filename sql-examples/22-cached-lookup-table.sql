-- Cached lookup table: Departments is small and rarely changes, so it is named in the driver
-- property lookupTables (the shell and the tests connect with lookupTables=Departments). It is
-- read once and then served from the cache: joining with it costs no request for Departments.
-- Access path: CACHED PARTITION SCAN
SELECT RowKey, Manager, "Floor"
FROM Departments
WHERE PartitionKey = 'Department';
-- expect rows: 4

SELECT e.FirstName, e.LastName, d.Manager
FROM Employees e
JOIN Departments d ON d.PartitionKey = 'Department' AND d.RowKey = e.PartitionKey
WHERE e.EntityType = 'Employee' AND e.RowKey LIKE 'empid%';
-- expect rows: 24
