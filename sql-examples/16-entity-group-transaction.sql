-- Entity group transaction: writes to one table and one PartitionKey (at most 100 entities)
-- are sent as one atomic batch. Here an employee and its department's employee count change
-- together: both rows are written, or neither. (From Java, setAutoCommit(false) groups several
-- statements the same way until commit().)
-- Access path: POINT LOOKUP
CREATE TABLE Staff (PartitionKey VARCHAR, RowKey VARCHAR, DepartmentName VARCHAR, EmployeeCount INTEGER, FirstName VARCHAR, LastName VARCHAR);
-- expect updated: 0

INSERT INTO Staff (PartitionKey, RowKey, DepartmentName, EmployeeCount) VALUES ('Sales', 'department', 'Sales', 0);
-- expect updated: 1

-- One statement, one partition: one entity group transaction. (It writes the count as a value;
-- an application counting up would, in one transaction, INSERT the employee and UPDATE Staff SET
-- EmployeeCount = EmployeeCount + 1: both statements' writes go in one entity group transaction
-- at commit, conditional on the count it read.)
UPSERT INTO Staff (PartitionKey, RowKey, EmployeeCount, FirstName, LastName)
VALUES ('Sales', 'department', 1, NULL, NULL), ('Sales', 'empid_000900', NULL, 'Ada', 'Byron');
-- expect updated: 2

SELECT RowKey, DepartmentName, EmployeeCount, FirstName
FROM Staff
WHERE PartitionKey = 'Sales' AND RowKey = 'department';
-- expect rows: 1

DROP TABLE Staff;
-- expect updated: 0
