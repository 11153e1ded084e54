-- Keeping an intra-partition secondary index consistent: an employee is stored under both
-- 'empid_' and 'email_' RowKeys in its department's partition, so one UPDATE of both entities
-- is one entity group transaction: the two copies never disagree.
-- Access path: MULTI-POINT LOOKUP
UPDATE Employees SET Age = Age + 1
WHERE PartitionKey = 'Sales' AND RowKey IN ('empid_000101', 'email_hugo.oneil@contoso.com');
-- expect updated: 2

SELECT RowKey, Age
FROM Employees
WHERE PartitionKey = 'Sales' AND RowKey IN ('empid_000101', 'email_hugo.oneil@contoso.com');
-- expect rows: 2

UPDATE Employees SET Age = Age - 1
WHERE PartitionKey = 'Sales' AND RowKey IN ('empid_000101', 'email_hugo.oneil@contoso.com');
-- expect updated: 2

-- With a declared index, tablesql does this bookkeeping: changing an employee's email moves
-- the entry of index PeopleByEmail (added for the new value before the row is written, the old
-- one removed after), so the old address finds nothing and the new one finds the row.
UPDATE People SET Email = 'hugo.oneil@fabrikam.com'
WHERE Department = 'Sales' AND EmployeeId = 101;
-- expect updated: 1

SELECT EmployeeId FROM People WHERE Email = 'hugo.oneil@contoso.com';
-- expect rows: 0

SELECT EmployeeId FROM People WHERE Email = 'hugo.oneil@fabrikam.com';
-- expect rows: 1

UPDATE People SET Email = 'hugo.oneil@contoso.com'
WHERE Department = 'Sales' AND EmployeeId = 101;
-- expect updated: 1
