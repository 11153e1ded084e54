-- High-volume delete: keep data that is deleted together (here one day of logs) in its own
-- table and drop the table: one request, however many entities it holds.
-- Access path: none
CREATE TABLE Logs20240115 (PartitionKey VARCHAR, RowKey VARCHAR, Message VARCHAR);
-- expect updated: 0

INSERT INTO Logs20240115 (PartitionKey, RowKey, Message)
VALUES ('web', '0001', 'started'), ('web', '0002', 'ready'), ('db', '0001', 'connected');
-- expect updated: 3

DROP TABLE Logs20240115;
-- expect updated: 0
