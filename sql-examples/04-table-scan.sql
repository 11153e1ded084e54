-- Table scan: no key in the predicate, so every partition is read. The predicate is still
-- sent as $filter; use this only when nothing else fits.
-- Access path: TABLE SCAN
SELECT PartitionKey, RowKey, Email
FROM Employees
WHERE LastName = 'Jones' AND RowKey LIKE 'empid%';
-- expect rows: 4
