-- Index entities: "who is called Jones?" without a scan of every department. Declared once
-- (sql-examples/setup/tables.sql):
--   CREATE INDEX PeopleByLastName ON People (LastName) INCLUDE (FirstName);
-- The index's entries for 'Jones' are one partition of its table; each names a row and holds
-- its first name. tablesql adds and removes entries as employees are written, marking an entry
-- verified once its row is written (CREATE INDEX inserts its entries verified): a verified entry
-- answers the query alone (one request for all four); an entry not verified (a write that failed
-- halfway left it) has its row read.
-- Access path: INDEX LOOKUP
SELECT Department, EmployeeId, FirstName
FROM People
WHERE LastName = 'Jones'
ORDER BY Department;
-- expect rows: 4

-- The same kept by hand: one entity per last name lists the ids of every employee with that
-- name, which the application must rewrite on every change.
-- Access path: POINT LOOKUP
SELECT EmployeeIds, "Count"
FROM EmployeeIdsByLastName
WHERE PartitionKey = 'Jones' AND RowKey = 'index';
-- expect rows: 1
