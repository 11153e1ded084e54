-- Denormalization: each order carries the employee's name and department, so listing an
-- employee's orders with the names needs no join. Orders are partitioned by employee id.
-- Access path: PARTITION SCAN
SELECT RowKey, EmployeeName, Department, Amount
FROM Orders
WHERE PartitionKey = '000101';
-- expect rows: 2
