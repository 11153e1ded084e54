-- Heterogeneous entity types: a department's partition holds its Employee entities and one
-- Department entity, told apart by EntityType. The table shows the union of their properties;
-- a property an entity lacks reads as NULL.
-- Access path: PARTITION SCAN
SELECT RowKey, DepartmentName, EmployeeCount
FROM Employees
WHERE PartitionKey = 'Sales' AND EntityType = 'Department';
-- expect rows: 1

SELECT EntityType, COUNT(*) AS Entities
FROM Employees
WHERE PartitionKey = 'Sales'
GROUP BY EntityType;
-- expect rows: 2
