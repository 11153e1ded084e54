-- Index entities: one entity per last name lists the ids of every employee with that name,
-- so "who is called Jones?" is one point query instead of a scan of every department.
-- Access path: POINT LOOKUP
SELECT EmployeeIds, "Count"
FROM EmployeeIdsByLastName
WHERE PartitionKey = 'Jones' AND RowKey = 'index';
-- expect rows: 1
