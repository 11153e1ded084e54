-- Heterogeneous entity types: a department's partition holds its Employee entities and one
-- Department entity, told apart by EntityType (and by RowKey). Each kind is a table of its own:
-- DepartmentSummary and Employee are mapped over Employees, each with its key template and
-- discriminator, so a count counts one kind only.
-- Access path: POINT LOOKUP
SELECT DepartmentName, EmployeeCount, Manager
FROM DepartmentSummary
WHERE DepartmentName = 'Sales';
-- expect rows: 1

SELECT Department, COUNT(*) AS Employees
FROM Employee
GROUP BY Department;
-- expect rows: 4

-- On the Azure table itself the table shows the union of their properties; a property an
-- entity lacks reads as NULL.
SELECT EntityType, COUNT(*) AS Entities
FROM Employees
WHERE PartitionKey = 'Sales'
GROUP BY EntityType;
-- expect rows: 2
