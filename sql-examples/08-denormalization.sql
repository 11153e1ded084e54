-- Denormalization: each order carries the employee's name and department, so listing an
-- employee's orders with the names needs no join. Orders are partitioned by employee id.
-- Access path: PARTITION SCAN
SELECT RowKey, EmployeeName, Department, Amount
FROM Orders
WHERE PartitionKey = '000101';
-- expect rows: 2

-- The same data denormalized once more, for another question: a department's orders with the
-- names of who took them. Declared once (sql-examples/setup/tables.sql) as a materialized view of
-- the orders keyed by department, which tablesql keeps on every write of the orders:
--   CREATE MATERIALIZED VIEW OrdersByDepartment PRIMARY KEY ((Department), EmployeeId, OrderNo)
--     AS SELECT Department, EmployeeId, OrderNo, OrderDate, EmployeeName, Amount
--     FROM EmployeeOrder WHERE Department IS NOT NULL;
-- The query names EmployeeOrder; it is answered by one partition of the view, not by a scan of
-- every employee's orders (EXPLAIN names OrdersByDepartment).
SELECT OrderDate, EmployeeName, Amount
FROM EmployeeOrder
WHERE Department = 'Sales'
ORDER BY OrderDate DESC;
-- expect rows: 9
