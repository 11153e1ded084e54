-- Eventually consistent transaction (the design guide's pattern, built in): one statement that
-- spans partitions. It cannot be one entity group transaction, so tablesql first records a
-- durable intent in the hidden table TablesqlIntents, then sends one entity group transaction
-- per partition, then deletes the intent: all of it is written, or none. A crashed writer's
-- intent is finished or undone by any other connection within intentLeaseSeconds;
-- SELECT * FROM tablesql.pending_writes shows the ones in flight or parked.
-- Access path: POINT LOOKUP
CREATE TABLE Moves (PartitionKey VARCHAR, RowKey VARCHAR, Name VARCHAR);
-- expect updated: 0

-- Two partitions, one statement: all or nothing through an intent.
INSERT INTO Moves (PartitionKey, RowKey, Name) VALUES ('Sales', 'empid_1', 'Ann'), ('Support', 'empid_2', 'Bob');
-- expect updated: 2

-- Moving an employee to another department changes the PartitionKey: a delete and an insert in
-- two partitions, committed together the same way.
UPDATE Moves SET PartitionKey = 'Support' WHERE PartitionKey = 'Sales' AND RowKey = 'empid_1';
-- expect updated: 1

SELECT RowKey, Name FROM Moves WHERE PartitionKey = 'Support' AND RowKey = 'empid_1';
-- expect rows: 1

SELECT COUNT(*) AS unfinished FROM tablesql.pending_writes WHERE tables = 'Moves';
-- expect rows: 1

DROP TABLE Moves;
-- expect updated: 0
